"""Storage on both backends (a real SQLite file, a real PostgreSQL server): migrations,
version checks, events, leaderboard; and two processes' connections on one PostgreSQL."""

from __future__ import annotations

import asyncio
import importlib
import inspect
import pkgutil
import sqlite3
from pathlib import Path

import pytest

import bot.storage
from bot.storage import (
    BOARD_ORDERS,
    MIGRATIONS,
    ChannelBusy,
    CorruptRow,
    Database,
    DatabaseUnavailable,
    Event,
    PlayerResult,
    StorageError,
    TableStatus,
    VersionConflict,
)
from bot.storage.backends import sqlite_path
from bot.storage.rows import MAX_ID
from bot.storage.store import Repository


def test_each_repository_stands_on_the_store_alone() -> None:
    """No mixins: a class of bot/storage has at most one base of its own package, and a
    repository's is `Repository` (one that needs another's queries is given that one)."""
    repositories = 0
    for found in pkgutil.iter_modules(bot.storage.__path__, "bot.storage."):
        module = importlib.import_module(found.name)
        for klass in vars(module).values():
            if not inspect.isclass(klass) or klass.__module__ != module.__name__:
                continue
            own = [base for base in klass.__bases__ if base.__module__.startswith("bot.storage")]
            assert len(own) <= 1, klass
            if issubclass(klass, Repository) and klass is not Repository:
                assert klass.__bases__ == (Repository,), klass
                repositories += 1
    assert repositories >= 10


async def test_an_open_database_is_its_store_and_the_repositories_on_it(
    database: Database,
) -> None:
    parts = [part for part in vars(database).values() if isinstance(part, Repository)]
    assert len(parts) == 15
    assert all(part._store is database.store for part in parts)


async def test_a_sqlite_file_in_a_new_folder_is_created(tmp_path: Path) -> None:
    database = await Database.open(f"sqlite:///{tmp_path / 'nested' / 'ohhell.sqlite3'}")
    await database.close()
    assert (tmp_path / "nested" / "ohhell.sqlite3").exists()


async def new_table(db: Database, channel_id: int = 10, preset: str = "classic"):
    return await db.tables.create(
        guild_id=1, channel_id=channel_id, host_id=100, preset=preset, document={"seats": []}
    )


async def test_sqlite_migrations_set_user_version_and_wal(tmp_path: Path) -> None:
    path = tmp_path / "db.sqlite3"
    database = await Database.open(path)
    assert await database.store.schema_version() == len(MIGRATIONS)
    await database.close()
    with sqlite3.connect(path) as raw:
        assert raw.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        names = {row[0] for row in raw.execute("SELECT name FROM sqlite_master")}
    assert {"tables", "events", "results"} <= names


async def test_reopening_keeps_data_and_does_not_migrate_again(database_url: str) -> None:
    database = await Database.open(database_url)
    table = await new_table(database)
    await database.close()
    database = await Database.open(database_url)
    assert await database.store.schema_version() == len(MIGRATIONS)
    loaded = await database.tables.load(table.id)
    assert loaded.document == {"seats": []}
    assert loaded.status is TableStatus.LOBBY
    await database.close()


async def test_a_newer_schema_is_refused(database_url: str) -> None:
    database = await Database.open(database_url)
    async with database.store.backend.transaction() as raw:
        await raw.set_schema_version(len(MIGRATIONS) + 1)
    await database.close()
    with pytest.raises(StorageError, match="newer than this bot knows"):
        await Database.open(database_url)


async def test_a_file_that_is_not_a_database_is_named_as_unusable(tmp_path: Path) -> None:
    path = tmp_path / "notes.sqlite3"
    path.write_bytes(b"these are notes, not a SQLite database" * 100)
    with pytest.raises(DatabaseUnavailable) as raised:
        await Database.open(path)
    assert raised.value.where == str(path) and "not a database" in raised.value.reason


