"""hard's race between candidates (samples go to the candidates still in doubt) and its
play-outs (every seat plays as ``normal`` from its own knowledge)."""

from __future__ import annotations

import random

from pytest import MonkeyPatch

from bot.ai import hard
from bot.ai.hard import _race
from bot.ai.params import DEFAULT_PARAMS
from bot.engine import Game
from tests.ai.helpers import mid_hand

PRUNE_FROM = DEFAULT_PARAMS.prune_from


def race(means: dict[str, float], spread: float, limit: int = 2000) -> tuple[str, int]:
    rng = random.Random(7)
    drawn = 0

    def draw() -> float:
        nonlocal drawn
        drawn += 1
        return rng.gauss(0.0, spread)  # shared by every candidate, as a sampled deal is

    def value(noise: float, c: str) -> float:
        return means[c] + noise + rng.gauss(0.0, spread / 4)

    best = _race(list(means), draw, value, lambda n: n < limit, lambda c: 0.0, DEFAULT_PARAMS)
    return best, drawn


def test_a_clear_winner_ends_the_race_early() -> None:
    best, drawn = race({"a": 1.0, "b": 3.0, "c": 2.0}, spread=2.0)
    assert best == "b"
    assert PRUNE_FROM <= drawn < 200


def test_close_candidates_get_the_whole_budget() -> None:
    best, drawn = race({"a": 1.0, "b": 1.0}, spread=2.0)
    assert drawn == 2000
    assert best in ("a", "b")


def test_candidates_equal_on_every_sample_are_one() -> None:
    drawn = 0

    def draw() -> int:
        nonlocal drawn
        drawn += 1
        return drawn % 3

    best = _race(
        [1, 2, 3], draw, lambda s, c: float(s), lambda n: n < 1000, lambda c: -c, DEFAULT_PARAMS
    )
    assert best == 1  # the tie goes to the highest order
    assert drawn == PRUNE_FROM


def test_every_seat_plays_its_play_outs_as_normal(monkeypatch: MonkeyPatch) -> None:
    """Every seat with a choice, hard's own too, chooses its cards in a play-out through the
    model of the others (``normal``'s play from its own knowledge), never from the sampled
    deal."""
    asked: list[int] = []
    choose = hard._Others.choose

    def spy(self: hard._Others, g: Game, s: int, legal: int) -> tuple[int, int]:
        asked.append(s)
        return choose(self, g, s, legal)

    monkeypatch.setattr(hard._Others, "choose", spy)
    for seed in range(8):
        g = mid_hand(seed, seed % 7)
        me = g.turn
        asked.clear()
        hard.rollout(g.copy(), me, "tricks-plus-ten")
        assert me in asked
        assert set(asked) - {me}
