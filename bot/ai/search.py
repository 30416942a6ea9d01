"""Information-set Monte Carlo tree search (ISMCTS) for ``hard``'s bids and card play.

Single-observer ISMCTS (Cowling, Powley and Whitehouse, 2012): one tree over this seat's
information sets, its nodes keyed by the cards played since the decision (public, so a path
through the tree is what this seat would see, never a sampled hand). Each iteration deals the
unseen cards afresh, weighed by a quick model of the others' bids (``playout.QuickBids``), walks
the tree choosing among the cards legal in that deal by UCB with availability counts (every
seat maximising its own score; the others' nodes too are keyed by what is public, so they do
not see the deal either), adds one node, plays the rest of the hand out (the greedy rule of
``bot.ai.playout``; at random with a duplicated pack, whose tricks only the engine settles) and
backs every seat's points up its own edges. The decision is the root choice played most often.
Bids: a root over the candidate bids, the later bidders bidding their quick estimate in each
deal, then the same tree.

A fresh deal each iteration, not a pool of inferred ones: under a deep tree a small pool lets
the first plays of a path tell which deal it is, and the tree plans for that deal.

Only for hands without the joker's no-trump rules, not blind; bids only with the trump known
and not knock bidding (``usable``, ``bids_usable``); ``hard`` does the rest with its sampling
race (``bot.ai.hard``).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from bot.engine import Game, Phase, score

from .cards import TRUMP_PENDING, bits, suits_for
from .common import nearest_bid, successors
from .evaluate import utility
from .knowledge import Table
from .params import HardParams
from .playout import QuickBids, greedy
from .position import Position
from .sanitise import Determiniser

Edge = list[Any]  # [visits, total reward of the seat that moved, availability, child node]
Start = Callable[[], tuple["_Deal", dict[int, Edge], list[Any]]]
"""Where an iteration starts: a determinisation, the tree node it starts at and the edges
taken to reach it (with the seat that took each)."""


@dataclass(frozen=True, slots=True)
class Searched:
    """A search's decision: the choice (a card id, a face with duplicated cards, or a bid) and
    the iterations it took."""

    choice: int
    iterations: int


def usable(table: Table) -> bool:
    """Can the search play this position? Card play, no joker in no trumps, not blind."""
    pack = table.pack
    return table.playing and not table.blind and not (pack.joker >= 0 and table.suits.trump < 0)


@dataclass(slots=True)
class _Deal:
    """A determinisation to search from: the game, each seat's utility for every trick count
    (``utils[seat][tricks]``, from the bids in it) and the bids."""

    game: Game
    utils: list[list[float]]
    bids: list[int]


class _Search:
    """One decision's tree and the state every iteration reads."""

    def __init__(
        self, det: Determiniser, table: Table, rng: random.Random, params: HardParams
    ) -> None:
        g = det.public
        self.c_ucb = params.ucb_c
        self.epsilon = params.epsilon
        self.others_epsilon = params.others_epsilon
        self.rng = rng
        self.me = table.seat
        self.seats = g.seats
        self.k = len(g.seats)
        self.dups = g.pack.has_duplicates
        self.face = g.pack.face_of
        self.n = g.cards_each
        self.players = g.players
        self.scoring = table.rules.scoring
        self.number = g.hand_number
        self.nxt = successors(g.seats)
        trump = g.trump_id
        self.suits = suits_for(g.pack.name, trump if trump >= 0 else -1)
        self.root: dict[int, Edge] = {}
        self.iterations = 0
        self._utils: dict[tuple[int, ...], list[list[float]]] = {}

    def deal(self, g: Game) -> _Deal:
        """``g`` (its bids all made) as a determinisation to search from."""
        n, k, scoring = self.n, self.k, self.scoring
        bids = [b or 0 for b in g.bids]
        key = tuple(bids)
        utils = self._utils.get(key)
        if utils is None:
            utils = [[0.0] * (n + 1) for _ in range(self.players)]
            for s in self.seats:
                b = bids[s]
                utils[s] = [
                    float(utility(scoring, score(scoring, b, w, n, k))) for w in range(n + 1)
                ]
            self._utils[key] = utils
        return _Deal(g, utils, bids)

    def run(self, count: int, start: Start) -> None:
        """``count`` iterations, each from ``start()`` (its determinisation copied here)."""
        rng = self.rng
        rand = rng.random
        sqrt = math.sqrt
        log = math.log
        c_ucb = self.c_ucb
        k = self.k
        dups = self.dups
        face = self.face
        number = self.number
        scoring = self.scoring
        held: dict[int, int] = {}
        suits, seats, nxt = self.suits, self.seats, self.nxt
        me = self.me
        eps = [self.epsilon if q == me else self.others_epsilon for q in range(self.players)]
        for _ in range(count):
            d, node, path = start()
            g = d.game.copy()
            r = sum(g.hand_mask(q).bit_count() for q in self.seats)
            utils = d.utils
            bids = d.bids
            while r > k:
                s = g.turn
                m = g.legal_mask(s)
                if dups:
                    held = {}
                    for c in bits(m):
                        held.setdefault(face[c], c)
                    keys = list(held)
                else:
                    keys = bits(m)
                fresh = [x for x in keys if x not in node]
                if fresh:
                    x = fresh[int(rand() * len(fresh))]
                    e: Edge = [0, 0.0, 0, {}]
                    node[x] = e
                    for y in keys:
                        ey = node.get(y)
                        if ey is not None:
                            ey[2] += 1
                    path.append((e, s))
                    g.apply_fast(s, held[x] if dups else x)
                    r -= 1
                    break
                best = None
                best_v = -1e300
                for y in keys:
                    ey = node[y]
                    ey[2] += 1
                    v = ey[1] / ey[0] + c_ucb * sqrt(log(ey[2]) / ey[0])
                    if v > best_v:
                        best_v, best, x = v, ey, y
                assert best is not None
                path.append((best, s))
                node = best[3]
                g.apply_fast(s, held[x] if dups else x)
                r -= 1
            if not dups:
                won = greedy(g, r, bids, suits, seats, nxt, rand, eps)
                gain = [u[w] for u, w in zip(utils, won, strict=True)]
            else:
                # a random play-out to the end: the engine knows which copy wins and what a
                # cancelled trick is worth
                while r:
                    s = g.turn
                    m = g.legal_mask(s)
                    j = int(rand() * m.bit_count())
                    while j:
                        m &= m - 1
                        j -= 1
                    g.apply_fast(s, (m & -m).bit_length() - 1)
                    r -= 1
                points = g.history()[number - 1].points
                assert points is not None
                gain = [utility(scoring, p) for p in points]
            for e, s in path:
                e[0] += 1
                e[1] += gain[s]
        self.iterations += count

    def select(self, node: dict[int, Edge], keys: list[int]) -> tuple[int, Edge]:
        """UCB among ``keys`` (every one available), an untried one first."""
        c_ucb = self.c_ucb
        for x in keys:
            if x not in node:
                node[x] = [0, 0.0, 0, {}]
        best = keys[0]
        best_v = -1e300
        for x in keys:
            e = node[x]
            e[2] += 1
            if not e[0]:
                return x, e
            v = e[1] / e[0] + c_ucb * math.sqrt(math.log(e[2]) / e[0])
            if v > best_v:
                best_v, best = v, x
        return best, node[best]

    def _last_trick(self, g: Game) -> int:
        """The winner of the last trick, every seat holding one card (no trick in progress)."""
        s = g.turn
        order = []
        cards = []
        for _ in range(self.k):
            order.append(s)
            cards.append(g.hand_mask(s).bit_length() - 1)
            s = self.seats[(self.seats.index(s) + 1) % self.k]
        return order[self.suits.winner_index(cards)]

    def lead(self) -> int:
        """How many more visits the most visited root card has than the next."""
        visits: list[int] = sorted((e[0] for e in self.root.values()), reverse=True)
        return visits[0] - visits[1] if len(visits) > 1 else visits[0]

    def choice(self) -> int:
        """The root card (a card id; with duplicates, a face) played most often."""
        return max(
            self.root, key=lambda x: (self.root[x][0], self.root[x][1] / max(1, self.root[x][0]))
        )


