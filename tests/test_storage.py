"""Storage against a real SQLite file: migrations, version checks, events, leaderboard."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest

from bot.storage import (
    MIGRATIONS,
    ChannelBusy,
    CorruptRow,
    Database,
    Event,
    PlayerResult,
    StorageError,
    TableStatus,
    VersionConflict,
)


@pytest.fixture
async def db(tmp_path: Path):
    database = await Database.open(tmp_path / "nested" / "ohhell.sqlite3")
    yield database
    await database.close()


async def new_table(db: Database, channel_id: int = 10, preset: str = "classic"):
    return await db.create_table(
        guild_id=1, channel_id=channel_id, host_id=100, preset=preset, document={"seats": []}
    )


async def test_migrations_set_user_version_and_wal(tmp_path: Path) -> None:
    path = tmp_path / "db.sqlite3"
    database = await Database.open(path)
    assert await database.schema_version() == len(MIGRATIONS)
    await database.close()
    with sqlite3.connect(path) as raw:
        assert raw.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        names = {row[0] for row in raw.execute("SELECT name FROM sqlite_master")}
    assert {"tables", "events", "results"} <= names


async def test_reopening_keeps_data_and_does_not_migrate_again(tmp_path: Path) -> None:
    path = tmp_path / "db.sqlite3"
    database = await Database.open(path)
    table = await new_table(database)
    await database.close()
    database = await Database.open(path)
    loaded = await database.load_table(table.id)
    assert loaded.document == {"seats": []}
    assert loaded.status is TableStatus.LOBBY
    await database.close()


async def test_a_newer_schema_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "db.sqlite3"
    with sqlite3.connect(path) as raw:
        raw.execute(f"PRAGMA user_version = {len(MIGRATIONS) + 1}")
    with pytest.raises(StorageError, match="newer than this bot knows"):
        await Database.open(path)


async def test_one_open_table_per_channel(db: Database) -> None:
    first = await new_table(db)
    with pytest.raises(ChannelBusy) as caught:
        await new_table(db)
    assert caught.value.table_id == first.id
    other_channel = await new_table(db, channel_id=11)
    assert other_channel.id != first.id
    # Once finished, the channel is free again.
    await db.save_table(first, document={}, status=TableStatus.FINISHED)
    again = await new_table(db)
    assert (await db.open_table_in_channel(10)) == again
    assert await db.open_table_ids() == [other_channel.id, again.id]


async def test_save_bumps_version_and_refuses_a_stale_copy(db: Database) -> None:
    table = await new_table(db)
    saved = await db.save_table(table, document={"n": 1}, events=[Event("joined", {"seat": 0})])
    assert saved.version == table.version + 1
    with pytest.raises(VersionConflict):
        await db.save_table(table, document={"n": 2}, events=[Event("joined", {"seat": 1})])
    reloaded = await db.load_table(table.id)
    assert reloaded.document == {"n": 1}
    assert [event.payload for event in await db.events(table.id)] == [{"seat": 0}]


async def test_concurrent_saves_of_one_version_apply_once(db: Database) -> None:
    table = await new_table(db)

    async def click(n: int) -> bool:
        try:
            await db.save_table(table, document={"winner": n}, events=[Event("click", {"n": n})])
        except VersionConflict:
            return False
        return True

    outcomes = await asyncio.gather(*(click(n) for n in range(20)))
    assert sum(outcomes) == 1
    assert len(await db.events(table.id)) == 1


async def test_events_keep_their_order_and_user(db: Database) -> None:
    table = await new_table(db)
    table = await db.save_table(
        table, document={}, events=[Event("bid", {"n": 2}, user_id=5), Event("bid", {"n": 0})]
    )
    await db.save_table(table, document={}, events=[Event("play", {"card": "AS"}, user_id=6)])
    events = await db.events(table.id)
    assert [(e.kind, e.user_id) for e in events] == [("bid", 5), ("bid", None), ("play", 6)]


async def test_a_corrupt_document_raises_a_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "db.sqlite3"
    database = await Database.open(path)
    table = await new_table(database)
    await database.close()
    with sqlite3.connect(path) as raw:
        raw.execute("UPDATE tables SET document = '{not json' WHERE id = ?", (table.id,))
    database = await Database.open(path)
    with pytest.raises(CorruptRow, match=f"table #{table.id}"):
        await database.load_table(table.id)
    await database.close()


async def finish(db: Database, channel_id: int, preset: str, places: dict[int, int]) -> None:
    table = await new_table(db, channel_id=channel_id, preset=preset)
    results = [
        PlayerResult(user_id=user, place=place, points=50 - place, bids_made=place, hands_played=4)
        for user, place in places.items()
    ]
    await db.save_table(table, document={}, status=TableStatus.FINISHED, results=results)


async def test_leaderboard_ranks_by_each_measure(db: Database) -> None:
    await finish(db, 1, "classic", {1: 1, 2: 2, 3: 3})
    await finish(db, 2, "classic", {1: 1, 2: 2, 3: 3})
    await finish(db, 3, "classic", {2: 1, 3: 2})
    await finish(db, 4, "oh-shit", {3: 1, 2: 2})
    by_wins = await db.leaderboard(1, by="wins")
    # Users 2 and 3 tie on wins (1); user 2's rating is higher (places 2, 2, 1, 2 against
    # 3, 3, 2, 1).
    assert [(row.user_id, row.wins, row.games, row.rank) for row in by_wins.rows] == [
        (1, 2, 2, 1),
        (2, 1, 4, 2),
        (3, 1, 4, 3),
    ]
    first = by_wins.rows[0]
    assert first.win_rate == 1.0
    # bids_made = place in this fixture, 4 hands each game; points 50 - place
    assert first.exact_bid_rate == pytest.approx(2 / 8)
    assert first.points_per_hand == pytest.approx(98 / 8)
    by_rating = await db.leaderboard(1)
    assert [row.user_id for row in by_rating.rows] == [1, 2, 3]
    assert by_rating.rows[0].rating > by_rating.rows[1].rating > by_rating.rows[2].rating
    by_exact = await db.leaderboard(1, by="exact_bids")
    assert [row.user_id for row in by_exact.rows] == [3, 2, 1]  # more bids made, higher place
    by_points = await db.leaderboard(1, by="points")
    assert [row.user_id for row in by_points.rows] == [1, 2, 3]
    by_rate = await db.leaderboard(1, by="win_rate")
    assert [row.user_id for row in by_rate.rows] == [1, 2, 3]  # 2 and 3 tie: rating decides
    only_classic = await db.leaderboard(1, preset="classic")
    assert sum(row.games for row in only_classic.rows) == 8
    empty = await db.leaderboard(2)
    assert (empty.rows, empty.caller, empty.pages, empty.ranked) == ([], None, 1, 0)


async def test_leaderboard_pages_and_the_callers_row(db: Database) -> None:
    for channel in range(3):
        await finish(db, channel + 1, "classic", {u: u for u in range(1, 8)})
    board = await db.leaderboard(1, caller_id=7, page_size=3, min_games=3)
    assert [row.user_id for row in board.rows] == [1, 2, 3]
    assert (board.pages, board.ranked) == (3, 7)
    assert board.caller is not None
    assert (board.caller.user_id, board.caller.rank) == (7, 7)
    second = await db.leaderboard(1, caller_id=5, page=2, page_size=3)
    assert [row.rank for row in second.rows] == [4, 5, 6]
    assert second.caller is None  # already on the page
    past = await db.leaderboard(1, page=9, page_size=3)
    assert past.rows == [] and past.pages == 3
    not_yet = await db.leaderboard(1, caller_id=2, min_games=4)
    assert not_yet.rows == [] and not_yet.caller is None and not_yet.caller_games == 3
    stranger = await db.leaderboard(1, caller_id=99)
    assert stranger.caller is None and stranger.caller_games is None


async def test_a_version_1_database_is_migrated_with_its_tables_kept(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    with sqlite3.connect(path) as raw:
        raw.executescript(MIGRATIONS[0])
        raw.execute(
            "INSERT INTO tables (guild_id, channel_id, host_id, status, preset, document,"
            " created_at, updated_at) VALUES (1, 10, 100, 'playing', 'classic', '{}', 0, 0)"
        )
        raw.execute("PRAGMA user_version = 1")
    database = await Database.open(path)
    try:
        table = await database.load_table(1)
        assert table.status is TableStatus.PLAYING and table.due_at is None
        assert await database.next_due() is None
    finally:
        await database.close()


async def test_the_earliest_deadline_of_an_open_table_comes_first(db: Database) -> None:
    first = await new_table(db, channel_id=10)
    second = await new_table(db, channel_id=11)
    third = await new_table(db, channel_id=12)
    await db.save_table(first, document={}, due_at=300.0)
    second = await db.save_table(second, document={}, due_at=200.0)
    await db.save_table(third, document={}, due_at=100.0, status=TableStatus.CANCELLED)
    assert await db.next_due() == (second.id, 200.0)
    assert await db.due_before(250.0) == [(second.id, 200.0)]
    kept = await db.save_table(second, document={"x": 1})  # KEEP: the deadline stays
    assert kept.due_at == 200.0
    await db.save_table(kept, document={}, status=TableStatus.FINISHED)
    assert await db.next_due() == (first.id, 300.0)


async def test_channel_defaults_are_stored_replaced_and_cleared(db: Database) -> None:
    assert await db.channel_defaults(10) is None
    await db.set_channel_defaults(guild_id=1, channel_id=10, settings={"preset": "x"}, set_by=5)
    await db.set_channel_defaults(guild_id=1, channel_id=10, settings={"preset": "y"}, set_by=6)
    stored = await db.channel_defaults(10)
    assert stored is not None and stored.settings == {"preset": "y"} and stored.set_by == 6
    await db.set_channel_defaults(guild_id=1, channel_id=10, settings=None, set_by=6)
    assert await db.channel_defaults(10) is None
