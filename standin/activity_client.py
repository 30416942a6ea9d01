"""Discord's client for an Activity, played in a browser: `ActivityClient`.

Discord shows an Activity in a frame of its client, loading it from
`https://<application id>.discordsays.com/`, a proxy that forwards each request to the
application's URL mappings (Developer Portal: prefix `/` → the application's server). The
client page talks to the framed Activity over `postMessage` (standin/activity_rpc.py).

The stand-in does both on one local address of its own: every path is proxied to the mapping's
target (streamed, so Server-Sent Events pass), except `/.standin/…`, where the client page of
each person's frame lives. Page and Activity so share an origin, which the SDK accepts as it
accepts discord.com (its allowed origins include the page's own). A test opens a person's
frame (`open`) and points a browser at `frame.url`:

    async with ActivityClient(standin, {"/": "http://127.0.0.1:8080"}) as client:
        frame = client.open(standin.person("Ann"), standin.channel)
        await page.goto(frame.url)
        await standin.wait_for(lambda: frame.authenticated)
"""

from __future__ import annotations

import asyncio
import contextlib
import gzip
import html
import json
import secrets
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlencode

import aiohttp
from aiohttp import web

from standin.activity_rpc import Frame, Rpc
from standin.listening import Listening
from standin.world import ActivityInstance, Channel

if TYPE_CHECKING:
    from standin.server import StandIn

CLIENT_SCRIPT = Path(__file__).with_name("activity_client.js")
HOP_BY_HOP = frozenset(
    {
        "connection",
        "keep-alive",
        "proxy-authenticate",
        "proxy-authorization",
        "te",
        "trailer",
        "trailers",
        "transfer-encoding",
        "upgrade",
        "host",
    }
)
"""Headers that belong to one connection, not forwarded by the proxy (RFC 9110 §7.6.1)."""
PLATFORMS = ("desktop", "mobile")
HEARTBEAT = 0.5
"""Seconds between the comments that keep a client page's stream open: a page gone (its tab
closed) is noticed within them, and its person has left the Activity."""


@dataclass
class Proxied:
    """One answer the proxy passed to a page: what was asked, and every byte of the answer as
    the page received it (a stream's grows while it lasts)."""

    method: str
    path: str
    authorization: str | None
    """The request's `Authorization` header: whose page asked, when it says."""
    status: int
    encoding: str
    """The answer's `Content-Encoding` ("" for none)."""
    body: bytearray = field(default_factory=bytearray)

    def content(self) -> bytes:
        """The body as the page reads it: gzip undone."""
        raw = bytes(self.body)
        return gzip.decompress(raw) if self.encoding == "gzip" and raw else raw


