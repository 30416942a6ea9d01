"""Shared helpers: play random games, build hand-made deals as records."""

from __future__ import annotations

import random
from typing import Any

from bot.engine import Game, Phase
from bot.engine.records import RECORD_FORMAT, game_from_record


def play_randomly(game: Game, rng: random.Random, *, max_actions: int = 100_000) -> int:
    """Play ``game`` to its end with uniformly random legal actions; returns the actions."""
    n = 0
    while game.phase is not Phase.GAME_OVER:
        seat = rng.choice(game.to_act)
        actions = game.legal_actions(seat)
        assert actions, f"seat {seat} is to act but has no legal action"
        game.apply(seat, rng.choice(actions))
        n += 1
        assert n < max_actions, "the game doesn't end"
    return n


def record(
    rules: dict[str, Any],
    cards: list[list[str]],
    turned: str | None,
    actions: list[dict[str, Any]] | None = None,
    dealer: int = 0,
    names: list[str] | None = None,
    more_hands: list[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    players = names or ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus"][: len(cards)]
    hand = {"dealer": dealer, "cards": cards, "turned": turned, "actions": actions or []}
    return {
        "format": RECORD_FORMAT,
        "rules": rules,
        "players": players,
        "hands": [hand, *(more_hands or [])],
    }


def deal(
    rules: dict[str, Any],
    cards: list[list[str]],
    turned: str | None,
    actions: list[dict[str, Any]] | None = None,
    dealer: int = 0,
) -> Game:
    """A game whose first hand is the given deal, after ``actions``."""
    return game_from_record(record(rules, cards, turned, actions, dealer))


def bids(*pairs: tuple[int, int]) -> list[dict[str, Any]]:
    return [{"seat": s, "bid": b} for s, b in pairs]


def plays(*pairs: tuple[int, str]) -> list[dict[str, Any]]:
    return [{"seat": s, "play": c} for s, c in pairs]
