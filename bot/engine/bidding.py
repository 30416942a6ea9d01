"""Bidding: what a seat may bid (the dealer's hook), bids in turn or all at once (secret,
knocking rounds), bid changes, and the end of the auction."""

from __future__ import annotations

from bot.engine.actions import BidChanged, BidMade, BidsRevealed
from bot.engine.state import TRUMP, TRUMP_PENDING, GameState, start_play


def all_pending(g: GameState) -> int:
    """Every seat dealt in, as bits: the seats a simultaneous round waits for."""
    m = 0
    for s in g.play_order:
        m |= 1 << s
    return m


def bid_mask(g: GameState, seat: int) -> int:
    """The bids ``seat`` may make now, as bits (0 when it may not bid)."""
    full = (1 << (g.cards_each + 1)) - 1
    if g.pending_bids:
        return full if g.pending_bids >> seat & 1 else 0
    m = 0
    if seat == g.play_order[g.bidder_index]:
        m = full
        if g.bidder_index == g.dealt_in - 1 and g.rules.bidding == "hook":
            f = hook_forbidden(g)
            if f >= 0:
                m &= ~(1 << f)
    elif seat == g.bid_changer:
        m = full & ~(1 << g.seat_bids[seat])
    return m


def hook_forbidden(g: GameState) -> int:
    """The bid the dealer may not make (the bids would add up to the tricks), or -1."""
    rest = g.cards_each
    bids = g.seat_bids
    for s in g.play_order[:-1]:
        rest -= bids[s]
    return rest if 0 <= rest <= g.cards_each else -1


def bid(g: GameState, seat: int, n: int) -> None:
    """Record a legal bid (or bid change) and move the auction on."""
    ev = g.events
    g.bid_log.append((seat, n))
    if g.pending_bids:
        g.seat_bids[seat] = n
        g.pending_bids &= ~(1 << seat)
        if ev is not None:
            ev.append(BidMade(seat, None))
        if not g.pending_bids:
            again = (
                g.rules.bidding == "knock"
                and g.bid_round < 3
                and sum(g.seat_bids[s] for s in g.play_order) == g.cards_each
            )
            if ev is not None:
                ev.append(BidsRevealed(g.bids, g.bid_round, again))
            if again:
                g.bid_round += 1
                for s in g.play_order:
                    g.seat_bids[s] = -1
                g.pending_bids = all_pending(g)
                g.turn = g.play_order[0]
            else:
                end_bidding(g)
        elif seat == g.turn:
            p = g.pending_bids
            for s in g.play_order:
                if p >> s & 1:
                    g.turn = s
                    break
        return
    if seat == g.bid_changer and seat != g.play_order[g.bidder_index]:
        old = g.seat_bids[seat]
        g.seat_bids[seat] = n
        if ev is not None:
            ev.append(BidChanged(seat, old, n))
        return
    g.seat_bids[seat] = n
    if ev is not None:
        ev.append(BidMade(seat, n))
    g.bidder_index += 1
    if g.bidder_index == g.dealt_in:
        g.bid_changer = -1
        end_bidding(g)
    else:
        g.bid_changer = seat if g.rules.bid_changes else -1
        g.turn = g.play_order[g.bidder_index]


def end_bidding(g: GameState) -> None:
    """The auction is over: the highest bidder (first of equals) chooses trump, or play starts."""
    if g.trump_id == TRUMP_PENDING:
        best = -1
        for s in g.play_order:
            if g.seat_bids[s] > best:
                best = g.seat_bids[s]
                g.trump_chooser = s
        g.phase = TRUMP
        g.turn = g.trump_chooser
        return
    start_play(g)
