"""Benchmark: the community queries (`/leaderboard`, `/ohhell stats`) on a big database.

``python -m tools.bench_community [--results N] [--path FILE] [--repeat R] [--upgrade]``.
Fills a SQLite file with N stored results (default 100,000) in one server through the real
`Tables.save` (so every game is rated as the bot rates it), then times each query `QUERIES`
lists: milliseconds of database time (the awaited storage call), median and worst of
`--repeat` runs. The file is kept and reused when it already holds N results. `--upgrade` also
times the migration of a schema-2 copy (rating every result). The last line of output is JSON.

To add a query, append `(name, function)` to `QUERIES`: the function gets the open `Database`
and a `Sample` (the server, a busy player, a preset) and awaits one call. "/ohhell stats" is
every query `player_stats` makes (tools/bench_stats.py `stats_queries`); the documents here are
empty, so the decoding of real games is timed by `make bench-stats`.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sqlite3
import statistics
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path

from bot.storage import (
    BOARD_ORDERS,
    COMPUTER_IDS,
    MIGRATIONS,
    Database,
    PlayerResult,
    TableStatus,
)
from tools.bench_stats import stats_queries

GUILD = 1
PRESETS = ("classic", "oh-hell", "oh-shit", "nomination")
TARGET_MS = 50.0


@dataclass(frozen=True)
class Sample:
    """What the timed queries ask about."""

    guild_id: int
    user_id: int
    """A person with many games (the caller)."""
    preset: str
    table_id: int
    """A finished game."""


Query = Callable[[Database, Sample], Awaitable[object]]


def _board(by: str, preset: bool, page: int = 1) -> Query:
    async def run(db: Database, s: Sample) -> object:
        return await db.results.leaderboard(
            s.guild_id,
            by=by,
            preset=s.preset if preset else None,
            page=page,
            caller_id=s.user_id,
        )

    return run


async def _rating_changes(db: Database, s: Sample) -> object:
    return await db.results.rating_changes(s.table_id)


async def _rating_history(db: Database, s: Sample) -> object:
    return await db.results.rating_history(s.guild_id, s.user_id)


async def _stats(db: Database, s: Sample) -> object:
    await stats_queries(db, s.user_id, s.guild_id, PRESETS)
    return None


async def _computer_tables(db: Database, s: Sample) -> object:
    return await db.history.computer_tables(s.guild_id, s.user_id)


QUERIES: list[tuple[str, Query]] = [
    *((f"leaderboard by:{by}", _board(by, preset=False)) for by in BOARD_ORDERS),
    *((f"leaderboard by:{by} preset", _board(by, preset=True)) for by in BOARD_ORDERS),
    ("leaderboard page 5", _board("rating", preset=False, page=5)),
    ("rating changes of a game", _rating_changes),
    ("a player's rating history", _rating_history),
    ("/ohhell stats (every query)", _stats),
    ("stats: tables with computers", _computer_tables),
]


async def fill(db: Database, results: int, people: int, seed: int) -> Sample:
    """Stored games of 3 to 6 seats (now and then a computer) until `results` rows exist."""
    rng = random.Random(seed)
    stored = await _count(db)
    channel = stored  # a finished table frees its channel; distinct ones keep it simple
    started = time.perf_counter()
    games = 0
    table_id = 0
    while stored < results:
        seats = min(rng.randint(3, 6), results - stored) if results - stored >= 3 else 3
        players = rng.sample(range(1, people + 1), seats)
        if rng.random() < 0.3:
            players[-1] = rng.choice(list(COMPUTER_IDS.values()))
        preset = rng.choice(PRESETS)
        channel += 1
        table = await db.tables.create(
            guild_id=GUILD, channel_id=channel, host_id=players[0], preset=preset, document={}
        )
        places = sorted(rng.randint(1, seats) for _ in players)
        hands = rng.randint(5, 20)
        rows = [
            PlayerResult(
                user_id=user,
                place=place,
                points=rng.randint(0, 15 * hands),
                bids_made=rng.randint(0, hands),
                hands_played=hands,
                left_early=rng.random() < 0.02,
            )
            for user, place in zip(players, places, strict=True)
        ]
        await db.tables.save(table, document={}, status=TableStatus.FINISHED, results=rows)
        stored += seats
        games += 1
        table_id = table.id
        if games % 2000 == 0:
            print(f"  {stored:,} results stored ({time.perf_counter() - started:.0f} s)")
    if games:
        seconds = time.perf_counter() - started
        print(f"filled {games:,} games in {seconds:.1f} s: {1000 * seconds / games:.2f} ms a game")
    return Sample(GUILD, 1, PRESETS[0], table_id or 1)


async def _count(db: Database) -> int:
    row = await db.store.backend.fetchone("SELECT COUNT(*) FROM results")
    return int(row[0]) if row else 0


async def time_queries(db: Database, sample: Sample, repeat: int) -> dict[str, dict[str, float]]:
    figures: dict[str, dict[str, float]] = {}
    for name, query in QUERIES:
        await query(db, sample)  # warm the page cache
        times = []
        for _ in range(repeat):
            start = time.perf_counter()
            await query(db, sample)
            times.append(1000 * (time.perf_counter() - start))
        figures[name] = {
            "median_ms": round(statistics.median(times), 2),
            "max_ms": round(max(times), 2),
        }
        print(f"{name:32} median {statistics.median(times):7.2f} ms   worst {max(times):7.2f} ms")
    return figures


async def time_upgrade(source: Path) -> tuple[int, float]:
    """Seconds to open a schema-2 copy of `source` (the release before ratings: people's
    results only), which rates every stored result on the way; and how many results it had."""
    target = source.with_name(source.stem + "-schema2.sqlite3")
    target.unlink(missing_ok=True)
    with sqlite3.connect(target) as raw:
        raw.executescript(str(MIGRATIONS[0]))
        raw.executescript(str(MIGRATIONS[1]))
        raw.execute("ATTACH DATABASE ? AS source", (str(source),))
        raw.execute("INSERT INTO tables SELECT * FROM source.tables")
        raw.execute(
            "INSERT INTO results (table_id, guild_id, user_id, preset, place, players, points,"
            " bids_made, hands_played, left_early, finished_at) SELECT table_id, guild_id,"
            " user_id, preset, place, players, points, bids_made, hands_played, left_early,"
            " finished_at FROM source.results WHERE user_id > 0"
        )
        count = raw.execute("SELECT COUNT(*) FROM results").fetchone()[0]
        raw.execute("PRAGMA user_version = 2")
    raw.close()
    start = time.perf_counter()
    db = await Database.open(target)
    seconds = time.perf_counter() - start
    await db.close()
    target.unlink()
    print(f"upgrading a schema-2 database of {count:,} results: {seconds:.1f} s")
    return int(count), seconds


async def main(args: argparse.Namespace) -> dict[str, object]:
    db = await Database.open(args.path)
    try:
        sample = await fill(db, args.results, args.people, args.seed)
        row = await db.store.backend.fetchone("SELECT MAX(table_id) FROM results")
        sample = Sample(sample.guild_id, sample.user_id, sample.preset, int(row[0]) if row else 1)
        figures = await time_queries(db, sample, args.repeat)
        row = await db.store.backend.fetchone(
            "SELECT COUNT(*) FROM ratings WHERE guild_id = ? AND preset = ''", (GUILD,)
        )
        players = int(row[0]) if row else 0
    finally:
        await db.close()
    worst = max(f["median_ms"] for f in figures.values())
    upgrade = await time_upgrade(args.path) if args.upgrade else None
    return {
        "results": args.results,
        "players": players,
        "worst_median_ms": worst,
        "target_ms": TARGET_MS,
        "met": worst < TARGET_MS,
        "queries": figures,
        "upgrade": None if upgrade is None else {"results": upgrade[0], "seconds": upgrade[1]},
    }


def run(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--results", type=int, default=100_000)
    parser.add_argument("--people", type=int, default=2_000)
    parser.add_argument("--path", type=Path, default=Path("data/bench_community.sqlite3"))
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--seed", type=int, default=15)
    parser.add_argument(
        "--upgrade", action="store_true", help="also time the migration of a schema-2 copy"
    )
    report = asyncio.run(main(parser.parse_args(argv)))
    print(json.dumps(report))


if __name__ == "__main__":
    run()
