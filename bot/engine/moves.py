"""The fast path over every phase: what a seat may do now as a bitmask, and applying a move
from it unchecked. Computer players simulate with these; the checked API is built on them."""

from __future__ import annotations

from bot.engine.bidding import bid, bid_mask
from bot.engine.cards import BIT
from bot.engine.errors import WrongPhase
from bot.engine.scoring import end_hand
from bot.engine.state import BIDDING, PLAYING, TRUMP, GameState, Trick
from bot.engine.tricks import finish_trick, joker_suits, new_trick, nt_legal, play
from bot.engine.trump import choose


def legal_mask(g: GameState, seat: int) -> int:
    """What ``seat`` may do now, as a bitmask: card ids while playing, bid values while
    bidding, suits 0-3 when choosing trump; 0 when it may do nothing."""
    if g.plain_play and seat == g.turn:
        h = g.hands[seat]
        return h & g.follow_cards or h
    ph = g.phase
    if ph is PLAYING:
        if seat != g.turn:
            return 0
        h = g.hands[seat]
        if g.joker_no_trumps:
            return nt_legal(g, seat, h)
        if g.trick:
            f = h & g.suit_cards[g.led_suit]
            if f:
                return f
        return h
    if ph is BIDDING:
        return bid_mask(g, seat)
    if ph is TRUMP:
        return 0b1111 if seat == g.trump_chooser else 0
    return 0


def apply_fast(g: GameState, seat: int, x: int, suit: int = -1) -> None:
    """Apply a move from ``legal_mask`` unchecked: a card id, a bid, or a trump suit.
    ``suit`` names a joker led in no trumps (default: the lowest suit allowed)."""
    if g.plain_play:
        # tricks.play without the joker's no-trump rules, inlined: this is the hot path. A joker
        # led here is a trump, and no suit is named (``named_suit`` stays -1 all hand).
        bit = BIT[x]
        g.hands[seat] ^= bit
        trick = g.trick
        if not trick:
            s = g.suit_of[x]
            if s == 4:
                s = g.trump_id
            g.led_suit = s
            g.follow_cards = g.suit_cards[s]
        trick.append(x)
        g.trick_cards |= bit
        if len(trick) < g.dealt_in:
            g.turn = g.next_seat[seat]
        elif g.has_duplicates:
            finish_trick(g)
        else:
            # tricks.finish_trick without duplicates, inlined: the highest trump wins, else the
            # highest card of the led suit; no card is cancelled, so the trick's value is 1
            # (``trick_value`` stays 1 all hand), and no events are kept on the fast path.
            tm = g.trick_cards
            w = tm & g.trump_cards or tm & g.follow_cards
            leader = g.leader
            winner = g.orders_from[leader][trick.index(w.bit_length() - 1)]
            g.won[winner] += 1
            g.leader = winner
            g.tricks.append(new_trick(Trick, (leader, tuple(trick), winner, 1, -1)))
            trick.clear()
            g.trick_cards = 0
            g.follow_cards = -1
            g.tricks_left -= 1
            if g.tricks_left:
                g.turn = winner
            else:
                end_hand(g)
        return
    ph = g.phase
    if ph is PLAYING:
        if x == g.joker and g.joker_no_trumps and not g.trick and suit < 0:
            m = joker_suits(g, seat)
            suit = (m & -m).bit_length() - 1
        play(g, seat, x, suit)
    elif ph is BIDDING:
        bid(g, seat, x)
    elif ph is TRUMP:
        choose(g, seat, x)
    else:
        raise WrongPhase("the game is over", code="game_over")
