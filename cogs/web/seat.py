"""A person's own seat at the live table's page: their hand, as the page shows it, built from
the same `HandState` their hand DM shows (and in its words), and the stream that sends it.

The seat's stream (`GET /t/<link>/seat`, with the page's session in `Authorization: Session
…`, never in the address) carries the table's public pushes, the same frames every watcher of
the page gets, and after each the person's own hand when it changed: only the person the
session names is sent a hand, and only their own; someone without a seat is sent the public
pushes alone. While the stream is open the person is at the page (`room.presence`); it ends
with its session, or within `KEEP_ALIVE` seconds of the person's erasure."""

from __future__ import annotations

import asyncio
import time
from typing import TYPE_CHECKING, Any

from aiohttp import web

from bot.engine import SUITS, Phase
from bot.service import HandState
from cogs.render.common import SUIT_SYMBOLS, card_text, suit_text
from cogs.render.explanations import MOVES
from cogs.render.hand import PLAYED_OUT, _bid_footer, _now_text
from cogs.render.language import _, language, number, pgettext, speaking
from cogs.render.reasons import reason_text, sentence
from cogs.web.auth import AUTH, acting, who
from cogs.web.live import card_code, event_bytes
from cogs.web.seat_hands import SeatHands
from cogs.web.sessions import SESSION

if TYPE_CHECKING:
    from cogs.web.server import WebRoom

State = dict[str, Any]


def card_reason(state: HandState, allowed: bool) -> str | None:
    """Why a card of the hand cannot be played now, in the DM's words; None when it can."""
    if state.phase is not Phase.PLAYING:
        return None
    if not state.my_turn:
        return _("Waiting for others")
    if allowed:
        return None
    led = state.on_table[0][1] if state.on_table else None
    if led is not None and led.suit is not None:
        return sentence(MOVES["follow_suit"]({"suit": led.suit}))
    # Translators: the table page: why a card of the player's hand is dimmed.
    return _("You can't play this card now.")


def prompt_text(state: HandState) -> str:
    """What the hand asks of the person now, as the DM's footer says it."""
    if state.played_out:
        return _(PLAYED_OUT)
    if state.away is not None:
        return _("A computer is playing your seat")
    if state.bid_options:
        return _bid_footer(state)
    if state.trump_options:
        return _("You bid highest: choose trump")
    if state.phase is Phase.PLAYING and state.my_turn:
        return _("Your turn: play a card")
    return _("Waiting for others")


def hand_view(state: HandState) -> State:
    """One person's hand as their page draws it, every word in the language being spoken."""
    playing = state.phase is Phase.PLAYING and state.away is None and not state.played_out
    cards = []
    for option in state.cards:
        reason = card_reason(state, option.allowed) if playing else None
        cards.append(
            {
                "id": option.card_id,
                "card": card_code(option.card),
                "label": card_text(option.card),
                "playable": playing and state.my_turn and option.allowed,
                "reason": reason,
            }
        )
    bid = "—" if state.bid is None else number(state.bid)
    view: State = {
        "table": state.table_id,
        "hand": state.hand_number,
        "phase": state.phase.name.lower(),
        "turn": state.my_turn,
        "title": _("Your hand — hand {hand}").format(hand=number(state.hand_number)),
        "prompt": prompt_text(state),
        "now": _now_text(state) if state.away is None else None,
        "cards": cards,
        "blind": [{"name": name, "card": card_code(card)} for name, card in state.blind_cards],
        "bid_line": _("Your bid")
        + ": "
        + _("{bid} · took {took}").format(bid=bid, took=number(state.tricks_won)),
        "bids": [
            {
                "n": option.n,
                "label": number(option.n),
                "allowed": option.allowed,
                "chosen": option.n == state.bid,
                "reason": None if option.reason is None else sentence(reason_text(option.reason)),
            }
            for option in state.bid_options
        ]
        if state.away is None
        else [],
        "trumps": [{"suit": suit, "label": suit_text(suit)} for suit in state.trump_options]
        if state.away is None
        else [],
        "auto": state.auto_play,
        "auto_label": pgettext("button", "Auto-play forced card: on")
        if state.auto_play
        else pgettext("button", "Auto-play forced card: off"),
        "away": state.away,
        "played_out": state.played_out,
        "over": state.game_over,
        "deadline": state.deadline,
    }
    joker = next((o for o in state.cards if o.card.suit is None), None)
    view["jokers"] = []
    if joker is not None and state.joker_suits and playing and state.my_turn:
        # Led in no trumps, the joker is played as a suit named: one button a suit.
        view["jokers"] = [
            {
                "id": joker.card_id,
                "suit": SUITS.index(suit),
                "label": _("{card} as {suit}").format(
                    card=card_text(joker.card), suit=SUIT_SYMBOLS[suit]
                ),
            }
            for suit in state.joker_suits
        ]
        for card in cards:
            if card["id"] == joker.card_id:
                card["playable"] = False
                card["reason"] = sentence(MOVES["name_joker_suit"]({}))
    if state.played_out and state.cards:
        view["cards"] = [cards[0] | {"playable": False, "reason": _(PLAYED_OUT)}]
    return view


