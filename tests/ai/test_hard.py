"""hard's race between candidates: samples go to the candidates still in doubt."""

from __future__ import annotations

import random

from pytest import MonkeyPatch

from bot.ai import hard
from bot.ai.hard import PRUNE_FROM, _race
from bot.engine import Game
from tests.ai.helpers import mid_hand


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


def test_sighted_seats_play_the_quick_policy_in_play_outs(monkeypatch: MonkeyPatch) -> None:
    # the mix of models: a seat in ``sighted`` plays with the quick policy (seeing the deal)
    monkeypatch.setattr(hard, "OWN_MODEL", False)
    all_quick: list[float] = []
    all_sighted: list[float] = []
    modelled: list[float] = []
    for seed in range(12):
        g = mid_hand(seed, seed % 7)
        me = g.turn
        others = sum(1 << q for q in g.seats if q != me)
        all_sighted.append(hard.rollout(g.copy(), me, "tricks-plus-ten", None, others))
        modelled.append(hard.rollout(g.copy(), me, "tricks-plus-ten", None, 0))
        monkeypatch.setattr(hard, "MODEL_OTHERS", False)
        all_quick.append(hard.rollout(g.copy(), me, "tricks-plus-ten"))
        monkeypatch.setattr(hard, "MODEL_OTHERS", True)
    assert all_sighted == all_quick
    assert modelled != all_quick  # the two models of the others differ somewhere


def test_own_model_plays_hards_own_seat_as_normal_in_play_outs(monkeypatch: MonkeyPatch) -> None:
    # with OWN_MODEL hard's own seat chooses its cards through the model of the others
    # (normal's play from its own knowledge), not with the quick policy that sees the deal
    asked: list[int] = []
    choose = hard._Others.choose

    def spy(self: hard._Others, g: Game, s: int, legal: int) -> tuple[int, int]:
        asked.append(s)
        return choose(self, g, s, legal)

    monkeypatch.setattr(hard._Others, "choose", spy)
    for own in (False, True):
        monkeypatch.setattr(hard, "OWN_MODEL", own)
        for seed in range(8):
            g = mid_hand(seed, seed % 7)
            me = g.turn
            asked.clear()
            hard.rollout(g.copy(), me, "tricks-plus-ten")
            assert (me in asked) == own
            assert set(asked) - {me}  # the others are always modelled
