"""normal's learned corrections (``bot.ai.learned``): where they apply and what they do."""

from __future__ import annotations

from typing import Any

import pytest

from bot.ai import learned, normal

WEAK = [0.02] * 7 + [0.2, 0.3, 0.35]
STRONG = [0.99, 0.98, 0.95, 0.9, 0.8, 0.7, 0.5, 0.3, 0.1, 0.05]
LEARNED_AT: dict[str, Any] = {
    "preset": "first-to-101",
    "sequence": "fixed",
    "max_cards": 10,
    "scoring": "tricks-plus-ten",
}
"""The table of ``learned.LEARNED_FOR``: 4 players, 10 cards each, a point a trick + 10."""


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
        ({**LEARNED_AT, "max_cards": 7}, 5, False),
        (LEARNED_AT, 4, True),
    ):
        calls.clear()
        g = Game.new(Settings.model_validate(rules), players, seed=3)
        while g.phase is not Phase.GAME_OVER and g.hand_number == 1:
            s = g.turn
            g.apply(s, decide(g, s, level="normal", seed=1))  # decide checks it is legal
        assert bool(calls) == used
