"""Hand evaluation and the scoring-aware choices behind the bids."""

from __future__ import annotations

import random

import pytest

from bot.ai.cards import NO_TRUMPS, suits_for
from bot.ai.common import wants_trick
from bot.ai.evaluate import bid_values, card_probs, trick_distribution
from bot.ai.knowledge import NoDeal, sample_hands
from bot.engine import PACKS, Card


def ids(*cards: str) -> int:
    pack = PACKS["52"]
    m = 0
    for c in cards:
        m |= 1 << pack.ids(Card.parse(c))[0]
    return m


def test_distribution_sums_to_one_and_has_the_right_mean() -> None:
    probs = [0.9, 0.5, 0.2, 0.0]
    dist = trick_distribution(probs)
    assert sum(dist) == pytest.approx(1.0)
    assert sum(t * q for t, q in enumerate(dist)) == pytest.approx(sum(probs))


@pytest.mark.parametrize(
    "scoring", ["tricks-plus-ten", "exact-tens", "negative", "squares", "oh-shit", "basic"]
)
def test_a_sure_count_is_the_best_bid_under_every_scoring(scoring: str) -> None:
    dist = [0.0, 0.0, 1.0, 0.0, 0.0]  # exactly two tricks
    values = bid_values(dist, [0, 1, 2, 3, 4], scoring, 4, 4)
    assert max(values, key=values.__getitem__) == 2


def test_squares_pays_for_the_risk_of_a_big_bid() -> None:
    # 45% five tricks, 55% four: squares (10 + b^2) makes bidding 5 worth it, tricks-plus-ten
    # (t + 10) does not
    dist = [0.0, 0.0, 0.0, 0.0, 0.55, 0.45]
    sq = bid_values(dist, [4, 5], "squares", 5, 4, control=0.0)
    assert sq[5] > sq[4]
    tp = bid_values(dist, [4, 5], "tricks-plus-ten", 5, 4, control=0.0)
    assert tp[4] > tp[5]
    neg = bid_values(dist, [0, 5], "negative", 5, 4)
    assert neg[5] > neg[0]  # negative: missing a bid of 0 by five tricks costs 15


def test_wants_a_trick_only_when_the_scoring_pays_for_it() -> None:
    assert wants_trick("tricks-plus-ten", 2, 1, 5, 10, 4)  # short of the bid
    assert not wants_trick("tricks-plus-ten", 2, 2, 5, 10, 4)  # made: another costs 10
    assert wants_trick("tricks-plus-ten", 2, 3, 5, 10, 4)  # bust already: a trick is a point
    assert not wants_trick("exact-tens", 2, 3, 5, 10, 4)  # bust: more off costs more
    assert not wants_trick("negative", 2, 3, 5, 10, 4)
    assert wants_trick("negative", 2, 1, 5, 10, 4)


def test_top_trumps_are_near_certain_and_small_side_cards_worthless() -> None:
    pack = PACKS["52"]
    suits = suits_for("52", 3)  # spades trump
    mine = ids("AS", "KS", "2H", "3D")
    out = pack.full_mask & ~mine
    probs = dict(
        zip(
            ["3D", "2H", "KS", "AS"],  # id order: clubs, diamonds, hearts, spades
            card_probs(mine, suits, pack, out, 0.7, 4, 10, False),
            strict=True,
        )
    )
    assert probs["AS"] > 0.95
    assert probs["KS"] > 0.5
    assert probs["2H"] < 0.1 and probs["3D"] < 0.1
    nt = card_probs(ids("AH"), suits_for("52", NO_TRUMPS), pack, out, 0.7, 4, 10, True)
    assert nt[0] > 0.9


def test_samples_keep_known_cards_sizes_and_voids() -> None:
    pack = PACKS["52"]
    suits = suits_for("52", 0)
    rng = random.Random(3)
    known = [ids("AS", "KS"), 0, 0, 0]
    pool = pack.full_mask & ~known[0]
    voids = [0, 1 << 2, (1 << 2) | (1 << 3), 0]  # seat 1 lacks hearts; seat 2 hearts, spades
    for _ in range(200):
        hands = sample_hands(rng, pool, known, [0, 2, 2, 2], voids, suits.eff, (0, 1, 2, 3))
        assert hands[0] == known[0]
        assert [h.bit_count() for h in hands] == [2, 2, 2, 2]
        assert not hands[1] & pack.suit_masks[2]
        assert not hands[2] & (pack.suit_masks[2] | pack.suit_masks[3])
        assert not hands[1] & hands[2] and not hands[2] & hands[3] and not hands[1] & hands[3]


def test_samples_keep_voids_when_only_a_few_cards_fit() -> None:
    """A seat that may hold only hearts needs the pool's three hearts, while most of the pool
    stays undealt: plain random dealing dead-ends most of the time here."""
    pack = PACKS["52"]
    suits = suits_for("52", 0)
    hearts = pack.suit_masks[2]
    pool = ids("2H", "9H", "QH") | (pack.full_mask & ~hearts & ~pack.suit_masks[3])
    pool &= ~ids("AC", "AD", "KC", "KD", "QC", "QD", "JC", "JD", "10C", "10D")  # 19 cards
    voids = [0, 0b1011, 0b1100, 0b0001]  # seat 1: hearts only; seat 2: no hearts or spades
    for seed in range(300):
        hands = sample_hands(
            random.Random(seed), pool, [0, 0, 0, 0], [0, 3, 3, 3], voids, suits.eff, (0, 1, 2, 3)
        )
        assert hands[1] == ids("2H", "9H", "QH")
        for s in (2, 3):
            assert hands[s].bit_count() == 3
            for e in range(4):
                if voids[s] >> e & 1:
                    assert not hands[s] & pack.suit_masks[e], (seed, s, e)
        assert not hands[2] & hands[3]


def test_samples_reach_every_deal_that_fits() -> None:
    pack = PACKS["52"]
    suits = suits_for("52", 0)
    pool = ids("2C", "3C", "2H", "3H")
    voids = [0, 1 << 2, 0, 0]  # seat 1 lacks hearts
    seen = set()
    rng = random.Random(5)
    for _ in range(400):
        hands = sample_hands(rng, pool, [0, 0, 0, 0], [0, 1, 1, 0], voids, suits.eff, (0, 1, 2))
        seen.add((hands[1], hands[2]))
    # seat 1 takes a club; seat 2 any other card: 2 x 3 deals
    assert len(seen) == 6
    assert all(h1 & pack.suit_masks[0] for h1, _ in seen)


def test_no_deal_fits_is_an_error_not_a_broken_void() -> None:
    suits = suits_for("52", 0)
    pool = ids("2H", "3H", "4C")
    with pytest.raises(NoDeal):
        sample_hands(random.Random(1), pool, [0, 0], [0, 2], [0, 1 << 2], suits.eff, (0, 1))
