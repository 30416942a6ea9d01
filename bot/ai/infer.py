"""What the others' bids say about their cards: ``hard``'s model of how another player bids.

Each seat is modelled as bidding the way ``normal`` does (``normal.bid_from_probs``) from the
cards it was dealt and the bids it had seen. A sampled deal in which a seat's modelled bid
differs from the bid it made is less likely; ``BidModel.weight`` says how much, and
``hard`` keeps a sample with that chance (rejection sampling), so its samples follow what the
bids tell about the hidden hands.
"""

from __future__ import annotations

import random

from bot.engine import Game

from . import normal
from .cards import NO_TRUMPS, TRUMP_PENDING, suits_for
from .evaluate import card_probs
from .knowledge import NoDeal, Table, sample_hands
from .sanitise import Determiniser

MISS_ONE = 0.2
"""A sample's weight per seat whose modelled bid is one away from its real bid."""
MISS_MORE = 0.02
"""... and per seat two or more away."""
TRIES = 40
"""Rounds of dealing again before a sample is taken as it is."""


class BidModel:
    """The bids of one hand as a model of the hidden hands that made them."""

    def __init__(self, table: Table) -> None:
        self.table = table
        rules = table.rules
        pack = table.pack
        view = table.view
        self.n = table.cards_each
        self.k = len(table.seats)
        self.order = table.order
        self.scoring = rules.scoring
        self.hook = rules.bidding == "hook"
        self.secret = rules.bidding in ("secret", "knock")
        first = view.dealer if rules.first_lead == "dealer" else table.order[0]
        self.first = first
        self.pending = table.trump == TRUMP_PENDING or (
            rules.trump == "bidder" and view.trump_decided
        )
        trump = table.trump
        self.trump_suits = [suits_for(pack.name, s) for s in range(4)]
        self.suits = suits_for(pack.name, trump if trump >= 0 else NO_TRUMPS)
        base = pack.full_mask
        if view.turned is not None and self.k * self.n != pack.size:
            for i in pack.ids(view.turned):
                base &= ~(1 << i)
                break
        self.base = base
        self.usable = not table.blind and rules.bidding != "knock" and self.n > 1
        # seats whose real bid this seat has seen, with the bids each of them had seen
        self.observed: list[tuple[int, list[int]]] = []
        if self.usable:
            bids = table.bids
            for i, q in enumerate(self.order):
                if q == table.seat or bids[q] < 0:
                    continue
                seen = [-1] * len(bids)
                if not self.secret:
                    for p in self.order[:i]:
                        seen[p] = bids[p]
                self.observed.append((q, seen))

    def probs(self, seat: int, hand: int) -> list[float]:
        """``seat``'s chances of a trick per card, as it saw them when it bid."""
        out = self.base & ~hand
        pool = out.bit_count()
        share = (self.k - 1) * self.n / pool if pool else 0.0
        pack = self.table.pack
        lead = seat == self.first
        if self.pending:
            best: list[float] = []
            for suits in self.trump_suits:
                p = card_probs(hand, suits, pack, out, share, self.k, self.n, lead)
                if sum(p) > sum(best):
                    best = p
            return [p * 0.9 for p in best]
        return card_probs(hand, self.suits, pack, out, share, self.k, self.n, lead)

    def bid(self, seat: int, probs: list[float], seen: list[int]) -> int:
        """The bid ``seat`` makes with these chances, having seen the bids ``seen``."""
        n = self.n
        legal = list(range(n + 1))
        if self.hook and seat == self.order[-1]:
            rest = n - sum(seen[s] for s in self.order[:-1])
            if 0 <= rest <= n:
                legal.remove(rest)
        others = [b for s, b in enumerate(seen) if s != seat and s in self.table.seats]
        return normal.bid_from_probs(probs, others, legal, self.scoring, n, self.k)

    def weight(self, g: Game) -> float:
        """How well the sampled deal ``g`` explains the bids seen (1 = every seat's modelled
        bid is its real bid)."""
        w = 1.0
        played_by = self.table.played_by
        bids = self.table.bids
        for q, seen in self.observed:
            hand = g.hand_mask(q) | played_by[q]
            d = abs(self.bid(q, self.probs(q, hand), seen) - bids[q])
            if d:
                w *= MISS_ONE if d == 1 else MISS_MORE
        return w


def consistent_sample(det: Determiniser, model: BidModel, rng: random.Random) -> Game:
    """A deal of the unseen cards that follows the bids: each seat whose modelled bid misses
    its real one keeps its sampled hand only with the weight's chance; the others' hands are
    dealt again (from what the kept hands leave) until all are kept or ``TRIES`` run out."""
    t = det.table
    if not model.observed:
        return det.sample(rng)
    hands = sample_hands(rng, det.pool, det.known, det.unknown, t.voids, t.suits.eff, t.seats)
    bids = t.bids
    played_by = t.played_by
    for _ in range(TRIES):
        redeal: list[int] = []
        for q, seen in model.observed:
            d = abs(model.bid(q, model.probs(q, hands[q] | played_by[q]), seen) - bids[q])
            if d and rng.random() >= (MISS_ONE if d == 1 else MISS_MORE):
                redeal.append(q)
        if not redeal:
            break
        known = list(hands)
        unknown = [0] * len(hands)
        pool = det.pool
        for q in t.seats:
            if q in redeal:
                known[q] = det.known[q]
                unknown[q] = det.unknown[q]
            else:
                pool &= ~hands[q]
        try:
            hands = sample_hands(rng, pool, known, unknown, t.voids, t.suits.eff, t.seats)
        except NoDeal:  # the kept hands took cards a void-bound seat needs: start again
            hands = sample_hands(
                rng, det.pool, det.known, det.unknown, t.voids, t.suits.eff, t.seats
            )
    return det.public.with_hands(hands)