def _drive(search: _Search, start: Start, pos: Position) -> None:
    """Search from ``start``: ``pos.iterations`` times, or until ``pos.deadline`` (one batch at
    least), ending early once the most visited root choice can't be caught in the time left."""
    if pos.iterations is not None:
        search.run(pos.iterations, start)
        return
    deadline = pos.deadline
    assert deadline is not None
    batch, settle_from = pos.params.batch, pos.params.settle_from
    searching = 0.0
    while True:
        now = time.perf_counter()
        if now >= deadline and search.iterations:
            break  # at least one batch, so that there is a choice even if the time is gone
        search.run(batch, start)
        searching += time.perf_counter() - now
        done = search.iterations
        if done >= settle_from and search.lead() > done / searching * (deadline - now):
            break


def choose_card(pos: Position) -> Searched:
    """The card this seat plays: its id (one held copy of the chosen face)."""
    table, det, rng = pos.table, pos.det, pos.rng
    search = _Search(det, table, rng, pos.params)
    quick = QuickBids(table, pos.params)

    def start() -> tuple[_Deal, dict[int, Edge], list[Any]]:
        return search.deal(quick.sample(det, rng)), search.root, []

    _drive(search, start, pos)
    x = search.choice()
    pack = det.public.pack
    if pack.has_duplicates:
        x = next(c for c in bits(table.mine) if pack.face_of[c] == x)
    return Searched(x, search.iterations)


def bids_usable(table: Table) -> bool:
    """Can the search bid here? The trump known, no joker in no trumps, not blind, more than
    one card, bids in turn or secret (not knock)."""
    pack = table.pack
    return (
        table.view.phase is Phase.BIDDING
        and table.trump != TRUMP_PENDING
        and not table.blind
        and not (pack.joker >= 0 and table.suits.trump < 0)
        and table.cards_each > 1
        and table.rules.bidding != "knock"
    )


def choose_bid(pos: Position, cands: list[int]) -> Searched:
    """This seat's bid among ``cands``: a root over the bids above the same card-play tree.
    Each iteration a fresh deal weighed by ``playout.QuickBids``, in which the later bidders
    bid their quick estimate (having seen this seat's candidate); the tree then branches on
    the bids made (public) before the first card."""
    table, det, rng = pos.table, pos.det, pos.rng
    me = table.seat
    search = _Search(det, table, rng, pos.params)
    quick = QuickBids(table, pos.params)

    def start() -> tuple[_Deal, dict[int, Edge], list[Any]]:
        b, edge = search.select(search.root, cands)
        g = quick.sample(det, rng)
        while g.phase is Phase.BIDDING:
            s = g.turn
            want = b if s == me else round(quick.estimate(g.hand_mask(s)))
            g.apply_fast(s, nearest_bid(bits(g.legal_mask(s)), want))
        deal = search.deal(g)
        key = hash(tuple(deal.bids))
        node = edge[3].get(key)
        if node is None:
            node = edge[3][key] = {}
        return deal, node, [(edge, me)]

    _drive(search, start, pos)
    return Searched(search.choice(), search.iterations)
