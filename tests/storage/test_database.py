"""Storage on both backends (a real SQLite file, a real PostgreSQL server): migrations,
version checks, events, leaderboard; and two processes' connections on one PostgreSQL."""

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
    DatabaseUnavailable,
    Event,
    PlayerResult,
    StorageError,
    TableStatus,
    VersionConflict,
)
from bot.storage.backends import sqlite_path
from bot.storage.rows import MAX_ID
from bot.storage.tables import TableChange, changed_payload, read_changed
from tests.databases import execute


@pytest.fixture
async def db(database_url: str):
    database = await Database.open(database_url)
    yield database
    await database.close()


async def test_a_sqlite_file_in_a_new_folder_is_created(tmp_path: Path) -> None:
    database = await Database.open(f"sqlite:///{tmp_path / 'nested' / 'ohhell.sqlite3'}")
    await database.close()
    assert (tmp_path / "nested" / "ohhell.sqlite3").exists()


async def new_table(db: Database, channel_id: int = 10, preset: str = "classic"):
    return await db.create_table(
        guild_id=1, channel_id=channel_id, host_id=100, preset=preset, document={"seats": []}
    )


async def test_sqlite_migrations_set_user_version_and_wal(tmp_path: Path) -> None:
    path = tmp_path / "db.sqlite3"
    database = await Database.open(path)
    assert await database.schema_version() == len(MIGRATIONS)
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
    assert await database.schema_version() == len(MIGRATIONS)
    loaded = await database.load_table(table.id)
    assert loaded.document == {"seats": []}
    assert loaded.status is TableStatus.LOBBY
    await database.close()


async def test_a_newer_schema_is_refused(database_url: str) -> None:
    database = await Database.open(database_url)
    async with database._db.transaction() as raw:
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


async def test_a_known_row_of_the_stored_version_is_given_back_without_reading_it(
    db: Database,
) -> None:
    table = await new_table(db)
    saved = await db.save_table(table, document={"n": 1})
    assert await db.load_table(table.id, saved) is saved
    # Another writer (another process) moves the table on: the stored row comes back.
    elsewhere = await db.load_table(table.id)
    await db.save_table(elsewhere, document={"n": 2})
    fresh = await db.load_table(table.id, saved)
    assert fresh is not saved and fresh.document == {"n": 2} and fresh.version == saved.version + 1
    with pytest.raises(KeyError):
        await db.load_table(table.id + 100, saved)


async def test_a_save_that_keeps_the_deadline_keeps_one_claimed_since_the_load(
    db: Database,
) -> None:
    """`due_at=KEEP` (a hand DM's id, the table message's id stored) leaves the stored deadline
    as it is, even when it was claimed (or postponed) after the row was loaded: writing back
    the loaded one would end the claim's lease at once, and the deadline would be taken and
    handled a second time while its first handler is still at it."""
    table = await new_table(db)
    saved = await db.save_table(table, document={"n": 1}, due_at=100.0)
    loaded = await db.load_table(table.id)
    assert await db.claim_due(table.id, 100.0, 130.0)  # another process takes the deadline
    kept = await db.save_table(loaded, document={"n": 2})
    assert kept.due_at == 130.0
    stored = await db.load_table(table.id)
    assert stored.due_at == 130.0 and stored.version == saved.version + 1
    assert await db.load_table(table.id, kept) is kept
    assert await db.next_due() == (table.id, 130.0)
    assert not await db.claim_due(table.id, 100.0, 160.0)  # not due a second time


async def test_a_known_row_comes_back_with_a_deadline_moved_since(db: Database) -> None:
    """Claiming or postponing a deadline moves `due_at` without a new version: a known row
    must not bring back the old deadline."""
    table = await new_table(db)
    saved = await db.save_table(table, document={"n": 1}, due_at=100.0)
    assert await db.claim_due(table.id, 100.0, 130.0)
    claimed = await db.load_table(table.id, saved)
    assert claimed.due_at == 130.0 and claimed.version == saved.version
    assert claimed.document == saved.document
    assert await db.postpone(table.id, 130.0, 160.0)
    assert (await db.load_table(table.id, claimed)).due_at == 160.0


