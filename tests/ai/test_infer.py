"""hard's model of the others' bids: it is normal's bidding, and samples follow the bids."""

from __future__ import annotations

import random

import pytest

from bot.ai import decide
from bot.ai.infer import BidModel, consistent_sample
from bot.ai.knowledge import Table
from bot.ai.sanitise import Determiniser, public_game
from bot.engine import Game, Phase, Settings

RULES = {"preset": "first-to-101", "sequence": "fixed", "max_cards": 8}


def bid_by_normal(seed: int, settings: dict[str, object] = RULES) -> Game:
    g = Game.new(Settings.model_validate(settings), 4, seed=seed, first_dealer=0)
    while g.phase is Phase.BIDDING:
        s = g.turn
        g.apply(s, decide(g, s, "normal", seed=seed))
    return g


@pytest.mark.parametrize("bidding", ["hook", "open", "secret"])
def test_the_model_makes_normals_bids_from_the_real_hands(bidding: str) -> None:
    checked = 0
    for seed in range(12):
        g = bid_by_normal(seed, {**RULES, "bidding": bidding})
        me = g.turn
        model = BidModel(Table.from_view(g.view(me), g.rules))
        assert {q for q, _ in model.observed} == set(g.seats) - {me}
        for q, seen in model.observed:
            assert model.bid(q, model.probs(q, g.hand_mask(q)), seen) == g.bids[q]
            checked += 1
    assert checked == 36


def test_the_real_deal_weighs_one_and_consistent_samples_explain_the_bids_better() -> None:
    plain = inferred = 0.0
    for seed in range(6):
        g = bid_by_normal(seed)
        me = g.turn
        table = Table.from_view(g.view(me), g.rules)
        model = BidModel(table)
        assert model.weight(g) == 1.0
        rng = random.Random(seed)
        det = Determiniser(public_game(g, table, rng), table)
        for _ in range(40):
            plain += model.weight(det.sample(rng))
            s = consistent_sample(det, model, rng)
            assert s.hand_mask(me) == g.hand_mask(me)
            inferred += model.weight(s)
    assert inferred > 3 * plain


def test_no_bids_seen_means_plain_samples() -> None:
    g = Game.new(Settings.model_validate(RULES), 4, seed=3, first_dealer=0)
    model = BidModel(Table.from_view(g.view(g.turn), g.rules))
    assert model.observed == []
