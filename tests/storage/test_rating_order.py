"""One rating order a server: games that finish at once are rated in the order they reach the
server's ratings lock, whatever their clocks read, and every view shows that order: stored
ratings equal a recomputation from scratch in it, each history row's change is its rating less
the one before, and the final standings, /leaderboard and /ohhell stats show one number. An
older database is numbered and rated again by the migration."""

from __future__ import annotations

import asyncio

import pytest

from bot.service import TableService
from bot.storage import COMPUTER_IDS, MIGRATIONS, Database, PlayerResult, TableStatus
from bot.storage.connection import Connection
from bot.storage.ratings import HISTORY_COLUMNS, NEW, RATING_COLUMNS
from bot.storage.replay import add_rating_order, recompute_ratings
from tests.storage.test_ratings import database_before, direct_openskill, read_unopened, result

GUILD = 1
HARD = COMPUTER_IDS["hard"]
GAMES = [
    # The same players throughout (a computer level too), so each game starts from the ratings
    # the one before it left, and another order gives other ratings.
    ("classic", {1: 1, 2: 2, 3: 3}),
    ("classic", {3: 1, 1: 2, HARD: 3}),
    ("oh-hell", {2: 1, HARD: 2, 1: 3}),
    ("classic", {HARD: 1, 3: 2, 2: 3, 1: 4}),
    ("classic", {1: 1, HARD: 2}),
]


class Backwards:
    """A clock that reads a second earlier at each call: each game that finishes reads an
    earlier time than every game before it."""

    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        self.now -= 1
        return self.now


def results_of(places: dict[int, int]) -> list[PlayerResult]:
    return [result(user, place) for user, place in places.items()]


async def queued_for_ratings(db: Connection, waiting: int) -> None:
    """Wait until `waiting` transactions wait for an advisory lock (the ratings lock held)."""
    for _ in range(500):
        row = await db.fetchone(
            "SELECT COUNT(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted"
        )
        if row is not None and row[0] == waiting:
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"{waiting} saves never waited for the ratings lock")


async def assert_one_order(database: Database, guild_id: int) -> None:
    """The stored ratings and history are the recomputation in the stored order, the history
    chains, and the final standings of each player's last game, /leaderboard and /ohhell
    stats show the same rating."""
    recomputed = await recompute_ratings(database.store.backend, guild_id)
    ratings = await database.store.backend.fetchall(
        f"SELECT {RATING_COLUMNS} FROM ratings WHERE guild_id = ?", (guild_id,)
    )
    history = await database.store.backend.fetchall(
        f"SELECT {HISTORY_COLUMNS} FROM rating_history WHERE guild_id = ?", (guild_id,)
    )
    assert sorted(ratings) == recomputed.rating_rows() and ratings
    assert sorted(history) == sorted(recomputed.history) and history

    chained = await database.store.backend.fetchall(
        "SELECT user_id, preset, rating, change, table_id FROM rating_history"
        " WHERE guild_id = ? ORDER BY user_id, preset, rating_order",
        (guild_id,),
    )
    last: dict[tuple[int, str], tuple[int, int]] = {}
    for user, preset, rating, change, table_id in chained:
        before = last.get((user, preset), (NEW.shown, 0))[0]
        assert change == rating - before, (user, preset, table_id)
        last[(user, preset)] = (rating, table_id)
    now = {(row[2], row[1]): row[5] for row in ratings}
    assert {key: rating for key, (rating, _) in last.items()} == now

    board = await database.results.leaderboard(guild_id, page_size=len(last))
    ranked = {row.user_id: row.rating for row in board.rows if row.rank is not None}
    service = TableService(database, decide=lambda *args: None)  # type: ignore[arg-type,return-value]
    for (user, preset), (rating, table_id) in last.items():
        if preset:
            continue
        standings = await database.results.rating_changes(table_id)
        mine = await database.results.player_rating(guild_id, user)
        assert mine is not None and standings[user][0] == rating, user
        assert mine.rating == rating and ranked.get(user, rating) == rating, user
        assert (user in ranked) == (not mine.provisional) == (not standings[user][2]), user
        stats = await service.finished_games.player_stats(guild_id, user)
        assert stats.rating == rating and stats.rating_change == standings[user][1], user
        assert stats.rating_change_game == table_id, user
        assert stats.rating_history[-1] == (table_id, rating), user


