"""The lobby at the page: the Activity opened in a channel finds that channel's table, or opens
one; at a table's page, Join, Add computer player, Start and Leave. Each goes through the same
service calls as the lobby's buttons, with the same checks, and its change is shown as a
click's is (the Discord layer's `LobbyDesk`: the table message follows, the pages too).

On with sign-in (PUBLIC_URL and DISCORD_CLIENT_SECRET set); every route needs a session
(`Authorization: Session <token>`, cogs/web/auth.py):

- `POST /activity/table` `{"instance_id", "guild_id", "channel_id"}` (Discord's query): the
  channel's open table as `{"table": "t/<link>"}` (the page's address relative to the site's
  root), or `{"table": null}`;
- `POST /activity/open` (the same body): a table opened there, as /ohhell start
  opens one with the channel's rules, its message posted in the channel: `{"table": "t/<link>"}`;
- `GET /t/<link>/lobby`: what the page's lobby controls (static/lobby.js) offer this person,
  in the page's language: `{"signin", "lobby", "seated", "host", "start_problem", "levels",
  "words"}` — served with sign-in off too, as `{"signin": false}`, and without a session as
  `{"signin": true}`: a page that watches asks it and nothing fails;
- `POST /t/<link>/lobby` `{"action": "join" | "leave" | "start" | "computer", "level"}`: the
  lobby's buttons; answered `{"ok": true, "message"}`.

The channel comes from the page, so it is checked: a server the bot is not in, a channel of
another server, or one the person cannot see (`LobbyDesk.person`), and at the Activity's entry
an instance Discord does not say runs in that channel with the person in it
(`LobbyDesk.in_activity`), is `unknown_channel` (404).
Refusals are `{"error": code, "message": <the sentence a click would show, in the page's
language>}`: 400 `bad_request`, 401 with cogs/web/auth.py's code (and a sentence), 404, 409 for
the service's, 429 `slow_down` past a person's allowance (`ALLOWANCE` requests in `WINDOW`
seconds)."""

from __future__ import annotations

import re
import time
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from aiohttp import web

from bot.service import Outcome, Refused, TableStatus
from bot.service.refusals import ChannelHasTable, MissingPermissions, SlowDown, UnknownChannel
from cogs.render import answer, refusal
from cogs.render.language import _, pgettext, speaking
from cogs.render.lobby import LEVEL_CHOICES
from cogs.render.reasons import reason_text, sentence
from cogs.web.auth import AUTH, NoSession, no_session, signed_in, who
from cogs.web.json_answers import BadBody, json_answer, json_body

if TYPE_CHECKING:
    from cogs.web.server import WebRoom

ALLOWANCE = 12
WINDOW = 10.0
"""A person's page may send at most `ALLOWANCE` lobby requests in `WINDOW` seconds (pressing
as fast as a person does is far below); more are refused `slow_down` (429), and ask Discord
nothing."""
_ID = re.compile(r"^[0-9]{1,20}$")
_INSTANCE = re.compile(r"^[A-Za-z0-9_-]{1,100}$")
ACTIONS = ("join", "leave", "start", "computer")


@dataclass(frozen=True)
class PagePerson:
    """Who acts at the page, as their server knows them."""

    name: str
    can_manage: bool
    """Manage Channels in the channel: what lets a moderator act for the host."""


class LobbyDesk(Protocol):
    """What the Discord layer does for the page's lobby (cogs/page_lobby.py)."""

    async def person(self, guild_id: int, channel_id: int, user_id: int) -> PagePerson:
        """The person, a member of the server who can see the channel; `Refused` with
        `UnknownChannel` when the bot is not in the server, the channel is not the server's,
        or the person is not a member or cannot see it."""
        ...

    async def in_activity(
        self, instance_id: str, guild_id: int, channel_id: int, user_id: int
    ) -> None:
        """Nothing when Discord says the Activity instance runs in that channel of that
        server with the person in it; else `Refused` with `UnknownChannel`."""
        ...

    def missing_permissions(self, guild_id: int, channel_id: int) -> list[str]:
        """The permissions the bot lacks in the channel to hold a table there."""
        ...

    async def opened(self, outcome: Outcome) -> None:
        """A table opened from the page: its table message posted in its channel."""
        ...

    def changed(self, outcome: Outcome, *, move_on: bool) -> None:
        """A lobby change stored: shown as a click's (the table message follows)."""
        ...