async def test_one_open_table_per_channel(database: Database) -> None:
    first = await new_table(database)
    with pytest.raises(ChannelBusy) as caught:
        await new_table(database)
    assert caught.value.table_id == first.id
    other_channel = await new_table(database, channel_id=11)
    assert other_channel.id != first.id
    # Once finished, the channel is free again.
    await database.tables.save(first, document={}, status=TableStatus.FINISHED)
    again = await new_table(database)
    assert (await database.tables.open_in_channel(10)) == again
    assert await database.tables.open_ids() == [other_channel.id, again.id]


async def test_save_bumps_version_and_refuses_a_stale_copy(database: Database) -> None:
    table = await new_table(database)
    saved = await database.tables.save(
        table, document={"n": 1}, events=[Event("joined", {"seat": 0})]
    )
    assert saved.version == table.version + 1
    with pytest.raises(VersionConflict):
        await database.tables.save(table, document={"n": 2}, events=[Event("joined", {"seat": 1})])
    reloaded = await database.tables.load(table.id)
    assert reloaded.document == {"n": 1}
    assert [event.payload for event in await database.tables.events(table.id)] == [{"seat": 0}]


async def test_a_known_row_of_the_stored_version_is_given_back_without_reading_it(
    database: Database,
) -> None:
    table = await new_table(database)
    saved = await database.tables.save(table, document={"n": 1})
    assert await database.tables.load(table.id, saved) is saved
    # Another writer (another process) moves the table on: the stored row comes back.
    elsewhere = await database.tables.load(table.id)
    await database.tables.save(elsewhere, document={"n": 2})
    fresh = await database.tables.load(table.id, saved)
    assert fresh is not saved and fresh.document == {"n": 2} and fresh.version == saved.version + 1
    with pytest.raises(KeyError):
        await database.tables.load(table.id + 100, saved)


async def test_a_save_that_keeps_the_deadline_keeps_one_claimed_since_the_load(
    database: Database,
) -> None:
    """`due_at=KEEP` (a hand DM's id, the table message's id stored) leaves the stored deadline
    as it is, even when it was claimed (or postponed) after the row was loaded: writing back
    the loaded one would end the claim's lease at once, and the deadline would be taken and
    handled a second time while its first handler is still at it."""
    table = await new_table(database)
    saved = await database.tables.save(table, document={"n": 1}, due_at=100.0)
    loaded = await database.tables.load(table.id)
    assert await database.deadlines.claim(
        table.id, 100.0, 130.0
    )  # another process takes the deadline
    kept = await database.tables.save(loaded, document={"n": 2})
    assert kept.due_at == 130.0
    stored = await database.tables.load(table.id)
    assert stored.due_at == 130.0 and stored.version == saved.version + 1
    assert await database.tables.load(table.id, kept) is kept
    assert await database.deadlines.next_due() == (table.id, 130.0)
    assert not await database.deadlines.claim(table.id, 100.0, 160.0)  # not due a second time


async def test_a_known_row_comes_back_with_a_deadline_moved_since(database: Database) -> None:
    """Claiming or postponing a deadline moves `due_at` without a new version: a known row
    must not bring back the old deadline."""
    table = await new_table(database)
    saved = await database.tables.save(table, document={"n": 1}, due_at=100.0)
    assert await database.deadlines.claim(table.id, 100.0, 130.0)
    claimed = await database.tables.load(table.id, saved)
    assert claimed.due_at == 130.0 and claimed.version == saved.version
    assert claimed.document == saved.document
    assert await database.deadlines.postpone(table.id, 130.0, 160.0)
    assert (await database.tables.load(table.id, claimed)).due_at == 160.0


async def test_a_failed_deadline_is_postponed_only_while_its_claim_stands(
    database: Database,
) -> None:
    """A deadline that could not be handled is put off, unless a change saved since its claim
    (another process's click) set the deadline that counts now, or closed the table."""
    table = await new_table(database)
    saved = await database.tables.save(table, document={"n": 1}, due_at=100.0)
    assert await database.deadlines.claim(table.id, 100.0, 130.0)
    clicked = await database.tables.save(saved, document={"n": 2}, due_at=200.0)
    assert not await database.deadlines.postpone(table.id, 130.0, 190.0)
    assert (await database.tables.load(table.id)).due_at == 200.0
    assert await database.deadlines.claim(table.id, 200.0, 230.0)
    await database.tables.save(clicked, document={"n": 3}, status=TableStatus.CANCELLED)
    assert not await database.deadlines.postpone(table.id, 230.0, 290.0)
    assert (await database.tables.load(table.id)).due_at is None


