"""Simulated people playing from the table's page, as its scripts do (static/session.js,
static/seat.js): a person signs in as the Activity does (the stand-in's OAuth2 code, which the
bot exchanges at `POST /activity/session` for a session of its own), opens their seat's stream
(`GET /t/<link>/seat` with `Authorization: Session …`: while it is open they are at the page),
and on each hand it shows them with a move of theirs sends that move to `POST /t/<link>/act`.
Used by `make bench-bot --at-page` and the seat tests."""

from __future__ import annotations

import asyncio
import bisect
import contextlib
import json
import time
from collections import Counter
from typing import Any

import aiohttp

from bot.engine import SUITS
from standin.driver import Person
from standin.server import StandIn

Frame = tuple[float, int, float]
"""A table state a seat's stream pushed: (arrived, epoch seconds; its version; committed)."""


async def sign_in(standin: StandIn, http: aiohttp.ClientSession, base: str, person: Person) -> str:
    """A session for `person` at the bot's pages at `base`, as the Activity gets one: the code
    their Discord client is given for the application, posted to the bot, which exchanges it at
    the stand-in's OAuth2 token endpoint and reads who they are."""
    code = standin.authorize(person, standin.application_id)
    async with http.post(f"{base}/activity/session", json={"code": code}) as answer:
        body = await answer.json(content_type=None)
        if answer.status != 200:
            raise RuntimeError(f"{person.name} could not sign in: {answer.status} {body}")
    session: str = body["session"]
    return session


async def renew(http: aiohttp.ClientSession, base: str, session: str) -> str:
    """A new session for a good one (`POST /activity/renew`), as the page renews its own."""
    headers = {"Authorization": f"Session {session}"}
    async with http.post(f"{base}/activity/renew", headers=headers) as answer:
        body = await answer.json(content_type=None)
        if answer.status != 200:
            raise RuntimeError(f"the session was not renewed: {answer.status} {body}")
    renewed: str = body["session"]
    return renewed


def parse_event(block: bytes) -> tuple[str, Any] | None:
    """One Server-Sent Event (its lines, without the blank line that ends it): its name
    ("message" when it names none) and its data read as JSON; None for a comment (a
    keep-alive)."""
    if block.startswith(b":"):
        return None
    name, data = "message", None
    for line in block.split(b"\n"):
        if line.startswith(b"event: "):
            name = line[7:].decode()
        elif line.startswith(b"data: "):
            data = json.loads(line[6:])
    return name, data


def page_move(hand: dict[str, Any] | None) -> dict[str, Any] | None:
    """The first move a seat's page offers its person now, as its buttons would send it."""
    if not hand or not hand["turn"]:
        return None
    allowed = [b["n"] for b in hand["bids"] if b["allowed"]]
    if allowed:
        return {"do": "bid", "hand": hand["hand"], "bid": allowed[0]}
    if hand["trumps"]:
        return {"do": "trump", "hand": hand["hand"], "suit": SUITS.index(hand["trumps"][0]["suit"])}
    playable = [c for c in hand["cards"] if c["playable"]]
    if playable:
        return {"do": "play", "hand": hand["hand"], "card": playable[0]["id"]}
    return None


class PageSeat:
    """One person playing their seat from the table's page at `url` (`PUBLIC_URL/t/<link>`),
    with what it saw: the answer time of each move, the versions its moves made, and each
    table state its stream pushed (the one sent on connecting left out: it is no push)."""

    def __init__(self, http: aiohttp.ClientSession, base: str, url: str, session: str) -> None:
        self.http = http
        self.base = base
        self.url = url
        self.session = session
        self.answers_ms: list[float] = []
        """How long each move the bot took was in answering (sent → answer read)."""
        self.made: list[int] = []
        """The table's version each of those moves made."""
        self.refused: Counter[str] = Counter()
        self.frames: list[Frame] = []
        self.connected = asyncio.Event()
        """Set once the stream has sent its first state: the person is at the page."""
        self.over = False
        """The stream showed the game closed."""
        self.hand: dict[str, Any] | None = None
        self._hands = 0
        self._changed = asyncio.Event()

    @property
    def headers(self) -> dict[str, str]:
        return {"Authorization": f"Session {self.session}"}

    async def play(self) -> None:
        """Follow the seat's stream, moving whenever it shows a move, until the game is over
        (a stream the bot ends when the session runs out is opened again with a renewed one)."""
        moving = asyncio.create_task(self._move())
        try:
            while not self.over:
                await self._follow()
                if not self.over:
                    self.session = await renew(self.http, self.base, self.session)
        finally:
            moving.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await moving

    async def _follow(self) -> None:
        async with self.http.get(self.url + "/seat", headers=self.headers) as stream:
            if stream.status != 200:
                raise RuntimeError(f"the seat's stream was refused: {stream.status}")
            first = True
            buffer = b""
            async for chunk in stream.content.iter_any():
                arrived = time.time()
                buffer += chunk
                while b"\n\n" in buffer:
                    block, buffer = buffer.split(b"\n\n", 1)
                    event = parse_event(block)
                    if event is None:
                        continue
                    name, data = event
                    if name == "table":
                        if not first:
                            committed = float(data.get("committed") or 0)
                            self.frames.append((arrived, int(data["version"]), committed))
                        first = False
                        self.connected.set()
                        self.over = not data["open"]
                    elif name == "hand":
                        self.hand = data
                        self._hands += 1
                        self._changed.set()

    async def _move(self) -> None:
        """Each new hand the stream shows: its first move, if it offers one."""
        seen = 0
        while True:
            while self._hands == seen:
                self._changed.clear()
                await self._changed.wait()
            seen = self._hands
            move = page_move(self.hand)
            if move is None:
                continue
            sent = time.perf_counter()
            async with self.http.post(self.url + "/act", json=move, headers=self.headers) as answer:
                body = await answer.json(content_type=None)
                wait = float(answer.headers.get("Retry-After", 1))
            if answer.status == 200:
                self.answers_ms.append((time.perf_counter() - sent) * 1000)
                self.made.append(int(body["version"]))
                continue
            self.refused[str(body.get("error"))] += 1
            if answer.status == 429:
                # Faster than a person clicks: the same hand again once the bot allows it.
                await asyncio.sleep(wait)
                seen -= 1


def shown_to_others(seats: list[PageSeat]) -> tuple[list[float], int]:
    """For the moves the seats of one table made: how long after its commit each OTHER seat's
    stream pushed a state holding it (ms; the first state of that version or newer), and how
    many moves no stream was pushed at their own version (their commit time unknown: each page
    skipped to a newer state)."""
    committed = {version: at for seat in seats for _, version, at in seat.frames if at}
    versions = [[version for _, version, _ in seat.frames] for seat in seats]
    shown: list[float] = []
    unknown = 0
    for mover, seat in enumerate(seats):
        for version in seat.made:
            at = committed.get(version)
            if at is None:
                unknown += 1
                continue
            for other, frames in enumerate(seats):
                found = bisect.bisect_left(versions[other], version)
                if other != mover and found < len(frames.frames):
                    shown.append((frames.frames[found][0] - at) * 1000)
    return shown, unknown
