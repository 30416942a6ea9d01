"""The ``normal`` level: hand evaluation for the bid, card counting and inferred voids in play,
everything aimed at taking exactly the tricks bid (or whatever the scoring pays best)."""

from __future__ import annotations

import operator
import random
from dataclasses import dataclass

from bot.engine import SUITS, Action, Bid, ChooseTrump, Pack, Phase

from .cards import JOKER_WINS, TRUMP_PENDING, Suits, bits, suits_for
from .common import (
    first_action,
    highest,
    legal_bids,
    legal_cards,
    lowest,
    others_out,
    to_play_after,
    unknown_share,
    wants_trick,
)
from .evaluate import bid_values, card_probs, shift_probs, trick_distribution
from .knowledge import Table

_SURPLUS_P = 0.5
"""Cards at least this likely to win count as sure power when deciding to duck."""
_SURPLUS_MARGIN = 1.0
LIFT = 0.08
"""Calibration: the card estimates run a little low against real play."""
SHED = 1
"""Short of the bid and unable to win the trick: lose the highest card outside the best
``need + SHED`` (``shed``); -1: the lowest card, as before issue #17."""
_CONTROL = 0.5
"""Chance that a player one trick off its bid steers onto it (for valuing bids)."""
ADJUST = True
"""Move the bid by the learned correction (``adjust_bid``) where it was learned: 4 players,
10 cards, a point a trick + 10 for an exact bid."""
ADJUST_MARGIN = 1.0
"""Points of predicted gain a lower bid must show before ``adjust_bid`` takes it."""

# fmt: off
_ADJUST_WEIGHTS: dict[int, tuple[float, ...]] = {
    -2: (0.4841, 2.0815, 1.1619, -2.2074, 0.6375, -0.9216, 1.5876, -6.0582, -0.1288, 0.0000,
         -0.1255, 0.2318, 0.2445, 0.0644),
    -1: (2.1412, 0.9782, 1.4054, -1.1611, 0.4977, -0.1702, 1.0300, -4.6080, -0.4209, -0.0423,
         -0.1830, 0.0780, 0.1025, 0.0907),
    1: (-2.9890, -0.8890, 0.9174, 0.1863, -0.2323, 0.6929, -0.1347, 2.9012, 0.0194, -0.0306,
        -0.7026, 0.0927, 0.0037, 0.0426),
}
# fmt: on
"""Per bid change (-2, -1, +1): weights of ``_adjust_features`` for the points the change gains
over the model's bid, fitted by least squares on self-play hands in which one seat's bid was
forced to each bid within 3 of its model bid. Two rounds: 16,000 hands with every seat playing
``normal`` without either learned correction (``python -m bot.ai.bidfit --plain --seed 9000
--deals 4000``: the weights the card choice was learned with, margin 0.5), then these: 10,000
hands with every seat bidding with the first round's weights and playing the learned card
choice (``python -m bot.ai.bidfit --seed 9400 --deals 2500`` with those in place)."""

PLAY_ADJUST = True
"""Play the card a model learned offline prefers over the rule-of-thumb card, when it predicts
at least ``PLAY_MARGIN`` points more (``learned_card``), where it was learned: 4 players,
10 cards, a point a trick + 10 for an exact bid."""
PLAY_MARGIN = 0.5
_LEARNED_FOR = (10, 4, "tricks-plus-ten")
"""(cards each, players, scoring): the table both corrections were learned for."""