async def test_a_failed_deadline_is_postponed_only_while_its_claim_stands(db: Database) -> None:
    """A deadline that could not be handled is put off, unless a change saved since its claim
    (another process's click) set the deadline that counts now, or closed the table."""
    table = await new_table(db)
    saved = await db.save_table(table, document={"n": 1}, due_at=100.0)
    assert await db.claim_due(table.id, 100.0, 130.0)
    clicked = await db.save_table(saved, document={"n": 2}, due_at=200.0)
    assert not await db.postpone(table.id, 130.0, 190.0)
    assert (await db.load_table(table.id)).due_at == 200.0
    assert await db.claim_due(table.id, 200.0, 230.0)
    await db.save_table(clicked, document={"n": 3}, status=TableStatus.CANCELLED)
    assert not await db.postpone(table.id, 230.0, 290.0)
    assert (await db.load_table(table.id)).due_at is None


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


async def test_a_corrupt_document_raises_a_clear_error(db: Database) -> None:
    table = await new_table(db)
    async with db._db.transaction() as raw:
        await raw.execute("UPDATE tables SET document = '{not json' WHERE id = ?", (table.id,))
    with pytest.raises(CorruptRow, match=f"table #{table.id}"):
        await db.load_table(table.id)


async def test_an_id_no_table_can_have_is_no_table_and_no_query(db: Database) -> None:
    table = await new_table(db)
    await db.save_table(table, document={}, status=TableStatus.FINISHED)
    assert await db.finished_game(1, table.id) is not None
    for number in (MAX_ID, MAX_ID + 1, 2**64, 2**70, 0, -1, -(2**63) - 1):
        with pytest.raises(KeyError):
            await db.load_table(number)
        assert await db.finished_game(1, number) is None, number
    assert (await db.load_table(table.id)).version == table.version + 1


async def finish(db: Database, channel_id: int, preset: str, places: dict[int, int]) -> None:
    table = await new_table(db, channel_id=channel_id, preset=preset)
    results = [
        PlayerResult(user_id=user, place=place, points=50 - place, bids_made=place, hands_played=4)
        for user, place in places.items()
    ]
    await db.save_table(table, document={}, status=TableStatus.FINISHED, results=results)


async def settle(db: Database, sigma: float = 1.0, user: int | None = None) -> None:
    """Gives the stored ratings (or one player's) a sigma: 1 makes them settled, as many more
    games would, without playing them (the leaderboard ranks only settled ratings)."""
    which = "" if user is None else f" WHERE user_id = {user}"
    await db._db.execute(f"UPDATE ratings SET sigma = ?{which}", (sigma,))


async def test_leaderboard_ranks_by_each_measure(db: Database) -> None:
    await finish(db, 1, "classic", {1: 1, 2: 2, 3: 3})
    await finish(db, 2, "classic", {1: 1, 2: 2, 3: 3})
    await finish(db, 3, "classic", {2: 1, 3: 2})
    await finish(db, 4, "oh-shit", {3: 1, 2: 2})
    assert (await db.leaderboard(1)).rows == []  # every rating still provisional
    await settle(db)
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
    await settle(db)
    board = await db.leaderboard(1, caller_id=7, page_size=3)
    assert [row.user_id for row in board.rows] == [1, 2, 3]
    assert (board.pages, board.ranked) == (3, 7)
    assert board.caller is not None
    assert (board.caller.user_id, board.caller.rank) == (7, 7)
    second = await db.leaderboard(1, caller_id=5, page=2, page_size=3)
    assert [row.rank for row in second.rows] == [4, 5, 6]
    assert second.caller is None  # already on the page
    past = await db.leaderboard(1, page=9, page_size=3)
    assert past.rows == [] and past.pages == 3
    await settle(db, 7.0, user=2)  # a provisional rating is not ranked: the caller sees theirs
    not_yet = await db.leaderboard(1, caller_id=2, page_size=3)
    assert [row.user_id for row in not_yet.rows] == [1, 3, 4] and not_yet.ranked == 6
    assert not_yet.caller is None and not_yet.caller_games == 3
    mine = await db.player_rating(1, 2)
    assert mine is not None and mine.provisional and mine.rank is None
    assert not_yet.caller_rating == mine.rating and mine.uncertainty == 105
    stranger = await db.leaderboard(1, caller_id=99)
    assert stranger.caller is None and stranger.caller_games is stranger.caller_rating is None


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


