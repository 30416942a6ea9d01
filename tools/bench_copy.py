"""Benchmark: how long `python -m bot.storage.copy` takes on a big database, each way.

``python -m tools.bench_copy [--results N] [--path FILE] [--batch B]``. Fills a SQLite file with
N stored results (default 100,000) through the real `Tables.save`, so every game is rated as the
bot rates it (`tools.bench_community.fill`: 3 to 6 seats a game, now and then a computer), each
table holding a real finished game's document; the file is kept and reused when it already
holds N results. Then starts a PostgreSQL server (pgserver) and times the copy SQLite →
PostgreSQL and back to a new SQLite file, each with its verification (every row read again):
seconds in all, and each table's rows and seconds. The last line of output is JSON.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import tempfile
import time
from pathlib import Path

import asyncpg

from bot.storage import Database
from bot.storage.copy import BATCH, Copied, copy_database
from bot.storage.rows import dumps
from tools.bench_community import fill
from tools.bench_stats import sample_games


async def make_source(path: Path, results: int) -> None:
    """`results` rated results at `path`, each table with a real finished game's document."""
    database = await Database.open(path)
    try:
        await fill(database, results, people=2_000, seed=1)
        documents = [dumps({"seats": [], "game": game.to_json()}) for game in sample_games(4)]
        async with database.store.transaction() as db:
            for number, document in enumerate(documents):
                await db.execute(
                    "UPDATE tables SET document = ? WHERE id % ? = ?",
                    (document, len(documents), number),
                )
    finally:
        await database.close()


async def timed_copy(source: str, target: str, batch: int) -> tuple[Copied, float]:
    started = time.perf_counter()
    copied = await copy_database(source, target, batch=batch)
    return copied, time.perf_counter() - started


def show(way: str, copied: Copied, seconds: float) -> dict[str, object]:
    rows = sum(table.rows for table in copied.tables)
    print(f"{way}: {rows:,} rows in {seconds:.1f} s ({rows / seconds:,.0f} rows a second)")
    for table in copied.tables:
        if table.rows:
            print(f"  {table.name:<16} {table.rows:>9,} rows  {table.seconds:6.2f} s")
    return {
        "seconds": round(seconds, 2),
        "rows": rows,
        "tables": {t.name: {"rows": t.rows, "seconds": round(t.seconds, 2)} for t in copied.tables},
    }


async def bench(path: Path, results: int, batch: int) -> dict[str, object]:
    import pgserver

    await make_source(path, results)
    source = f"sqlite:///{path}"
    with tempfile.TemporaryDirectory() as folder:
        server = pgserver.get_server(Path(folder) / "postgres", cleanup_mode="stop")
        try:
            admin = await asyncpg.connect(server.get_uri())
            try:
                await admin.execute("CREATE DATABASE bench_copy")
            finally:
                await admin.close()
            postgres = server.get_uri("bench_copy")
            there, there_s = await timed_copy(source, postgres, batch)
            figures: dict[str, object] = {"results": results, "batch": batch}
            figures["sqlite_to_postgres"] = show("SQLite → PostgreSQL", there, there_s)
            back = Path(folder) / "back.sqlite3"
            again, again_s = await timed_copy(postgres, f"sqlite:///{back}", batch)
            figures["postgres_to_sqlite"] = show("PostgreSQL → SQLite", again, again_s)
        finally:
            server.cleanup()
    return figures


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--results", type=int, default=100_000)
    parser.add_argument("--path", type=Path, default=Path("data/bench_copy.sqlite3"))
    parser.add_argument("--batch", type=int, default=BATCH, help="rows a read and a write")
    args = parser.parse_args(argv)
    args.path.parent.mkdir(parents=True, exist_ok=True)
    print(json.dumps(asyncio.run(bench(args.path, args.results, args.batch))))


if __name__ == "__main__":
    main()
