"""Moves from a person's seat at the page (`POST /t/<link>/act`, with the page's session in
`Authorization: Session …`): a card by the id the hand offered, a bid, trump, the auto-play
switch, leaving the game and coming back. Each is decided by the same service call the hand
DM's buttons make, so every check a click gets (the seat, the turn, what was offered, the hand)
applies; a stored change is then shown exactly as a click's (`WebRoom.acted`: the table
message, the hand DMs and every page follow). A refusal is JSON `{"error": code, "message":
<the sentence a click is told, in the page's language>}` with a 4xx status, and nothing
changed; without a good session, 401 with the code cogs/web/auth.py gives and a sentence
saying to sign in again."""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from aiohttp import web

from bot.engine import SUITS, Bid, ChooseTrump
from bot.service import CorruptRow, Outcome, Refused
from bot.service.refusals import ComputerHasSeat, NotSeated, NotSeatedOther, RemovedByHost
from cogs.render.language import N_, _, speaking
from cogs.render.reasons import refusal
from cogs.web.auth import NoSession, no_session, signed_in
from cogs.web.json_answers import BadBody, json_answer, json_body

if TYPE_CHECKING:
    from cogs.web.server import WebRoom

PER_SECOND = 10
"""Moves a person may send a second; more are answered 429."""
MAX_BODY = 256
"""A move's body, at most (bytes)."""
FORBIDDEN = (NotSeated, NotSeatedOther, ComputerHasSeat, RemovedByHost)
"""Refusals that say the seat is not the person's to play: 403 (others are 409)."""

TOO_MANY = N_("Too many moves at once: wait a moment and try again.")
BAD_MOVE = N_("The page sent a move the bot does not know. Reload the page and try again.")


class BadMove(Exception):
    """A body that is not a move."""


class Actions:
    """The page's moves for one web room."""

    def __init__(self, room: WebRoom, clock: Callable[[], float] = time.monotonic) -> None:
        self.room = room
        self.clock = clock
        self._recent: dict[int, deque[float]] = {}

    def flooding(self, user_id: int) -> bool:
        """Whether `user_id` has sent more than `PER_SECOND` moves in the last second (this one
        counted)."""
        now = self.clock()
        recent = self._recent.setdefault(user_id, deque())
        while recent and recent[0] <= now - 1.0:
            recent.popleft()
        recent.append(now)
        if len(self._recent) > 4096:  # forget people who have gone quiet
            for quiet in [u for u, times in self._recent.items() if times[-1] <= now - 1.0]:
                del self._recent[quiet]
        return len(recent) > PER_SECOND

    async def act(self, request: web.Request) -> web.Response:
        room = self.room
        nobody: NoSession | None = None
        try:
            user_id = await signed_in(request)
        except NoSession as refused:
            user_id, nobody = 0, refused
        # The link's table, as `room.table` checks it, without building its view: its server
        # and channel say the page's language.
        signed = room.signed(request, "t")
        try:
            guild_id, channel_id = await room.service.lookups.place(signed.number)
        except (Refused, CorruptRow):
            raise web.HTTPNotFound() from None
        if guild_id != signed.guild_id:
            raise web.HTTPNotFound()
        spoken = await room.language_for(request, guild_id, channel_id)
        if nobody is not None:
            with speaking(spoken):
                return no_session(nobody)
        if self.flooding(user_id):
            with speaking(spoken):
                message = _(TOO_MANY)
            return json_answer({"error": "too_many", "message": message}, 429, {"Retry-After": "1"})
        try:
            move = _move(await json_body(request, MAX_BODY))
            outcome = await self._decide(signed.number, user_id, move)
        except CorruptRow:
            raise web.HTTPNotFound() from None  # unreadable, as the link's check finds it
        except (BadBody, BadMove):
            with speaking(spoken):
                message = _(BAD_MOVE)
            return json_answer({"error": "bad_request", "message": message}, 400)
        except Refused as refused:
            with speaking(spoken):
                message = refusal(refused)
            status = 403 if isinstance(refused.reason, FORBIDDEN) else 409
            return json_answer({"error": refused.code, "message": message}, status)
        room.acted(
            outcome, user_id, outcome.automatic or move["do"] not in ("play", "bid", "trump")
        )
        return json_answer({"ok": True, "version": outcome.table.version}, 200)

    async def _decide(self, table_id: int, user_id: int, move: dict[str, Any]) -> Outcome:
        service = self.room.service
        match move["do"]:
            case "play":
                named = None if move.get("suit") is None else SUITS[move["suit"]]
                return await service.playing.act(
                    table_id, user_id, move["hand"], move["card"], named=named
                )
            case "bid":
                return await service.playing.act(table_id, user_id, move["hand"], Bid(move["bid"]))
            case "trump":
                trump = ChooseTrump(SUITS[move["suit"]])
                return await service.playing.act(table_id, user_id, move["hand"], trump)
            case "auto":
                return await service.playing.set_auto_play(table_id, user_id, move["on"])
            case "leave":
                return await service.lobby.leave(table_id, user_id)
            case "back":
                return await service.host.come_back(table_id, user_id)
        raise BadMove()


def _count(value: object, high: int = 10_000) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= high:
        raise BadMove()
    return value


def _move(body: dict[str, Any]) -> dict[str, Any]:
    """A body checked for its shape (the service checks the rest): `{"do": "play", "hand": h,
    "card": id[, "suit": 0-3]}`, `{"do": "bid", "hand": h, "bid": n}`, `{"do": "trump",
    "hand": h, "suit": 0-3}`, `{"do": "auto", "on": true|false}`, `{"do": "leave", "confirm":
    true}`, `{"do": "back"}`."""
    do = body.get("do")
    if do == "play":
        suit = body.get("suit")
        return {
            "do": do,
            "hand": _count(body.get("hand")),
            "card": _count(body.get("card")),
            "suit": None if suit is None else _count(suit, len(SUITS) - 1),
        }
    if do == "bid":
        return {"do": do, "hand": _count(body.get("hand")), "bid": _count(body.get("bid"))}
    if do == "trump":
        return {
            "do": do,
            "hand": _count(body.get("hand")),
            "suit": _count(body.get("suit"), len(SUITS) - 1),
        }
    if do == "auto" and isinstance(body.get("on"), bool):
        return {"do": do, "on": body["on"]}
    if do == "leave" and body.get("confirm") is True:
        return {"do": do}
    if do == "back":
        return {"do": do}
    raise BadMove()