# -- several processes on one PostgreSQL: each `Database` here is one process's pool ----------


async def test_processes_starting_together_migrate_once(postgres_url: str) -> None:
    opened = await asyncio.gather(*(Database.open(postgres_url) for _ in range(3)))
    try:
        assert [await d.schema_version() for d in opened] == [len(MIGRATIONS)] * 3
        table = await new_table(opened[0])
        assert (await opened[2].load_table(table.id)).id == table.id
    finally:
        for database in opened:
            await database.close()


async def test_processes_starting_together_sync_the_commands_once(postgres_url: str) -> None:
    opened = await asyncio.gather(*(Database.open(postgres_url) for _ in range(3)))
    synced: list[int] = []

    def sync_of(process: int):
        async def sync() -> None:
            await asyncio.sleep(0.05)  # the others meanwhile find the lock taken
            synced.append(process)

        return sync

    try:
        ran = await asyncio.gather(
            *(d.sync_when_changed(7, 0, "same", sync_of(i)) for i, d in enumerate(opened))
        )
        assert sorted(ran) == [False, False, True] and len(synced) == 1
    finally:
        for database in opened:
            await database.close()


async def test_commands_are_synced_again_only_when_changed_and_after_a_failed_sync(
    db: Database,
) -> None:
    calls: list[str] = []

    def sync_of(name: str, *, fails: bool = False):
        async def sync() -> None:
            calls.append(name)
            if fails:
                raise RuntimeError("Discord refused")

        return sync

    assert await db.sync_when_changed(7, 0, "a", sync_of("first"))
    assert not await db.sync_when_changed(7, 0, "a", sync_of("same"))
    assert await db.sync_when_changed(8, 0, "a", sync_of("another application"))
    assert await db.sync_when_changed(7, 42, "a", sync_of("a server"))
    with pytest.raises(RuntimeError):
        await db.sync_when_changed(7, 0, "b", sync_of("refused", fails=True))
    assert await db.sync_when_changed(7, 0, "b", sync_of("changed"))
    await db.forget_command_syncs()
    assert await db.sync_when_changed(7, 0, "b", sync_of("forced"))
    assert calls == ["first", "another application", "a server", "refused", "changed", "forced"]


async def test_two_processes_saving_one_version_apply_once(postgres_url: str) -> None:
    first, second = Database.open(postgres_url), Database.open(postgres_url)
    one, two = await first, await second
    try:
        table = await new_table(one)

        async def click(db: Database, n: int) -> bool:
            try:
                await db.save_table(table, document={"n": n}, events=[Event("click", {"n": n})])
            except VersionConflict:
                return False
            return True

        outcomes = await asyncio.gather(*(click((one, two)[n % 2], n) for n in range(20)))
        assert sum(outcomes) == 1
        assert len(await two.events(table.id)) == 1
        assert (await two.load_table(table.id)).version == table.version + 1
    finally:
        await one.close()
        await two.close()


async def test_a_hold_on_one_message_waits_only_for_that_message(postgres_url: str) -> None:
    """Two processes writing one table's messages: a hand message's writer waits for another
    writer of that hand message, not for the table message nor another person's hand."""
    one, two = await Database.open(postgres_url), await Database.open(postgres_url)
    try:
        table = await new_table(one)
        entered = asyncio.Event()

        async def second_writer_of_the_same_hand() -> int | None:
            async with two.showing(table.id, 101) as seen:
                entered.set()
                return seen

        async with one.showing(table.id, 101) as version:
            assert version == table.version
            for other in (None, 102):
                async with asyncio.timeout(5), two.showing(table.id, other) as seen:
                    assert seen == table.version
            waiting = asyncio.ensure_future(second_writer_of_the_same_hand())
            await asyncio.sleep(0.3)
            assert not entered.is_set()
        async with asyncio.timeout(5):
            assert await waiting == table.version
    finally:
        await one.close()
        await two.close()