def add_lobby(app: web.Application, room: WebRoom) -> None:
    """The lobby's routes, when sign-in is on (the controls' answer always: it says so)."""
    auth = app.get(AUTH)
    lobby = PageLobby(room)
    app.router.add_get("/t/{token}/lobby", lobby.controls)
    if auth is None or not auth.enabled:
        return
    app.router.add_post("/activity/table", lobby.find)
    app.router.add_post("/activity/open", lobby.open)
    app.router.add_post("/t/{token}/lobby", lobby.act)


class PageLobby:
    def __init__(self, room: WebRoom) -> None:
        self.room = room
        self.service = room.service
        self._recent: dict[int, deque[float]] = {}

    def _allow(self, user_id: int) -> None:
        """`Refused` with `SlowDown` when the person's pages sent too many requests just now."""
        now = time.monotonic()
        if len(self._recent) > 10_000:
            self._recent = {u: d for u, d in self._recent.items() if d and d[-1] > now - WINDOW}
        recent = self._recent.setdefault(user_id, deque())
        while recent and recent[0] <= now - WINDOW:
            recent.popleft()
        if len(recent) >= ALLOWANCE:
            raise Refused(SlowDown())
        recent.append(now)

    def _desk(self) -> LobbyDesk:
        desk = self.room.lobby_desk
        if desk is None:
            raise web.HTTPServiceUnavailable()
        return desk

    def _path(self, guild_id: int, table_id: int) -> str:
        return f"t/{self.room.links.token('t', guild_id, table_id)}"

    async def _where(self, place: Place, user_id: int) -> PagePerson:
        """The person at the page, once Discord has said the Activity runs in the channel the
        page names with them in it, and they are a member who can see it."""
        desk = self._desk()
        person = await desk.person(place.guild_id, place.channel_id, user_id)
        await desk.in_activity(place.instance_id, place.guild_id, place.channel_id, user_id)
        return person

    async def find(self, request: web.Request) -> web.Response:
        """The channel's open table, if it has one."""
        return await self._at_place(request, self._find)

    async def open(self, request: web.Request) -> web.Response:
        """A table opened in the channel, as /ohhell start opens one."""
        return await self._at_place(request, self._open)

    async def _at_place(
        self,
        request: web.Request,
        then: Callable[[int, Place, PagePerson], Awaitable[web.Response]],
    ) -> web.Response:
        """`then(user, place, person)` for the Activity's request, once the place its body
        names is checked (`_where`) and the person is within their allowance; its refusal
        answered in the channel's language."""
        nobody: NoSession | None = None
        try:
            user_id = await signed_in(request)
        except NoSession as refused:
            user_id, nobody = 0, refused
        try:
            place = await _place(request)
        except BadBody:
            return _bad()
        if nobody is not None:
            return await self._no_session(request, nobody, place.guild_id, place.channel_id)
        try:
            self._allow(user_id)
            return await then(user_id, place, await self._where(place, user_id))
        except Refused as refused:
            return await self._refused(request, refused, place.guild_id, place.channel_id)

    async def _find(self, user_id: int, place: Place, person: PagePerson) -> web.Response:
        row = await self.service.lookups.table_in_channel(place.channel_id)
        if row is None or row.guild_id != place.guild_id:
            return json_answer({"table": None})
        return json_answer({"table": self._path(place.guild_id, row.id)})

    async def _open(self, user_id: int, place: Place, person: PagePerson) -> web.Response:
        desk = self._desk()
        missing = desk.missing_permissions(place.guild_id, place.channel_id)
        if missing:
            raise Refused(MissingPermissions(names=tuple(missing)))
        existing = await self.service.lookups.table_in_channel(place.channel_id)
        if existing is not None:
            raise Refused(ChannelHasTable(table_id=existing.id))
        outcome = await self.service.lobby.open_table(
            guild_id=place.guild_id,
            channel_id=place.channel_id,
            user_id=user_id,
            name=person.name,
            settings={},
        )
        await desk.opened(outcome)
        return json_answer({"table": self._path(place.guild_id, outcome.table.table_id)})

    async def controls(self, request: web.Request) -> web.Response:
        """What the lobby's controls offer this person at this table's page now: nothing
        with sign-in off (`{"signin": false}`) or without a good session (`{"signin": true}`),
        answered all the same, so a page that watches asks nothing that fails."""
        view = await self.room.table(request)
        auth = request.app.get(AUTH)
        if auth is None or not auth.enabled:
            return json_answer({"signin": False})
        user_id = await who(request)
        if user_id is None:
            return json_answer({"signin": True})
        seated = any(s.user_id == user_id and not s.pending for s in view.seats)
        spoken = await self.room.language_for(request, view.guild_id, view.channel_id)
        with speaking(spoken):
            problem = view.start_problem
            return json_answer(
                {
                    "signin": True,
                    "lobby": view.status is TableStatus.LOBBY,
                    "seated": seated,
                    "host": view.host_id == user_id,
                    "start_problem": None if problem is None else sentence(reason_text(problem)),
                    "levels": [
                        [value, pgettext("computer level", label)]
                        for value, label, _description in LEVEL_CHOICES
                    ],
                    "words": {
                        "join": pgettext("button", "Join"),
                        "leave": pgettext("button", "Leave"),
                        "computer": pgettext("button", "Add computer player"),
                        "start": pgettext("button", "Start"),
                        "level": _("Choose a level"),
                    },
                }
            )

    async def act(self, request: web.Request) -> web.Response:
        """A lobby button pressed at the table's page."""
        nobody: NoSession | None = None
        try:
            user_id = await signed_in(request)
        except NoSession as refused:
            user_id, nobody = 0, refused
        view = await self.room.table(request)
        if nobody is not None:
            return await self._no_session(request, nobody, view.guild_id, view.channel_id)
        try:
            action, level = await _action(request)
        except BadBody:
            return _bad()
        desk = self._desk()
        t, lobby = view.table_id, self.service.lobby
        try:
            self._allow(user_id)
            person = await desk.person(view.guild_id, view.channel_id, user_id)
            if action == "join":
                outcome = await lobby.join(t, user_id, person.name)
            elif action == "leave":
                outcome = await lobby.leave(t, user_id)
            elif action == "computer":
                outcome = await lobby.add_computer(t, user_id, level)
            else:
                outcome = await lobby.start_game(t, user_id, can_manage=person.can_manage)
        except Refused as refused:
            return await self._refused(request, refused, view.guild_id, view.channel_id)
        # A start deals and a leave in a game hands the seat to a computer: both may have
        # automatic moves to make, as after the click.
        desk.changed(outcome, move_on=action in ("start", "leave"))
        spoken = await self.room.language_for(request, view.guild_id, view.channel_id)
        with speaking(spoken):
            message = answer(outcome.reply)
        return json_answer({"ok": True, "message": message})

    async def _no_session(
        self, request: web.Request, nobody: NoSession, guild_id: int, channel_id: int
    ) -> web.Response:
        with speaking(await self.room.language_for(request, guild_id, channel_id)):
            return no_session(nobody)

    async def _refused(
        self, request: web.Request, refused: Refused, guild_id: int, channel_id: int
    ) -> web.Response:
        spoken = await self.room.language_for(request, guild_id, channel_id)
        with speaking(spoken):
            message = refusal(refused)
        status = 409
        if isinstance(refused.reason, UnknownChannel):
            status = 404
        elif isinstance(refused.reason, SlowDown):
            status = 429
        return json_answer({"error": refused.code, "message": message}, status)


@dataclass(frozen=True)
class Place:
    """Where the page says it runs: Discord's query, as the page read it."""

    instance_id: str
    guild_id: int
    channel_id: int


async def _place(request: web.Request) -> Place:
    """The Activity instance, server and channel a body names (the ids as strings)."""
    body = await json_body(request)
    instance, guild, channel = body.get("instance_id"), body.get("guild_id"), body.get("channel_id")
    if not (isinstance(instance, str) and _INSTANCE.match(instance)):
        raise BadBody()
    if not (isinstance(guild, str) and _ID.match(guild)):
        raise BadBody()
    if not (isinstance(channel, str) and _ID.match(channel)):
        raise BadBody()
    return Place(instance, int(guild), int(channel))


async def _action(request: web.Request) -> tuple[str, str]:
    body = await json_body(request)
    action, level = body.get("action"), body.get("level", "")
    if action not in ACTIONS or not isinstance(level, str) or len(level) > 40:
        raise BadBody()
    assert isinstance(action, str)
    return action, level


def _bad() -> web.Response:
    return json_answer({"error": "bad_request"}, 400)
