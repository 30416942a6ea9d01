"""`make bench-web`: what the web pages cost the bot, with many tables played at once.

The bot runs in its own process with its pages on (PUBLIC_URL, a free WEB_PORT, a WEB_SECRET
this process knows too, so it signs the tables' links itself); the stand-in, four simulated
people a table (tools/benchbot.py) and the pages' readers run in this one. A run plays
`--tables` short games at once, once with no page open and once with `--watchers` readers on
every table's live page (`/t/<link>/events`, Server-Sent Events, aiohttp clients here), the two
alternated `--pairs` times (one pair by default). Prints:

- the update latency from a commit to a page, p50 and p99: each pushed state carries when its
  row was saved (`committed`, epoch seconds), compared with when it arrives here (one machine,
  one clock; the first state of each stream, sent on connecting, is left out);
- the bytes of a table's page, of the static files it loads, and of one pushed frame;
- the bot process's own CPU a card played and its peak memory, with no reader and with the
  readers, and their ratio;
- frames skipped (a reader shown a newer state before it read an older one: the pages keep
  only the newest state) and streams that ended before the game's last state.

    python -m tools.bench_web [--tables 100] [--watchers 4] [--max-cards 5] [--pairs 1]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import secrets
import socket
import statistics
import sys
import tempfile
import time
from collections import Counter
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import aiohttp
from yarl import URL

from bot.storage import Database
from cogs.web.links import Links
from standin.server import StandIn
from standin.testing import BotProcess
from tools.benchbot import (
    Interrupted,
    Table,
    _until_interrupted,
    cpu_seconds,
    peak_rss_mb,
    percentile,
)
from tools.harness import LinesProcess, watch_stalls

ASSETS = re.compile(rb'<(?:script|link|img|iframe)\b[^>]*?\b(?:href|src)="([^"]*)"')
"""What a page loads (its links to other pages are not requests it makes)."""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass
class Stream:
    """What one reader of a table's page was pushed: (arrived, version, committed, bytes)."""

    frames: list[tuple[float, int, float, int]] = field(default_factory=list)
    status: str = ""
    """The last state's status: "finished" (or another closed one) once the game is over."""
    failed: str | None = None


async def read_stream(session: aiohttp.ClientSession, url: str, stream: Stream) -> None:
    """Read `url`'s Server-Sent Events until the bot ends the stream (the table closed)."""
    try:
        async with session.get(url) as response:
            if response.status != 200:
                stream.failed = f"HTTP {response.status}"
                return
            size = 0
            async for line in response.content:
                size += len(line)
                if line.startswith(b"data: "):
                    arrived = time.time()
                    state = json.loads(line[6:])
                    stream.status = state["status"]
                    stream.frames.append(
                        (arrived, state["version"], float(state.get("committed") or 0), 0)
                    )
                elif line == b"\n":
                    if stream.frames and stream.frames[-1][3] == 0:
                        arrived, version, committed, _ = stream.frames[-1]
                        stream.frames[-1] = (arrived, version, committed, size)
                    size = 0
    except (aiohttp.ClientError, TimeoutError, ConnectionError) as error:
        stream.failed = type(error).__name__


async def read_pages(watchers: int, out: Any) -> None:
    """The readers' process (`--read N`): for each line "TABLE URL" on stdin, N readers of URL's
    stream; each one's frames written to `out` as a JSON line once its stream ends; at the end
    of stdin and of every stream, a last line with this process's longest event-loop stall.
    Apart from the stand-in and the people, so that what delays them does not delay a page."""
    loop = asyncio.get_running_loop()
    stdin = asyncio.StreamReader()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(stdin), sys.stdin)
    stall = [0.0]
    watching = asyncio.create_task(watch_stalls(stall))
    connector = aiohttp.TCPConnector(limit=0)
    timeout = aiohttp.ClientTimeout(total=None, sock_connect=30, sock_read=None)
    readers: set[asyncio.Task[None]] = set()

    async def read(table_id: int, url: str) -> None:
        stream = Stream()
        await read_stream(session, url, stream)
        line = {"table": table_id, **asdict(stream)}
        out.write(json.dumps(line) + "\n")
        out.flush()

    async with aiohttp.ClientSession(connector=connector, timeout=timeout) as session:
        while line := await stdin.readline():
            table, url = line.decode().split()
            for _ in range(watchers):
                task = asyncio.create_task(read(int(table), url))
                readers.add(task)
                task.add_done_callback(readers.discard)
        if readers:
            await asyncio.wait(list(readers), timeout=60)
    watching.cancel()
    out.write(json.dumps({"stall_ms": round(stall[0] * 1000, 1)}) + "\n")
    out.flush()


