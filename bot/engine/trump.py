"""The trump suit of a hand: set by the rules and the turned card at the deal, or chosen by the
highest bidder (trump ``bidder``) once bidding is over."""

from __future__ import annotations

import functools

from bot.engine.actions import TrumpChosen
from bot.engine.cards import SUITS, Pack
from bot.engine.state import NO_TRUMPS, TRUMP_PENDING, GameState, start_play


def trump_at_deal(g: GameState, num: int, turned: int) -> int:
    """Hand ``num``'s (0-based) trump as dealt: a suit, ``NO_TRUMPS`` or ``TRUMP_PENDING``."""
    r = g.rules
    pk = g.pack
    if r.trump == "turned":
        ace = turned >= 0 and r.ace_no_trumps and pk.cards[turned].rank == "A"
        if turned < 0 or pk.suit_of[turned] == 4 or ace:
            return NO_TRUMPS
        return pk.suit_of[turned]
    if r.trump == "spades":
        return 3
    if r.trump == "rotation":
        return (0, 1, 2, 3, NO_TRUMPS)[num % 5]
    return TRUMP_PENDING


def set_trump(g: GameState, trump: int) -> None:
    """Set the trump suit and the suit masks it implies."""
    g.trump_id = trump
    sm = suit_masks(g.pack, trump)
    g.suit_cards = sm
    g.trump_cards = sm[trump] if trump >= 0 else 0
    g.joker_no_trumps = g.joker >= 0 and trump == NO_TRUMPS


@functools.cache
def suit_masks(pack: Pack, trump: int) -> tuple[int, ...]:
    """The cards of each suit 0-3 when ``trump`` is trump: a joker belongs to the trump suit."""
    sm = list(pack.suit_masks)
    jk = pack.joker
    if jk >= 0 and trump >= 0:
        sm[trump] |= 1 << jk
    return tuple(sm)


def choose(g: GameState, seat: int, suit: int) -> None:
    """The highest bidder chooses trump; play starts."""
    ev = g.events
    g.trump_choice = (seat, suit)
    set_trump(g, suit)
    if ev is not None:
        ev.append(TrumpChosen(seat, SUITS[suit]))
    start_play(g)
