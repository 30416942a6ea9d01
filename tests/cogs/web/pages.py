"""A finished game's record with hostile names, and what its replay page carries, for the
replay's tests."""

from __future__ import annotations

import json
import re
from typing import Any

from bot.engine.records import record_from_game
from tests.finished_games import played_out

HOSTILE = ("<script>alert(1)</script>", '"><img src=x onerror=alert(1)>')
NAMES = ["Ann", *HOSTILE, "Computer (hard)"]
DATA = re.compile(r'<script type="application/json" id="game">(.*?)</script>', re.S)


def hostile_record(seed: int = 5, max_cards: int = 10) -> dict[str, Any]:
    """A whole classic game of four (up to ten cards a hand), two players named to break out."""
    return record_from_game(played_out(list(NAMES), seed, max_cards=max_cards))


def embedded(page: str) -> dict[str, Any]:
    """The game data the page's script reads."""
    found = DATA.search(page)
    assert found is not None
    data: dict[str, Any] = json.loads(found.group(1))
    return data


def plays(record: dict[str, Any]) -> list[list[tuple[int, str]]]:
    """Every hand's cards as played, with the seat that played each, from the record."""
    return [
        [(a["seat"], a["play"]) for a in hand["actions"] if "play" in a] for hand in record["hands"]
    ]


def laid(data: dict[str, Any]) -> list[list[tuple[int, str]]]:
    """Every hand's cards as the page's tricks lay them, with the seat that played each."""
    return [
        [
            (seat, card)
            for trick in hand["tricks"]
            for seat, card in zip(trick["seats"], trick["cards"], strict=True)
        ]
        for hand in data["hands"]
    ]


SHOWN_TRICK = """() => {
  const trick = document.getElementById("trick");
  return {
    hand: +trick.dataset.hand,
    trick: +trick.dataset.trick,
    cards: [...trick.querySelectorAll(".card")].map(c => c.dataset.card),
    names: [...trick.querySelectorAll(".who")].map(w => w.textContent),
    winner: document.getElementById("winner").textContent,
    hash: location.hash,
  };
}"""
"""What a replay page shows of its trick (a script for the browser to evaluate)."""