# fmt: off
_PLAY_WEIGHTS: tuple[tuple[float, ...], ...] = (
    (0.0000, 0.1467, 0.0000, 0.2972, -0.0599, -0.4953, 0.0395, 0.6131, -0.0079, 0.0030,
     -0.3028, 0.0395, -0.0599),
    (0.0000, 0.0372, 0.4556, 0.2069, -0.7862, -0.2933, 0.0080, -0.8729, -0.1899, -0.1246,
     0.4387, 1.0375, 0.5168),
    (0.0000, 0.1709, 0.0000, -0.6146, -0.3609, 1.0917, 0.4403, -1.0258, 0.1582, -0.1423,
     0.2826, 0.4403, -0.3609),
    (0.0000, -0.0142, 0.8058, 0.1027, 1.8142, 0.0628, -0.8510, -0.4698, 0.0444, 0.0071,
     -1.2437, 1.0042, -2.4186),
    (0.0000, -0.1725, -2.5210, -0.4157, 1.2959, -1.5571, 0.9542, -0.3728, -0.0768, -0.1330,
     -0.4455, -2.3814, 0.7288),
    (0.0000, -0.2227, 0.8090, 0.4988, 1.3713, -0.8900, 0.1006, 1.1098, -0.1744, -0.1547,
     0.0353, -1.5610, 1.8083),
    (0.0000, 0.1756, -0.0083, -0.3701, 0.0496, -0.0612, -0.1331, 0.4211, 0.0804, 0.0108,
     0.0287, 0.7576, -0.3359),
)
# fmt: on
# Rows: leading / following while wanting the trick, leading / following while not; added to
# those: the bid made (need 0), every trick left needed, last to play. Columns: the card's
# features (``_card_features``). Fitted by ridge regression on the play-outs of every legal
# card at 88,000 self-play decisions (``python -m bot.ai.playfit``).


def decide(table: Table, rng: random.Random) -> Action:
    view = table.view
    if len(view.legal_actions) == 1:
        return view.legal_actions[0]
    if view.phase is Phase.BIDDING:
        return Bid(choose_bid(table))
    if view.phase is Phase.TRUMP_CHOICE:
        return ChooseTrump(SUITS[choose_trump(table)])
    return play(table)


def leads_first(table: Table) -> bool:
    lead = table.view.dealer if table.rules.first_lead == "dealer" else table.order[0]
    return lead == table.seat


def blind_win_chance(table: Table, suits: Suits) -> float:
    """One-card blind hand: the chance that the seat's unseen card takes the trick, against
    the others' cards it can see."""
    pool = [c for c in range(table.pack.size) if table.pool >> c & 1]
    if not pool:
        return 0.0
    lead = table.view.dealer if table.rules.first_lead == "dealer" else table.order[0]
    i = table.order.index(lead)
    seq = table.order[i:] + table.order[:i]
    others = {s: table.known[s].bit_length() - 1 for s in table.seats if s != table.seat}
    wins = 0
    for c in pool:
        trick = [c if s == table.seat else others[s] for s in seq]
        if seq[suits.winner_index(trick)] == table.seat:
            wins += 1
    return wins / len(pool)


def hand_probs(table: Table, suits: Suits) -> list[float]:
    if table.blind:
        return [blind_win_chance(table, suits)]
    return card_probs(
        table.mine,
        suits,
        table.pack,
        others_out(table),
        unknown_share(table),
        len(table.seats),
        table.cards_each,
        leads_first(table),
    )


def best_trump_suits(table: Table) -> Suits:
    """With trump chosen by the highest bidder: value the hand with its best suit as trump."""
    best = None
    best_e = -1.0
    for s in range(4):
        suits = suits_for(table.pack.name, s)
        e = sum(hand_probs(table, suits))
        if e > best_e:
            best, best_e = suits, e
    assert best is not None
    return best


def choose_bid(table: Table) -> int:
    legal = legal_bids(table)
    n = table.cards_each
    k = len(table.seats)
    if table.trump == TRUMP_PENDING:
        probs = [p * 0.9 for p in hand_probs(table, best_trump_suits(table))]
    else:
        probs = hand_probs(table, table.suits)
    others = [table.bids[s] for s in table.seats if s != table.seat]
    return bid_from_probs(probs, others, legal, table.rules.scoring, n, k)


def bid_from_probs(
    probs: list[float], others: list[int], legal: list[int], scoring: str, n: int, k: int
) -> int:
    """The bid for cards with these chances of a trick, ``others`` the other players' bids
    (-1 where not made or not seen): also ``hard``'s model of how another player bids."""
    known = sum(b for b in others if b >= 0)
    unknown = sum(1 for b in others if b < 0)
    excess = known + unknown * n / k + sum(probs) - n
    raw = probs
    probs = shift_probs(probs, excess)
    probs = [min(1.0, p + (1 - p) * LIFT) for p in probs]
    values = bid_values(trick_distribution(probs), legal, scoring, n, k, _CONTROL)
    bid = max(legal, key=lambda b: (values[b], -b))
    if ADJUST and (n, k, scoring) == _LEARNED_FOR:
        return adjust_bid(raw, others, legal, bid, n, k)
    return bid


