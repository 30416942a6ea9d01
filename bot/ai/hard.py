"""The ``hard`` level. Bids by information-set tree search (``bot.ai.search``); card play by
the same search once another seat plays unlike ``normal`` (``infer.unlike_normal``), else, and
wherever the search can't play, by determinised sampling (PIMC): each sample deals the unseen
cards of the sanitised game again, following what the others bid and played
(``infer.consistent_sample``), tries every candidate decision on it and plays the hand out on
the engine's fast path, every seat, this one too, playing as ``normal`` does from its own
knowledge; the decision with the best mean score under the table's scoring wins.

Against players ``normal`` explains, the race's model of them is exact, and it beats the
search's (a UCB player over random deals); against the others the search does better. In the
play-outs this seat too plays from its own knowledge, not from the sampled deal, which would
rate its late ducks as safer than they are (strategy fusion).

Every decision reads one ``position.Position``: the seat's table, a sanitised game to deal
from, its randomness, its budget and the values ``hard`` decides with (``params.HardParams``).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable
from typing import TypeVar

from bot.engine import SUITS, Action, Bid, ChooseTrump, Game, Phase, Play

from . import normal, search
from .cards import NO_TRUMPS, Suits, bits, note_void, one_of_each_face, suits_for
from .common import legal_bids, seats_after, successors
from .evaluate import card_probs, utility
from .infer import BidModel, PlayModel, bid_the_rest, consistent_sample, unlike_normal
from .knowledge import PlaySituation, Table
from .params import HardParams
from .position import Position

C = TypeVar("C", bound=Hashable)
S = TypeVar("S")

_PLAYING = Phase.PLAYING
_BIDDING = Phase.BIDDING
_TRUMP = Phase.TRUMP_CHOICE

BID_SPREAD = 2
"""The bids weighed: those within this many tricks of ``normal``'s."""


def rollout(g: Game, me: int, scoring: str, voids: list[int] | None = None) -> float:
    """Play the hand in progress to its end, every seat playing as ``normal`` would from what
    it knows; ``me``'s utility for it. ``voids``: the suits each seat has shown it lacks so
    far."""
    number = g.hand_number
    if g.phase is _BIDDING or g.phase is _TRUMP:
        raise ValueError("a rollout starts after bidding")
    trump = g.trump_id
    suits = suits_for(g.pack.name, trump if trump >= 0 else NO_TRUMPS)
    others = _Others(g, suits, scoring, voids)
    while g.phase is _PLAYING and g.hand_number == number:
        s = g.turn
        m = g.legal_mask(s)
        named = -1
        if not m & (m - 1):
            c = m.bit_length() - 1
        else:
            c, named = others.choose(g, s, m)
        others.played(g, s, c)
        g.apply_fast(s, c, named)
    log = g.history()[number - 1]
    assert log.points is not None
    return utility(scoring, log.points[me])


class _Others:
    """The seats of a play-out (``hard``'s own too), each playing as ``normal`` does
    (``normal.choose_card``) from what it knows."""

    __slots__ = ("eff", "first", "live", "nxt", "pack", "seats", "sit", "suits", "voids")

    def __init__(self, g: Game, suits: Suits, scoring: str, voids: list[int] | None) -> None:
        self.suits = suits
        self.eff = suits.eff
        self.pack = g.pack
        seats = g.seats
        self.seats = seats
        self.nxt = successors(seats)
        self.voids = list(voids) if voids is not None else [0] * g.players
        held = 0
        for q in seats:
            held |= g.hand_mask(q)
        # cards not played and not a turned card left on the table
        self.live = g.unseen_mask(seats[0]) | held
        dealer = g.dealer
        self.first = dealer if g.rules.first_lead == "dealer" else self.nxt[dealer]
        self.sit = PlaySituation(
            pack=g.pack,
            suits=suits,
            scoring=scoring,
            cards_each=g.cards_each,
            players=len(seats),
            mine=0,
            out=0,
            share=0.0,
            voids=self.voids,
            trick=[],
            led=-1,
            after=[],
            opponents=[],
            bid=0,
            won=0,
            left=0,
            leads_first=False,
        )

    def choose(self, g: Game, s: int, legal: int) -> tuple[int, int]:
        """Seat ``s``'s card (one copy of each face) and, for a joker led in no trumps, the
        suit it names (else -1)."""
        p = self.sit
        mine = g.hand_mask(s)
        out = self.live & ~mine
        pool = out.bit_count()
        trick = list(g.trick_ids)
        after = seats_after(self.nxt, s, len(self.seats) - len(trick) - 1)
        p.mine = mine
        p.out = out
        held = sum(g.hand_mask(o).bit_count() for o in self.seats if o != s)
        p.share = held / pool if pool else 0.0
        p.trick = trick
        p.led = g.led_id
        p.after = after
        p.opponents = [o for o in self.seats if o != s]
        p.bid = g.bids[s] or 0
        p.won = g.tricks_won[s]
        p.left = mine.bit_count()
        p.leads_first = s == self.first
        c, want = normal.choose_card(p, one_of_each_face(legal, self.pack.face_of))
        named = -1
        if c == self.pack.joker and not trick and g.trump_id == NO_TRUMPS:
            named = normal.joker_suit(mine, self.suits, bits(g.joker_suits(s)), want)
        return c, named

    def played(self, g: Game, s: int, c: int) -> None:
        """Note card ``c`` leaving seat ``s``'s hand, and the void it shows."""
        self.live &= ~(1 << c)
        led = g.led_id
        if led >= 0:
            note_void(self.voids, self.eff, led, s, c)


