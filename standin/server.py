"""The local Discord stand-in: an aiohttp HTTP API and gateway WebSocket on 127.0.0.1.

The real discord.py client logs into it (see `cogs.endpoint`). It speaks raw JSON, as
Discord does, enforces Discord's rules (interaction deadlines, permissions, closed DMs, limits,
rate limits), checks every body against the OpenAPI description when it is present, and logs
every REST call.

This module holds `StandIn`'s core: construction, lifecycle, what a test observes, changes to
the world while a bot is connected, and the REST plumbing (routing, authorisation, rate limits,
body checks, the call log). Its parts, each a class `StandIn` inherits, live beside it:
`standin.gateway` (the WebSocket and the events sent on it), `standin.application` (login,
users, application commands), `standin.channels` (channels and messages) and
`standin.interactions` (answers to interactions). All build on `standin.base` (the state
they share, the stand-in's addresses); what their handlers share is in `standin.rest`.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import re
import time
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any, Literal

from aiohttp import BodyPartReader, web

from standin import payloads
from standin.activities import ActivityHandlers
from standin.application import ApplicationHandlers
from standin.channels import ChannelHandlers
from standin.driver import Person
from standin.faults import Faults
from standin.gateway import (
    DIRECT_MESSAGES,
    GUILD_MESSAGES,
    MESSAGE_CONTENT,
    Gateway,
    GatewaySession,
)
from standin.interactions import InteractionHandlers
from standin.listening import Listening
from standin.oauth import UNDESCRIBED, OAuthHandlers
from standin.oauth_login import LoginPage
from standin.ratelimit import RateLimits
from standin.rest import API_VERSION, JSON, ApiError, Call, Handler, Request
from standin.shards import DEFAULT_MAX_GUILDS_PER_SHARD
from standin.validation import SpecValidator, Violation, check_limits, default_spec_path
from standin.world import (
    Attachment,
    Channel,
    ChannelKind,
    Guild,
    Interaction,
    Message,
    Perm,
    World,
)

# StandIn, and the names this module defined before its parts moved out (now in standin.rest
# and standin.gateway), so that imports from here keep working.
__all__ = [
    "API_VERSION",
    "DIRECT_MESSAGES",
    "GUILD_MESSAGES",
    "JSON",
    "MESSAGE_CONTENT",
    "ApiError",
    "Call",
    "GatewaySession",
    "Handler",
    "Interaction",
    "StandIn",
]

_log = logging.getLogger(__name__)


class StandIn(
    Gateway,
    ApplicationHandlers,
    ChannelHandlers,
    InteractionHandlers,
    OAuthHandlers,
    ActivityHandlers,
    LoginPage,
):
    """A Discord for one bot application. `await start()`, point discord.py at `api_base` and
    `gateway_url`, log in with `token`; `await stop()` at the end."""

    def __init__(
        self,
        *,
        spec_path: Path | Literal["default"] | None = "default",
        clock: Callable[[], float] = time.monotonic,
        ack_deadline: float = 3.0,
        token_lifetime: float = 15 * 60.0,
        global_rate_limit: int | None = 50,
        world: World | None = None,
        max_guilds_per_shard: int = DEFAULT_MAX_GUILDS_PER_SHARD,
        host: str = "127.0.0.1",
        port: int = 0,
        keep_history: bool = True,
    ) -> None:
        """`keep_history=False` (long benchmarks): calls are logged without their bodies and
        answers, and an edit keeps no earlier revision, so memory stays flat over a long run
        (at 100 tables the kept history grew by about 60 MB a minute, and the collector's
        pauses on it held every request the stand-in had queued)."""
        self.clock = clock
        self.keep_history = keep_history
        self.max_guilds_per_shard = max_guilds_per_shard
        self.ack_deadline = ack_deadline
        self.token_lifetime = token_lifetime
        self.host = host
        self._port = port
        self.world = world or World()
        if not self.world.guilds:
            guild = self.world.add_guild()
            self.world.add_text_channel(guild, "general")
        # Real time, whatever `clock` is: discord.py sleeps real seconds on a 429.
        self.rate_limits = RateLimits(global_limit=global_rate_limit)
        self.faults = Faults()
        """Calls made to go wrong on purpose (standin/faults.py)."""
        self.calls: list[Call] = []
        self.violations: list[Violation] = []
        self.interactions: dict[int, Interaction] = {}
        self.commands: dict[int | None, dict[tuple[str, int], JSON]] = {}
        self.command_syncs: list[int | None] = []
        self.sessions: list[GatewaySession] = []
        self.sessions_started = 0
        # spec_path None (or a missing file): only Discord's limits are checked.
        self.validator = SpecValidator(default_spec_path() if spec_path == "default" else spec_path)
        self._routes: list[tuple[str, re.Pattern[str], str, Handler]] = []
        self._add_routes()
        self._listening = Listening(host, port)
        self._changed = asyncio.Event()
        self._tokens: dict[str, Interaction] = {}
        self._tasks: set[asyncio.Task[Any]] = set()
        self._resumable: dict[str, GatewaySession] = {}
        self._init_oauth()
        self._init_activities()
        self._init_login()

    # --- lifecycle ------------------------------------------------------------------------

    @property
    def guild(self) -> Guild:
        """The first guild (a default one, "Test Guild", exists unless a world was given)."""
        return next(iter(self.world.guilds.values()))

    @property
    def channel(self) -> Channel:
        """The first text channel of the first guild ("general" by default)."""
        return next(c for c in self.guild.channels if c.kind is ChannelKind.GUILD_TEXT)

    @property
    def spec_checks(self) -> bool:
        """Whether bodies are checked against the OpenAPI description."""
        return self.validator.available

    @property
    def spec_skip_reason(self) -> str | None:
        """Why they are not ("…/openapi.json not found"), or None."""
        return self.validator.skip_reason

    async def start(self) -> None:
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_get("/", self._gateway)
        app.router.add_get("/attachments/{attachment_id}/{filename}", self._serve_attachment)
        self._authorize_routes(app)
        app.router.add_route("*", "/api/v{version:\\d+}/{tail:.*}", self._rest)
        self._port = await self._listening.start(app, access_log=None, handle_signals=False)

    async def stop(self) -> None:
        self.faults.release_all()
        for task in list(self._tasks):
            task.cancel()
        for session in list(self.sessions):
            await session.ws.close(code=1001)
        await self._listening.stop()

    async def __aenter__(self) -> StandIn:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    # --- observation ----------------------------------------------------------------------

    def take_violations(self) -> list[Violation]:
        """Every violation seen so far, cleared (so the fixture won't fail the test on them)."""
        taken, self.violations = self.violations, []
        return taken

    def calls_to(self, route: str) -> list[Call]:
        """Logged calls whose route is `route` ("POST /channels/{channel_id}/messages")."""
        return [c for c in self.calls if c.route == route]

    def person(self, name: str, **kwargs: Any) -> Person:
        """A driver for a person called `name`, created (a member of every guild) if new, with
        `World.add_user`'s keywords (`locale="nl"`) — announced to a connected bot by
        GUILD_MEMBER_ADD."""

        try:
            user = self.world.user_named(name)
        except KeyError:
            user = self.world.add_user(name, **kwargs)
            for guild in self.world.guilds.values():
                if user.id in guild.members and self.sessions:
                    data = {**payloads.member(guild.members[user.id]), "guild_id": str(guild.id)}
                    self._background(
                        self.dispatch("GUILD_MEMBER_ADD", data, guild_id=guild.id, intent=1 << 1)
                    )
        return Person(self, user)

    # --- changing the world while a bot is connected --------------------------------------

    async def add_text_channel(
        self, name: str, *, guild: Guild | None = None, bot_denied: int = 0
    ) -> Channel:
        """A new text channel, announced by CHANNEL_CREATE."""
        channel = self.world.add_text_channel(guild or self.guild, name, bot_denied=bot_denied)
        await self._announce_channel("CHANNEL_CREATE", channel)
        return channel

    async def add_thread(self, parent: Channel, name: str, *, private: bool = False) -> Channel:
        """A new thread (owned by the bot), announced by THREAD_CREATE."""
        thread = self.world.add_thread(parent, name, private=private)
        await self._announce_channel("THREAD_CREATE", thread)
        return thread

    async def set_guild_locale(self, guild: Guild, locale: str) -> None:
        """Change `guild`'s preferred locale, announced by GUILD_UPDATE."""
        self.world.set_guild_locale(guild, locale)
        await self.dispatch(
            "GUILD_UPDATE", payloads.guild_update(guild, self.world), guild_id=guild.id
        )
        self._notify()

    async def deny_bot(self, channel: Channel, *perms: Perm) -> None:
        """Take permissions from the bot in `channel`, announced by CHANNEL_UPDATE."""
        self.world.deny_bot(channel, *perms)
        await self._announce_channel("CHANNEL_UPDATE", channel)

    async def allow_bot(self, channel: Channel, *perms: Perm) -> None:
        self.world.allow_bot(channel, *perms)
        await self._announce_channel("CHANNEL_UPDATE", channel)

    async def delete_channel(self, channel: Channel) -> None:
        """Delete a channel (with its threads) or a thread, announced by CHANNEL_DELETE or
        THREAD_DELETE."""
        assert channel.guild is not None
        gone = self.world.delete_channel(channel)
        for c in gone:
            if c.is_thread:
                data = {
                    "id": str(c.id),
                    "guild_id": str(channel.guild.id),
                    "parent_id": str(c.parent.id if c.parent else 0),
                    "type": int(c.kind),
                }
                await self.dispatch("THREAD_DELETE", data, guild_id=channel.guild.id)
            else:
                data = payloads.channel(c, self.world)
                await self.dispatch("CHANNEL_DELETE", data, guild_id=channel.guild.id)
        self._notify()

    async def remove_bot(self, guild: Guild) -> None:
        """The bot is removed from `guild`, announced by GUILD_DELETE (not unavailable)."""
        await self.dispatch("GUILD_DELETE", {"id": str(guild.id)}, guild_id=guild.id)
        self.world.remove_guild(guild)
        self._notify()

    async def add_bot(self, guild: Guild) -> None:
        """The bot is added (back) to `guild`, one it was removed from, announced by
        GUILD_CREATE: a guild the bot did not have (discord.py's `on_guild_join`)."""
        self.world.restore_guild(guild)
        # A guild joined comes without "unavailable" (one back from an outage has it false).
        data = payloads.guild_create(guild, self.world)
        del data["unavailable"]
        await self.dispatch("GUILD_CREATE", data, guild_id=guild.id)
        self._notify()

    async def _announce_channel(self, event: str, channel: Channel) -> None:
        assert channel.guild is not None
        data = payloads.channel(channel, self.world)
        if event == "THREAD_CREATE":
            data["newly_created"] = True
        await self.dispatch(event, data, guild_id=channel.guild.id)
        self._notify()

    def _background(self, coro: Coroutine[Any, Any, Any]) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def messages(self, channel: Channel, *, include_ephemeral: bool = False) -> list[Message]:
        return [
            m for m in self.world.channel_messages(channel) if include_ephemeral or not m.ephemeral
        ]

    async def wait_for(self, predicate: Callable[[], Any], timeout: float = 5.0) -> Any:
        """Wait until `predicate()` is truthy and return its value. Re-checked on every change
        the stand-in sees (and every 50 ms, for state kept by the bot)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            value = predicate()
            if value:
                return value
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise TimeoutError(f"condition not met within {timeout} s")
            changed = self._changed
            # asyncio.timeout, not wait_for: in Python 3.11 wait_for can swallow a cancellation
            # that comes as the event is set, and this loop runs often enough to meet it (a
            # Ctrl-C then never stopped `make bench-bot`).
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(min(remaining, 0.05)):
                    await changed.wait()

    async def wait_for_bot(
        self, *, since: int = 0, timeout: float = 10.0, count: int = 1
    ) -> GatewaySession:
        """Wait for `count` gateway sessions numbered above `since` (see `sessions_started`) to
        have received READY and their GUILD_CREATEs; returns the first."""

        def ready() -> list[GatewaySession] | None:
            found = [s for s in self.sessions if s.ready and s.number > since]
            return found if len(found) >= count else None

        sessions: list[GatewaySession] = await self.wait_for(ready, timeout)
        return sessions[0]

    @property
    def connected(self) -> bool:
        return any(s.ready for s in self.sessions)

    # --- REST plumbing --------------------------------------------------------------------

    def _add_routes(self) -> None:
        r = self._route
        r("GET", "/gateway", self._get_gateway)
        r("GET", "/gateway/bot", self._get_gateway_bot)
        r("GET", "/users/@me", self._get_me)
        r("GET", "/oauth2/applications/@me", self._get_application)
        r("GET", "/users/{user_id}", self._get_user)
        r("POST", "/users/@me/channels", self._open_dm)
        r("POST", "/oauth2/token", self._token)
        r("POST", "/oauth2/token/revoke", self._revoke)
        r("GET", "/applications/{application_id}/commands", self._get_commands)
        r("PUT", "/applications/{application_id}/commands", self._put_commands)
        r("POST", "/applications/{application_id}/commands", self._post_command)
        r("GET", "/applications/{application_id}/guilds/{guild_id}/commands", self._get_commands)
        r("PUT", "/applications/{application_id}/guilds/{guild_id}/commands", self._put_commands)
        r("POST", "/applications/{application_id}/guilds/{guild_id}/commands", self._post_command)
        r("POST", "/interactions/{interaction_id}/{interaction_token}/callback", self._callback)
        r("POST", "/webhooks/{webhook_id}/{webhook_token}", self._followup)
        for target in ("@original", "{message_id}"):
            path = "/webhooks/{webhook_id}/{webhook_token}/messages/" + target
            r("GET", path, self._get_webhook_message)
            r("PATCH", path, self._edit_webhook_message)
            r("DELETE", path, self._delete_webhook_message)
        r("GET", "/channels/{channel_id}", self._get_channel)
        r("GET", "/channels/{channel_id}/messages", self._get_messages)
        r("POST", "/channels/{channel_id}/messages", self._post_message)
        r("GET", "/channels/{channel_id}/messages/{message_id}", self._get_message)
        r("PATCH", "/channels/{channel_id}/messages/{message_id}", self._edit_message)
        r("DELETE", "/channels/{channel_id}/messages/{message_id}", self._delete_message)
        r("POST", "/channels/{channel_id}/threads", self._create_thread)
        r("POST", "/channels/{channel_id}/messages/{message_id}/threads", self._create_thread)
        r("POST", "/channels/{channel_id}/typing", self._typing)
        r("GET", "/guilds/{guild_id}/channels", self._get_guild_channels)
        r("GET", "/guilds/{guild_id}/members/{user_id}", self._get_member)
        path = "/applications/{application_id}/activity-instances/{instance_id}"
        r("GET", path, self._get_activity_instance)

    def _route(self, method: str, template: str, handler: Handler) -> None:
        pattern = re.sub(r"\\\{(\w+)\\\}", r"(?P<\1>[^/]+)", re.escape(template))
        self._routes.append((method, re.compile(f"^{pattern}$"), template, handler))

    def _match(self, method: str, path: str) -> tuple[str, dict[str, str], Handler] | None:
        # Literal routes ("/users/@me") are registered before templated ones ("/users/{id}").
        for m, pattern, template, handler in self._routes:
            if m != method:
                continue
            found = pattern.match(path)
            if found:
                return template, found.groupdict(), handler
        return None

    async def _read_body(self, request: web.Request) -> tuple[Any, list[Attachment]]:
        if not request.body_exists:
            return None, []
        if request.content_type == "application/x-www-form-urlencoded":
            return {k: v for k, v in (await request.post()).items() if isinstance(v, str)}, []
        if request.content_type.startswith("multipart/"):
            body: Any = None
            files: list[Attachment] = []
            reader = await request.multipart()
            async for part in reader:
                if not isinstance(part, BodyPartReader):
                    continue
                data = await part.read()
                if part.name == "payload_json":
                    body = json.loads(data)
                else:
                    files.append(
                        Attachment(
                            self.world.snowflake(),
                            part.filename or "file",
                            part.headers.get("Content-Type"),
                            bytes(data),
                        )
                    )
            return body, files
        raw = await request.read()
        if not raw:
            return None, []
        return json.loads(raw), []

    async def _rest(self, request: web.Request) -> web.Response:
        method = request.method
        path = "/" + request.match_info["tail"]
        try:
            body, files = await self._read_body(request)
            unreadable = False
        except ValueError:
            body, files, unreadable = None, [], True
        matched = self._match(method, path)
        template = matched[0] if matched else path
        route = f"{method} {template}"
        params = matched[1] if matched else {}
        interaction = self._interaction_of(params)
        call = Call(
            method,
            route,
            request.path_qs,
            body if self.keep_history else None,
            0,
            self.clock(),
            interaction.id if interaction else None,
            params=params,
        )
        self.calls.append(call)
        headers: dict[str, str] = {"Via": "1.1 standin"}
        try:
            if matched is None:
                self._violate(route, "", "the stand-in does not implement this route")
                raise ApiError(404, 0, "404: Not Found")
            exempt = template.startswith(("/interactions/", "/webhooks/"))
            if not exempt and route not in UNDESCRIBED and not self._authorised(request, route):
                raise ApiError(401, 0, "401: Unauthorized")
            major = params.get("channel_id") or params.get("guild_id") or ""
            major = major or params.get("webhook_id", "") + params.get("webhook_token", "")
            # Discord's global limit is the bot's: a person's token and the OAuth2 exchange
            # do not count against it.
            bots = not exempt and route not in UNDESCRIBED and self._authorised(request, None)
            decision = self.rate_limits.check(route, major, exempt_global=not bots)
            headers.update(decision.headers)
            if unreadable:
                self._violate(route, "", "the body is not valid JSON")
                raise ApiError(400, 50109, "The request body contains invalid JSON.")
            if not decision.allowed:
                status, answer = (
                    429,
                    {
                        "message": "You are being rate limited.",
                        "retry_after": decision.retry_after,
                        "global": decision.is_global,
                        "code": 0,
                    },
                )
            else:
                self._check_request(method, request.path_qs, route, body)
                fault = self.faults.taking(route, body)
                if fault is not None and fault.kind == "fail":
                    raise ApiError(fault.status, 0, f"{fault.status}: Service Unavailable")
                if fault is not None and fault.kind == "hold_request":
                    self._notify()
                    await fault.released.wait()
                status, answer = await matched[2](
                    Request(method, path, params, dict(request.query), body, files, request.headers)
                )
                if 200 <= status < 300 and answer is not None:
                    self._check_response(method, request.path_qs, route, status, answer)
                if fault is not None and fault.kind == "hold_answer":
                    self._notify()
                    await fault.released.wait()
        except ApiError as error:
            status, answer = error.status, error.body
        except Exception as error:
            # A body the stand-in cannot handle. Not a 5xx: discord.py would retry it for 25 s.
            _log.exception("stand-in failed on %s %s", method, request.path_qs)
            self._violate(route, "", f"the stand-in could not handle this request: {error!r}")
            status, answer = 400, {"message": f"stand-in error: {error!r}", "code": 50035}
        call.status = status
        if self.keep_history:
            call.response = answer
        self._notify()
        if answer is None:
            return web.Response(status=status, headers=headers)
        headers["Content-Type"] = "application/json"
        return web.Response(status=status, body=json.dumps(answer).encode(), headers=headers)

    def _authorised(self, request: web.Request, route: str | None) -> bool:
        """The bot's token; or on `route` "GET /users/@me" a person's `Bearer` token (its
        handler checks the token itself)."""
        given = request.headers.get("Authorization", "")
        if given == f"Bot {self.token}":
            return True
        return route == "GET /users/@me" and given.startswith("Bearer ")

    def _interaction_of(self, params: dict[str, str]) -> Interaction | None:
        token = params.get("interaction_token") or params.get("webhook_token")
        return self._tokens.get(token) if token else None

    def _check_request(self, method: str, path: str, route: str, body: Any) -> None:
        if body is None or route in UNDESCRIBED:
            return
        found: list[Violation] = []
        if self.spec_checks:
            found += self.validator.check_request(method, path, body)
        limits = check_limits(method, path, body)
        found += [v for v in limits if str(v) not in {str(f) for f in found}]
        self.violations.extend(found)
        if limits:
            # Discord refuses a body over its limits: 400 Invalid Form Body.
            errors = {v.field or "_": {"_errors": [{"message": v.message}]} for v in limits}
            raise ApiError(400, 50035, "Invalid Form Body", errors)

    def _check_response(self, method: str, path: str, route: str, status: int, body: Any) -> None:
        if self.spec_checks and route not in UNDESCRIBED:
            self.violations.extend(self.validator.check_response(method, path, status, body))

    async def _serve_attachment(self, request: web.Request) -> web.Response:
        found = self.world.attachments.get(int(request.match_info["attachment_id"]))
        if found is None:
            raise web.HTTPNotFound()
        return web.Response(body=found.data, content_type=found.content_type or "application/data")
