"""A person's seat at the table's page, over HTTP as the page's script uses it: their seat's
stream (read as the page reads it, with fetch and the session's header) and their moves."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any

import aiohttp

from cogs.client import OhHellBot
from standin.driver import Person
from standin.server import StandIn
from tools.page_people import parse_event, sign_in


@dataclass
class Event:
    name: str
    data: Any
    raw: bytes


@dataclass
class SeatStream:
    """Everything one seat stream sent: each event, and every byte."""

    status: int = 0
    events: list[Event] = field(default_factory=list)
    raw: bytearray = field(default_factory=bytearray)
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    ended: bool = False
    """The bot ended the stream."""

    def latest(self, name: str) -> Any:
        return next((e.data for e in reversed(self.events) if e.name == name), None)

    def count(self, name: str) -> int:
        return sum(e.name == name for e in self.events)

    async def wait(self, predicate: Callable[[], Any], timeout: float = 10.0) -> Any:
        async with asyncio.timeout(timeout):
            while True:
                found = predicate()
                if found:
                    return found
                self.changed.clear()
                await self.changed.wait()

    async def more(self, name: str, than: int, timeout: float = 10.0) -> None:
        """Wait until more than `than` events named `name` have come."""
        await self.wait(lambda: self.count(name) > than, timeout)

    async def newer(self, version: int, timeout: float = 10.0) -> None:
        """Wait until the table's state is newer than `version`."""
        await self.wait(lambda: self.latest("table")["version"] > version, timeout)

    def feed(self, block: bytes) -> None:
        event = parse_event(block)
        if event is not None:
            self.events.append(Event(*event, block))
            self.changed.set()


class Seat:
    """One person's page: their session, their stream, their moves."""

    def __init__(self, bot: OhHellBot, http: aiohttp.ClientSession, path: str, session: str):
        assert bot.web is not None
        self.base = f"http://127.0.0.1:{bot.web.port}"
        self.http = http
        self.path = path
        self.session = session

    @property
    def headers(self) -> dict[str, str]:
        return {"Authorization": f"Session {self.session}"}

    @asynccontextmanager
    async def stream(self, headers: dict[str, str] | None = None) -> AsyncIterator[SeatStream]:
        seat = SeatStream()
        ready = asyncio.Event()

        async def read() -> None:
            async with self.http.get(
                self.base + self.path + "/seat",
                headers=self.headers if headers is None else headers,
            ) as answer:
                seat.status = answer.status
                ready.set()
                buffer = b""
                async for chunk in answer.content.iter_any():
                    seat.raw += chunk
                    buffer += chunk
                    while b"\n\n" in buffer:
                        block, buffer = buffer.split(b"\n\n", 1)
                        seat.feed(block)
                seat.ended = True
                seat.changed.set()

        task = asyncio.create_task(read())
        await asyncio.wait_for(ready.wait(), 10)
        try:
            yield seat
        finally:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, aiohttp.ClientError):
                await task

    async def act(self, move: dict[str, Any], session: str | None = None) -> tuple[int, Any]:
        headers = self.headers if session is None else {"Authorization": f"Session {session}"}
        async with self.http.post(
            self.base + self.path + "/act", json=move, headers=headers
        ) as answer:
            return answer.status, await answer.json(content_type=None)


async def session_of(
    standin: StandIn, bot: OhHellBot, http: aiohttp.ClientSession, person: Person
) -> str:
    """A session for `person`, as the Activity gets one (the stand-in's code, the bot's
    exchange)."""
    assert bot.web is not None
    return await sign_in(standin, http, f"http://127.0.0.1:{bot.web.port}", person)
