"""The web room: the pages served by the bot's own process when PUBLIC_URL is set (aiohttp, on
the bot's event loop, beside the gateway). Each page is reached by a signed link
(cogs/web/links.py) and rendered from the service's views; anything else, a wrong or altered
link, another server's, a table that is gone, is the same 404.

Every answer carries a Content-Security-Policy under which a page runs only the bot's own
scripts (no inline script, nothing from elsewhere), loads nothing from anywhere else, and
sends nothing anywhere but back to the bot."""

from __future__ import annotations

import asyncio
import errno
import logging
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine
from contextlib import asynccontextmanager
from typing import Any
from urllib.parse import urlencode

from aiohttp import HttpVersion11, web
from aiohttp.http_exceptions import HttpProcessingError

from bot.config import BotSettings
from bot.service import CorruptRow, Outcome, Refused, TableService, TableStatus, TableView
from bot.service.notices import HandScore
from cogs.render.language import LANGUAGES, Language, language, speaking
from cogs.web.actions import Actions
from cogs.web.assets import ASSETS, takes_gzip
from cogs.web.auth import AUTH, FRAME_ANCESTORS, add_auth, framed
from cogs.web.json_answers import json_answer
from cogs.web.links import Kind, Links, Signed
from cogs.web.live import live_frame
from cogs.web.live_page import live_page
from cogs.web.lobby import LobbyDesk, add_lobby
from cogs.web.pages import add_pages
from cogs.web.presence import Presence
from cogs.web.seat import SeatStreams
from cogs.web.watchers import Watchers

log = logging.getLogger(__name__)


class _MalformedRequests(logging.Filter):
    """A request too malformed to read (too long a line, too many headers) is answered 400 and
    its connection closed by aiohttp; it is the sender's doing, not the bot's fault, and logging
    each with its traceback would let anyone fill the bot's log."""

    def filter(self, record: logging.LogRecord) -> bool:
        error = record.exc_info[1] if record.exc_info else None
        return not isinstance(error, HttpProcessingError)


requests_log = logging.getLogger(f"{__name__}.requests")
"""What the web server logs of a request (an unexpected error of a page's), without the
malformed ones."""
requests_log.addFilter(_MalformedRequests())

POLICY = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
)
HEADERS = {
    "Content-Security-Policy": POLICY,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Resource-Policy": "same-origin",
}
"""Sent with every answer, a 404's too."""
FRAMED_HEADERS = {
    **HEADERS,
    "Content-Security-Policy": POLICY.replace("frame-ancestors 'none'", FRAME_ANCESTORS),
}
"""Sent instead with the pages Discord shows in its frame (the Activity): the live tables."""

KEEP_ALIVE = 20.0
"""Seconds between the comments a quiet stream sends: a page whose reader left is noticed by
the write failing, and proxies do not close a quiet stream."""
WRITE_TIMEOUT = 10.0
"""Seconds a page's stream may take to take one push before it is closed: a reader that does
not read does not hold the bot's memory or work."""
MAX_REQUEST_BYTES = 1024
"""The most a request's body may hold: the pages take none (a bigger body is refused, 413,
and its connection closed, not read); a request's line and each header are held to 4 KiB."""

ChannelLanguage = Callable[[int, int], Awaitable[str | None]]
"""(server, channel) -> the language set for the channel, if one is."""
ServerLanguage = Callable[[int], Language]