async def test_concurrent_saves_of_one_version_apply_once(database: Database) -> None:
    table = await new_table(database)

    async def click(n: int) -> bool:
        try:
            await database.tables.save(
                table, document={"winner": n}, events=[Event("click", {"n": n})]
            )
        except VersionConflict:
            return False
        return True

    outcomes = await asyncio.gather(*(click(n) for n in range(20)))
    assert sum(outcomes) == 1
    assert len(await database.tables.events(table.id)) == 1


async def test_events_keep_their_order_and_user(database: Database) -> None:
    table = await new_table(database)
    table = await database.tables.save(
        table, document={}, events=[Event("bid", {"n": 2}, user_id=5), Event("bid", {"n": 0})]
    )
    await database.tables.save(
        table, document={}, events=[Event("play", {"card": "AS"}, user_id=6)]
    )
    events = await database.tables.events(table.id)
    assert [(e.kind, e.user_id) for e in events] == [("bid", 5), ("bid", None), ("play", 6)]


async def test_a_corrupt_document_raises_a_clear_error(database: Database) -> None:
    table = await new_table(database)
    async with database.store.backend.transaction() as raw:
        await raw.execute("UPDATE tables SET document = '{not json' WHERE id = ?", (table.id,))
    with pytest.raises(CorruptRow, match=f"table #{table.id}"):
        await database.tables.load(table.id)


async def test_an_id_no_table_can_have_is_no_table_and_no_query(database: Database) -> None:
    table = await new_table(database)
    await database.tables.save(table, document={}, status=TableStatus.FINISHED)
    assert await database.history.finished_game(1, table.id) is not None
    for number in (MAX_ID, MAX_ID + 1, 2**64, 2**70, 0, -1, -(2**63) - 1):
        with pytest.raises(KeyError):
            await database.tables.load(number)
        assert await database.history.finished_game(1, number) is None, number
    assert (await database.tables.load(table.id)).version == table.version + 1


async def finish(db: Database, channel_id: int, preset: str, places: dict[int, int]) -> None:
    table = await new_table(db, channel_id=channel_id, preset=preset)
    results = [
        PlayerResult(user_id=user, place=place, points=50 - place, bids_made=place, hands_played=4)
        for user, place in places.items()
    ]
    await db.tables.save(table, document={}, status=TableStatus.FINISHED, results=results)


async def settle(db: Database, sigma: float = 1.0, user: int | None = None) -> None:
    """Gives the stored ratings (or one player's) a sigma: 1 makes them settled, as many more
    games would, without playing them (the leaderboard ranks only settled ratings)."""
    which = "" if user is None else f" WHERE user_id = {user}"
    await db.store.backend.execute(f"UPDATE ratings SET sigma = ?{which}", (sigma,))


