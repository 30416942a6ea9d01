"""Bidding: what a seat may bid (the dealer's hook), bids in turn or all at once (secret,
knocking rounds), bid changes, and the end of the auction."""

from __future__ import annotations

from bot.engine.actions import BidChanged, BidMade, BidsRevealed
from bot.engine.state import TRUMP, TRUMP_PENDING, GameState, start_play


def all_pending(g: GameState) -> int:
    """Every seat dealt in, as bits: the seats a simultaneous round waits for."""
    m = 0
    for s in g._order:
        m |= 1 << s
    return m


def bid_mask(g: GameState, seat: int) -> int:
    """The bids ``seat`` may make now, as bits (0 when it may not bid)."""
    full = (1 << (g._size + 1)) - 1
    if g._pending:
        return full if g._pending >> seat & 1 else 0
    m = 0
    if seat == g._order[g._bpos]:
        m = full
        if g._bpos == g._k - 1 and g._rules.bidding == "hook":
            f = hook_forbidden(g)
            if f >= 0:
                m &= ~(1 << f)
    elif seat == g._changer:
        m = full & ~(1 << g._bids[seat])
    return m


def hook_forbidden(g: GameState) -> int:
    """The bid the dealer may not make (the bids would add up to the tricks), or -1."""
    rest = g._size
    bids = g._bids
    for s in g._order[:-1]:
        rest -= bids[s]
    return rest if 0 <= rest <= g._size else -1


def bid(g: GameState, seat: int, n: int) -> None:
    """Record a legal bid (or bid change) and move the auction on."""
    ev = g._ev
    g._log.append((seat, n))
    if g._pending:
        g._bids[seat] = n
        g._pending &= ~(1 << seat)
        if ev is not None:
            ev.append(BidMade(seat, None))
        if not g._pending:
            again = (
                g._rules.bidding == "knock"
                and g._bround < 3
                and sum(g._bids[s] for s in g._order) == g._size
            )
            if ev is not None:
                ev.append(BidsRevealed(g.bids, g._bround, again))
            if again:
                g._bround += 1
                for s in g._order:
                    g._bids[s] = -1
                g._pending = all_pending(g)
                g.turn = g._order[0]
            else:
                end_bidding(g)
        elif seat == g.turn:
            p = g._pending
            for s in g._order:
                if p >> s & 1:
                    g.turn = s
                    break
        return
    if seat == g._changer and seat != g._order[g._bpos]:
        old = g._bids[seat]
        g._bids[seat] = n
        if ev is not None:
            ev.append(BidChanged(seat, old, n))
        return
    g._bids[seat] = n
    if ev is not None:
        ev.append(BidMade(seat, n))
    g._bpos += 1
    if g._bpos == g._k:
        g._changer = -1
        end_bidding(g)
    else:
        g._changer = seat if g._rules.bid_changes else -1
        g.turn = g._order[g._bpos]


def end_bidding(g: GameState) -> None:
    """The auction is over: the highest bidder (first of equals) chooses trump, or play starts."""
    if g._trump == TRUMP_PENDING:
        best = -1
        for s in g._order:
            if g._bids[s] > best:
                best = g._bids[s]
                g._chooser = s
        g._phase = TRUMP
        g.turn = g._chooser
        return
    start_play(g)