def _best_trump(g: Game, s: int) -> int:
    out = g.unseen_mask(s)
    pool = out.bit_count()
    held = sum(g.hand_mask(q).bit_count() for q in g.seats if q != s)
    best, best_e = 0, -1.0
    for t in range(4):
        e = sum(
            card_probs(
                g.hand_mask(s),
                suits_for(g.pack.name, t),
                g.pack,
                out,
                held / pool if pool else 0.0,
                len(g.seats),
                g.cards_each,
                False,
            )
        )
        if e > best_e:
            best, best_e = t, e
    return best


def _finish_bidding(
    g: Game, me: int, my_bid: int, model: BidModel, probs: dict[int, list[float]]
) -> None:
    """The rest of the bidding (``infer.bid_the_rest``), then a trump chosen if the rules
    want one."""
    bid_the_rest(g, me, my_bid, model, probs)
    if g.phase is _TRUMP:
        s = g.turn
        g.apply_fast(s, _best_trump(g, s))


def decide(pos: Position) -> Action:
    table = pos.table
    view = table.view
    if len(view.legal_actions) == 1:
        return view.legal_actions[0]
    if pos.iterations is None and pos.deadline is None:
        raise ValueError("give a deadline or a number of iterations")
    if search.bids_usable(table) or (
        search.usable(table) and unlike_normal(table, pos.det, pos.rng, pos.params)
    ):
        found = searched(pos)
        assert found is not None
        return found[0]
    return _race_decision(pos)


def searched(pos: Position) -> tuple[Action, int] | None:
    """The tree search's decision and the iterations it took: a bid where it can bid, a card
    where it can play (whatever the others play like); None where it can do neither."""
    table = pos.table
    if search.bids_usable(table):
        bid = search.choose_bid(pos, bid_candidates(table)[0])
        return Bid(bid.choice), bid.iterations
    if search.usable(table):
        card = search.choose_card(pos)
        return Play(table.pack.cards[card.choice]), card.iterations
    return None


def bid_candidates(table: Table) -> tuple[list[int], int]:
    """The bids ``hard`` weighs (the legal ones within ``BID_SPREAD`` of ``normal``'s, or all),
    and ``normal``'s."""
    legal = legal_bids(table)
    guess = normal.choose_bid(table)
    return [b for b in legal if abs(b - guess) <= BID_SPREAD] or legal, guess


def _race(
    cands: list[C],
    draw: Callable[[], S],
    value: Callable[[S, C], float],
    more: Callable[[int], bool],
    order: Callable[[C], float],
    params: HardParams,
) -> C:
    """The candidate with the best mean value over samples, each sample valuing every
    candidate still in the race; ties go to the highest ``order``. Stops early when one is
    left."""
    prune_from, prune_every, prune_z = params.prune_from, params.prune_every, params.prune_z
    active = list(cands)
    total = dict.fromkeys(cands, 0.0)
    square = dict.fromkeys(cands, 0.0)
    product: dict[tuple[C, C], float] = {}
    n = 0
    while len(active) > 1 and more(n):
        sample = draw()
        vals = [value(sample, c) for c in active]
        for i, (a, va) in enumerate(zip(active, vals, strict=True)):
            total[a] += va
            square[a] += va * va
            for b, vb in zip(active[i + 1 :], vals[i + 1 :], strict=True):
                product[a, b] = product.get((a, b), 0.0) + va * vb
        n += 1
        if n >= prune_from and n % prune_every == 0:
            lead = max(active, key=lambda c: (total[c], order(c)))
            keep = [lead]
            for c in active:
                if c == lead:
                    continue
                gap = (total[lead] - total[c]) / n
                cross = product.get((lead, c), product.get((c, lead), 0.0))
                var = (square[lead] + square[c] - 2 * cross) / n - gap * gap
                # the same value on every sample (var 0) is no reason to keep both
                if var > 1e-9 and gap <= prune_z * math.sqrt(var / n):
                    keep.append(c)
            active = [c for c in active if c in keep]
    return max(active, key=lambda c: (total[c], order(c)))