async def test_leaderboard_ranks_by_each_measure(database: Database) -> None:
    await finish(database, 1, "classic", {1: 1, 2: 2, 3: 3})
    await finish(database, 2, "classic", {1: 1, 2: 2, 3: 3})
    await finish(database, 3, "classic", {2: 1, 3: 2})
    await finish(database, 4, "oh-shit", {3: 1, 2: 2})
    # Every rating still provisional: listed all the same, unranked, but ranked by wins.
    unsettled = await database.results.leaderboard(1)
    assert [(row.user_id, row.rank, row.provisional) for row in unsettled.rows] == [
        (1, None, True),
        (2, None, True),
        (3, None, True),
    ]
    assert (unsettled.ranked, unsettled.unranked, unsettled.pages) == (0, 3, 1)
    for by in BOARD_ORDERS:
        listed = await database.results.leaderboard(1, by=by)
        assert len(listed.rows) == 3 and listed.unranked == (0 if by == "wins" else 3), by
    counted = await database.results.leaderboard(1, by="wins")
    assert [(row.user_id, row.rank) for row in counted.rows] == [(1, 1), (2, 2), (3, 3)]
    await settle(database)
    by_wins = await database.results.leaderboard(1, by="wins")
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
    by_rating = await database.results.leaderboard(1)
    assert [row.user_id for row in by_rating.rows] == [1, 2, 3]
    assert by_rating.rows[0].rating > by_rating.rows[1].rating > by_rating.rows[2].rating
    by_exact = await database.results.leaderboard(1, by="exact_bids")
    assert [row.user_id for row in by_exact.rows] == [3, 2, 1]  # more bids made, higher place
    by_points = await database.results.leaderboard(1, by="points")
    assert [row.user_id for row in by_points.rows] == [1, 2, 3]
    by_rate = await database.results.leaderboard(1, by="win_rate")
    assert [row.user_id for row in by_rate.rows] == [1, 2, 3]  # 2 and 3 tie: rating decides
    only_classic = await database.results.leaderboard(1, preset="classic")
    assert sum(row.games for row in only_classic.rows) == 8
    empty = await database.results.leaderboard(2)
    assert (empty.rows, empty.caller, empty.pages, empty.ranked) == ([], None, 1, 0)


async def test_leaderboard_pages_and_the_callers_row(database: Database) -> None:
    for channel in range(3):
        await finish(database, channel + 1, "classic", {u: u for u in range(1, 8)})
    await settle(database)
    board = await database.results.leaderboard(1, caller_id=7, page_size=3)
    assert [row.user_id for row in board.rows] == [1, 2, 3]
    assert (board.pages, board.ranked) == (3, 7)
    assert board.caller is not None
    assert (board.caller.user_id, board.caller.rank) == (7, 7)
    second = await database.results.leaderboard(1, caller_id=5, page=2, page_size=3)
    assert [row.rank for row in second.rows] == [4, 5, 6]
    assert second.caller is None  # already on the page
    past = await database.results.leaderboard(1, page=9, page_size=3)
    assert past.rows == [] and past.pages == 3
    await settle(database, 7.0, user=2)  # a provisional rating: listed below the ranked, unranked
    not_yet = await database.results.leaderboard(1, caller_id=2, page_size=3)
    assert [row.user_id for row in not_yet.rows] == [1, 3, 4]
    assert (not_yet.ranked, not_yet.unranked, not_yet.pages) == (6, 1, 3)
    assert not_yet.caller is not None and not_yet.caller.user_id == 2
    assert not_yet.caller.rank is None and not_yet.caller.provisional
    last = await database.results.leaderboard(1, caller_id=2, page=3, page_size=3)
    assert [(row.user_id, row.rank) for row in last.rows] == [(2, None)]
    assert last.caller is None
    mine = await database.results.player_rating(1, 2)
    assert mine is not None and mine.provisional and mine.rank is None
    assert not_yet.caller.rating == mine.rating and mine.uncertainty == 105
    # Wins are a count: a provisional rating is ranked among them.
    by_wins = await database.results.leaderboard(1, by="wins", caller_id=2, page_size=3)
    assert (by_wins.ranked, by_wins.unranked) == (7, 0)
    assert [(row.user_id, row.rank, row.provisional) for row in by_wins.rows] == [
        (1, 1, False),
        (2, 2, True),
        (3, 3, False),
    ]
    stranger = await database.results.leaderboard(1, caller_id=99)
    assert stranger.caller is None


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
        table = await database.tables.load(1)
        assert table.status is TableStatus.PLAYING and table.due_at is None
        assert await database.deadlines.next_due() is None
    finally:
        await database.close()


