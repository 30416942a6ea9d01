"""The ``normal`` level: hand evaluation for the bid, card counting and inferred voids in play,
everything aimed at taking exactly the tricks bid (or whatever the scoring pays best)."""

from __future__ import annotations

import random

from bot.engine import SUITS, Action, Bid, ChooseTrump, Phase, Play

from .cards import JOKER_WINS, NO_TRUMPS, TRUMP_PENDING, Suits, bits, suits_for
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
_CONTROL = 0.5
"""Chance that a player one trick off its bid steers onto it (for valuing bids)."""
"""Calibration: the card estimates run a little low against real play."""


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
    probs = shift_probs(probs, excess)
    probs = [min(1.0, p + (1 - p) * LIFT) for p in probs]
    values = bid_values(trick_distribution(probs), legal, scoring, n, k, _CONTROL)
    return max(legal, key=lambda b: (values[b], -b))


def choose_trump(table: Table) -> int:
    bid = table.bids[table.seat]
    scored = []
    for s in range(4):
        e = sum(hand_probs(table, suits_for(table.pack.name, s)))
        scored.append((abs(e - bid), -e, s))
    return min(scored)[2]


def name_joker(table: Table, actions: list[Play], want: bool) -> Action:
    masks = table.suits.masks

    def length(a: Play) -> int:
        assert a.suit is not None
        return (table.mine & masks[SUITS.index(a.suit)]).bit_count()

    return max(actions, key=length) if want else min(actions, key=length)


def play(table: Table) -> Action:
    cards = legal_cards(table)
    if not cards:
        return first_action(table)
    ids = list(cards)
    me = table.seat
    want = wants_trick(
        table.rules.scoring,
        table.bids[me],
        table.won[me],
        table.left,
        table.cards_each,
        len(table.seats),
    )
    out = others_out(table)
    need = table.bids[me] - table.won[me]
    keep = 0
    if want and 0 < need < table.left:
        # more sure power than tricks still wanted: duck now, keep the winners for later
        probs = hand_probs(table, table.suits)
        strong = [(c, p) for c, p in zip(bits(table.mine), probs, strict=True) if p >= _SURPLUS_P]
        if sum(p for _, p in strong) >= need + _SURPLUS_MARGIN:
            want = False
            keep = sum(1 << c for c, _ in strong)
    play_to = follow if table.trick else lead
    c = play_to(table, ids, want, out, keep)
    acts = cards[c]
    if len(acts) > 1:
        return name_joker(table, acts, want)
    return acts[0]


def _ruff_risk(table: Table, c: int, suit: int, after: list[int], out: int) -> bool:
    s = table.suits
    if s.eff[c] == JOKER_WINS:
        return False
    if table.trump == NO_TRUMPS:
        j = table.pack.joker
        return j >= 0 and bool(out >> j & 1)
    trump = s.trump
    if trump < 0 or s.eff[c] == trump or not s.masks[trump] & out:
        return False
    if any(table.voids[p] >> suit & 1 for p in after):
        return True
    return (s.masks[suit] & out).bit_count() < 2 * len(after)


def follow(table: Table, ids: list[int], want: bool, out: int, keep: int = 0) -> int:
    """The card to play to a trick led by another seat; ``keep``: winners to save."""
    s = table.suits
    st = s.strength
    trick = [c for _, c in table.trick]
    best = trick[s.winner_index(trick)]
    winners = [c for c in ids if s.beats(c, best)]
    losers = [c for c in ids if c not in winners]
    after = to_play_after(table)

    def holds(c: int) -> bool:
        if not after:
            return True
        if s.above[c] & out:
            return False
        return not _ruff_risk(table, c, table.led, after, out)

    if want:
        if winners:
            sure = [c for c in winners if holds(c)]
            if sure:
                return lowest(sure, st)
            return highest(winners, st)
        return lowest(ids, st)
    if losers:
        spare = [c for c in losers if not keep >> c & 1]
        return highest(spare, st) if spare else lowest(losers, st)
    low = lowest(ids, st)
    return highest(ids, st) if holds(low) else low


def lead(table: Table, ids: list[int], want: bool, out: int, keep: int = 0) -> int:
    s = table.suits
    st = s.strength
    trump = s.trump
    opponents = [p for p in table.seats if p != table.seat]

    def sure(c: int) -> bool:
        if s.above[c] & out:
            return False
        e = s.eff[c]
        return e == JOKER_WINS or not _ruff_risk(table, c, e, opponents, out)

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
        all_void = e < 4 and all(table.voids[p] >> e & 1 for p in opponents)
        penalty = 3 if e == trump else 0
        if all_void or higher == 0:
            penalty += 10
        return (higher - penalty, -st[c])

    spare = [c for c in ids if not keep >> c & 1]
    return max(spare or ids, key=safety)
