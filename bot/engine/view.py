"""What a seat sees: its legal actions as :class:`Action` values and its :class:`PlayerView`
(exactly what it may know: its own hand, or the others' in a blind hand; secret bids hidden)."""

from __future__ import annotations

import functools

from bot.engine.actions import Action, Bid, ChooseTrump, Play, PlayerView, TrickView
from bot.engine.cards import HIDDEN, JOKER, SUITS, Card, Pack
from bot.engine.moves import legal_mask
from bot.engine.state import BIDDING, OVER, PLAYING, TRUMP, TRUMP_PENDING, GameState, Trick, bits
from bot.engine.tricks import joker_suits


def legal_actions(g: GameState, seat: int) -> list[Action]:
    """Every action ``seat`` may take now (copies of a duplicated card appear once)."""
    m = legal_mask(g, seat)
    ph = g.phase
    if ph is BIDDING:
        return [Bid(n) for n in bits(m)]
    if ph is TRUMP:
        return [ChooseTrump(SUITS[s]) for s in bits(m)]
    if ph is not PLAYING:
        return []
    out: list[Action] = []
    seen: set[Card] = set()
    cards = g.pack.cards
    for c in bits(m):
        card = cards[c]
        if card in seen:
            continue
        seen.add(card)
        if c == g.joker and g.joker_no_trumps and not g.trick:
            out.extend(Play(JOKER, SUITS[s]) for s in bits(joker_suits(g, seat)))
        else:
            out.append(Play(card))
    return out


def view(g: GameState, seat: int) -> PlayerView:
    """Exactly what ``seat`` may see."""
    pk = g.pack
    np_ = g.players
    blind = g.is_blind and g.phase is not OVER
    own = () if blind else pk.cards_of(g.hands[seat])
    visible: list[tuple[Card, ...] | None] = [None] * np_
    if blind:
        for s in g.seats:
            if s != seat:
                visible[s] = pk.cards_of(g.hands[s])
    secret = g.rules.bidding in ("secret", "knock") and g.phase is BIDDING
    bids = tuple(
        (b if b >= 0 and (not secret or s == seat) else None) for s, b in enumerate(g.seat_bids)
    )
    has_bid = tuple(b >= 0 for b in g.seat_bids)
    legal = tuple(legal_actions(g, seat))
    if blind and g.phase is PLAYING:
        # One unseen card, one action: a joker led in no trumps is offered once too, not once
        # per suit it may be named (that would show the seat its card).
        legal = (Play(HIDDEN),) if legal else ()
    return PlayerView(
        seat=seat,
        names=g.names,
        phase=g.phase,
        hand_number=g.hand_number,
        cards_each=g.cards_each,
        dealer=g.dealer,
        seats=g.seats,
        to_act=g.to_act,
        hand=own,
        blind=blind,
        visible_hands=tuple(visible),
        hand_sizes=tuple(h.bit_count() for h in g.hands),
        turned=g.turned,
        trump=g.trump,
        trump_decided=g.trump_id != TRUMP_PENDING,
        bids=bids,
        has_bid=has_bid,
        bid_round=g.bid_round,
        trick=current_trick(g),
        led=SUITS[g.led_suit] if g.trick and g.led_suit >= 0 else None,
        trick_value=g.trick_value,
        tricks=completed_tricks(g),
        tricks_won=tuple(g.won),
        totals=tuple(g.running_totals),
        legal_actions=legal,
        placing=g.placing,
    )


def current_trick(g: GameState) -> tuple[tuple[int, Card], ...]:
    """The trick in progress as (seat, card), in the order played: public."""
    trick = []
    s = g.leader
    cards = g.pack.cards
    for c in g.trick:
        trick.append((s, cards[c]))
        s = g.next_seat[s]
    return tuple(trick)


def completed_tricks(g: GameState) -> tuple[TrickView, ...]:
    """This hand's finished tricks, in order: public."""
    return tuple(_trick_view(g.pack, g.next_seat, t) for t in g.tricks)


@functools.lru_cache(maxsize=4096)
def _trick_view(pack: Pack, next_seat: tuple[int, ...], t: Trick) -> TrickView:
    """Remembered: a finished trick never changes, and every view of the hand shows it."""
    seats = []
    s = t.leader
    for _ in t.cards:
        seats.append(s)
        s = next_seat[s]
    cards = pack.cards
    return TrickView(
        leader=t.leader,
        seats=tuple(seats),
        cards=tuple(cards[c] for c in t.cards),
        winner=t.winner if t.winner >= 0 else None,
        value=t.value,
        joker_suit=SUITS[t.joker_suit] if t.joker_suit >= 0 else None,
    )