async def test_the_earliest_deadline_of_an_open_table_comes_first(database: Database) -> None:
    first = await new_table(database, channel_id=10)
    second = await new_table(database, channel_id=11)
    third = await new_table(database, channel_id=12)
    await database.tables.save(first, document={}, due_at=300.0)
    second = await database.tables.save(second, document={}, due_at=200.0)
    await database.tables.save(third, document={}, due_at=100.0, status=TableStatus.CANCELLED)
    assert await database.deadlines.next_due() == (second.id, 200.0)
    assert await database.deadlines.due_before(250.0) == [(second.id, 200.0)]
    kept = await database.tables.save(second, document={"x": 1})  # KEEP: the deadline stays
    assert kept.due_at == 200.0
    await database.tables.save(kept, document={}, status=TableStatus.FINISHED)
    assert await database.deadlines.next_due() == (first.id, 300.0)


async def test_channel_defaults_are_stored_replaced_and_cleared(database: Database) -> None:
    assert await database.channels.defaults(10) is None
    await database.channels.set_defaults(
        guild_id=1, channel_id=10, settings={"preset": "x"}, set_by=5
    )
    await database.channels.set_defaults(
        guild_id=1, channel_id=10, settings={"preset": "y"}, set_by=6
    )
    stored = await database.channels.defaults(10)
    assert stored is not None and stored.settings == {"preset": "y"} and stored.set_by == 6
    await database.channels.set_defaults(guild_id=1, channel_id=10, settings=None, set_by=6)
    assert await database.channels.defaults(10) is None


# -- several processes on one PostgreSQL: each `Database` here is one process's pool ----------


async def test_commands_are_synced_again_only_when_changed_and_after_a_failed_sync(
    database: Database,
) -> None:
    calls: list[str] = []

    def sync_of(name: str, *, fails: bool = False):
        async def sync() -> None:
            calls.append(name)
            if fails:
                raise RuntimeError("Discord refused")

        return sync

    assert await database.command_syncs.sync_when_changed(7, 0, "a", sync_of("first"))
    assert not await database.command_syncs.sync_when_changed(7, 0, "a", sync_of("same"))
    assert await database.command_syncs.sync_when_changed(8, 0, "a", sync_of("another application"))
    assert await database.command_syncs.sync_when_changed(7, 42, "a", sync_of("a server"))
    with pytest.raises(RuntimeError):
        await database.command_syncs.sync_when_changed(7, 0, "b", sync_of("refused", fails=True))
    assert await database.command_syncs.sync_when_changed(7, 0, "b", sync_of("changed"))
    await database.command_syncs.forget()
    assert await database.command_syncs.sync_when_changed(7, 0, "b", sync_of("forced"))
    assert calls == ["first", "another application", "a server", "refused", "changed", "forced"]


@pytest.mark.parametrize(
    ("url", "path"),
    [
        ("sqlite:///data/ohhell.sqlite3", "data/ohhell.sqlite3"),
        ("sqlite:////srv/bot/ohhell.sqlite3", "/srv/bot/ohhell.sqlite3"),
        ("data/plain path.sqlite3", "data/plain path.sqlite3"),
        ("sqlite:///data/with%20space.sqlite3", "data/with space.sqlite3"),
    ],
)
def test_sqlite_urls_name_their_file(url: str, path: str) -> None:
    assert sqlite_path(url) == path


@pytest.mark.parametrize("url", ["sqlite://host/file", "mysql://db/ohhell"])
def test_a_database_url_of_no_known_kind_is_refused(url: str) -> None:
    with pytest.raises(ValueError, match="sqlite"):
        sqlite_path(url)


async def test_a_due_deadline_is_taken_once_and_falls_due_again_after_the_lease(
    database: Database,
) -> None:
    table = await new_table(database)
    await database.tables.save(table, document={}, due_at=100.0)
    taken = await asyncio.gather(
        *(database.deadlines.claim(table.id, 100.0, 130.0) for _ in range(5))
    )
    assert taken.count(True) == 1
    assert await database.deadlines.next_due() == (
        table.id,
        130.0,
    )  # if the taker dies, it is due again then
    assert not await database.deadlines.claim(
        table.id, 100.0, 160.0
    )  # an old look at it takes nothing
    assert await database.deadlines.claim(table.id, 130.0, 160.0)