def _adjust_features(
    probs: list[float], others: list[int], bid: int, n: int, k: int
) -> list[float]:
    """What ``adjust_bid`` reads: the model's bid less the raw expected tricks, their square,
    the expected tricks, the table's excess of bids (as ``bid_from_probs``), the near-certain
    cards, the middling ones, the variance of the trick count, how many bids it has seen..."""
    mu = sum(probs)
    seen = [b for b in others if b >= 0]
    excess = sum(seen) + (len(others) - len(seen)) * n / k + mu - n
    sure = mid = 0
    var = 0.0
    for q in probs:
        if q > 0.9:
            sure += 1
        elif q > 0.15:
            mid += 1
        var += q * (1 - q)
    d = bid - mu
    return [
        1.0,
        d,
        d * d,
        mu,
        excess,
        sure,
        mid,
        var,
        len(seen),
        float(bid == 1),
        bid,
        mu * mu,
        d * excess,
        excess * excess,
    ]


def adjust_bid(
    probs: list[float], others: list[int], legal: list[int], bid: int, n: int, k: int
) -> int:
    """The bid moved by the change (-2, -1 or +1) a model learned offline predicts gains most
    points, if any: ``bid`` is the Poisson-binomial model's choice, ``probs`` the raw chances."""
    f = _adjust_features(probs, others, bid, n, k)
    best, move = 0.0, 0
    for step, w in _ADJUST_WEIGHTS.items():
        if bid + step not in legal:
            continue
        gain = sum(map(operator.mul, w, f)) - (ADJUST_MARGIN if step < 0 else 0.0)
        if gain > best:
            best, move = gain, step
    return bid + move


def choose_trump(table: Table) -> int:
    bid = table.bids[table.seat]
    scored = []
    for s in range(4):
        e = sum(hand_probs(table, suits_for(table.pack.name, s)))
        scored.append((abs(e - bid), -e, s))
    return min(scored)[2]


@dataclass(slots=True)
class PlaySituation:
    """What ``normal``'s card play reads: one seat's knowledge at its turn to play, as card
    masks. Built from a ``Table`` by ``normal`` and from a sampled game by ``hard``'s
    play-outs, which model the other players as playing like ``normal``."""

    pack: Pack
    suits: Suits
    scoring: str
    cards_each: int
    players: int
    mine: int
    out: int
    """Cards that may be in another player's hand."""
    share: float
    """The fraction of ``out`` the others hold (the rest is undealt)."""
    voids: list[int]
    """Per seat, the suits (bits 0-3) it has shown it lacks."""
    trick: list[int]
    """Cards played to this trick so far."""
    led: int
    after: list[int]
    """Seats still to play to this trick after this one."""
    opponents: list[int]
    bid: int
    won: int
    left: int
    """Tricks left in this hand, this one included."""
    leads_first: bool
    """The seat led the hand's first trick (its cards are valued as the leader's)."""


def situation(table: Table) -> PlaySituation:
    return PlaySituation(
        pack=table.pack,
        suits=table.suits,
        scoring=table.rules.scoring,
        cards_each=table.cards_each,
        players=len(table.seats),
        mine=table.mine,
        out=others_out(table),
        share=unknown_share(table),
        voids=table.voids,
        trick=[c for _, c in table.trick],
        led=table.led,
        after=to_play_after(table),
        opponents=[p for p in table.seats if p != table.seat],
        bid=table.bids[table.seat],
        won=table.won[table.seat],
        left=table.left,
        leads_first=leads_first(table),
    )


def joker_suit(mine: int, suits: Suits, allowed: list[int], want: bool) -> int:
    """The suit to name for a joker led in no trumps: the longest held when tricks are
    wanted, the shortest otherwise."""

    def length(suit: int) -> int:
        return (mine & suits.masks[suit]).bit_count()

    return max(allowed, key=length) if want else min(allowed, key=length)