class WebRoom:
    """The pages, their pushes, and the server that serves them."""

    def __init__(
        self,
        settings: BotSettings,
        service: TableService,
        links: Links,
        *,
        channel_language: ChannelLanguage,
        server_language: ServerLanguage,
        spawn: Callable[[Coroutine[Any, Any, None]], object],
    ) -> None:
        self.settings = settings
        self.service = service
        self.links = links
        self._channel_language = channel_language
        self._server_language = server_language
        self.presence = Presence()
        """Who is at which table's page (their own seat's stream open)."""
        self.watchers = Watchers(self.table_frame, service.lookups.scored_view, spawn)
        self.seats = SeatStreams(self)
        """Each signed-in person's stream of the table and their own hand."""
        self.actions = Actions(self)
        self.acted: Callable[[Outcome, int, bool], None] = _unshown
        """Shows a change a move at the page stored, as a click's is shown (the bot sets it):
        (the outcome, who moved, whether automatic moves go on)."""
        self.port = 0
        self.lobby_desk: LobbyDesk | None = None  # the Discord layer's, for the page's lobby
        self.application_id: int | None = None
        """The bot's application (known once logged in): the pages' sign-in names it."""
        self._runner: web.AppRunner | None = None

    def application(self) -> web.Application:
        app = web.Application(client_max_size=MAX_REQUEST_BYTES, middlewares=[_headers])
        app.on_response_prepare.append(_add_headers)
        app.router.add_get("/t/{token}", self.table_page)
        app.router.add_get("/t/{token}/events", self.table_events)
        app.router.add_get("/t/{token}/seat", self.seats.stream)
        app.router.add_post("/t/{token}/act", self.actions.act)
        app.router.add_get("/static/{name}", self.static)
        add_pages(app, self)
        add_auth(app, self)
        add_lobby(app, self)
        return app

    async def start(self) -> int:
        """Listen on WEB_HOST:WEB_PORT; the port listened on. `WebUnavailable` names the
        setting to change when it cannot. Listening already: nothing more."""
        if self._runner is not None:
            return self.port
        runner = web.AppRunner(
            self.application(),
            access_log=None,
            max_line_size=4096,
            max_field_size=4096,
            handler_cancellation=True,
            logger=requests_log,
        )
        await runner.setup()
        site = web.TCPSite(runner, self.settings.web_host, self.settings.web_port)
        try:
            await site.start()
        except OSError as error:
            await runner.cleanup()
            raise WebUnavailable(_cannot_listen(self.settings, error)) from None
        self._runner = runner
        if self.service.sharing.shared:
            await self.presence.share(self.service.sharing)
        for address in runner.addresses:
            if isinstance(address, tuple) and len(address) >= 2:
                self.port = int(address[1])
                break
        log.info(
            "web pages on http://%s:%d, reached at %s",
            self.settings.web_host,
            self.port,
            self.settings.public_url,
        )
        return self.port

    async def stop(self) -> None:
        self.watchers.close_all()
        runner, self._runner = self._runner, None
        if runner is not None:
            await runner.cleanup()
        await self.presence.stop()

    @asynccontextmanager
    async def serving(self) -> AsyncIterator[int]:
        await self.start()
        try:
            yield self.port
        finally:
            await self.stop()

    # What a request names

    def signed(self, request: web.Request, kind: Kind) -> Signed:
        """The signed thing the request's link names; 404 for anything else."""
        found = self.links.read(kind, request.match_info["token"])
        if found is None:
            raise web.HTTPNotFound()
        return found

    async def table(self, request: web.Request) -> TableView:
        """The table a `/t/` link names, as its channel sees it now."""
        view, _scored = await self._table(request, scored=False)
        return view

    async def scored_table(self, request: web.Request) -> tuple[TableView, HandScore | None]:
        """The table a `/t/` link names, and the newest hand's scores its channel was sent: what
        a live page's stream starts from (`Watchers.add`)."""
        return await self._table(request, scored=True)

    async def _table(
        self, request: web.Request, *, scored: bool
    ) -> tuple[TableView, HandScore | None]:
        signed = self.signed(request, "t")
        lookups = self.service.lookups
        try:
            if scored:
                view, scores = await lookups.scored_view(signed.number)
            else:
                view, scores = await lookups.table_view(signed.number), None
        except (Refused, CorruptRow):
            raise web.HTTPNotFound() from None
        if view.guild_id != signed.guild_id:
            raise web.HTTPNotFound()
        return view, scores

    async def language_for(
        self, request: web.Request, guild_id: int, channel_id: int | None = None
    ) -> Language:
        """The page's language: the channel's when one is set, else the reader's browser's
        (Accept-Language), else the server's."""
        if channel_id is not None:
            code = await self._channel_language(guild_id, channel_id)
            if code is not None:
                return language(code)
        browser = browser_language(request.headers.get("Accept-Language", ""))
        return browser if browser is not None else self._server_language(guild_id)

    # The pages

    async def table_page(self, request: web.Request) -> web.StreamResponse:
        view = await self.table(request)
        spoken = await self.language_for(request, view.guild_id, view.channel_id)
        auth = request.app.get(AUTH)
        signing = auth is not None and auth.enabled
        inside = "frame_id" in request.query and "instance_id" in request.query
        with speaking(spoken):
            page = live_page(
                view,
                f"{request.path}/events",
                seat=f"{request.path}/seat" if signing else None,
                login=f"../login?{urlencode({'next': request.path})}" if not inside else None,
                discord=inside,
                application_id=self.application_id or 0,
            )
        return _html(page)

    def table_frame(self, view: TableView, code: str, scored: HandScore | None) -> bytes:
        """A push of the live page: a finished table's links to its game's replay."""
        finished = view.status is TableStatus.FINISHED
        replay = self.links.game(view.guild_id, view.table_id) if finished else None
        return live_frame(view, code, scored, replay=replay)

    async def table_events(self, request: web.Request) -> web.StreamResponse:
        view, scored = await self.scored_table(request)
        spoken = await self.language_for(request, view.guild_id, view.channel_id)
        watcher = self.watchers.add(view, spoken.code, scored)
        if watcher is None:
            return web.Response(status=503, text="busy\n", headers={"Retry-After": "30"})
        response = web.StreamResponse(
            headers={
                "Content-Type": "text/event-stream; charset=utf-8",
                "Cache-Control": "no-store",
                "X-Accel-Buffering": "no",
            }
        )
        # Chunked (HTTP/1.1), so that a frame can go as a chunk of its own (`_write_at_once`).
        chunked = request.version >= HttpVersion11
        if chunked:
            response.enable_chunked_encoding()
        try:
            await response.prepare(request)
            while True:
                frame = await watcher.next_frame(KEEP_ALIVE)
                # A timer, not wait_for's task of its own for every frame each reader is sent.
                async with asyncio.timeout(WRITE_TIMEOUT):
                    await response.write(frame or b": -\n\n")
                if watcher.closed and frame is None:
                    break
                if chunked and watcher.write_now is None and request.transport is not None:
                    # Only now: aiohttp holds the headers back until the first write.
                    watcher.write_now = _write_at_once(request.transport)
        except TimeoutError:
            # A reader that does not read: its connection goes now, with what it was not sent
            # (ending the stream politely would wait on it again, for ever).
            if request.transport is not None:
                request.transport.abort()
        except (ConnectionError, asyncio.CancelledError):
            pass
        finally:
            # Before the response ends: nothing may be written on the connection after it.
            watcher.write_now = None
            self.watchers.remove(watcher)
        return response

    async def static(self, request: web.Request) -> web.StreamResponse:
        asset = ASSETS.get(request.match_info["name"])
        if asset is None:
            raise web.HTTPNotFound()
        headers = {
            "Content-Type": asset.content_type,
            "Cache-Control": "public, max-age=31536000, immutable",
            "Vary": "Accept-Encoding",
        }
        if takes_gzip(request.headers.get("Accept-Encoding", "")):
            headers["Content-Encoding"] = "gzip"
            return web.Response(body=asset.gzipped, headers=headers)
        return web.Response(body=asset.body, headers=headers)