class Readers:
    """The readers' process, seen from the benchmark: `watch` a table's page, `collect` what
    they were pushed once the games are over."""

    def __init__(self, watchers: int) -> None:
        self.watchers = watchers
        self.streams: list[Stream] = []
        self.by_table: dict[int, list[Stream]] = {}
        self.stall_ms = 0.0
        self._process = LinesProcess("tools.bench_web", ["--read", str(watchers)], self._heard)

    async def start(self) -> None:
        await self._process.start()

    def watch(self, table_id: int, url: str) -> None:
        self._process.send(f"{table_id} {url}")

    def _heard(self, found: dict[str, Any]) -> None:
        if "stall_ms" in found:
            self.stall_ms = found["stall_ms"]
            return
        stream = Stream(
            [tuple(frame) for frame in found["frames"]], found["status"], found["failed"]
        )
        self.streams.append(stream)
        self.by_table.setdefault(found["table"], []).append(stream)

    async def collect(self) -> None:
        """Every stream's frames (each ends with its table), within a minute and a half."""
        await self._process.collect()

    async def stop(self) -> None:
        await self._process.stop()


def page_loads(page: bytes, url: str) -> tuple[list[str], list[str]]:
    """The addresses `page` (at `url`) loads its files from, the bot's own and others; an
    inline `data:` address is no request."""
    own: list[str] = []
    outside: list[str] = []
    for found in ASSETS.findall(page):
        address = found.decode()
        if address.startswith("data:"):
            continue
        loads = URL(url).join(URL(address))
        if loads.is_absolute() and loads.origin() == URL(url).origin():
            own.append(str(loads))
        else:
            outside.append(address)
    return own, outside


async def page_weight(session: aiohttp.ClientSession, url: str) -> tuple[int, int, list[str]]:
    """The page's bytes, the bytes of the files it loads, and any address it loads from that
    is not the bot's own."""
    async with session.get(url) as response:
        page = await response.read()
    own, outside = page_loads(page, url)
    loaded = 0
    for address in own:
        async with session.get(address) as got:
            loaded += len(await got.read())
    return len(page), loaded, outside