def play(table: Table) -> Action:
    cards = legal_cards(table)
    if not cards:
        return first_action(table)
    c, want = choose_card(situation(table), list(cards))
    acts = cards[c]
    if len(acts) > 1:
        named = {SUITS.index(a.suit): a for a in acts if a.suit is not None}
        return named[joker_suit(table.mine, table.suits, list(named), want)]
    return acts[0]


def choose_card(p: PlaySituation, ids: list[int]) -> tuple[int, bool]:
    """The card to play among ``ids`` (legal, one copy each), and whether the seat wants the
    trick."""
    want = wants_trick(p.scoring, p.bid, p.won, p.left, p.cards_each, p.players)
    need = p.bid - p.won
    keep = 0
    probs: list[float] | None = None
    if want and 0 < need < p.left:
        # more sure power than tricks still wanted: duck now, keep the winners for later
        probs = card_probs(
            p.mine, p.suits, p.pack, p.out, p.share, p.players, p.cards_each, p.leads_first
        )
        strong = [(c, q) for c, q in zip(bits(p.mine), probs, strict=True) if q >= _SURPLUS_P]
        if sum(q for _, q in strong) >= need + _SURPLUS_MARGIN:
            want = False
            keep = sum(1 << c for c, _ in strong)
    play_to = follow if p.trick else lead
    c = play_to(p, ids, want, keep)
    if PLAY_ADJUST and len(ids) > 1 and (p.cards_each, p.players, p.scoring) == _LEARNED_FOR:
        c = learned_card(p, ids, c, want, probs)
    return c, want


def learned_card(
    p: PlaySituation, ids: list[int], choice: int, want: bool, probs: list[float] | None = None
) -> int:
    """``choice`` (the rule-of-thumb card), or the card the learned model (``_PLAY_WEIGHTS``)
    rates at least ``PLAY_MARGIN`` points better. ``probs``: ``card_probs`` of the hand, if
    known."""
    rows = _PLAY_WEIGHTS
    trick = p.trick
    w = list(rows[(0 if want else 2) + (1 if trick else 0)])
    need = p.bid - p.won
    extra = []
    if need == 0:
        extra.append(rows[4])
    if need > 0 and need == p.left:
        extra.append(rows[5])
    if trick and not p.after:
        extra.append(rows[6])
    for row in extra:
        w = [a + b for a, b in zip(w, row, strict=True)]
    features = _card_features(p, ids, choice, probs)
    values = [sum(map(operator.mul, w, f)) for f in features]
    best = max(range(len(ids)), key=values.__getitem__)
    if values[best] - values[ids.index(choice)] > PLAY_MARGIN:
        return ids[best]
    return choice


def _card_features(
    p: PlaySituation, ids: list[int], choice: int, probs: list[float] | None = None
) -> list[list[float]]:
    """Per candidate card: 1, it is the rule-of-thumb choice, it takes the trick so far, it
    takes it with no higher card out, trump, its chance of a trick (``card_probs``), its rank in
    the hand (0 lowest .. 1 highest), its suit's share of the hand, the top of its suit, the
    bottom of its suit, higher cards out (/6, at most 1), and two products: takes the trick x
    rank, takes the trick x trump."""
    s = p.suits
    st = s.strength
    eff = s.eff
    out = p.out
    hand = bits(p.mine)
    if probs is None:
        probs = card_probs(
            p.mine, s, p.pack, p.out, p.share, p.players, p.cards_each, p.leads_first
        )
    chance = dict(zip(hand, probs, strict=True))
    order = sorted(hand, key=st.__getitem__)
    span = max(1, len(hand) - 1)
    size = len(hand)
    best = p.trick[s.winner_index(p.trick)] if p.trick else -1
    suits: dict[int, list[int]] = {}
    for x in hand:
        suits.setdefault(eff[x], []).append(x)
    rows = []
    for c in ids:
        e = eff[c]
        suit = suits[e]
        higher = (s.above[c] & out).bit_count()
        win = s.beats(c, best) if best >= 0 else True
        rank = order.index(c) / span
        trump = e == s.trump
        rows.append(
            [
                1.0,
                float(c == choice),
                float(win),
                float(win and higher == 0),
                float(trump),
                chance[c],
                rank,
                len(suit) / size,
                float(c == max(suit, key=st.__getitem__)),
                float(c == min(suit, key=st.__getitem__)),
                min(higher, 6) / 6,
                float(win) * rank,
                float(win and trump),
            ]
        )
    return rows


