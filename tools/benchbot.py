"""`make bench-bot`: many tables of simulated people at once against the bot, on the stand-in.

The bot runs in its own process (as in production); the stand-in and the people run in this
one, each person clicking as soon as their DM shows their turn. Prints, and ends with one JSON
line holding: acknowledgement latency p50/p99 (stand-in sends the interaction → receives the
first response), REST calls per card played outside interaction callbacks and interaction
webhooks (those are exempt from Discord's global 50 requests a second, so the rest decide how
many tables one bot can serve), 429s met, actions lost, the bot's peak memory, the bot
process's own CPU time per card (the stand-in and the people, in this process, are not counted),
table-row loads per stored action (counted by the bot's database, written out when SIGTERM
stops it: tools/bot_process.py),
the acknowledgement p99 of each quarter of the run, and this process's own peak memory,
longest garbage-collector pause and longest event-loop stall (either holds every answer here,
so the figures would measure the harness).

    python -m tools.benchbot [--tables 100] [--preset first-to-101] [--target 101]
                             [--profile bot.prof] [--database sqlite|postgres]
                             [--processes 1 [2 ...]] [--locale nl] [--at-page SHARE]
                             [--think SECONDS]

`--processes 1 2` plays the same tables once with one bot process and once with two (each
running one shard of two, the tables' servers spread over the shards), and prints the runs
side by side; `--database postgres` runs them on a PostgreSQL server started for the run
(pgserver, from the dev dependencies), as several processes need.

`--at-page SHARE` serves the web pages and seats that share of each table's people at the page
(0.5: two of four, the first to sit), as a browser plays there (tools/page_people.py, in a
process of its own, so that the stand-in's work does not delay a page): each signs in as the
Activity does (the stand-in's OAuth2 code, exchanged by the bot for a session; those exchanges
are the person's calls, not the bot's, and left out of the REST count), opens their seat's
stream (so the bot has them at the page, and their hand DM waits), and sends each move it
offers them to `POST /t/<link>/act`. It adds: the answer time of those moves, p50 and p99 (sent
→ answer read), how soon after a move's commit the other players' pages (their seat streams)
are pushed a state holding it, p50 and p99 (one machine, one clock), and the pages' process's
own CPU, longest event-loop stall and garbage-collector pauses.

`--think SECONDS` has every person take that long over each move once it is offered, on
average (from half as long to half as long again, at random): by default they move at once,
and 100 tables then play as fast as the bot goes, which measures its throughput more than the
wait a person at a table meets.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import signal
import socket
import statistics
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import aiohttp

from bot.storage import Database
from standin.driver import InteractionResult
from standin.server import StandIn
from standin.testing import BotProcess
from standin.world import PSEUDO_LOCALE, Guild, Message, discord_locale
from tools.harness import CollectorPauses, watch_stalls
from tools.page_people import Pages, Seen, shown_to_others, sign_in, thinking
from tools.simulated_people import game_over, my_turn_controls, open_table, take_turn

INTERACTION_ROUTES = (
    "POST /interactions/",
    "POST /webhooks/{webhook_id}/{webhook_token}",
    "PATCH /webhooks/{webhook_id}/{webhook_token}",
    "GET /webhooks/{webhook_id}/{webhook_token}",
    "DELETE /webhooks/{webhook_id}/{webhook_token}",
)
PEOPLE_PER_TABLE = 4
STALL_SECONDS = 300
RETRY_SECONDS = 5.0
"""How long a simulated person waits after a click that was not acknowledged in time."""
SIGN_IN_ROUTES = ("POST /oauth2/token", "GET /users/@me")
"""What the bot asks Discord to sign a person in at the page, with the person's code and token
(not the bot's: outside its global rate limit, and once a person, not a card)."""
SIGNING_IN_AT_ONCE = 8
"""People signing in at once (the bot answers more than 16 exchanges under way `busy`)."""
PROGRESS = "progress"
"""What `Table._next` finds when the table message changed (the people at the page moved, whose
moves this process does not see): the table is not stalled."""


def percentile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def peak_rss_mb(pid: int) -> float:
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def cpu_times(pid: int) -> tuple[float, float]:
    """The process's own user and system CPU time (not its children's), from /proc/<pid>/stat."""
    with open(f"/proc/{pid}/stat") as stat:
        # The command name (field 2) may hold spaces; utime and stime are fields 14 and 15.
        fields = stat.read().rsplit(")", 1)[1].split()
    tick = os.sysconf("SC_CLK_TCK")
    return int(fields[11]) / tick, int(fields[12]) / tick


def cpu_seconds(pid: int) -> float:
    return sum(cpu_times(pid))


def storage_counts(path: Path) -> tuple[int, int] | None:
    """(table loads, saves) a bot process wrote when it stopped (tools/bot_process.py), or None
    if it wrote none."""
    try:
        counts = json.loads(path.read_text())
    except FileNotFoundError:
        return None
    return int(counts["table_loads"]), int(counts["table_saves"])


def acknowledged(result: InteractionResult) -> Callable[[], bool]:
    """A condition for `wait_for`: the bot has answered this click."""
    return lambda: result.acknowledged


def free_port() -> int:
    """A port nothing listens on now (for the bot's web pages)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def at_page_count(share: float | None) -> int:
    """How many of a table's people are at the page, for a share of them."""
    return 0 if share is None else round(share * PEOPLE_PER_TABLE)


class Table:
    """One table's people and what they saw acknowledged."""

    def __init__(
        self,
        standin: StandIn,
        index: int,
        guild: Guild | None = None,
        locale: str = "en-US",
        at_page: int = 0,
        think: float = 0.0,
    ) -> None:
        self.standin = standin
        self.think = think
        """Seconds each person takes over a move once it is offered, on average."""
        self.random = random.Random(index)
        self.index = index
        self.guild = guild
        self.people = [
            standin.person(f"T{index}P{seat}", locale=locale) for seat in range(PEOPLE_PER_TABLE)
        ]
        self.at_page = set(range(at_page))
        """The seats whose person is at the page (the first to sit)."""
        self.sessions: dict[int, str] = {}
        """By seat at the page: its person's session (`bench` signs them in)."""
        self.pages: Pages | None = None
        self.seen: list[Seen] = []
        """What the people at the page saw, once the game is over (`Pages.collect`)."""
        self._edited: Any = None
        self.results: list[InteractionResult] = []
        self.acknowledged: Counter[int] = Counter()
        self.unacknowledged = 0
        """Clicks the bot did not acknowledge within Discord's 3 seconds."""
        self.table_id = 0
        self.message: Message | None = None

    async def play(
        self, preset: str, target: int | None, pages: Pages | None = None, **options: Any
    ) -> None:
        """Open the table (`/ohhell start` with `preset` and `options`), seat the people at
        the page there (in `pages`, with their `sessions`), start it and play it to its end."""
        channel = await self.standin.add_text_channel(f"table-{self.index}", guild=self.guild)
        table, self.table_id = await open_table(
            self.standin, self.people, channel=channel, preset=preset, **options
        )
        self.message = table
        if self.sessions and pages is not None:
            self.pages = pages
            (watch,) = [c["url"] for c in table.iter_components() if c.get("style") == 5]
            sessions = [self.sessions[seat] for seat in sorted(self.sessions)]
            await pages.open(self.index, watch.split("/t/")[0], watch, sessions, self.think)
        await self._play(table, preset, target)

    def count_page_moves(self) -> None:
        """Take what the people at the page saw from `pages`, their moves counted as
        acknowledged (for the actions lost)."""
        if self.pages is None:
            return
        self.seen = self.pages.seen.get(self.index, [])
        for seat, seen in zip(sorted(self.sessions), self.seen, strict=False):
            self.acknowledged[self.people[seat].id] += len(seen.made)

    async def _play(self, table: Message, preset: str, target: int | None) -> None:
        host = self.people[0]
        if target is not None:
            editor = await host.click(table, f"oh:rules:{self.table_id}")
            assert editor.reply is not None, editor
            await host.click(editor.reply, f"oh:rulepg:{self.table_id}:0:2")
            await host.select(editor.reply, f"os:rule:{self.table_id}:0:target", [str(target)])
        started = await host.click(table, f"oh:start:{self.table_id}")
        if started.response_type != 7:
            raise RuntimeError(f"table {self.index}: Start refused: {started.content}")
        while True:
            try:
                found = await self.standin.wait_for(self._next, timeout=STALL_SECONDS)
            except TimeoutError:
                raise RuntimeError(self.describe_stall()) from None
            if found is True:
                return
            if found == PROGRESS:
                continue
            person, message, custom_id = found
            if self.think:
                await asyncio.sleep(thinking(self.random, self.think))
            result = await take_turn(person, message, custom_id)
            self.results.append(result)
            if not result.acknowledged:
                # Discord shows "This interaction failed"; a person looks again after a moment
                # rather than clicking the same button in a tight loop.
                self.unacknowledged += 1
                with contextlib.suppress(TimeoutError):
                    await self.standin.wait_for(acknowledged(result), RETRY_SECONDS)
            if result.response_type == 7:
                self.acknowledged[person.id] += 1

    def describe_stall(self) -> str:
        lines = [f"table {self.index} (#{self.table_id}) made no progress for {STALL_SECONDS} s"]
        if self.message is not None and self.message.embeds:
            lines.append(f"  table message: {self.message.embeds[0].get('description')}")
        for person in self.people:
            dm = person.dms()[-1] if person.dms() else None
            footer = dm.embeds[0].get("footer") if dm is not None and dm.embeds else None
            lines.append(f"  {person.name}: {dm.content if dm else None!r} {footer}")
        return "\n".join(lines)

    def _next(self) -> Any:
        assert self.message is not None
        if game_over(self.message):
            return True
        if self.pages is not None:
            failed = self.pages.failed.get(self.index)
            if failed is not None:
                raise RuntimeError(f"table {self.index}: a seat at the page failed: {failed}")
            if self.message.edited_at != self._edited:
                self._edited = self.message.edited_at
                return PROGRESS
        for seat, person in enumerate(self.people):
            if seat in self.at_page:
                continue
            controls = my_turn_controls(person)
            if controls is not None:
                return person, controls[0], controls[1][0]
        return None


class Interrupted(Exception):
    """Ctrl-C or SIGTERM: the run stops, the bot is shut down, nothing is printed."""


async def _until_interrupted(playing: asyncio.Future[Any]) -> None:
    """Wait for `playing` (a bot's start, the tables), or for SIGINT / SIGTERM: then stop it
    (the caller's `finally` stops the bot processes) rather than leave the run and its bots
    going."""
    loop = asyncio.get_running_loop()
    interrupted = loop.create_future()

    def interrupt() -> None:
        if not interrupted.done():
            interrupted.set_result(None)

    for signum in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(signum, interrupt)
    try:
        await asyncio.wait([playing, interrupted], return_when=asyncio.FIRST_COMPLETED)
    finally:
        for signum in (signal.SIGINT, signal.SIGTERM):
            loop.remove_signal_handler(signum)
    if not playing.done():
        playing.cancel()
        await asyncio.wait([playing], timeout=5)
        if playing.done() and not playing.cancelled():
            playing.exception()  # looked at: the run is over either way
        raise Interrupted
    playing.result()


async def sign_in_all(standin: StandIn, base: str, runs: list[Table]) -> None:
    """Sign each table's people at the page in at the bot's pages at `base`, a few at once."""
    limit = asyncio.Semaphore(SIGNING_IN_AT_ONCE)

    async def one(web: aiohttp.ClientSession, run: Table, seat: int) -> None:
        async with limit:
            run.sessions[seat] = await sign_in(standin, web, base, run.people[seat])

    async with aiohttp.ClientSession() as web:
        await asyncio.gather(*(one(web, run, seat) for run in runs for seat in run.at_page))


def _click_kind(data: dict[str, Any]) -> str:
    custom_id = str(data.get("custom_id", ""))
    return custom_id.split(":")[1] if ":" in custom_id else str(data.get("name", "command"))


async def bench(
    tables: int,
    preset: str,
    target: int | None,
    out: Any,
    profile: Path | None = None,
    *,
    processes: int = 1,
    database_url: str | None = None,
    locale: str = "en-US",
    at_page: float | None = None,
    think: float = 0.0,
) -> dict[str, Any]:
    """One run: `tables` tables against `processes` bot processes (one shard each) on
    `database_url` (None: a new SQLite file); `at_page`: that share of the people at the page
    (the web pages served), None: no web pages."""
    with tempfile.TemporaryDirectory() as folder:
        database = database_url or f"sqlite:///{Path(folder) / 'bench.sqlite3'}"
        # Spec checks off: this measures the bot, not the stand-in's validator (limits stay on).
        async with StandIn(spec_path=None, keep_history=False) as standin:
            guilds: list[Guild | None] = [None]
            if processes > 1:
                guilds = [
                    standin.world.add_guild(f"Shard {s}", shard=(s, processes))
                    for s in range(processes)
                ]
            for guild in standin.world.guilds.values():
                standin.world.set_guild_locale(guild, locale)
            env = {
                "DATABASE_URL": database,
                # INFO: the bot logs a handful of lines at start-up, nothing per click.
                "LOG_LEVEL": "INFO",
                "COMPUTER_DELAY": "0",
                "DEV_GUILD_ID": "",
            }
            runs = [
                Table(standin, i, guilds[i % len(guilds)], locale, at_page_count(at_page), think)
                for i in range(tables)
            ]
            public_url = ""
            if at_page is not None:
                port = free_port()
                public_url = f"http://127.0.0.1:{port}"
                env |= {"WEB_HOST": "127.0.0.1", "WEB_PORT": str(port), "PUBLIC_URL": public_url}
                env["DISCORD_CLIENT_SECRET"] = standin.client_secret
            bots: list[BotProcess] = []
            count_files = [Path(folder) / f"counts.{shard}.json" for shard in range(processes)]
            for shard in range(processes):
                shards = {"SHARD_COUNT": str(processes), "SHARD_IDS": str(shard)}
                each = {**env, **(shards if processes > 1 else {})}
                # The counts (and the profile) are written when the bot exits after SIGTERM.
                args = [str(count_files[shard])]
                if locale == PSEUDO_LOCALE:
                    args.append("--pseudo")
                if profile is not None:
                    shard_profile = profile.resolve().with_suffix(f".{shard}{profile.suffix}")
                    args += ["--profile", str(shard_profile)]
                bots.append(BotProcess(standin, "tools.bot_process", env=each, args=args))
            pages = Pages() if at_page else None
            try:
                for bot in bots:  # Ctrl-C while one starts stops it too (below)
                    await _until_interrupted(asyncio.ensure_future(bot.start()))
                signing = (len(standin.calls), 0)
                await _until_interrupted(
                    asyncio.ensure_future(sign_in_all(standin, public_url, runs))
                )
                signing = (signing[0], len(standin.calls))
                if pages is not None:
                    await pages.start()
                cpu_at_ready = sum(cpu_seconds(bot.pid) for bot in bots)
                started = time.monotonic()
                stall = [0.0]
                with CollectorPauses() as pauses:
                    freezing = asyncio.create_task(pauses.keep_short())
                    watching = asyncio.create_task(watch_stalls(stall))
                    try:
                        await _until_interrupted(
                            asyncio.gather(*(run.play(preset, target, pages) for run in runs))
                        )
                    finally:
                        freezing.cancel()
                        watching.cancel()
                if pages is not None:
                    await pages.collect()
                await asyncio.sleep(1.0)  # let the last coalesced edits land
                rss = sum(peak_rss_mb(bot.pid) for bot in bots)
                cpu_each = [cpu_seconds(bot.pid) for bot in bots]
                cpu = sum(cpu_each)
                system = sum(cpu_times(bot.pid)[1] for bot in bots)
            except Interrupted:
                raise
            except BaseException:
                for bot in bots:
                    print(bot.stderr()[-4000:], file=sys.stderr)
                raise
            finally:
                if pages is not None:
                    await pages.stop()
                for bot in bots:
                    await bot.stop()
            elapsed = time.monotonic() - started
            counted = [storage_counts(path) for path in count_files]
            counts = None
            if all(c is not None for c in counted):
                counts = (sum(c[0] for c in counted if c), sum(c[1] for c in counted if c))
            for bot, found in zip(bots, counted, strict=True):
                if found is None:
                    code = bot.process.returncode if bot.process is not None else None
                    print(
                        f"a bot process wrote no counts (it exited with {code}):",
                        bot.stderr()[-2000:],
                        sep="\n",
                        file=sys.stderr,
                    )
            calls = list(standin.calls)
            answered = [
                (
                    r.interaction.created_at - started,
                    _click_kind(r.interaction.data),
                    (r.interaction.responded_at - r.interaction.created_at) * 1000,
                )
                for run in runs
                for r in run.results
                if r.interaction.responded_at is not None
            ]
            latencies = [ms for _, _, ms in answered]
        results = await Database.open(database)
        try:
            cards = 0
            lost = 0
            actions = 0
            for run in runs:
                run.count_page_moves()
                events = await results.tables.events(run.table_id)
                cards += sum(1 for e in events if e.kind == "CardPlayed")
                stored = Counter(e.user_id for e in events if e.kind == "action")
                actions += stored.total()
                lost += sum(max(0, n - stored[user]) for user, n in run.acknowledged.items())
        finally:
            await results.close()
    outside = [
        c
        for n, c in enumerate(calls)
        if not c.route.startswith(INTERACTION_ROUTES)
        and not (signing[0] <= n < signing[1] and c.route in SIGN_IN_ROUTES)
    ]
    quarter = elapsed / 4
    quarters = [
        [ms for at, _, ms in answered if q * quarter <= at < (q + 1) * quarter] or [0.0]
        for q in range(4)
    ]
    figures: dict[str, Any] = {
        "tables": tables,
        "processes": processes,
        "database": "postgres" if database.startswith("postgres") else "sqlite",
        "preset": preset,
        "locale": locale,
        "at_page": at_page,
        "think_s": think,
        "cards_played": cards,
        "seconds": round(elapsed, 1),
        "ack_p50_ms": round(statistics.median(latencies), 1) if latencies else 0.0,
        "ack_p99_ms": round(percentile(latencies, 0.99), 1),
        "rest_calls_per_card": round(len(outside) / cards, 3) if cards else 0.0,
        "rate_limited": sum(1 for c in calls if c.status == 429),
        "actions_lost": lost,
        "not_acknowledged": sum(run.unacknowledged for run in runs),
        "peak_rss_mb": round(rss, 1),
        "bot_cpu_ms_per_card": round(cpu * 1000 / cards, 3) if cards else 0.0,
        "bot_cpu_ms_per_card_by_process": [
            round(each * 1000 / cards, 3) if cards else 0.0 for each in cpu_each
        ],
        "loads_per_action": (
            round(counts[0] / actions, 3) if counts is not None and actions else None
        ),
        "ack_p99_ms_by_quarter": [round(percentile(q, 0.99), 1) for q in quarters],
        "harness_peak_rss_mb": round(peak_rss_mb(os.getpid()), 1),
        "harness_longest_gc_pause_ms": round(pauses.longest * 1000, 1),
        "harness_longest_stall_ms": round(stall[0] * 1000, 1),
    }
    routes = Counter(c.route for c in outside)
    refusals = Counter(
        (r.content or "")[:70]
        for run in runs
        for r in run.results
        if r.response_type == 4 and r.ephemeral
    )
    figures["refused"] = refusals.total()
    print(
        f"{processes} bot process{'es' if processes > 1 else ''} on {figures['database']}, "
        f"{tables} tables of {PEOPLE_PER_TABLE} people"
        + ("" if at_page is None else f" ({at_page_count(at_page)} at the page)")
        + f", {preset}: {cards} cards in "
        f"{elapsed:.0f} s ({cards / elapsed:.0f} cards/s)",
        file=out,
    )
    print(
        f"acknowledgement latency: p50 {figures['ack_p50_ms']} ms, "
        f"p99 {figures['ack_p99_ms']} ms over {len(latencies)} clicks",
        file=out,
    )
    print(
        f"REST calls outside interactions: {len(outside)} = "
        f"{figures['rest_calls_per_card']} a card; 429s: {figures['rate_limited']}",
        file=out,
    )
    by_kind: dict[str, list[float]] = {}
    for _, kind, ms in answered:
        by_kind.setdefault(kind, []).append(ms)
    print(
        "  p99 by click: "
        + ", ".join(f"{k} {percentile(v, 0.99):.0f} ms ({len(v)})" for k, v in by_kind.items()),
        file=out,
    )
    print(
        "  p99 by quarter of the run: "
        + ", ".join(f"{ms:.0f} ms" for ms in figures["ack_p99_ms_by_quarter"]),
        file=out,
    )
    print(f"clicks refused: {refusals.total()}", file=out)
    for text, count in refusals.most_common(3):
        print(f"  {count:7d}  {text}", file=out)
    limited = Counter(c.route for c in calls if c.status == 429)
    for route, count in limited.most_common(3):
        print(f"  429 on {route}: {count}", file=out)
    if limited:
        when = ", ".join(f"{c.time - started:.1f}" for c in calls if c.status == 429)
        print(f"  429s at (seconds into the run): {when}", file=out)
    for route, count in routes.most_common(8):
        print(f"  {count:7d}  {route}", file=out)
    print(f"clicks not acknowledged within Discord's 3 s: {figures['not_acknowledged']}", file=out)
    print(f"actions lost: {lost}; bot peak memory: {figures['peak_rss_mb']} MB", file=out)
    print(
        f"this process (stand-in and people): peak memory {figures['harness_peak_rss_mb']} MB, "
        f"garbage-collector pauses {pauses.total:.1f} s, the longest "
        f"{figures['harness_longest_gc_pause_ms']} ms; its event loop's longest stall "
        f"{figures['harness_longest_stall_ms']} ms",
        file=out,
    )
    print(
        f"bot CPU: {cpu:.1f} s ({system:.1f} s of it in the kernel, {cpu_at_ready:.1f} s "
        "before the first table) = "
        f"{figures['bot_cpu_ms_per_card']} ms a card",
        file=out,
    )
    loads = "no counts written" if counts is None else f"{counts[0]} loads, {counts[1]} saves"
    print(
        f"table rows: {loads} for {actions} stored actions = "
        f"{figures['loads_per_action']} loads an action",
        file=out,
    )
    if at_page is not None:
        figures |= page_figures(runs, pages, out)
    print(json.dumps(figures), file=out)
    return figures


def page_figures(runs: list[Table], pages: Pages | None, out: Any) -> dict[str, Any]:
    """The moves from the page: how soon the bot answered them, how soon the other players'
    pages showed them, and what was refused; and how late the pages' process itself was."""
    answers = [ms for run in runs for seen in run.seen for ms in seen.answers_ms]
    shown: list[float] = []
    unknown = 0
    refused = Counter[str]()
    for run in runs:
        found, missed = shown_to_others(run.seen)
        shown += found
        unknown += missed
        for seen in run.seen:
            refused.update(seen.refused)
    figures = {
        "page_moves": len(answers),
        "act_p50_ms": round(statistics.median(answers), 1) if answers else None,
        "act_p99_ms": round(percentile(answers, 0.99), 1) if answers else None,
        "shown_p50_ms": round(statistics.median(shown), 1) if shown else None,
        "shown_p99_ms": round(percentile(shown, 0.99), 1) if shown else None,
        "page_refused": refused.total(),
        "pages_longest_stall_ms": None if pages is None else pages.stall_ms,
    }
    print(
        f"moves from the page: {len(answers)} answered in p50 {figures['act_p50_ms']} ms, "
        f"p99 {figures['act_p99_ms']} ms; refused {dict(refused)}",
        file=out,
    )
    print(
        f"  commit → the other players' pages: p50 {figures['shown_p50_ms']} ms, p99 "
        f"{figures['shown_p99_ms']} ms over {len(shown)} pushes ({unknown} moves whose own "
        "version no page was pushed)",
        file=out,
    )
    if pages is not None:
        print(
            f"  the pages' process: CPU {pages.cpu_s} s, longest event-loop stall "
            f"{pages.stall_ms} ms, garbage-collector pauses {pages.gc_pauses_s} s",
            file=out,
        )
    return figures


SIDE_BY_SIDE = (
    ("ack p50 (ms)", "ack_p50_ms"),
    ("ack p99 (ms)", "ack_p99_ms"),
    ("ack p99 by quarter (ms)", "ack_p99_ms_by_quarter"),
    ("REST calls a card", "rest_calls_per_card"),
    ("429 answers", "rate_limited"),
    ("bot CPU a card (ms, all processes)", "bot_cpu_ms_per_card"),
    ("bot CPU a card, by process", "bot_cpu_ms_per_card_by_process"),
    ("table loads an action", "loads_per_action"),
    ("actions lost", "actions_lost"),
    ("not acknowledged in 3 s", "not_acknowledged"),
    ("cards played", "cards_played"),
    ("seconds", "seconds"),
)


def side_by_side(runs: list[dict[str, Any]], out: Any) -> None:
    """The runs' figures in columns, one run a column."""
    heads = [f"{r['processes']} on {r['database']}" for r in runs]
    width = max(len(name) for name, _ in SIDE_BY_SIDE)
    print("", file=out)
    print(" " * width + "".join(f"  {h:>22}" for h in heads), file=out)
    for name, key in SIDE_BY_SIDE:
        cells = "".join(f"  {r.get(key)!s:>22}" for r in runs)
        print(f"{name:<{width}}{cells}", file=out)


async def bench_all(args: argparse.Namespace, out: Any) -> list[dict[str, Any]]:
    """Each `--processes` count in turn, on one database kind (PostgreSQL: one server, a fresh
    database a run)."""

    async def run(processes: int, database_url: str | None = None) -> dict[str, Any]:
        return await bench(
            args.tables,
            args.preset,
            args.target,
            out,
            args.profile,
            processes=processes,
            database_url=database_url,
            locale=args.locale,
            at_page=args.at_page,
            think=args.think,
        )

    if args.database == "sqlite":
        return [await run(count) for count in args.processes]
    import asyncpg
    import pgserver

    with tempfile.TemporaryDirectory() as folder:
        server = pgserver.get_server(Path(folder) / "postgres", cleanup_mode="stop")
        try:
            runs = []
            for number, count in enumerate(args.processes):
                name = f"bench_{number}"
                admin = await asyncpg.connect(server.get_uri())
                try:
                    await admin.execute(f"CREATE DATABASE {name}")
                finally:
                    await admin.close()
                runs.append(await run(count, server.get_uri(name)))
            return runs
        finally:
            server.cleanup()


def share(text: str) -> float:
    """A share, 0 to 1 (argparse's type)."""
    value = float(text)
    if not 0 <= value <= 1:
        raise argparse.ArgumentTypeError(f"{text} is not a share from 0 to 1")
    return value


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Many tables of simulated people at once.")
    parser.add_argument(
        "--tables", type=int, default=100, help="tables of 4 people played at once (default: 100)"
    )
    parser.add_argument(
        "--preset", default="first-to-101", help="the tables' rules (default: first-to-101)"
    )
    parser.add_argument(
        "--target",
        type=int,
        default=None,
        help="a lower target score (one of the rules editor's: 50, 75, ...) for a shorter run",
    )
    parser.add_argument(
        "--profile",
        type=Path,
        default=None,
        help="profile the bot (CPU time of its event loop thread) into this file "
        "(one a process: FILE's name gets the shard number)",
    )
    parser.add_argument(
        "--database",
        choices=("sqlite", "postgres"),
        default="sqlite",
        help="postgres: a PostgreSQL server started for the run (pgserver)",
    )
    parser.add_argument(
        "--processes",
        type=int,
        nargs="+",
        default=[1],
        help="bot processes (one shard each); several counts: one run each, side by side",
    )
    parser.add_argument(
        "--locale",
        type=discord_locale,
        default="en-US",
        help="every person's and server's Discord locale: the language the bot renders in "
        f"({PSEUDO_LOCALE}: the pseudo-language, every message through a catalog) "
        "(default: en-US)",
    )
    parser.add_argument(
        "--at-page",
        type=share,
        default=None,
        help="serve the web pages, and seat this share of each table's people at the page "
        "(0 to 1; their hand DMs wait while they are there)",
    )
    parser.add_argument(
        "--think",
        type=float,
        default=0.0,
        help="seconds each person takes over a move, on average (default: 0, as soon as it is "
        "offered)",
    )
    args = parser.parse_args(argv)
    if any(count > 1 for count in args.processes) and args.database == "sqlite":
        parser.error("several bot processes share one PostgreSQL: add --database postgres")
    try:
        runs = asyncio.run(bench_all(args, sys.stdout))
    except Interrupted:
        print("interrupted: the bot was stopped", file=sys.stderr)
        return 130
    if len(runs) > 1:
        side_by_side(runs, sys.stdout)
    return 0 if all(run["actions_lost"] == 0 for run in runs) else 1


if __name__ == "__main__":
    sys.exit(main())
