"""Explanations of refusals: the checks of the checked API, each refusal a typed
:class:`EngineError` with a text for the player (``str(e)``), the same as a code and its values
for a player in any language (``e.code``, ``e.params``), a rule slug and a sentence for a game
record's error (``e.record``)."""

from __future__ import annotations

from bot.engine.actions import Play
from bot.engine.bidding import bid_mask
from bot.engine.cards import HIDDEN, SUIT_NAMES, SUITS, Card
from bot.engine.errors import IllegalBid, IllegalPlay, IllegalTrump, NotYourTurn, WrongPhase
from bot.engine.state import BIDDING, OVER, PLAYING, TRUMP, GameState
from bot.engine.tricks import card_mask, joker_suits


def who(g: GameState, seat: int) -> str:
    """The seat's name, or "seat N" for a seat that doesn't exist."""
    return g.names[seat] if 0 <= seat < g.players else f"seat {seat}"


def phase_error(g: GameState, seat: int, doing: str) -> WrongPhase:
    """``seat`` tried ``doing`` in the wrong phase: what the game waits for instead."""
    ph = g.phase
    if ph is OVER:
        return WrongPhase("the game is over", rule="game-over", code="game_over")
    tried = f"{who(g, seat)} tried to {doing}, but "
    if ph is BIDDING:
        names = tuple(who(g, s) for s in g.to_act)
        msg = f"bidding isn't over: waiting for {', '.join(names)} to bid"
        return WrongPhase(msg, record=tried + msg, code="bidding_not_over", names=names)
    if ph is TRUMP:
        name = who(g, g.trump_chooser)
        msg = f"{name} must choose trump first"
        return WrongPhase(msg, record=tried + msg, code="trump_first", name=name)
    msg = "bidding is over: play a card"
    return WrongPhase(msg, record=tried + msg, code="bidding_over")


def check_bid(g: GameState, seat: int, n: int) -> None:
    """Return if ``seat`` may bid ``n`` now, else raise the reason."""
    if g.phase is not BIDDING:
        raise phase_error(g, seat, f"bid {n}")
    name = who(g, seat)
    if not 0 <= seat < g.players:
        raise NotYourTurn(f"there is no seat {seat}", code="no_seat", seat=seat)
    if seat not in g.seats:
        raise NotYourTurn(
            "you are not in this tie-break deal",
            record=f"{name} is not in this tie-break deal",
            code="not_in_tiebreak",
        )
    if n >= 0 and bid_mask(g, seat) >> n & 1:
        return
    if not bid_mask(g, seat):
        if g.pending_bids:
            raise NotYourTurn(
                "you have bid already: waiting for the others",
                record=f"{name} bid twice in one round",
                code="bid_already",
            )
        turn = who(g, g.play_order[g.bidder_index])
        if g.seat_bids[seat] >= 0:
            if not g.rules.bid_changes:
                raise IllegalBid(
                    "bids can't be changed at this table",
                    rule="bid-change",
                    record=f"{name} bid again, but bids can't be changed at this table",
                    code="bids_fixed",
                )
            raise IllegalBid(
                "you can't change your bid any more: the next player has bid",
                rule="bid-change",
                record=f"{name} changed the bid after the next player had bid",
                code="bid_change_late",
            )
        raise NotYourTurn(
            f"it is {turn}'s turn to bid",
            record=f"{name} bid out of turn: it is {turn}'s turn",
            code="turn_to_bid",
            name=turn,
        )
    size = g.cards_each
    if not 0 <= n <= size:
        raise IllegalBid(
            f"bid from 0 to {size}: there are {size} tricks",
            record=f"{name} bid {n}, but bids run from 0 to {size}",
            code="bid_range",
            tricks=size,
        )
    if not g.pending_bids and seat == g.bid_changer and seat != g.play_order[g.bidder_index]:
        raise IllegalBid(
            f"your bid is {n} already",
            rule="bid-change",
            record=f"{name} changed the bid to {n}, which it already was",
            code="same_bid",
            bid=n,
        )
    raise IllegalBid(
        f"as the dealer you can't bid {n}: the bids would add up to {size} tricks",
        rule="hook",
        record=f"{name} (the dealer) bid {n}, making the bids add up to {size} tricks",
        code="dealer_hook",
        bid=n,
        tricks=size,
    )


