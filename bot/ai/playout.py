"""A cheap play-out policy and a quick model of the others' bids, for ``hard``'s tree search
(``bot.ai.search``).

Greedy: short of its bid a seat plays its highest card that takes the trick so far (the
cheapest one when it plays last), else its lowest; otherwise its highest card that does not; a
leader its highest or lowest card.
"""

from __future__ import annotations

import functools
import math
import random
from collections.abc import Callable

from bot.engine import Game

from .cards import Suits, bits
from .knowledge import Table, sample_hands
from .params import HardParams
from .sanitise import Determiniser


def greedy(
    g: Game,
    r: int,
    bids: list[int],
    suits: Suits,
    seats: tuple[int, ...],
    nxt: dict[int, int],
    rand: Callable[[], float],
    eps: list[float],
) -> list[int]:
    """Play the hand in ``g`` (``r`` cards still in the hands) out with the greedy rule, a
    random card at chance ``eps[seat]``: the tricks each seat took in all. No duplicated cards
    and no joker in no trumps. Card sets are bit masks: within a suit a higher id ranks
    higher."""
    k = len(seats)
    beaters = suits.beaters
    rank = suits.rank
    masks = suits.masks
    eff = suits.eff
    trump = suits.trump
    tmask = masks[trump] if trump >= 0 else 0
    sides = [masks[x] for x in range(4) if x != trump]

    def top(m: int) -> int:
        """The strongest card of ``m``: its highest trump, else its highest-ranked card."""
        t = m & tmask
        if t:
            return t.bit_length() - 1
        c, cr = -1, -1
        for sm in sides:
            x = m & sm
            if x:
                x = x.bit_length() - 1
                if rank[x] > cr:
                    c, cr = x, rank[x]
        return c

    def bottom(m: int) -> int:
        """The weakest card of ``m``: its lowest-ranked side card, else its lowest trump."""
        c, cr = -1, 1 << 30
        for sm in sides:
            x = m & sm
            if x:
                x = (x & -x).bit_length() - 1
                if rank[x] < cr:
                    c, cr = x, rank[x]
        if c < 0:
            t = m & tmask
            c = (t & -t).bit_length() - 1
        return c

    hands = [g.hand_mask(q) if q in seats else 0 for q in range(g.players)]
    won = list(g.tricks_won)
    trick = g.trick_ids
    pos = len(trick)
    best = bseat = -1
    led = 0
    if pos:
        i = suits.winner_index(trick)
        best = trick[i]
        bseat = g.leader
        for _ in range(i):
            bseat = nxt[bseat]
        led = masks[eff[trick[0]]]
    s = g.turn
    while r:
        h = hands[s]
        m = h & led or h if pos else h
        if not m & (m - 1):
            c = m.bit_length() - 1
        elif rand() < eps[s]:
            j = int(rand() * m.bit_count())
            while j:
                m &= m - 1
                j -= 1
            c = (m & -m).bit_length() - 1
        elif pos:
            win = m & beaters[best]
            if won[s] < bids[s]:
                if not win:
                    c = bottom(m)
                elif pos == k - 1:  # last to play: the cheapest card that takes it
                    c = bottom(win)
                else:
                    c = top(win)
            else:
                c = top(m & ~win or m)
        else:
            c = top(m) if won[s] < bids[s] else bottom(m)
        hands[s] ^= 1 << c
        if not pos:
            led = masks[eff[c]]
            best, bseat = c, s
        elif beaters[best] >> c & 1:
            best, bseat = c, s
        pos += 1
        r -= 1
        if pos == k:
            won[bseat] += 1
            pos = 0
            s = bseat
        else:
            s = nxt[s]
    return won


TRUMP_VALUE = (0.95, 0.85, 0.7, 0.55, 0.45, 0.4)
SIDE_VALUE = (0.8, 0.45, 0.2, 0.08)