def _moves(g: Game, me: int) -> list[tuple[int, int]]:
    """Distinct plays: one copy of each duplicated card; a joker led in no trumps once per
    suit it may be named."""
    pack = g.pack
    seen: set[int] = set()
    out: list[tuple[int, int]] = []
    m = g.legal_mask(me)
    lead_joker = not g.trick_ids and g.trump_id == NO_TRUMPS
    for c in bits(m):
        face = pack.face_of[c]
        if face in seen:
            continue
        seen.add(face)
        if c == pack.joker and lead_joker:
            out += [(c, s) for s in bits(g.joker_suits(me))]
        else:
            out.append((c, -1))
    return out


Sampled = list[tuple[float, int]]
"""A candidate's (utility, tricks taken) on each sample it was valued on, in sample order."""


def _race_decision(
    pos: Position, actual: Action | None = None, seen: dict[Action, Sampled] | None = None
) -> Action:
    """The sampling race's decision: every candidate (bids near ``normal``'s and ``actual``,
    the four trumps, or each distinct play) valued on the same inferred samples. ``seen``: if
    given, each candidate's (utility, tricks) per sample is added to it."""
    table, det, rng, params, more = pos.table, pos.det, pos.rng, pos.params, pos.more
    view = table.view
    me = table.seat
    scoring = table.rules.scoring
    model = BidModel(table, params)
    plays = PlayModel(table, params)

    def draw() -> Game:
        return consistent_sample(det, model, rng, plays)

    def played_out(key: Action, g: Game, voids: list[int] | None) -> float:
        number = g.hand_number
        value = rollout(g, me, scoring, voids)
        if seen is not None:
            seen.setdefault(key, []).append((value, g.history()[number - 1].won[me]))
        return value

    if view.phase is Phase.BIDDING:
        cands, guess = bid_candidates(table)
        if isinstance(actual, Bid) and actual.n in legal_bids(table) and actual.n not in cands:
            cands.append(actual.n)

        def draw_bidding() -> tuple[Game, dict[int, list[float]]]:
            d = draw()
            return d, {s: model.probs(s, d.hand_mask(s)) for s in d.seats if s != me}

        def bid_value(sample: tuple[Game, dict[int, list[float]]], b: int) -> float:
            g = sample[0].copy()
            _finish_bidding(g, me, b, model, sample[1])
            return played_out(Bid(b), g, None)

        return Bid(_race(cands, draw_bidding, bid_value, more, lambda b: -abs(b - guess), params))

    if view.phase is Phase.TRUMP_CHOICE:

        def trump_value(d: Game, t: int) -> float:
            g = d.copy()
            g.apply_fast(me, t)
            return played_out(ChooseTrump(SUITS[t]), g, None)

        return ChooseTrump(
            SUITS[_race(list(range(4)), draw, trump_value, more, lambda t: -t, params)]
        )

    def as_play(mv: tuple[int, int]) -> Action:
        return Play(table.pack.cards[mv[0]], SUITS[mv[1]] if mv[1] >= 0 else None)

    moves = _moves(det.public, me)
    led = det.public.led_id
    voids_after: dict[tuple[int, int], list[int]] = {}
    for mv in moves:
        voids_after[mv] = list(table.voids)
        note_void(voids_after[mv], table.suits.eff, led, me, mv[0])

    def move_value(d: Game, mv: tuple[int, int]) -> float:
        g = d.copy()
        g.apply_fast(me, mv[0], mv[1])
        return played_out(as_play(mv), g, voids_after[mv])

    action = as_play(_race(moves, draw, move_value, more, lambda mv: -mv[0], params))
    return action if action in view.legal_actions else normal.decide(table, rng)


def assess(pos: Position, actual: Action) -> tuple[Action, dict[Action, Sampled]]:
    """``decide``'s race, with ``actual`` (a legal action: the one a player took) among the
    candidates, and what each candidate scored: the action the race chooses and, per
    candidate, its (utility, tricks) on each sample. The race values every candidate still in
    it on the same samples, so any two candidates share their first samples (paired). For the
    post-game review (``bot.ai.review``), which needs a value per candidate and sample: the
    tree search's visit counts do not give them."""
    seen: dict[Action, Sampled] = {}
    choice = _race_decision(pos, actual, seen)
    return choice, seen
