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
import gc
import json
import random
import sys
import time
from dataclasses import asdict, dataclass, field
from typing import Any

import aiohttp

from bot.engine import SUITS
from standin.driver import Person
from standin.server import StandIn
from tools.harness import CollectorPauses, LinesProcess, watch_stalls

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


def thinking(rng: random.Random, think: float) -> float:
    """How long a person takes over one move, `think` seconds on average: from half as long to
    half as long again, so that tables started together do not move in step."""
    return rng.uniform(0.5 * think, 1.5 * think)


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


@dataclass
class Seen:
    """What one person playing from the page saw."""

    answers_ms: list[float] = field(default_factory=list)
    """How long each move the bot took was in answering (sent → answer read)."""
    made: list[int] = field(default_factory=list)
    """The table's version each of those moves made."""
    refused: dict[str, int] = field(default_factory=dict)
    """Moves refused, by the refusal's code."""
    frames: list[Frame] = field(default_factory=list)
    """Each table state the seat's stream pushed (the one sent on connecting left out: it is
    no push)."""


class PageSeat:
    """One person playing their seat from the table's page at `url` (`PUBLIC_URL/t/<link>`),
    and what they saw."""

    def __init__(
        self, http: aiohttp.ClientSession, base: str, url: str, session: str, think: float = 0.0
    ) -> None:
        self.http = http
        self.think = think
        """Seconds the person takes over a move once it is offered, on average."""
        self.random = random.Random(session)
        self.base = base
        self.url = url
        self.session = session
        self.seen = Seen()
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
                following = asyncio.create_task(self._follow())
                await asyncio.wait([following, moving], return_when=asyncio.FIRST_COMPLETED)
                if moving.done():
                    following.cancel()
                    moving.result()  # what stopped the moves
                await following
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
                            self.seen.frames.append((arrived, int(data["version"]), committed))
                        first = False
                        self.connected.set()
                        self.over = not data["open"]
                        if self.over:
                            return
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
            if self.think and page_move(self.hand) is not None:
                await asyncio.sleep(thinking(self.random, self.think))
            move = page_move(self.hand)
            if move is None:
                continue
            sent = time.perf_counter()
            async with self.http.post(self.url + "/act", json=move, headers=self.headers) as answer:
                body = await answer.json(content_type=None)
                wait = float(answer.headers.get("Retry-After", 1))
            if answer.status == 200:
                self.seen.answers_ms.append((time.perf_counter() - sent) * 1000)
                self.seen.made.append(int(body["version"]))
                continue
            code = str(body.get("error"))
            self.seen.refused[code] = self.seen.refused.get(code, 0) + 1
            if answer.status == 429:
                # Faster than a person clicks: the same hand again once the bot allows it.
                await asyncio.sleep(wait)
                seen -= 1


def shown_to_others(seats: list[Seen]) -> tuple[list[float], int]:
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