async def test_two_processes_opening_a_table_in_one_channel_open_one(postgres_url: str) -> None:
    one, two = await Database.open(postgres_url), await Database.open(postgres_url)
    try:
        made = await asyncio.gather(
            *(new_table(db) for db in (one, two, one, two)), return_exceptions=True
        )
        tables = [m for m in made if not isinstance(m, BaseException)]
        busy = [m for m in made if isinstance(m, ChannelBusy)]
        assert len(tables) == 1 and len(busy) == 3, made
        assert {b.table_id for b in busy} == {tables[0].id}
        assert await one.open_table_ids() == [tables[0].id]
    finally:
        await one.close()
        await two.close()


async def overall(db: Database) -> list[tuple[int, int, int]]:
    """(identity, rating, games) of every overall rating."""
    rows = await db._db.fetchall(
        "SELECT user_id, rating, games FROM ratings WHERE preset = '' ORDER BY user_id"
    )
    return [(int(r[0]), int(r[1]), int(r[2])) for r in rows]


async def test_games_of_one_server_finishing_together_are_rated_one_after_the_other(
    postgres_url: str, tmp_path: Path
) -> None:
    """Two processes store two games of one server at once: the ratings are those of the two
    games stored one after the other (in one order or the other), never both from the same
    ratings."""
    games = [{1: 1, 2: 2, 3: 3}, {3: 1, 1: 2, 2: 3}]
    one, two = await Database.open(postgres_url), await Database.open(postgres_url)
    try:
        for _ in range(3):  # the same players, so each game starts from the last one's ratings
            await asyncio.gather(
                finish(one, 1, "classic", games[0]), finish(two, 2, "classic", games[1])
            )
        shown = await overall(one)
    finally:
        await one.close()
        await two.close()
    assert sum(games for _, _, games in shown) == 18

    async def sequential(order: list[int], name: str) -> list[tuple[int, int, int]]:
        database = await Database.open(tmp_path / name)
        try:
            for index in order:
                await finish(database, index + 1, "classic", games[index])
            return await overall(database)
        finally:
            await database.close()

    # Each round went one way or the other: one of the 8 orders gives exactly these ratings.
    orders = [[a, 1 - a, b, 1 - b, c, 1 - c] for a in (0, 1) for b in (0, 1) for c in (0, 1)]
    candidates = [await sequential(order, f"seq{i}.sqlite3") for i, order in enumerate(orders)]
    assert shown in candidates


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
    db: Database,
) -> None:
    table = await new_table(db)
    await db.save_table(table, document={}, due_at=100.0)
    taken = await asyncio.gather(*(db.claim_due(table.id, 100.0, 130.0) for _ in range(5)))
    assert taken.count(True) == 1
    assert await db.next_due() == (table.id, 130.0)  # if the taker dies, it is due again then
    assert not await db.claim_due(table.id, 100.0, 160.0)  # an old look at it takes nothing
    assert await db.claim_due(table.id, 130.0, 160.0)


async def test_two_processes_take_a_deadline_once(postgres_url: str) -> None:
    one, two = await Database.open(postgres_url), await Database.open(postgres_url)
    try:
        table = await new_table(one)
        await one.save_table(table, document={}, due_at=100.0)
        taken = await asyncio.gather(
            *(db.claim_due(table.id, 100.0, 130.0) for db in (one, two) * 5)
        )
        assert taken.count(True) == 1
    finally:
        await one.close()
        await two.close()