async def test_games_finishing_at_once_are_rated_and_shown_in_the_order_of_the_lock(
    database_url: str,
) -> None:
    """Each save reads its clock earlier than the save before it, and reaches the ratings lock
    after it (on PostgreSQL: three processes, each save queued on the held lock in turn)."""
    clock = Backwards()
    processes = [await Database.open(database_url, clock)]
    if processes[0].store.dialect_name == "postgres":
        processes += [await Database.open(database_url, clock) for _ in range(2)]
    try:
        tables = [
            await processes[n % len(processes)].tables.create(
                guild_id=GUILD, channel_id=10 + n, host_id=1, preset=preset, document={}
            )
            for n, (preset, _) in enumerate(GAMES)
        ]
        async with processes[0].store.backend.hold("ratings", GUILD) as held:
            saves = []
            for n, (table, (_, places)) in enumerate(zip(tables, GAMES, strict=True)):
                process = processes[n % len(processes)]
                save = process.tables.save(
                    table, document={}, status=TableStatus.FINISHED, results=results_of(places)
                )
                saves.append(asyncio.create_task(save))
                if held is not None:
                    await queued_for_ratings(held, n + 1)
        await asyncio.gather(*saves)

        stored = await processes[0].store.backend.fetchall(
            "SELECT table_id, rating_order, finished_at FROM results WHERE seat = 0"
            " ORDER BY rating_order"
        )
        assert [row[0] for row in stored] == [table.id for table in tables]
        assert [row[1] for row in stored] == [1, 2, 3, 4, 5]
        finished = [row[2] for row in stored]
        assert finished == sorted(finished, reverse=True)  # the clocks read the other way
        await assert_one_order(processes[0], GUILD)
        # The ratings are the games' in the order they were rated, not in their clocks'.
        played = [(preset, results_of(places)) for preset, places in GAMES]
        in_turn, by_clock = direct_openskill(played), direct_openskill(played[::-1])
        row = await processes[0].store.backend.fetchone(
            "SELECT mu FROM ratings WHERE guild_id = ? AND preset = '' AND user_id = ?",
            (GUILD, HARD),
        )
        assert row is not None
        assert row[0] == pytest.approx(in_turn[("", HARD)].mu)  # type: ignore[attr-defined]
        assert row[0] != pytest.approx(by_clock[("", HARD)].mu)  # type: ignore[attr-defined]
    finally:
        for process in processes:
            await process.close()


async def test_many_games_racing_on_postgres_keep_one_order(postgres_url: str) -> None:
    """Four processes with clocks hours apart finish games of one server at once, in whatever
    order the lock takes them."""
    processes = [
        await Database.open(postgres_url, lambda n=n: 1_000_000.0 - 3600 * n) for n in range(4)
    ]
    try:
        channel = 10
        for _ in range(3):
            saves = []
            for n, (preset, places) in enumerate(GAMES[:4]):
                channel += 1
                table = await processes[n].tables.create(
                    guild_id=GUILD, channel_id=channel, host_id=1, preset=preset, document={}
                )
                saves.append(
                    processes[n].tables.save(
                        table, document={}, status=TableStatus.FINISHED, results=results_of(places)
                    )
                )
            await asyncio.gather(*saves)
        orders = await processes[0].store.backend.fetchall(
            "SELECT rating_order FROM results WHERE seat = 0 ORDER BY rating_order"
        )
        assert [row[0] for row in orders] == list(range(1, 13))
        await assert_one_order(processes[1], GUILD)
    finally:
        for process in processes:
            await process.close()


async def database_before_the_rating_order(url: str) -> None:
    """A database at the schema before the rating order, whose history was rated in another
    order than its finish times say: table 2 was rated after table 1, but its clock read
    earlier (as two processes' games could be)."""
    games = [
        (100.0, "classic", [(1, 1, 0), (2, 2, 0), (3, 3, 0)]),
        (200.0, "classic", [(3, 1, 0), (1, 2, 0)]),
        (300.0, "oh-hell", [(2, 1, 0), (1, 2, 0), (3, 3, 1)]),
        (400.0, "classic", [(1, 1, 0), (3, 2, 0), (2, 3, 0)]),
    ]
    async with database_before(url, games, add_rating_order) as raw:
        for name in ("results", "rating_history"):
            await raw.execute(f"UPDATE {name} SET finished_at = 50 WHERE table_id = 2")


async def test_the_migration_numbers_an_older_database_in_finish_order_and_rates_it_again(
    database_url: str,
) -> None:
    await database_before_the_rating_order(database_url)
    rated_before = await read_unopened(
        database_url, "SELECT preset, user_id, mu FROM ratings ORDER BY preset, user_id"
    )
    database = await Database.open(database_url)
    try:
        assert await database.store.schema_version() == len(MIGRATIONS)
        orders = await database.store.backend.fetchall(
            "SELECT DISTINCT table_id, rating_order FROM results ORDER BY rating_order"
        )
        assert orders == [(2, 1), (1, 2), (3, 3), (4, 4)]
        await assert_one_order(database, GUILD)
        rated_after = await database.store.backend.fetchall(
            "SELECT preset, user_id, mu FROM ratings ORDER BY preset, user_id"
        )
        assert rated_after != rated_before
        # A game finished after the upgrade comes next in the order.
        table = await database.tables.create(
            guild_id=GUILD, channel_id=10, host_id=1, preset="classic", document={}
        )
        await database.tables.save(
            table, document={}, status=TableStatus.FINISHED, results=results_of({2: 1, 3: 2})
        )
        row = await database.store.backend.fetchone(
            "SELECT rating_order FROM results WHERE table_id = ?", (table.id,)
        )
        assert row == (5,)
        await assert_one_order(database, GUILD)
        # Two games of a server never share a place (seat 2 of the game in place 2).
        with pytest.raises(Exception, match="rating_order"):
            await database.store.backend.execute(
                "INSERT INTO results (table_id, seat, guild_id, user_id, preset, place, players,"
                " points, bids_made, hands_played, finished_at, rating_order)"
                " VALUES (?, 2, ?, 9, 'classic', 1, 3, 0, 0, 0, 0, 2)",
                (table.id, GUILD),
            )
    finally:
        await database.close()