def hand_frame(state: HandState | None, code: str) -> bytes:
    """The push of a person's own hand (`null`: no hand of theirs to show)."""
    if state is None:
        return event_bytes("hand", None)
    with speaking(language(code)):
        view = hand_view(state)
    return event_bytes("hand", view)


KEEP_ALIVE = 20.0
"""Seconds between a quiet stream's comments, and between the checks that its session still
holds (an erasure ends it: cogs/web/auth.py)."""
WRITE_TIMEOUT = 10.0


def session_ends(request: web.Request) -> float:
    """When the request's (good) session runs out: its stream ends then."""
    auth = request.app[AUTH]
    assert auth.sessions is not None, "a session was read"
    token = request.headers["Authorization"][len("Session ") :].strip()
    return float(auth.sessions.read(SESSION, token).expires)


class SeatStreams:
    """The seat streams of one web room."""

    def __init__(self, room: WebRoom) -> None:
        self.room = room
        self.open = 0
        self.hands = SeatHands(
            lambda table_id, people: room.service.lookups.seat_hands(table_id, people)
        )
        """Each table's hands, fetched once a change for all its open streams."""

    async def stream(self, request: web.Request) -> web.StreamResponse:
        user_id = await acting(request)
        ends = session_ends(request)
        room = self.room
        view, scored = await room.scored_table(request)
        spoken = await room.language_for(request, view.guild_id, view.channel_id)
        watcher = room.watchers.add(view, spoken.code, scored)
        if watcher is None:
            return web.json_response({"error": "busy"}, status=503, headers={"Retry-After": "30"})
        table_id = view.table_id
        response = web.StreamResponse(
            headers={
                "Content-Type": "text/event-stream; charset=utf-8",
                "Cache-Control": "no-store",
                "X-Accel-Buffering": "no",
            }
        )
        room.presence.arrive(table_id, user_id)
        self.hands.arrive(table_id, user_id)
        self.open += 1
        sent: bytes | None = None
        shown: HandState | None = None
        checked = time.monotonic()
        try:
            await response.prepare(request)
            while True:
                frame = await watcher.next_frame(min(KEEP_ALIVE, max(0.0, ends - time.time())))
                if time.time() >= ends:
                    break  # the session is over: the page connects again with its renewed one
                if time.monotonic() - checked >= KEEP_ALIVE:
                    checked = time.monotonic()
                    if await who(request) is None:
                        break  # the session ended early: the person erased themselves
                # Timers, not wait_for's task of its own for every write.
                if frame is None:
                    async with asyncio.timeout(WRITE_TIMEOUT):
                        await response.write(b": -\n\n")
                    if watcher.closed:
                        break
                    continue
                async with asyncio.timeout(WRITE_TIMEOUT):
                    await response.write(frame)
                state = await self.hands.hand(table_id, user_id, watcher.version)
                if sent is not None and state == shown:
                    continue  # the hand is as it was sent: nothing to render again
                hand = hand_frame(state, spoken.code)
                if hand != sent:
                    async with asyncio.timeout(WRITE_TIMEOUT):
                        await response.write(hand)
                    sent = hand
                shown = state
        except (ConnectionError, TimeoutError, asyncio.CancelledError):
            pass
        finally:
            self.open -= 1
            self.hands.leave(table_id, user_id)
            room.watchers.remove(watcher)
            room.presence.leave(table_id, user_id)
        return response
