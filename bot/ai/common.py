"""Helpers the levels share: turning card ids into the view's legal actions, and what a seat
wants from the next trick given its bid and the scoring."""

from __future__ import annotations

import functools
import random

from bot.engine import HIDDEN, Action, Bid, Play, PlayerView, score

from .cards import bits
from .evaluate import utility
from .knowledge import Table


def decision_rng(view: PlayerView, seed: int) -> random.Random:
    """All the randomness of one decision: from ``seed`` and where the seat is in the game, so
    the same decision at the same moment is the same whoever asks (play, or the review)."""
    return random.Random(
        f"{seed}:{view.seat}:{view.hand_number}:{view.bid_round}:{sum(view.has_bid)}:"
        f"{len(view.tricks)}:{len(view.trick)}:{view.phase.value}"
    )


def legal_bids(table: Table) -> list[int]:
    return sorted(a.n for a in table.view.legal_actions if isinstance(a, Bid))


def nearest_bid(legal: list[int], want: float) -> int:
    return min(legal, key=lambda b: (abs(b - want), b))


def legal_cards(table: Table) -> dict[int, list[Play]]:
    """Card id (one held copy) -> the legal Play actions for it (several for a joker led in no
    trumps, one per suit it may be named)."""
    out: dict[int, list[Play]] = {}
    pack = table.pack
    mine = table.mine
    for a in table.view.legal_actions:
        if not isinstance(a, Play) or a.card == HIDDEN:
            continue
        held = [i for i in pack.ids(a.card) if mine >> i & 1]
        if held:
            out.setdefault(held[0], []).append(a)
    return out


def wants_trick(scoring: str, bid: int, won: int, left: int, cards_each: int, k: int) -> bool:
    """Does one more trick help? Yes while short of the bid and still able to make it;
    otherwise only if the scoring pays more for it."""
    need = bid - won
    if 0 < need <= left:
        return True
    now = utility(scoring, score(scoring, bid, won, cards_each, k))
    more = utility(scoring, score(scoring, bid, won + 1, cards_each, k))
    return more > now


@functools.cache
def successors(seats: tuple[int, ...]) -> dict[int, int]:
    """Each seat's next seat in playing order."""
    return {a: seats[(i + 1) % len(seats)] for i, a in enumerate(seats)}


def seats_after(nxt: dict[int, int], seat: int, count: int) -> list[int]:
    """The ``count`` seats that play after ``seat``, in order."""
    out = []
    for _ in range(count):
        seat = nxt[seat]
        out.append(seat)
    return out


def next_seat(table: Table, seat: int) -> int:
    order = table.order
    return order[(order.index(seat) + 1) % len(order)]


def to_play_after(table: Table) -> list[int]:
    """Seats still to play to the current trick after this one."""
    k = len(table.seats)
    out = []
    s = table.seat
    for _ in range(k - len(table.trick) - 1):
        s = next_seat(table, s)
        out.append(s)
    return out


def first_action(table: Table) -> Action:
    return table.view.legal_actions[0]


def unknown_share(table: Table) -> float:
    pool = table.pool.bit_count()
    if not pool:
        return 0.0
    held = sum(table.unknown[s] for s in table.seats if s != table.seat)
    return held / pool


def others_out(table: Table) -> int:
    """Cards that may be in another player's hand."""
    m = table.pool
    for s in table.seats:
        if s != table.seat:
            m |= table.known[s]
    return m


def lowest(cards: list[int], strength: list[int]) -> int:
    return min(cards, key=lambda c: (strength[c], c))


def highest(cards: list[int], strength: list[int]) -> int:
    return max(cards, key=lambda c: (strength[c], c))


__all__ = ["bits"]