async def one_run(
    tables: int, watchers: int, max_cards: int, preset: str, out: Any, profile: Path | None = None
) -> dict[str, Any]:
    """`tables` games at once against one bot process, `watchers` readers on each table's page."""
    key = secrets.token_urlsafe(32)
    port = free_port()
    public_url = f"http://127.0.0.1:{port}"
    links = Links(key.encode(), public_url)
    with tempfile.TemporaryDirectory() as folder:
        database = f"sqlite:///{Path(folder) / 'bench.sqlite3'}"
        async with StandIn(spec_path=None, keep_history=False) as standin:
            env = {
                "DATABASE_URL": database,
                "LOG_LEVEL": "WARNING",
                "COMPUTER_DELAY": "0",
                "DEV_GUILD_ID": "",
                "PUBLIC_URL": public_url,
                "WEB_PORT": str(port),
                "WEB_SECRET": key,
            }
            args = [str(Path(folder) / "counts.json")]
            if profile is not None:
                args += ["--profile", str(profile.resolve().with_suffix(f".{watchers}.prof"))]
            bot = BotProcess(standin, "tools.bot_process", env=env, args=args)
            session = aiohttp.ClientSession()
            readers = Readers(watchers)
            weight: tuple[int, int, list[str]] | None = None
            stall = [0.0]
            try:
                await _until_interrupted(asyncio.ensure_future(bot.start()))
                if watchers:
                    await readers.start()
                cpu_at_ready = cpu_seconds(bot.pid)
                started = time.monotonic()
                runs = [Table(standin, i) for i in range(tables)]

                async def play(run: Table) -> None:
                    nonlocal weight
                    playing = asyncio.ensure_future(run.play(preset, None, max_cards=max_cards))
                    while run.table_id == 0 and not playing.done():
                        await asyncio.sleep(0.02)
                    if run.table_id and watchers:
                        link = links.table(standin.guild.id, run.table_id)
                        readers.watch(run.table_id, link + "/events")
                        if weight is None:
                            weight = (0, 0, [])
                            weight = await page_weight(session, link)
                    await playing

                watching = asyncio.create_task(watch_stalls(stall))
                try:
                    await _until_interrupted(asyncio.gather(*(play(run) for run in runs)))
                finally:
                    watching.cancel()
                if watchers:
                    await readers.collect()
                rss = peak_rss_mb(bot.pid)
                cpu = cpu_seconds(bot.pid) - cpu_at_ready
            except Interrupted:
                raise
            except BaseException:
                print(bot.stderr()[-4000:], file=sys.stderr)
                raise
            finally:
                await readers.stop()
                await session.close()
                await bot.stop()
            elapsed = time.monotonic() - started
        results = await Database.open(database)
        try:
            cards = 0
            lost = 0
            for run in runs:
                events = await results.tables.events(run.table_id)
                cards += sum(1 for e in events if e.kind == "CardPlayed")
                stored = Counter(e.user_id for e in events if e.kind == "action")
                lost += sum(max(0, n - stored[user]) for user, n in run.acknowledged.items())
        finally:
            await results.close()
    streams = readers.streams
    by_table = readers.by_table
    latencies = [
        (arrived - committed) * 1000
        for stream in streams
        for arrived, _version, committed, _size in stream.frames[1:]
        if committed
    ]
    sizes = [size for stream in streams for *_, size in stream.frames if size]
    skipped = 0
    for group in by_table.values():
        shown = {version for stream in group for _, version, _, _ in stream.frames}
        for stream in group:
            seen = [version for _, version, _, _ in stream.frames]
            if seen:
                skipped += sum(1 for v in shown if v > seen[0] and v not in seen)
    unfinished = sum(
        1 for stream in streams if stream.failed or stream.status in ("", "lobby", "playing")
    )
    figures: dict[str, Any] = {
        "tables": tables,
        "watchers_a_table": watchers,
        "max_cards": max_cards,
        "cards_played": cards,
        "seconds": round(elapsed, 1),
        "bot_cpu_ms_per_card": round(cpu * 1000 / cards, 3) if cards else 0.0,
        "peak_rss_mb": round(rss, 1),
        "streams": len(streams),
        "frames": len(sizes),
        "latency_p50_ms": round(statistics.median(latencies), 1) if latencies else None,
        "latency_p99_ms": round(percentile(latencies, 0.99), 1) if latencies else None,
        "latency_max_ms": round(max(latencies), 1) if latencies else None,
        "frame_bytes_median": int(statistics.median(sizes)) if sizes else None,
        "frame_bytes_max": max(sizes) if sizes else None,
        "page_bytes": weight[0] if weight else None,
        "static_bytes": weight[1] if weight else None,
        "outside_addresses": weight[2] if weight else [],
        "frames_skipped": skipped,
        "streams_unfinished": unfinished,
        "actions_lost": lost,
        "harness_longest_stall_ms": round(stall[0] * 1000, 1),
        "readers_longest_stall_ms": readers.stall_ms,
    }
    print(
        f"{tables} tables, {watchers} readers a table: {cards} cards in {elapsed:.0f} s; "
        f"bot CPU {figures['bot_cpu_ms_per_card']} ms a card, peak memory {rss:.1f} MB",
        file=out,
    )
    if watchers:
        print(
            f"  commit → page: p50 {figures['latency_p50_ms']} ms, p99 "
            f"{figures['latency_p99_ms']} ms (max {figures['latency_max_ms']}) over "
            f"{len(latencies)} frames to {len(streams)} streams",
            file=out,
        )
        print(
            f"  page {figures['page_bytes']} bytes, its static files {figures['static_bytes']}"
            f" bytes, addresses outside the bot: {len(figures['outside_addresses'])}; a frame "
            f"{figures['frame_bytes_median']} bytes (largest {figures['frame_bytes_max']})",
            file=out,
        )
        print(
            f"  frames skipped (newest-only): {skipped}; streams that did not see the end: "
            f"{unfinished}; longest event-loop stall of the readers' process "
            f"{readers.stall_ms} ms, of the stand-in's {figures['harness_longest_stall_ms']} ms",
            file=out,
        )
    print(json.dumps(figures), file=out, flush=True)
    return figures