class QuickBids:
    """A cheap model of the others' bids: a fixed chance of a trick per card by its place from
    the top of its suit (trumps worth more), summed over the hand a seat was dealt."""

    def __init__(self, table: Table, params: HardParams) -> None:
        self._spread = 2 * params.quick_sigma**2
        self._tries = params.quick_tries
        pack = table.pack
        suits = table.suits
        top = [
            max((pack.rank_of[c] for c in bits(pack.suit_masks[x])), default=0) for x in range(4)
        ]
        value = []
        for c in range(pack.size):
            x = pack.suit_of[c]
            if x == 4:
                value.append(1.0)
                continue
            d = top[x] - pack.rank_of[c]
            if x == suits.trump:
                value.append(TRUMP_VALUE[d] if d < len(TRUMP_VALUE) else 0.3)
            else:
                value.append(SIDE_VALUE[d] if d < len(SIDE_VALUE) else 0.02)
        self.value = value
        self._tables = _byte_tables(tuple(value))
        usable = not table.blind and table.rules.bidding != "knock" and table.cards_each > 1
        self.checks = [
            (q, table.bids[q], self.estimate(table.played_by[q]))
            for q in table.seats
            if usable and q != table.seat and table.bids[q] >= 0
        ]
        """Each other seat that has bid: its bid and the value of the cards it has played."""
        self._det: Determiniser | None = None
        self._cards: list[int] = []
        self._places: list[tuple[int, int]] = []
        self._forbid: list[tuple[int, int]] = []

    def estimate(self, mask: int) -> float:
        """The quick estimate of the tricks the cards ``mask`` take: their values summed."""
        total = 0.0
        shift = 0
        for table in self._tables:
            total += table[mask >> shift & 255]
            shift += 8
        return total

    def weight(self, hands: list[int]) -> float:
        """How well the deal ``hands`` explains the bids seen (1: every estimate on its bid)."""
        est = self.estimate
        spread = self._spread
        w = 1.0
        for q, bid, played in self.checks:
            w *= math.exp(-((est(hands[q]) + played - bid) ** 2) / spread)
        return w

    def _deal(self, det: Determiniser, rng: random.Random) -> list[int]:
        """A uniform deal of ``det``'s unseen cards: a random order of them cut into the hands,
        tried again up to twice where it gives a seat a suit it showed out of, then
        ``knowledge.sample_hands`` (slower, but always right)."""
        t = det.table
        if self._det is not det:
            self._prepare(det)
        rand = rng.random
        cards = self._cards
        for _ in range(3):
            keys = [rand() for _ in cards]
            order = [cards[i] for i in sorted(range(len(cards)), key=keys.__getitem__)]
            hands = list(det.known)
            i = 0
            for s, u in self._places:
                h = hands[s]
                for c in order[i : i + u]:
                    h |= 1 << c
                hands[s] = h
                i += u
            if not any(hands[s] & f for s, f in self._forbid):
                return hands
        return sample_hands(rng, det.pool, det.known, det.unknown, t.voids, t.suits.eff, t.seats)

    def _prepare(self, det: Determiniser) -> None:
        t = det.table
        eff = t.suits.eff
        self._det = det
        self._cards = bits(det.pool)
        self._places = [(s, det.unknown[s]) for s in t.seats if det.unknown[s]]
        self._forbid = []
        for s, _ in self._places:
            v = t.voids[s]
            f = 0
            for c in self._cards if v else ():
                if eff[c] < 4 and v >> eff[c] & 1:
                    f |= 1 << c
            if f:
                self._forbid.append((s, f))

    def sample(self, det: Determiniser, rng: random.Random) -> Game:
        """A fresh deal kept with chance ``weight`` (the likeliest of ``quick_tries``)."""
        best: list[int] = []
        best_w = -1.0
        for _ in range(self._tries):
            hands = self._deal(det, rng)
            w = self.weight(hands)
            if rng.random() < w:
                return det.public.with_hands(hands)
            if w > best_w:
                best, best_w = hands, w
        return det.public.with_hands(best)


@functools.lru_cache(maxsize=64)
def _byte_tables(value: tuple[float, ...]) -> list[list[float]]:
    """For each byte of a card mask, the summed ``value`` of every set of its 8 cards."""
    tables = []
    for base in range(0, len(value), 8):
        table = [0.0] * 256
        for b in range(1, 256):
            low = (b & -b).bit_length() - 1
            c = base + low
            table[b] = table[b & (b - 1)] + (value[c] if c < len(value) else 0.0)
        tables.append(table)
    return tables
