"""hard's race between candidates: samples go to the candidates still in doubt."""

from __future__ import annotations

import random

from bot.ai.hard import PRUNE_FROM, _race


def race(means: dict[str, float], spread: float, limit: int = 2000) -> tuple[str, int]:
    rng = random.Random(7)
    drawn = 0

    def draw() -> float:
        nonlocal drawn
        drawn += 1
        return rng.gauss(0.0, spread)  # shared by every candidate, as a sampled deal is

    def value(noise: float, c: str) -> float:
        return means[c] + noise + rng.gauss(0.0, spread / 4)

    best = _race(list(means), draw, value, lambda n: n < limit, lambda c: 0.0)
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

    best = _race([1, 2, 3], draw, lambda s, c: float(s), lambda n: n < 1000, lambda c: -c)
    assert best == 1  # the tie goes to the highest order
    assert drawn == PRUNE_FROM