def summary(runs: list[dict[str, Any]], watchers: int, out: Any) -> dict[str, Any]:
    """The runs without readers against those with, in means."""
    idle = [r for r in runs if r["watchers_a_table"] == 0]
    watched = [r for r in runs if r["watchers_a_table"] == watchers]

    def mean(group: list[dict[str, Any]], key: str) -> float:
        return statistics.fmean(r[key] for r in group)

    cpu0, cpu1 = mean(idle, "bot_cpu_ms_per_card"), mean(watched, "bot_cpu_ms_per_card")
    mem0, mem1 = mean(idle, "peak_rss_mb"), mean(watched, "peak_rss_mb")
    result = {
        "cpu_ms_per_card_without": round(cpu0, 3),
        "cpu_ms_per_card_with": round(cpu1, 3),
        "cpu_ratio": round(cpu1 / cpu0, 3) if cpu0 else None,
        "peak_rss_mb_without": round(mem0, 1),
        "peak_rss_mb_with": round(mem1, 1),
        "memory_added_mb": round(mem1 - mem0, 1),
        "latency_p50_ms": max(r["latency_p50_ms"] or 0 for r in watched),
        "latency_p99_ms": max(r["latency_p99_ms"] or 0 for r in watched),
        "page_bytes": watched[0]["page_bytes"],
        "static_bytes": watched[0]["static_bytes"],
        "outside_addresses": watched[0]["outside_addresses"],
        "frame_bytes_median": watched[0]["frame_bytes_median"],
        "frames_skipped": sum(r["frames_skipped"] for r in watched),
        "streams_unfinished": sum(r["streams_unfinished"] for r in watched),
    }
    print(
        f"\nwith {watchers} readers a table against none ({len(idle)} runs each): bot CPU a "
        f"card {cpu0:.3f} → {cpu1:.3f} ms (×{result['cpu_ratio']}, target ≤ ×1.10); peak "
        f"memory {mem0:.1f} → {mem1:.1f} MB ({result['memory_added_mb']:+.1f} MB, target ≤ +50);"
        f" page {result['page_bytes']} + {result['static_bytes']} bytes (target < 100 KB)",
        file=out,
    )
    print(json.dumps(result), file=out)
    return result


async def bench(args: argparse.Namespace, out: Any) -> list[dict[str, Any]]:
    runs = []
    for _ in range(args.pairs):
        for watchers in (0, args.watchers):
            runs.append(
                await one_run(args.tables, watchers, args.max_cards, args.preset, out, args.profile)
            )
    summary(runs, args.watchers, out)
    return runs


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="What the web pages cost the bot.")
    parser.add_argument("--read", type=int, help=argparse.SUPPRESS)
    parser.add_argument(
        "--profile",
        type=Path,
        default=None,
        help="profile the bot (tools/bot_process.py) into FILE, one file a run: FILE.0.prof "
        "without readers, FILE.N.prof with N a table",
    )
    parser.add_argument("--tables", type=int, default=100, help="tables played at once")
    parser.add_argument("--watchers", type=int, default=4, help="readers of each table's page")
    parser.add_argument(
        "--max-cards", type=int, default=5, help="the games' largest hand (default: 5)"
    )
    parser.add_argument("--preset", default="classic", help="the games' rules (default: classic)")
    parser.add_argument(
        "--pairs", type=int, default=1, help="runs without and with readers, alternated"
    )
    args = parser.parse_args(argv)
    if args.read:
        asyncio.run(read_pages(args.read, sys.stdout))
        return 0
    if args.watchers < 1:
        parser.error("--watchers must be at least 1")
    try:
        runs = asyncio.run(bench(args, sys.stdout))
    except Interrupted:
        print("interrupted: the bot was stopped", file=sys.stderr)
        return 130
    return 0 if all(run["actions_lost"] == 0 for run in runs) else 1


if __name__ == "__main__":
    sys.exit(main())