def _ruff_risk(p: PlaySituation, c: int, suit: int, after: list[int]) -> bool:
    s = p.suits
    out = p.out
    if s.eff[c] == JOKER_WINS:
        return False
    trump = s.trump
    if trump < 0:
        j = p.pack.joker
        return j >= 0 and bool(out >> j & 1)
    if s.eff[c] == trump or not s.masks[trump] & out:
        return False
    if any(p.voids[q] >> suit & 1 for q in after):
        return True
    return (s.masks[suit] & out).bit_count() < 2 * len(after)


def follow(p: PlaySituation, ids: list[int], want: bool, keep: int = 0) -> int:
    """The card to play to a trick led by another seat; ``keep``: winners to save."""
    s = p.suits
    st = s.strength
    trick = p.trick
    best = trick[s.winner_index(trick)]
    winners = [c for c in ids if s.beats(c, best)]
    losers = [c for c in ids if c not in winners]
    after = p.after

    def holds(c: int) -> bool:
        if not after:
            return True
        if s.above[c] & p.out:
            return False
        return not _ruff_risk(p, c, p.led, after)

    if want:
        if winners:
            sure = [c for c in winners if holds(c)]
            if sure:
                return lowest(sure, st)
            return highest(winners, st)
        if SHED >= 0:
            return shed(p, ids)
        return lowest(ids, st)
    if losers:
        spare = [c for c in losers if not keep >> c & 1]
        return highest(spare, st) if spare else lowest(losers, st)
    low = lowest(ids, st)
    return highest(ids, st) if holds(low) else low


def shed(p: PlaySituation, ids: list[int]) -> int:
    """A card to lose while still short of the bid: the highest one outside the hand's best
    ``need + SHED`` cards (those likeliest to take a trick), so that cards it will not need do
    not take tricks it does not want later; the lowest card if every card is needed."""
    st = p.suits.strength
    need = p.bid - p.won
    probs = card_probs(
        p.mine, p.suits, p.pack, p.out, p.share, p.players, p.cards_each, p.leads_first
    )
    ranked = sorted(zip(probs, bits(p.mine), strict=True), key=lambda x: (-x[0], -st[x[1]]))
    needed = {c for _, c in ranked[: max(0, need) + SHED]}
    spare = [c for c in ids if c not in needed]
    return highest(spare, st) if spare else lowest(ids, st)


def lead(p: PlaySituation, ids: list[int], want: bool, keep: int = 0) -> int:
    s = p.suits
    st = s.strength
    trump = s.trump
    opponents = p.opponents
    out = p.out

    def sure(c: int) -> bool:
        if s.above[c] & out:
            return False
        e = s.eff[c]
        return e == JOKER_WINS or not _ruff_risk(p, c, e, opponents)

    if want:
        winners = [c for c in ids if sure(c)]
        if winners:
            side = [c for c in winners if s.eff[c] != trump]
            return lowest(side or winners, st)
        side = [c for c in ids if s.eff[c] != trump and s.eff[c] != JOKER_WINS]
        if side:
            lengths = {e: sum(1 for c in side if s.eff[c] == e) for e in {s.eff[c] for c in side}}
            # no sure winner: lead the top of the shortest side suit, towards a void to ruff
            suit = min(lengths, key=lambda e: (lengths[e], -e))
            return highest([c for c in side if s.eff[c] == suit], st)
        return lowest(ids, st)

    def safety(c: int) -> tuple[int, int]:
        e = s.eff[c]
        if e == JOKER_WINS:
            return (-100, 0)
        higher = (s.above[c] & out).bit_count()
        all_void = e < 4 and all(p.voids[q] >> e & 1 for q in opponents)
        penalty = 3 if e == trump else 0
        if all_void or higher == 0:
            penalty += 10
        return (higher - penalty, -st[c])

    spare = [c for c in ids if not keep >> c & 1]
    return max(spare or ids, key=safety)