def _write_at_once(transport: asyncio.BaseTransport) -> Callable[[bytes], bool]:
    """Writes a frame to a page's stream at once, as one chunk of the response, when its
    connection has passed on all it was given (its reader keeps up): the change's own step
    sends every such reader its frame, with no task woken for each. Otherwise False: the
    frame waits for the stream's task, which waits for the reader as long as it may."""
    assert isinstance(transport, asyncio.WriteTransport)

    def write(frame: bytes) -> bool:
        if transport.is_closing() or transport.get_write_buffer_size():
            return False
        transport.write(b"%x\r\n%b\r\n" % (len(frame), frame))
        return True

    return write


def _unshown(outcome: Outcome, user_id: int, move_on: bool) -> None:
    log.warning("table %s: a move at the page is not shown (no presenter)", outcome.table.table_id)


def browser_language(header: str) -> Language | None:
    """The first of the reader's languages (Accept-Language, by its weights) that the bot
    speaks."""
    ranked: list[tuple[float, int, str]] = []
    for place, part in enumerate(header.split(",")[:20]):
        tag, _semicolon, weight = part.strip().partition(";")
        quality = 1.0
        if weight.strip().startswith("q="):
            try:
                quality = float(weight.strip()[2:])
            except ValueError:
                continue
        if tag:
            ranked.append((-quality, place, tag.strip()))
    by_name = {name.lower(): name for name in LANGUAGES}
    by_tongue = {name.split("_")[0].lower(): name for name in reversed(LANGUAGES)}
    for _quality, _place, tag in sorted(ranked):
        code = tag.replace("-", "_").lower()
        name = by_name.get(code) or by_tongue.get(code.split("_")[0])
        if name is not None:
            return language(name)
    return None