async def play_pages(out: Any) -> None:
    """The pages' process (`python -m tools.page_people`): for each line on stdin, JSON
    `{"table", "base", "url", "sessions", "think"}`, those people play their seats from the page; it
    writes `{"table", "connected": true}` once all their streams are open, then `{"table",
    "seen": [...]}` once their game is over (or `{"table", "failed"}`), and, at the end of stdin
    and of every game, this process's longest event-loop stall. Apart from the stand-in and the
    people at their DMs, so that what keeps them busy does not delay a page."""
    # Its many short-lived frames would have the collector run often, and hold every page.
    gc.set_threshold(100_000, 50, 100)
    loop = asyncio.get_running_loop()
    stdin = asyncio.StreamReader()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(stdin), sys.stdin)
    stall = [0.0]
    playing: set[asyncio.Task[None]] = set()

    def write(line: dict[str, Any]) -> None:
        out.write(json.dumps(line) + "\n")
        out.flush()

    async def opened(seats: list[PageSeat]) -> None:
        await asyncio.gather(*(seat.connected.wait() for seat in seats))

    async def table(http: aiohttp.ClientSession, asked: dict[str, Any]) -> None:
        index = asked["table"]
        seats = [
            PageSeat(http, asked["base"], asked["url"], session, asked["think"])
            for session in asked["sessions"]
        ]
        tasks = [asyncio.create_task(seat.play()) for seat in seats]
        try:
            connected = asyncio.create_task(opened(seats))
            done, _ = await asyncio.wait(
                [connected, *tasks], timeout=30, return_when=asyncio.FIRST_COMPLETED
            )
            if connected not in done:
                connected.cancel()
                await asyncio.gather(connected, return_exceptions=True)
                raise RuntimeError("the seats' streams did not open")
            write({"table": index, "connected": True})
            await asyncio.gather(*tasks)
        except Exception as error:
            write({"table": index, "failed": repr(error)})
        finally:
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
        write({"table": index, "seen": [asdict(seat.seen) for seat in seats]})

    connector = aiohttp.TCPConnector(limit=0)
    timeout = aiohttp.ClientTimeout(total=None, sock_connect=30, sock_read=None)
    with CollectorPauses() as pauses:
        watching = asyncio.create_task(watch_stalls(stall))
        freezing = asyncio.create_task(pauses.keep_short())
        async with aiohttp.ClientSession(connector=connector, timeout=timeout) as http:
            while line := await stdin.readline():
                task = asyncio.create_task(table(http, json.loads(line)))
                playing.add(task)
                task.add_done_callback(playing.discard)
            if playing:
                await asyncio.wait(list(playing), timeout=60)
        watching.cancel()
        freezing.cancel()
    write(
        {
            "stall_ms": round(stall[0] * 1000, 1),
            "gc_pauses_s": round(pauses.total, 1),
            "cpu_s": round(time.process_time(), 1),
        }
    )


LINE_LIMIT = 256 * 1024 * 1024
"""The longest line the pages' process writes (what a table's seats saw: every frame)."""


class Pages:
    """The pages' process, seen from the benchmark: `open` a table's seats there, `collect`
    what they saw once the games are over."""

    def __init__(self) -> None:
        self.seen: dict[int, list[Seen]] = {}
        self.failed: dict[int, str] = {}
        self.stall_ms = 0.0
        self.gc_pauses_s = 0.0
        self.cpu_s = 0.0
        """The pages' process's own CPU time."""
        self._connected: dict[int, asyncio.Future[None]] = {}
        self._process = LinesProcess("tools.page_people", [], self._heard, limit=LINE_LIMIT)

    async def start(self) -> None:
        await self._process.start()

    async def open(
        self, index: int, base: str, url: str, sessions: list[str], think: float = 0.0
    ) -> None:
        """The people with `sessions` open their seats' streams at table `index`'s page `url`,
        each to take `think` seconds over a move: back once all are open."""
        connected = self._connected[index] = asyncio.get_running_loop().create_future()
        asked = {"table": index, "base": base, "url": url, "sessions": sessions, "think": think}
        self._process.send(json.dumps(asked))
        await asyncio.wait_for(connected, 60)

    def _heard(self, found: dict[str, Any]) -> None:
        if "stall_ms" in found:
            self.stall_ms, self.gc_pauses_s = found["stall_ms"], found["gc_pauses_s"]
            self.cpu_s = found["cpu_s"]
            return
        index = found["table"]
        waiting = self._connected.get(index)
        if "failed" in found:
            self.failed[index] = found["failed"]
            if waiting is not None and not waiting.done():
                waiting.set_exception(RuntimeError(found["failed"]))
        elif "connected" in found and waiting is not None and not waiting.done():
            waiting.set_result(None)
        elif "seen" in found:
            self.seen[index] = [
                Seen(
                    seen["answers_ms"],
                    seen["made"],
                    seen["refused"],
                    [(a, v, c) for a, v, c in seen["frames"]],
                )
                for seen in found["seen"]
            ]

    async def collect(self) -> None:
        """What every seat saw (each game over), within a minute and a half."""
        status = await self._process.collect()
        if status != 0:
            raise RuntimeError(f"the pages' process exited with {status}")

    async def stop(self) -> None:
        await self._process.stop()


if __name__ == "__main__":
    asyncio.run(play_pages(sys.stdout))
