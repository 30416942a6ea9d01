"""The ``random`` level (uniform among legal actions) and ``easy``: quick rules of thumb a
beginner would use."""

from __future__ import annotations

import random

from bot.engine import SUITS, Action, Bid, ChooseTrump, Phase

from .cards import JOKER_WINS, bits
from .common import first_action, highest, legal_bids, legal_cards, lowest, nearest_bid
from .knowledge import Table


def decide_random(table: Table, rng: random.Random) -> Action:
    return rng.choice(table.view.legal_actions)


def decide_easy(table: Table, rng: random.Random) -> Action:
    view = table.view
    if len(view.legal_actions) == 1:
        return view.legal_actions[0]
    if view.phase is Phase.BIDDING:
        return Bid(easy_bid(table))
    if view.phase is Phase.TRUMP_CHOICE:
        return ChooseTrump(SUITS[longest_suit(table)])
    return easy_play(table)


def longest_suit(table: Table) -> int:
    masks = table.pack.suit_masks
    return max(range(4), key=lambda s: ((table.mine & masks[s]).bit_count(), s))


def easy_bid(table: Table) -> int:
    """Count the aces and kings, and the trumps from the jack up; a blind card bids 0."""
    legal = legal_bids(table)
    s = table.suits
    pack = table.pack
    count = 0.0
    for c in bits(table.mine):
        e = s.eff[c]
        top = s.above[c].bit_count()
        if e == JOKER_WINS or (e == s.trump and top <= 3) or (e != s.trump and top == 0):
            count += 1
        elif e != s.trump and top == 1 and pack.rank_of[c] > 0:
            count += 0.5
    return nearest_bid(legal, int(count))


def easy_play(table: Table) -> Action:
    cards = legal_cards(table)
    if not cards:
        return first_action(table)
    ids = list(cards)
    s = table.suits
    st = s.strength
    me = table.seat
    want = table.won[me] < table.bids[me]
    if not table.trick:
        c = highest(ids, st) if want else lowest(ids, st)
    else:
        trick = [c for _, c in table.trick]
        best = trick[s.winner_index(trick)]
        winners = [c for c in ids if s.beats(c, best)]
        if want:
            c = highest(winners, st) if winners else lowest(ids, st)
        else:
            losers = [c for c in ids if c not in winners]
            c = highest(losers, st) if losers else lowest(ids, st)
    return cards[c][0]