def _html(page: str) -> web.Response:
    return web.Response(
        text=page,
        content_type="text/html",
        charset="utf-8",
        headers={"Cache-Control": "no-store"},
    )


async def _add_headers(request: web.Request, response: web.StreamResponse) -> None:
    """The policy headers on every answer as it is sent: a page, a stream, a file, a refusal
    (the pages Discord may frame allow its frame)."""
    response.headers.update(_headers_for(request, response.status))


@web.middleware
async def _headers(
    request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
) -> web.StreamResponse:
    try:
        if request.body_exists and (request.content_length or MAX_REQUEST_BYTES + 1) > (
            MAX_REQUEST_BYTES
        ):
            return await _refuse_body(request)
        response = await handler(request)
    except web.HTTPException as error:
        if error.status >= 400:
            error = web.HTTPNotFound(text="404: no such page\n") if error.status == 404 else error
        raise error from None
    except Exception:
        # A fault of the bot's: logged with its traceback, and the reader told no more.
        route = request.match_info.route.resource
        where = route.canonical if route is not None else "?"  # the route, not the link in it
        log.exception("web: %s %s failed", request.method, where)
        raise web.HTTPInternalServerError(text="500: this page failed\n") from None
    return response


def _headers_for(request: web.Request, status: int) -> dict[str, str]:
    return FRAMED_HEADERS if status < 400 and framed(request.path) else HEADERS


async def _refuse_body(request: web.Request) -> web.StreamResponse:
    """413 to a request with a bigger body than any page takes, sent at once, and the
    connection closed: its body is never read (aiohttp would read it to drop it)."""
    refused = json_answer({"error": "too_large"}, 413)  # as the sign-in's forms refuse one
    refused.force_close()
    await refused.prepare(request)
    await refused.write_eof()
    request.protocol.force_close()
    return refused


class WebUnavailable(Exception):
    """The pages cannot be served as WEB_HOST and WEB_PORT say: one line naming the setting."""


def _cannot_listen(settings: BotSettings, error: OSError) -> str:
    where = f"{settings.web_host}:{settings.web_port}"
    reason = (error.strerror or str(error) or type(error).__name__).splitlines()[0]
    if error.errno == errno.EADDRINUSE:
        return f"WEB_PORT: {where} is in use by another program: stop it, or set another port"
    if error.errno == errno.EACCES:
        return f"WEB_PORT: this user may not listen on {where} ({reason}): set one above 1023"
    return (
        f"WEB_HOST: cannot listen on {where} ({reason}): set an address of this machine,"
        " e.g. 127.0.0.1, or 0.0.0.0 for every interface"
    )
