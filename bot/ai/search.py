"""Information-set Monte Carlo tree search (ISMCTS) for ``hard``'s bids and card play.

Single-observer ISMCTS (Cowling, Powley and Whitehouse, 2012): one tree over this seat's
information sets, its nodes keyed by the cards played since the decision (public, so a path
through the tree is what this seat would see, never a sampled hand). Each iteration takes one
determinisation (``FRESH``: a new deal of the unseen cards, weighed by a quick model of the
others' bids, ``QUICK``; else one from a pool of ``hard``'s inferred samples,
``infer.consistent_sample``), walks the tree choosing among the cards legal in that deal by UCB
with availability counts (every seat maximising its own score; the others' nodes too are keyed
by what is public, so they do not see the deal either), adds one node, plays the rest of the
hand out (``ROLLOUT``: the greedy rule of ``bot.ai.playout``, or at random) and backs every
seat's points up its own edges (``RIVALRY``: this seat's less a share of the others' mean, off
by default). The decision is the root choice played most often. Bids: a root over the
candidate bids, the later bidders bidding in each deal, then the same tree.

Only for hands without the joker's no-trump rules, not blind; bids only with the trump known
and not knock bidding (``usable``, ``bids_usable``); ``hard`` does the rest with its sampling
race (``bot.ai.hard``). Figures: docs/ai.md, issue #17's fifth to ninth rounds.
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
from .common import successors
from .evaluate import utility
from .infer import BidModel, PlayModel, bid_the_rest, consistent_sample
from .knowledge import Table
from .playout import QuickBids, greedy
from .sanitise import Determiniser

C = 3.0
"""The UCB exploration constant, in points."""
POOL = 48
"""Determinisations drawn at most (each is costly: inference from the bids and the play)."""
DRAW_SHARE = 0.35
"""At most this share of the time goes to drawing determinisations."""
FIXED_POOL = 16
"""Determinisations drawn with a fixed number of iterations (tests, reproducible runs)."""
BATCH = 64
"""Iterations between looks at the clock."""
ROLLOUT = "greedy"
"""The play-out policy: ``random``, or ``greedy`` (a cheap bid-aware rule: short of its bid a
seat plays its highest card that takes the trick so far (the cheapest one when it plays last),
else its lowest; otherwise its highest card that does not; a leader its highest or lowest card),
with a random card at chance ``EPSILON``."""
EPSILON = 0.1
OTHERS_EPSILON = 0.3
"""``EPSILON`` for the other seats' cards in greedy play-outs: opponents that miss more of the
tricks they want than the greedy rule does (0.3 against 0.1: +0.89 a hand against ISMCTS on
120 deals, +0.74 on 60 fresh ones, the same against ``normal``; docs/ai.md)."""
SETTLE_FROM = 512
"""Iterations before a decision may end early (when its most visited card can't be caught)."""
DEPTH = 99
"""Tree edges an iteration may walk before its play-out (1: a bandit over the root's cards)."""
FRESH = True
"""Every iteration deals the unseen cards afresh, uniformly (``Determiniser.sample``), instead
of taking one from the pool of inferred deals (as OpenSpiel's ISMCTS does)."""
QUICK = True
"""With ``FRESH``: each fresh deal is kept with a chance that falls with how far a quick
estimate of each other seat's tricks (a fixed value a card, ``playout.QuickBids``) is from its bid
(up to ``playout.QUICK_TRIES`` deals, else the likeliest): cheap inference from the bids."""
LATER_NOISE = 0.0
"""With ``FRESH``, in bidding: the later bidders bid their quick estimate plus ``LATER_BIAS``
plus a normal error of this spread (0: no error), where their bids vary about it (measured:
bid less quick estimate has spread 0.87 for ``hard`` and 0.89 for ISMCTS-1000, mean +0.14
and +0.20, 960 hands each)."""
LATER_BIAS = 0.0
BID_OTHERS_EPSILON: float | None = None
"""``OTHERS_EPSILON`` in the play-outs of the search's bidding (None: the same as in card
play). Measured at 0.1: bids lower (2.09 against 2.23), -1.00 a hand against the defaults on
60 tuning deals (docs/ai.md, eighth round)."""
BID_TILT = 0.0
"""With ``FRESH``: points added to a candidate bid's value in the search's bidding for each
trick it bids above the lowest candidate (0: none), a lean towards higher bids. Measured at
1.0 and 0.3: -1.18 and -0.33 a hand against the defaults on 60 tuning deals (docs/ai.md)."""
BID_TREE = False
"""With ``FRESH``, bidding in turn: the later bidders' bids are nodes of the tree, each chosen by
UCB as the cards are (OpenSpiel's ISMCTS searches them so), instead of their quick estimate; a
play-out that starts before the last bid finishes the bids with their quick estimates (at
random with random play-outs). Measured: -0.77 a hand against the defaults on 60 tuning deals
(docs/ai.md, ninth round)."""
RIVALRY = 0.0
"""The searching seat's edges back up its own points less this share of the mean of the other
seats' points in the same iteration (0: its own points only, as every other seat's edges do;
1: its lead over the average opponent, the duplicate margin). The other seats still maximise
their own points (they model opponents). Card play and bids alike. Against ISMCTS-1000, paired
with 0 over 60 deals: 0.5 -0.50 (+-1.09), 1.0 -0.62 (+-0.95) a hand (docs/ai.md, seventh
round)."""
INFER = True
"""Determinisations follow the others' bids and plays; else uniform (``Determiniser.sample``)."""


@dataclass(slots=True)
class Measured:
    """What the search did in this process, for measuring (``tools.bench_search``): the
    decisions it made, and the iterations and determinisations of the latest."""

    decisions: int = 0
    last: tuple[int, int] = (0, 0)


MEASURED = Measured()

Edge = list[Any]  # [visits, total reward of the seat that moved, availability, child node]


def usable(table: Table) -> bool:
    """Can the search play this position? Card play, no joker in no trumps, not blind."""
    pack = table.pack
    return table.playing and not table.blind and not (pack.joker >= 0 and table.suits.trump < 0)


def _nearest(bids: list[int], want: float) -> int:
    """The bid among ``bids`` nearest ``want`` (the lower of two as near)."""
    return min(bids, key=lambda x: (abs(x - want), x))


@dataclass(slots=True)
class _Deal:
    """A determinisation to search from: the game, each seat's utility for every trick count
    (``utils[seat][tricks]``, from the bids in it) and the bids; or one still bidding
    (``BID_TREE``: utils and bids are filled in when the bidding ends)."""

    game: Game
    utils: list[list[float]]
    bids: list[int]
    bidding: bool = False


class _Search:
    """One decision's tree and the state every iteration reads."""

    def __init__(
        self, det: Determiniser, table: Table, rng: random.Random, *, bidding: bool = False
    ) -> None:
        g = det.public
        self.others_epsilon = (
            BID_OTHERS_EPSILON if bidding and BID_OTHERS_EPSILON is not None else OTHERS_EPSILON
        )
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
        self.quick: QuickBids | None = None
        """With ``BID_TREE``: how a play-out finishes the bids (None: at random)."""
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

    def open_deal(self, g: Game) -> _Deal:
        """``g`` still bidding, in turn, as a determinisation: its later bids are for the tree."""
        return _Deal(g, [], [], True)

    def _finish_bids(self, g: Game, quick: QuickBids | None) -> None:
        """The bids still to be made in ``g``: each its quick estimate (at random without it)."""
        rand = self.rng.random
        while g.phase is Phase.BIDDING:
            s = g.turn
            options = bits(g.legal_mask(s))
            if quick is None:
                b = options[int(rand() * len(options))]
            else:
                b = _nearest(options, quick.estimate(g.hand_mask(s)))
            g.apply_fast(s, b)

    def run(
        self, count: int, start: Callable[[], tuple[_Deal, dict[int, Edge], list[Any]]]
    ) -> None:
        """``count`` iterations, each from ``start()``: a determinisation (copied here), the
        tree node it starts at and the edges taken to reach it (with the seat that took each)."""
        rng = self.rng
        rand = rng.random
        sqrt = math.sqrt
        log = math.log
        c_ucb = C
        k = self.k
        dups = self.dups
        face = self.face
        number = self.number
        scoring = self.scoring
        held: dict[int, int] = {}
        greedy_out = ROLLOUT == "greedy" and not dups
        suits, seats, nxt = self.suits, self.seats, self.nxt
        me = self.me
        eps = [EPSILON if q == me else self.others_epsilon for q in range(self.players)]
        max_depth = DEPTH
        rivalry = RIVALRY
        others = [q for q in seats if q != me]
        share = rivalry / max(1, len(others))
        quick = self.quick
        for _ in range(count):
            d, node, path = start()
            g = d.game.copy()
            r = sum(g.hand_mask(q).bit_count() for q in self.seats)
            utils = d.utils
            bids = d.bids
            bidding = d.bidding
            depth = 0
            while (bidding or r > k) and depth < max_depth:
                s = g.turn
                m = g.legal_mask(s)
                if bidding:
                    keys = bits(m)
                elif dups:
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
                    if bidding:
                        g.apply_fast(s, x)
                    else:
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
                depth += 1
                if bidding:
                    g.apply_fast(s, x)
                    bidding = g.phase is Phase.BIDDING
                else:
                    g.apply_fast(s, held[x] if dups else x)
                    r -= 1
            if d.bidding:
                self._finish_bids(g, quick)
                dd = self.deal(g)
                utils, bids = dd.utils, dd.bids
            if greedy_out:
                won = greedy(g, r, bids, suits, seats, nxt, rand, eps)
                gain = [u[w] for u, w in zip(utils, won, strict=True)]
            else:
                # a random play-out to the last trick (with duplicates, to the end: the engine
                # knows which copy wins and what a cancelled trick is worth)
                stop = 0 if dups else k
                while r > stop:
                    s = g.turn
                    m = g.legal_mask(s)
                    j = int(rand() * m.bit_count())
                    while j:
                        m &= m - 1
                        j -= 1
                    g.apply_fast(s, (m & -m).bit_length() - 1)
                    r -= 1
                if dups:
                    points = g.history()[number - 1].points
                    assert points is not None
                    gain = [utility(scoring, p) for p in points]
                else:
                    won = list(g.tricks_won)
                    if r:
                        won[self._last_trick(g)] += 1
                    gain = [u[w] for u, w in zip(utils, won, strict=True)]
            if rivalry:
                gain[me] -= share * sum(gain[q] for q in others)
            for e, s in path:
                e[0] += 1
                e[1] += gain[s]
        self.iterations += count

    def select(self, node: dict[int, Edge], keys: list[int]) -> tuple[int, Edge]:
        """UCB among ``keys`` (every one available), an untried one first."""
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
            v = e[1] / e[0] + C * math.sqrt(math.log(e[2]) / e[0])
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


def _drive(
    search: _Search,
    draw: Callable[[], None],
    drawn: Callable[[], int],
    start: Callable[[], tuple[_Deal, dict[int, Edge], list[Any]]],
    deadline: float | None,
    iterations: int | None,
) -> None:
    """Draw determinisations (``draw`` adds one; ``drawn`` counts them) and search from them:
    ``iterations`` after ``FIXED_POOL`` draws, or until ``deadline`` (one batch at least),
    giving at most ``DRAW_SHARE`` of the time to drawing, up to ``POOL``, and ending early once
    the most visited root choice can't be caught in the time left."""
    if iterations is not None:
        for _ in range(min(FIXED_POOL, max(1, iterations))):
            draw()
        search.run(iterations, start)
        return
    assert deadline is not None
    begin = time.perf_counter()
    draw()
    drawing = time.perf_counter() - begin
    searching = 0.0
    while True:
        now = time.perf_counter()
        if now >= deadline and search.iterations:
            break  # at least one batch, so that there is a choice even if the time is gone
        if drawn() < POOL and drawing < DRAW_SHARE * (now - begin):
            draw()
            drawing += time.perf_counter() - now
            continue
        search.run(BATCH, start)
        searching += time.perf_counter() - now
        done = search.iterations
        if done >= SETTLE_FROM and search.lead() > done / searching * (deadline - now):
            break


def choose_card(
    table: Table,
    det: Determiniser,
    rng: random.Random,
    deadline: float | None,
    iterations: int | None,
) -> int:
    """The card id this seat plays (one held copy of the chosen face)."""
    model = BidModel(table)
    plays = PlayModel(table)
    search = _Search(det, table, rng)
    pool: list[_Deal] = []
    rand = rng.random

    def draw() -> None:
        g = consistent_sample(det, model, rng, plays) if INFER else det.sample(rng)
        pool.append(search.deal(g))

    quick = QuickBids(table) if FRESH and QUICK else None

    def start() -> tuple[_Deal, dict[int, Edge], list[Any]]:
        if quick is not None:
            return search.deal(quick.sample(det, rng)), search.root, []
        if FRESH:
            return search.deal(det.sample(rng)), search.root, []
        return pool[int(rand() * len(pool))], search.root, []

    if FRESH:
        _drive(search, lambda: None, lambda: POOL, start, deadline, iterations)
    else:
        _drive(search, draw, pool.__len__, start, deadline, iterations)
    x = search.choice()
    MEASURED.decisions += 1
    MEASURED.last = (search.iterations, len(pool))
    pack = det.public.pack
    if pack.has_duplicates:
        return next(c for c in bits(table.mine) if pack.face_of[c] == x)
    return x


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


def choose_bid(
    table: Table,
    det: Determiniser,
    rng: random.Random,
    deadline: float | None,
    iterations: int | None,
    cands: list[int],
) -> int:
    """This seat's bid among ``cands``: a root over the bids above the same card-play tree.
    Each determinisation follows the bids seen (``infer.BidModel``); the later bidders bid in
    it as ``normal`` would with their sampled hands (having seen this seat's candidate); the
    tree then branches on the bids made (public) before the first card. With ``FRESH``, a
    fresh deal each iteration (weighed by ``playout.QuickBids`` with ``QUICK``), and the later
    bidders bid their quick estimate."""
    me = table.seat
    model = BidModel(table)
    search = _Search(det, table, rng, bidding=True)
    lowest = min(cands)
    draws: list[tuple[Game, dict[int, list[float]]]] = []
    after: dict[tuple[int, int], _Deal] = {}
    rand = rng.random

    def draw() -> None:
        d = consistent_sample(det, model, rng, None) if INFER else det.sample(rng)
        draws.append((d, {s: model.probs(s, d.hand_mask(s)) for s in d.seats if s != me}))

    def start() -> tuple[_Deal, dict[int, Edge], list[Any]]:
        b, edge = search.select(search.root, cands)
        i = int(rand() * len(draws))
        deal = after.get((i, b))
        if deal is None:
            g = draws[i][0].copy()
            bid_the_rest(g, me, b, model, draws[i][1])
            deal = after[i, b] = search.deal(g)
        key = hash(tuple(deal.bids))
        node = edge[3].get(key)
        if node is None:
            node = edge[3][key] = {}
        return deal, node, [(edge, me)]

    quick = QuickBids(table)
    tree = BID_TREE and table.rules.bidding not in ("secret", "knock")
    if tree and ROLLOUT == "greedy":
        search.quick = quick

    def start_fresh() -> tuple[_Deal, dict[int, Edge], list[Any]]:
        b, edge = search.select(search.root, cands)
        if BID_TILT:
            edge[1] += BID_TILT * (b - lowest)  # with this visit's back-up: its mean leans up
        g = quick.sample(det, rng) if QUICK else det.sample(rng)
        while g.phase is Phase.BIDDING:
            s = g.turn
            m = g.legal_mask(s)
            if s == me:
                want = b
            elif tree:
                return search.open_deal(g), edge[3], [(edge, me)]
            else:
                est = quick.estimate(g.hand_mask(s)) + LATER_BIAS
                want = round(est + rng.gauss(0.0, LATER_NOISE) if LATER_NOISE else est)
            g.apply_fast(s, _nearest(bits(m), want))
        deal = search.deal(g)
        key = hash(tuple(deal.bids))
        node = edge[3].get(key)
        if node is None:
            node = edge[3][key] = {}
        return deal, node, [(edge, me)]

    if FRESH:
        _drive(search, lambda: None, lambda: POOL, start_fresh, deadline, iterations)
    else:
        _drive(search, draw, draws.__len__, start, deadline, iterations)
    MEASURED.decisions += 1
    MEASURED.last = (search.iterations, len(draws))
    return search.choice()
