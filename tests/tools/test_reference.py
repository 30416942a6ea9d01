"""The reference opponent: OpenSpiel's card and action ids, the deal dealt into OpenSpiel, and
the duplicate format (each deal twice, seats swapped). The tests marked so need pyspiel."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

from bot.engine import Bid, Card, Play
from tools import reference
from tools.arena import main

NO_PYSPIEL = "pyspiel (open-spiel, the bench extra) is not installed; CI installs only dev"


def test_card_ids_are_openspiels() -> None:
    # OpenSpiel's oh_hell: rank * 4 + suit, suits C D S H, 2 lowest
    assert reference.card_to_spiel(Card.parse("2C")) == 0
    assert reference.card_to_spiel(Card.parse("2D")) == 1
    assert reference.card_to_spiel(Card.parse("2S")) == 2
    assert reference.card_to_spiel(Card.parse("2H")) == 3
    assert reference.card_to_spiel(Card.parse("AH")) == 51
    assert reference.card_to_spiel(Card.parse("10C")) == 32
    ids = set()
    for i in range(52):
        c = reference.spiel_to_card(i)
        assert reference.card_to_spiel(c) == i
        ids.add(str(c))
    assert len(ids) == 52
    with pytest.raises(ValueError):
        reference.card_to_spiel(Card.parse("JOKER"))


def test_actions_map_both_ways() -> None:
    assert reference.action_to_spiel(Bid(0)) == 52
    assert reference.action_to_spiel(Bid(10)) == 62
    assert reference.action_from_spiel(55) == Bid(3)
    assert reference.action_from_spiel(51) == Play(Card.parse("AH"))
    for a in range(63):
        assert reference.action_to_spiel(reference.action_from_spiel(a)) == a


def test_the_deal_is_dealt_card_by_card_to_seats_in_turn() -> None:
    g = reference.new_game(seed=3, deal=5)
    acts = reference.spiel_deal_actions(g)
    assert acts[0] == 10 and acts[1] == g.dealer == 5 % 4
    cards = acts[2:42]
    turned = acts[42]
    assert len(set(cards)) == 40 and turned not in cards
    for s in range(4):
        mine = {
            reference.card_to_spiel(g.pack.cards[c]) for c in range(52) if g.hand_mask(s) >> c & 1
        }
        assert set(cards[s::4]) == mine


def test_duplicate_plays_each_deal_twice_with_the_seats_swapped() -> None:
    m = reference.Match("easy", "normal", seed=1, budget_s=1.0, iterations=None)
    results, times = reference.run(m, deals=3, progress=False)
    assert len(results) == 3 * 2 * 4
    for d in range(3):
        for s in range(4):
            sides = sorted(r.side for r in results if r.deal == d and r.seat == s)
            assert sides == ["candidate", "reference"]  # each seat's cards played by both
    assert len(times["candidate"]) == len(times["reference"]) == 3 * 2 * 2 * 11
    fig = reference.figures(m, results, times)
    assert fig["hands"] == 12 and fig["deals"] == 3
    cand = sum(r.points for r in results if r.side == "candidate") / 12
    ref = sum(r.points for r in results if r.side == "reference") / 12
    assert abs(fig["difference"] - (cand - ref)) < 1e-2
    assert fig["ci95"][0] <= fig["difference"] <= fig["ci95"][1]
    assert 0.0 <= fig["exact_rate"] <= 1.0


def test_arena_duplicate_against_a_level_ends_with_json(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["--candidate", "normal", "--baseline", "easy", "--duplicate", "--hands", "8"]
    assert main(args) == 0
    fig = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert fig["format"] == "duplicate" and fig["hands"] == 8 and fig["baseline"] == "easy"


@pytest.mark.skipif(importlib.util.find_spec("pyspiel") is None, reason=NO_PYSPIEL)
def test_against_openspiel_ismcts_both_engines_agree() -> None:
    # play_hand checks every action is legal in OpenSpiel and the two engines' points agree
    m = reference.Match("normal", "ismcts", seed=2, budget_s=1.0, iterations=None, simulations=50)
    results, times = reference.run(m, deals=2, progress=False)
    assert len(results) == 16
    assert len(times["reference"]) == 2 * 2 * 2 * 11
    fig = reference.figures(m, results, times)
    assert fig["baseline"] == "ismcts" and fig["simulations"] == 50


@pytest.mark.skipif(importlib.util.find_spec("pyspiel") is None, reason=NO_PYSPIEL)
def test_ismcts_as_the_candidate_plays_with_its_own_simulations(
    capsys: pytest.CaptureFixture[str],
) -> None:
    args = ["--candidate", "ismcts", "--candidate-simulations", "30", "--baseline", "ismcts"]
    assert main([*args, "--simulations", "20", "--hands", "4"]) == 0
    out = capsys.readouterr().out.strip().splitlines()
    fig = json.loads(out[-1])
    assert fig["candidate"] == "ismcts" and fig["candidate_simulations"] == 30
    assert fig["simulations"] == 20 and fig["decisions"] == fig["baseline_decisions"] == 44
    assert "ISMCTS-30 vs ISMCTS-20" in "\n".join(out)


def test_ismcts_as_the_candidate_needs_ismcts_as_the_opponent() -> None:
    with pytest.raises(SystemExit, match="only with --baseline ismcts"):
        main(["--candidate", "ismcts", "--baseline", "normal", "--hands", "4"])
    m = reference.Match("ismcts", "normal", seed=1, budget_s=1.0, iterations=None)
    with pytest.raises(ValueError, match="needs ismcts as the opponent"):
        reference.run(m, deals=1, progress=False)


def test_duplicate_saves_each_hand_as_its_deal_ends(tmp_path: Path) -> None:
    path = tmp_path / "hands.jsonl"
    m = reference.Match("easy", "random", seed=4, budget_s=1.0, iterations=None)
    results, _ = reference.run(m, deals=2, progress=False, first_deal=7, save=str(path))
    saved = [json.loads(line) for line in path.read_text().splitlines()]
    assert len(saved) == 16 and {h["deal"] for h in saved} == {7, 8}
    assert [h["points"] for h in saved] == [r.points for r in results]
