"""hard's model of the others' bids: it is normal's bidding, and samples follow the bids."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from bot.ai import decide
from bot.ai.infer import BidModel, PlayModel, consistent_sample
from bot.ai.knowledge import Table
from bot.ai.params import DEFAULT_PARAMS
from bot.ai.sanitise import Determiniser, public_game
from bot.engine import Game, Phase, Settings

RULES = {"preset": "first-to-101", "sequence": "fixed", "max_cards": 8}
UNFORGIVING = replace(DEFAULT_PARAMS, play_miss=0.0)
"""A play the model does not remake always drops the hand."""


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
        model = BidModel(Table.from_view(g.view(me), g.rules), DEFAULT_PARAMS)
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
        model = BidModel(table, DEFAULT_PARAMS)
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
    model = BidModel(Table.from_view(g.view(g.turn), g.rules), DEFAULT_PARAMS)
    assert model.observed == []


@pytest.mark.parametrize(
    "rules",
    [
        RULES,
        {"preset": "oh-hell", "max_cards": 7},
        {"preset": "nomination", "sequence": "fixed", "max_cards": 6, "bidding": "secret"},
        {"preset": "first-to-101", "sequence": "fixed", "max_cards": 6, "pack": "104"},
    ],
)
def test_the_play_model_remakes_every_play_normal_made_from_the_real_hands(
    rules: dict[str, object],
) -> None:
    """Watched from seat 0, every play the others made this hand is what ``normal`` plays with
    their real cards: a kept hand never needs luck (no miss is forgiven here)."""
    checked = 0
    for seed in range(30):
        players = 5 if rules.get("preset") == "oh-hell" else 4
        g = Game.new(Settings.model_validate(rules), players, seed=seed, first_dealer=0)
        first = g.hand_number
        while g.phase is not Phase.GAME_OVER and g.hand_number == first:
            s = (
                g.turn
                if g.phase is not Phase.BIDDING
                else next(q for q in g.to_act if g.bids[q] is None)
            )
            if g.phase is Phase.PLAYING and s == 0:
                model = PlayModel(Table.from_view(g.view(0), g.rules), UNFORGIVING)
                for q in model.plays:
                    assert model.kept(q, g.hand_mask(q), random.Random(0)), (seed, q)
                    checked += len(model.plays[q])
            g.apply(s, decide(g, s, "normal", seed=seed))
    assert checked > 100


def test_a_hand_that_would_have_played_otherwise_is_dropped() -> None:
    dropped = 0
    for seed in range(6):
        g = Game.new(Settings.model_validate(RULES), 4, seed=seed, first_dealer=0)
        while g.phase is Phase.BIDDING or len(g.view(0).tricks) < 4:
            s = g.turn
            g.apply(s, decide(g, s, "normal", seed=seed))
        table = Table.from_view(g.view(0), g.rules)
        model = PlayModel(table, UNFORGIVING)
        rng = random.Random(seed)
        det = Determiniser(public_game(g, table, rng), table)
        for _ in range(20):
            d = det.sample(rng)
            dropped += sum(not model.kept(q, d.hand_mask(q), rng) for q in model.plays)
    assert dropped > 60  # of 360 random hands, most don't remake four tricks of play
