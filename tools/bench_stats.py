"""Benchmark: database time of /ohhell stats and /ohhell history with many stored results.

``python -m tools.bench_stats [--results N] [--people P] [--heavy G] [--repeat R]`` fills a fresh
SQLite file (in a temporary directory) with N results of finished 4-player games on one server
(the worst case: every result in one guild), each table holding a real finished game's
document, then times the storage queries behind the commands (the median and the worst of R
runs, in ms). A "typical" person plays about N / 4 / P * 4 games; a "heavy" one G. The decoding
of stored games for a player's per-hand detail runs in a worker process, outside the database
time: it is timed on its own. Then the same queries again without the schema's index
`results_by_player` (guild_id, user_id, rating_order), to show what it is for. The results are
inserted directly (not rated: the rating queries, and stats against rated results, are timed
by `tools.bench_community`). The last line of output is JSON.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from bot.engine import Game, Phase, Settings
from bot.service.history import HISTORY_PAGE_SIZE, STATS_DETAIL_GAMES
from bot.service.summaries import game_detail, names_and_winners
from bot.storage import COMPUTER_IDS, Database
from bot.storage.rows import dumps

GUILD = 1
CHANNELS = 20
PLAYERS = 4
SAMPLE_GAMES = 16
HEAVY_USER = 1


def sample_games(count: int) -> list[Game]:
    """Real finished games (classic, four players, random legal moves)."""
    games = []
    for seed in range(count):
        game = Game.new(Settings(preset="classic"), PLAYERS, seed, names=["A", "B", "C", "D"])
        rng = random.Random(seed)
        while game.phase is not Phase.GAME_OVER:
            seat = game.to_act[0]
            game.apply(seat, rng.choice(game.legal_actions(seat)))
        games.append(game)
    return games


async def fill(database: Database, results: int, people: int, heavy: int, seed: int) -> int:
    """Store `results` results (`results` / 4 finished tables); returns the tables made."""
    rng = random.Random(seed)
    games = sample_games(SAMPLE_GAMES)
    tables = results // PLAYERS
    heavy_tables = set(rng.sample(range(tables), min(heavy, tables)))
    table_rows = []
    result_rows = []
    for table in range(1, tables + 1):
        game = games[table % len(games)]
        users = rng.sample(range(2, people + 2), PLAYERS)
        if table - 1 in heavy_tables:
            users[0] = HEAVY_USER
        seats: list[dict[str, Any]] = [
            {"user_id": user, "name": f"P{user}", "level": None} for user in users
        ]
        if table % 3 == 0:  # every third table seats a computer player
            seats[3] = {"user_id": None, "name": "Normal bot", "level": "normal"}
        document = {"seats": seats, "game": game.to_json(), "settings": {"preset": "classic"}}
        finished = 1_700_000_000.0 + table * 60
        table_rows.append(
            (table, GUILD, table % CHANNELS, 2, "finished", "classic", dumps(document), 1, finished)
        )
        placing = game.placing or (1,) * PLAYERS
        for seat, user in enumerate(users):
            if seats[seat]["user_id"] is None:
                user = COMPUTER_IDS["normal"]
            result_rows.append(
                (
                    table,
                    seat,
                    GUILD,
                    user,
                    "classic",
                    placing[seat],
                    PLAYERS,
                    game.totals[seat],
                    5,
                    23,
                    finished,
                    table,
                )
            )
    async with database.store.transaction() as db:
        await db.executemany(
            "INSERT INTO tables (id, guild_id, channel_id, host_id, status, preset, document,"
            " version, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [(*row, row[-1]) for row in table_rows],
        )
        await db.executemany(
            "INSERT INTO results (table_id, seat, guild_id, user_id, preset, place, players,"
            " points, bids_made, hands_played, finished_at, rating_order)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            result_rows,
        )
    await database.store.backend.execute("ANALYZE")
    return tables


async def timed(run: Callable[[], Awaitable[Any]], repeat: int) -> dict[str, float]:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        await run()
        times.append((time.perf_counter() - start) * 1000)
    return {"median_ms": round(statistics.median(times), 2), "max_ms": round(max(times), 2)}


async def stats_queries(
    database: Database, user_id: int, guild_id: int = GUILD, presets: tuple[str, ...] = ()
) -> None:
    """What `History.player_stats` asks the database (`presets`: the ones the player has
    played, each read for its rating)."""
    await database.history.player_results(guild_id, user_id)
    await database.history.best_game(guild_id, user_id)
    await database.history.computer_tables(guild_id, user_id)
    await database.history.player_games(guild_id, user_id, limit=STATS_DETAIL_GAMES)
    if await database.results.player_rating(guild_id, user_id):
        await database.results.rating_history(guild_id, user_id)
    await database.results.last_game(guild_id, user_id)
    for preset in presets:
        await database.results.player_rating(guild_id, user_id, preset)


async def measure(database: Database, typical: int, repeat: int, pages: int) -> dict[str, Any]:
    last_page = max(0, pages - 1) * HISTORY_PAGE_SIZE
    heavy = HEAVY_USER
    return {
        "stats_typical": await timed(lambda: stats_queries(database, typical), repeat),
        "stats_heavy": await timed(lambda: stats_queries(database, heavy), repeat),
        "heavy_sums": await timed(lambda: database.history.player_results(GUILD, heavy), repeat),
        "heavy_best": await timed(lambda: database.history.best_game(GUILD, heavy), repeat),
        "heavy_computers": await timed(
            lambda: database.history.computer_tables(GUILD, heavy), repeat
        ),
        "heavy_documents": await timed(
            lambda: database.history.player_games(GUILD, heavy, limit=STATS_DETAIL_GAMES), repeat
        ),
        "history_page_1": await timed(
            lambda: database.history.finished_games(GUILD, limit=HISTORY_PAGE_SIZE + 1), repeat
        ),
        "history_last_page": await timed(
            lambda: database.history.finished_games(
                GUILD, offset=last_page, limit=HISTORY_PAGE_SIZE + 1
            ),
            repeat,
        ),
        "record_lookup": await timed(lambda: database.history.last_finished_game(GUILD, 3), repeat),
    }


async def run(results: int, people: int, heavy: int, repeat: int, seed: int) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as folder:
        database = await Database.open(Path(folder) / "bench.sqlite3")
        try:
            start = time.perf_counter()
            tables = await fill(database, results, people, heavy, seed)
            filled = time.perf_counter() - start
            typical = 2
            games = await database.history.player_games(GUILD, HEAVY_USER, limit=STATS_DETAIL_GAMES)
            start = time.perf_counter()
            game_detail(games, HEAVY_USER)
            detail_ms = (time.perf_counter() - start) * 1000
            page = await database.history.finished_games(GUILD, limit=HISTORY_PAGE_SIZE)
            start = time.perf_counter()
            names_and_winners([row.document for row in page])
            page_ms = (time.perf_counter() - start) * 1000
            pages = tables // HISTORY_PAGE_SIZE
            with_index = await measure(database, typical, repeat, pages)
            await database.store.backend.execute("DROP INDEX results_by_player")
            await database.store.backend.execute("ANALYZE")
            without = await measure(database, typical, repeat, pages)
            typical_games = len(await database.history.player_games(GUILD, typical, limit=10**9))
        finally:
            await database.close()
    return {
        "results": results,
        "tables": tables,
        "fill_s": round(filled, 1),
        "typical_player_games": typical_games,
        "heavy_player_games": heavy,
        "database_ms": with_index,
        "database_ms_without_player_index": without,
        "worker_detail_ms": round(detail_ms, 1),
        "worker_detail_games": len(games),
        "worker_history_page_ms": round(page_ms, 1),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--results", type=int, default=100_000)
    parser.add_argument("--people", type=int, default=1_000)
    parser.add_argument("--heavy", type=int, default=5_000)
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--seed", type=int, default=15)
    args = parser.parse_args(argv)
    figures = asyncio.run(run(args.results, args.people, args.heavy, args.repeat, args.seed))
    for name in ("database_ms", "database_ms_without_player_index"):
        for query, times in figures[name].items():
            print(
                f"{name:32} {query:18} median {times['median_ms']:8.2f}  max {times['max_ms']:8.2f}"
            )
    print(json.dumps(figures))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