def check_trump(g: GameState, seat: int, suit: str) -> int:
    """The suit id ``seat`` may choose as trump now, else raise the reason."""
    if g.phase is not TRUMP:
        if g.phase is OVER or g.rules.trump == "bidder":
            raise phase_error(g, seat, "choose trump")
        raise IllegalTrump(
            f"trump is '{g.rules.trump}' at this table: nobody chooses it",
            rule="trump-choice",
            code="trump_fixed",
            trump=g.rules.trump,
        )
    if seat != g.trump_chooser:
        c = who(g, g.trump_chooser)
        raise NotYourTurn(
            f"{c} chooses trump (the highest bid)",
            record=f"{who(g, seat)} chose trump, but {c} chooses (the highest bid)",
            code="trump_chooser",
            name=c,
        )
    if suit not in SUITS:
        raise IllegalTrump(f"choose a suit: one of {', '.join(SUITS)}", code="not_a_suit")
    return SUITS.index(suit)


def check_play(g: GameState, seat: int, action: Play) -> tuple[int, int]:
    """The card id and named joker suit (or -1) of ``action`` if ``seat`` may play it now,
    else raise the reason."""
    if g.phase is not PLAYING:
        raise phase_error(g, seat, f"play {action.card}")
    name = who(g, seat)
    if seat != g.turn:
        t = who(g, g.turn)
        raise NotYourTurn(
            f"it is {t}'s turn",
            record=f"{name} played out of turn: it is {t}'s turn",
            code="turn_to_play",
            name=t,
        )
    h = g.hands[seat]
    card = action.card
    unseen = card == HIDDEN
    if unseen:
        if not g.is_blind or h.bit_count() != 1:
            raise IllegalPlay(
                "only a blind hand's unseen card may be played unseen",
                rule="card-not-held",
                code="not_blind",
            )
        c = h.bit_length() - 1
        card = g.pack.cards[c]
    held = [i for i in g.pack.ids(card) if h >> i & 1]
    if not held:
        raise IllegalPlay(
            f"you don't hold {card}",
            rule="card-not-held",
            record=f"{name} played {card} but doesn't hold it",
            code="not_held",
            card=card,
        )
    legal = card_mask(g, seat)
    ok = [i for i in held if legal >> i & 1]
    is_joker = held[0] == g.joker
    if not ok:
        if is_joker and g.joker_no_trumps:
            raise joker_error(g, seat, card)
        led = SUIT_NAMES[g.led_suit]
        raise IllegalPlay(
            f"you must follow {led}",
            record=f"{name} played {card} but must follow {led}",
            code="follow_suit",
            suit=SUITS[g.led_suit],
        )
    named = -1
    if is_joker and g.joker_no_trumps and not g.trick:
        if action.suit is None and unseen:
            # A blind seat leads the joker without seeing it, so it can't name a suit: the
            # first suit it may be named (a blind hand has one card, the last trick: any suit
            # wins, and every other seat has one card to play).
            m = joker_suits(g, seat)
            return ok[0], (m & -m).bit_length() - 1
        if action.suit is None:
            raise IllegalPlay(
                "name the suit of the joker you lead (no trumps)",
                rule="joker",
                record=f"{name} led the joker without naming its suit",
                code="name_joker_suit",
            )
        named = SUITS.index(action.suit)
        if not joker_suits(g, seat) >> named & 1:
            raise joker_error(g, seat, card, named)
    elif action.suit is not None:
        raise IllegalPlay(
            "name a suit only when you lead the joker in no trumps",
            rule="joker",
            record=f"{name} named a suit for {card}, which isn't a joker led in no trumps",
            code="no_suit_to_name",
        )
    return ok[0], named


def joker_error(g: GameState, seat: int, card: Card, named: int = -1) -> IllegalPlay:
    """Why the joker can't be played as the suit led (or as ``named``) now."""
    s = named if named >= 0 else g.led_suit
    suit = SUIT_NAMES[s]
    failed = g.suits_failed[seat] >> s & 1
    if failed:
        why = f"you have failed to follow {suit} this hand"
    else:
        why = f"you have played {suit} and still hold {suit}"
    they = why.replace("you", "they")
    return IllegalPlay(
        f"the joker can't be played as {suit} now: {why}",
        rule="joker",
        record=f"{who(g, seat)} played the joker as {suit}, but {they}",
        code="joker_failed" if failed else "joker_held",
        suit=SUITS[s],
    )