async def test_processes_share_one_rest_budget(postgres_url: str) -> None:
    """Discord's global limit, taken from one bucket by two processes: together they get
    about `rate` calls a second (and the burst), however they ask."""
    one, two = await Database.open(postgres_url), await Database.open(postgres_url)
    loop = asyncio.get_running_loop()
    try:
        # Saved-up calls first: no more than the burst.
        taken, wait = await one.take_rest_calls(5, rate=20, burst=2)
        assert taken <= 2
        start, granted = loop.time(), taken
        while loop.time() - start < 1.0:
            for db in (one, two):
                got, wait = await db.take_rest_calls(2, rate=20, burst=2)
                granted += got
                if not got:
                    assert 0 < wait <= 1 / 20 + 0.01
                    await asyncio.sleep(wait)
        assert 18 <= granted <= 20 * (loop.time() - start) + 2 + 1
    finally:
        await one.close()
        await two.close()


async def test_an_unreadable_table_cancelled_as_another_process_finishes_it_stays_finished(
    postgres_url: str,
) -> None:
    """`close_unreadable` cancels from the row's columns alone. Another process (a bot version
    that can read the row) finishes the game at the same moment: the cancel, whose read found
    the table open, waits for that save's row lock, and must then find the table no longer
    open and leave it finished, not turn a game with stored results and ratings into a
    cancelled one."""
    import asyncpg

    db = await Database.open(postgres_url)
    finishing = await asyncpg.connect(postgres_url)
    try:
        table = await new_table(db)
        saving = finishing.transaction()
        await saving.start()
        await finishing.execute(
            "UPDATE tables SET status = 'finished', version = version + 1 WHERE id = $1",
            table.id,
        )
        cancel = asyncio.create_task(db.close_unreadable(10, 100, can_manage=False))
        for _ in range(500):  # until the cancel waits for the finishing save's row lock
            if await db._db.fetchone("SELECT 1 FROM pg_locks WHERE NOT granted LIMIT 1"):
                break
            assert not cancel.done(), await cancel
            await asyncio.sleep(0.01)
        else:
            raise AssertionError("the cancel never waited for the row")
        await saving.commit()
        assert await cancel is None
        stored = await db.load_table(table.id)
        assert stored.status is TableStatus.FINISHED and stored.version == table.version + 1
        assert [e.kind for e in await db.events(table.id)] == []
    finally:
        await finishing.close()
        await db.close()


def test_a_change_notice_says_whether_the_table_closed_and_reads_older_ones() -> None:
    """NOTIFY's payload: a closed table's says so; one written by a bot from before that word
    (no deadline, or a deadline alone) still reads as an open table's change."""
    for due, closed in ((None, False), (12.5, False), (None, True)):
        payload = changed_payload(7, 3, due, closed=closed)
        assert read_changed(payload) == TableChange(7, 3, due, closed=closed)
    assert read_changed("7 3") == TableChange(7, 3, None)
    assert read_changed("7 3 12.5") == TableChange(7, 3, 12.5)
    assert read_changed("not ours") is None


async def test_change_notices_are_heard_again_once_the_listening_connection_is_lost(
    postgres_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A restarted server or a cut connection ends the LISTEN: the backend listens again, so
    other processes' changes keep reaching this one (private hand replies, closed tables)."""
    from bot.storage import postgres

    monkeypatch.setattr(postgres, "LISTEN_RETRY", (0.05, 0.2))
    database = await Database.open(postgres_url)
    heard: list[TableChange] = []
    try:
        await database.watch_tables(heard.append)
        await execute(postgres_url, "SELECT pg_notify('ohhell_tables', '5 2')")
        for _ in range(100):
            if TableChange(5, 2, None) in heard:
                break
            await asyncio.sleep(0.02)
        assert heard == [TableChange(5, 2, None)]
        # The server ends the listening connection (as a restart would).
        await execute(
            postgres_url,
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
            " WHERE query LIKE 'LISTEN%' AND pid <> pg_backend_pid()",
        )
        for attempt in range(100):  # notices sent while it was lost are not heard
            await execute(postgres_url, f"SELECT pg_notify('ohhell_tables', '6 {attempt}')")
            if any(change.table_id == 6 for change in heard):
                break
            await asyncio.sleep(0.05)
        assert any(change.table_id == 6 for change in heard), heard
    finally:
        await database.close()