class ActivityClient:
    """The client page and the proxy, on their own address (`base_url`). `url_mappings`: prefix
    → target, as the Developer Portal's (`{"/": "http://127.0.0.1:8080"}`); the longest prefix
    that matches a path wins. With `record`, every answer the proxy passes is kept in
    `answers` (`Proxied`), so a test can read every byte the Activity's pages received."""

    def __init__(
        self,
        standin: StandIn,
        url_mappings: Mapping[str, str],
        *,
        host: str = "127.0.0.1",
        port: int = 0,
        record: bool = False,
    ) -> None:
        if "/" not in url_mappings:
            raise ValueError("an Activity needs a mapping of its root, '/'")
        self.standin = standin
        self.url_mappings = dict(url_mappings)
        self.host = host
        self._port = port
        self.frames: dict[str, Frame] = {}
        self.rpc = Rpc(standin, lambda: list(self.frames.values()))
        self._listening = Listening(host, port)
        self._session: aiohttp.ClientSession | None = None
        self._streams: set[asyncio.Task[Any]] = set()
        self._stopping = False
        self.record = record
        self.answers: list[Proxied] = []

    @property
    def base_url(self) -> str:
        return f"http://{self.host}:{self._port}"

    # --- lifecycle ----------------------------------------------------------------------------

    async def start(self) -> None:
        app = web.Application()
        app.router.add_get("/.standin/client/{frame_id}", self._client_page)
        app.router.add_get("/.standin/client.js", self._client_script)
        app.router.add_get("/.standin/events/{frame_id}", self._events)
        app.router.add_post("/.standin/rpc/{frame_id}", self._rpc)
        app.router.add_route("*", "/.standin/{tail:.*}", self._not_found)
        app.router.add_route("*", "/{tail:.*}", self._proxy)
        # Compressed bodies pass through as they came, with their Content-Encoding.
        self._session = aiohttp.ClientSession(auto_decompress=False)
        # A browser that goes away (its tab closed) ends its requests at once: the proxy then
        # closes its own to the Activity's server, as Discord's proxy does.
        self._port = await self._listening.start(
            app, access_log=None, shutdown_timeout=1.0, handler_cancellation=True
        )

    async def stop(self) -> None:
        self._stopping = True
        for task in list(self._streams):
            task.cancel()
        await self._listening.stop()
        if self._session is not None:
            await self._session.close()
            self._session = None

    async def __aenter__(self) -> ActivityClient:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    # --- what a test does ---------------------------------------------------------------------

    def open(
        self,
        person: Any,
        channel: Channel | None = None,
        *,
        instance: ActivityInstance | None = None,
        platform: str = "desktop",
        declines: bool = False,
        query: Mapping[str, str] | None = None,
    ) -> Frame:
        """`person` opens the Activity: in `channel` from the App Launcher (launching or
        joining its instance), or into `instance` (one a launch-activity answer made). The
        frame's client page is at `frame_url(frame)`; `declines` makes the person refuse the
        authorization; `query` adds to (or replaces) the Activity URL's query parameters."""
        if platform not in PLATFORMS:
            raise ValueError(f"platform is one of {PLATFORMS}")
        user = getattr(person, "user", person)
        if instance is None:
            if channel is None:
                raise ValueError("open the Activity in a channel or into an instance")
            instance = self.standin.launch_activity(user, channel)
        elif user not in instance.users:
            instance = self.standin.launch_activity(user, instance.channel)
        frame = Frame(secrets.token_hex(8), user, instance, platform, declines)
        frame.query = self.activity_query(frame) | dict(query or {})
        self.frames[frame.id] = frame
        return frame

    def close(self, frame: Frame) -> None:
        """The person closes the Activity: the client takes the frame away, and the person
        leaves the instance unless another frame of theirs still shows it."""
        if frame.closed is None:
            frame.closed = (1000, "closed by the person")
        frame.outbox.put_nowait(None)
        self._left(frame)

    def _left(self, frame: Frame) -> None:
        instance = frame.instance
        still = any(
            f.user is frame.user and f.instance is instance and f.closed is None
            for f in self.frames.values()
        )
        if not still and frame.user in instance.users:
            self.standin.leave_activity(frame.user, instance)
        self.rpc.participants_changed(instance)
        self.standin._notify()

    def frame_url(self, frame: Frame) -> str:
        """The client page showing `frame`: what a browser opens."""
        return f"{self.base_url}/.standin/client/{frame.id}"

    def activity_url(self, frame: Frame) -> str:
        """The URL the client frames: the Activity's root with Discord's query parameters."""
        return f"{self.base_url}/?{urlencode(frame.query)}"

    def activity_query(self, frame: Frame) -> dict[str, str]:
        """The query parameters Discord's client adds to the Activity's URL."""
        channel = frame.instance.channel
        query = {
            "instance_id": frame.instance.id,
            "location_id": frame.instance.location_id,
            "launch_id": frame.instance.launch_id,
            "frame_id": frame.id,
            "platform": frame.platform,
            "channel_id": str(channel.id),
        }
        if channel.guild is not None:
            query["guild_id"] = str(channel.guild.id)
        return query

    # --- the client page ----------------------------------------------------------------------

    def _frame(self, request: web.Request) -> Frame:
        frame = self.frames.get(request.match_info["frame_id"])
        if frame is None:
            raise web.HTTPNotFound(text="no such frame\n")
        return frame

    async def _client_page(self, request: web.Request) -> web.Response:
        frame = self._frame(request)
        attributes = {
            "data-activity": self.activity_url(frame),
            "data-events": f"/.standin/events/{frame.id}",
            "data-rpc": f"/.standin/rpc/{frame.id}",
        }
        body = " ".join(f'{k}="{_attr(v)}"' for k, v in attributes.items())
        page = (
            '<!doctype html>\n<html lang="en"><head><meta charset="utf-8">'
            f"<title>Discord — {_attr(frame.user.display_name)}</title>"
            "<style>html,body{margin:0;height:100%}"
            "iframe{border:0;display:block;width:100%;height:100%}</style></head>"
            f'<body {body}><script src="/.standin/client.js"></script></body></html>\n'
        )
        return web.Response(text=page, content_type="text/html")

    async def _client_script(self, request: web.Request) -> web.Response:
        return web.Response(text=CLIENT_SCRIPT.read_text(), content_type="text/javascript")

    async def _rpc(self, request: web.Request) -> web.Response:
        frame = self._frame(request)
        try:
            message = await request.json()
        except ValueError:
            message = None
        was_open = frame.closed is None
        self.rpc.receive(frame, message)
        if was_open and frame.closed is not None:
            # The Activity closed itself (or broke the protocol): Discord takes it away.
            self.close(frame)
        self.standin._notify()
        return web.Response(status=204)

    async def _events(self, request: web.Request) -> web.StreamResponse:
        """What the client sends the Activity, as Server-Sent Events the page posts on."""
        frame = self._frame(request)
        if frame.closed is not None:
            # 410, not 200: the page's EventSource stops reconnecting.
            return web.Response(status=410, text="the Activity was closed\n")
        response = web.StreamResponse(
            headers={"Content-Type": "text/event-stream", "Cache-Control": "no-store"}
        )
        await response.prepare(request)
        with self._ended_by_stop():
            try:
                await response.write(b": open\n\n")
                while True:
                    try:
                        async with asyncio.timeout(HEARTBEAT):
                            message = await frame.outbox.get()
                    except TimeoutError:
                        await response.write(b": still here\n\n")
                        continue
                    if message is None:
                        await response.write(b"event: close\ndata: {}\n\n")
                        break
                    await response.write(f"data: {json.dumps(message)}\n\n".encode())
            except ConnectionResetError:
                self._gone(frame)
            except asyncio.CancelledError:
                self._gone(frame)
                raise
        return response

    @contextlib.contextmanager
    def _ended_by_stop(self) -> Iterator[None]:
        """While the block runs, the request's task is one `stop` cancels: a stream, or a
        request the proxy is passing on, does not hold the server's shutdown."""
        task = asyncio.current_task()
        assert task is not None
        self._streams.add(task)
        try:
            yield
        finally:
            self._streams.discard(task)

    def _gone(self, frame: Frame) -> None:
        """The page is gone: its person has closed Discord's window or tab."""
        if frame.closed is None and not self._stopping:
            frame.closed = (1001, "the client page went away")
            self._left(frame)

    async def _not_found(self, request: web.Request) -> web.Response:
        return web.Response(status=404, text="no such page\n")

    # --- the proxy ----------------------------------------------------------------------------

    def target(self, path: str) -> str:
        """Where the proxy sends `path` (with no query): its longest matching mapping."""
        prefix = max(
            (p for p in self.url_mappings if path == p or path.startswith(p.rstrip("/") + "/")),
            key=len,
        )
        rest = path[len(prefix.rstrip("/")) :]
        return self.url_mappings[prefix].rstrip("/") + (rest or "/")

    async def _proxy(self, request: web.Request) -> web.StreamResponse:
        assert self._session is not None
        url = self.target(request.path) + (
            f"?{request.query_string}" if request.query_string else ""
        )
        headers = {k: v for k, v in request.headers.items() if k.lower() not in HOP_BY_HOP}
        body = await request.read() if request.body_exists else None
        with self._ended_by_stop():
            try:
                async with self._session.request(
                    request.method, url, headers=headers, data=body, allow_redirects=False
                ) as upstream:
                    response = web.StreamResponse(status=upstream.status, reason=upstream.reason)
                    for name, value in upstream.headers.items():
                        if name.lower() not in HOP_BY_HOP:
                            response.headers.add(name, value)
                    await response.prepare(request)
                    kept = bytearray()
                    if self.record:
                        encoding = upstream.headers.get("Content-Encoding", "")
                        authorization = request.headers.get("Authorization")
                        answer = Proxied(
                            request.method, request.path, authorization, upstream.status, encoding
                        )
                        self.answers.append(answer)
                        kept = answer.body
                    with contextlib.suppress(ConnectionResetError, aiohttp.ClientPayloadError):
                        async for chunk in upstream.content.iter_any():
                            await response.write(chunk)
                            if self.record:
                                kept += chunk
                        await response.write_eof()
                    return response
            except aiohttp.ClientConnectionError:
                return web.Response(status=502, text="the Activity's server did not answer\n")


def _attr(value: str) -> str:
    return html.escape(value, quote=True)
