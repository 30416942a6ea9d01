"""normal's learned corrections (``bot.ai.learned``) and the tools that fit them."""

from __future__ import annotations

from typing import Any

import pytest

from bot.ai import bidfit, learned, normal, playfit

WEAK = [0.02] * 7 + [0.2, 0.3, 0.35]
STRONG = [0.99, 0.98, 0.95, 0.9, 0.8, 0.7, 0.5, 0.3, 0.1, 0.05]


@pytest.mark.parametrize("probs", [WEAK, STRONG, [0.5] * 10])
def test_the_correction_moves_a_bid_by_at_most_two_and_stays_legal(probs: list[float]) -> None:
    for others in ([-1, -1, -1], [3, 2, -1], [4, 4, 3]):
        legal = [b for b in range(11) if b != 2]
        bid = normal.bid_from_probs(probs, others, legal, "tricks-plus-ten", 10, 4)
        assert bid in legal
        for b in legal:
            moved = learned.adjust_bid(probs, others, legal, b, 10, 4)
            assert moved in legal
            assert -2 <= moved - b <= 1


def test_the_correction_applies_only_where_it_was_learned() -> None:
    legal = list(range(8))
    cases = [
        (WEAK, 7, 4, "tricks-plus-ten"),
        (WEAK, 10, 5, "tricks-plus-ten"),
        (WEAK, 10, 4, "negative"),
    ]
    for probs, n, k, scoring in cases:
        probs = (probs * 2)[:n]
        others = [-1] * (k - 1)
        bid = normal.bid_from_probs(probs, others, legal, scoring, n, k)
        assert bid == normal.model_bid(probs, others, legal, scoring, n, k)


def test_a_weak_hand_bids_lower_with_the_correction() -> None:
    legal = list(range(11))
    corrected = normal.bid_from_probs(WEAK, [-1, -1, -1], legal, "tricks-plus-ten", 10, 4)
    assert corrected < normal.model_bid(WEAK, [-1, -1, -1], legal, "tricks-plus-ten", 10, 4)


def test_solve() -> None:
    x = bidfit._solve([[2.0, 1.0], [1.0, 3.0]], [3.0, 5.0])
    assert x == pytest.approx([0.8, 1.4])


def test_records_and_fit_on_a_few_deals() -> None:
    recs = list(bidfit.records(seed=5, first=0, deals=2))
    assert len(recs) == 8
    for r in recs:
        assert r["plain"] in r["points"] and r["bid"] in r["points"]
        assert all(abs(b - r["plain"]) <= 3 or b == r["bid"] for b in r["points"])
    weights = bidfit.fit(recs)
    assert set(weights) == set(bidfit.STEPS)
    assert all(len(w) == len(bidfit.features(recs[0])) for w in weights.values())


def test_play_decisions_and_fit_on_a_deal() -> None:
    found = list(playfit.decisions(seed=5, first=0, deals=1))
    assert found
    width = len(learned.PLAY_WEIGHTS[0])
    for xs, ys in found:
        assert len(xs) == len(ys) >= 2
        assert all(len(x) == playfit.GROUPS * width for x in xs)
    weights = playfit.fit(iter(found))
    assert len(weights) == playfit.GROUPS * width


def test_the_learned_card_is_used_only_where_it_was_learned(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from bot.ai import decide
    from bot.engine import Game, Phase, Settings

    calls = []
    learned = normal.learned_card

    def spy(*args: Any) -> int:
        calls.append(1)
        return learned(*args)

    monkeypatch.setattr(normal, "learned_card", spy)
    for rules, players, used in (
        ({**bidfit.RULES, "max_cards": 7}, 5, False),
        (bidfit.RULES, 4, True),
    ):
        calls.clear()
        g = Game.new(Settings.model_validate(rules), players, seed=3)
        while g.phase is not Phase.GAME_OVER and g.hand_number == 1:
            s = g.turn
            g.apply(s, decide(g, s, level="normal", seed=1))  # decide checks it is legal
        assert bool(calls) == used
