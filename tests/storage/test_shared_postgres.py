"""Several processes on one PostgreSQL (each `Database` here is one process's pool): they
migrate and sync the commands once, save one version once, open one table a channel, rate one
server's games one after the other, take a deadline once, share one REST budget, and hear each
other's changes again after the listening connection is lost."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot.storage import (
    MIGRATIONS,
    ChannelBusy,
    Database,
    Event,
    TableStatus,
    VersionConflict,
)
from bot.storage.tables import TableChange, changed_payload, read_changed
from tests.databases import execute
from tests.storage.test_database import finish, new_table


async def test_processes_starting_together_migrate_once(postgres_url: str) -> None:
    opened = await asyncio.gather(*(Database.open(postgres_url) for _ in range(3)))
    try:
        assert [await d.store.schema_version() for d in opened] == [len(MIGRATIONS)] * 3
        table = await new_table(opened[0])
        assert (await opened[2].tables.load(table.id)).id == table.id
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
            *(
                d.command_syncs.sync_when_changed(7, 0, "same", sync_of(i))
                for i, d in enumerate(opened)
            )
        )
        assert sorted(ran) == [False, False, True] and len(synced) == 1
    finally:
        for database in opened:
            await database.close()


async def test_two_processes_saving_one_version_apply_once(postgres_url: str) -> None:
    first, second = Database.open(postgres_url), Database.open(postgres_url)
    one, two = await first, await second
    try:
        table = await new_table(one)

        async def click(db: Database, n: int) -> bool:
            try:
                await db.tables.save(table, document={"n": n}, events=[Event("click", {"n": n})])
            except VersionConflict:
                return False
            return True

        outcomes = await asyncio.gather(*(click((one, two)[n % 2], n) for n in range(20)))
        assert sum(outcomes) == 1
        assert len(await two.tables.events(table.id)) == 1
        assert (await two.tables.load(table.id)).version == table.version + 1
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
            async with two.tables.showing(table.id, 101) as seen:
                entered.set()
                return seen

        async with one.tables.showing(table.id, 101) as version:
            assert version == table.version
            for other in (None, 102):
                async with asyncio.timeout(5), two.tables.showing(table.id, other) as seen:
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
        assert await one.tables.open_ids() == [tables[0].id]
    finally:
        await one.close()
        await two.close()


async def overall(db: Database) -> list[tuple[int, int, int]]:
    """(identity, rating, games) of every overall rating."""
    rows = await db.store.backend.fetchall(
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


async def test_two_processes_take_a_deadline_once(postgres_url: str) -> None:
    one, two = await Database.open(postgres_url), await Database.open(postgres_url)
    try:
        table = await new_table(one)
        await one.tables.save(table, document={}, due_at=100.0)
        taken = await asyncio.gather(
            *(db.deadlines.claim(table.id, 100.0, 130.0) for db in (one, two) * 5)
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
        taken, wait = await one.budget.take(5, rate=20, burst=2)
        assert taken <= 2
        start, granted = loop.time(), taken
        while loop.time() - start < 1.0:
            for db in (one, two):
                got, wait = await db.budget.take(2, rate=20, burst=2)
                granted += got
                if not got:
                    assert 0 < wait <= 1 / 20 + 0.01
                    await asyncio.sleep(wait)
        assert 18 <= granted <= 20 * (loop.time() - start) + 2 + 1
    finally:
        await one.close()
        await two.close()


WAITING = (
    "SELECT 1 FROM pg_locks WHERE NOT granted AND pid IN"
    " (SELECT pid FROM pg_stat_activity WHERE datname = current_database()) LIMIT 1"
)
"""A session of this database waits for a lock (another worker's, on a shared server, is not
this test's)."""


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
        cancel = asyncio.create_task(db.tables.close_unreadable(10, 100, can_manage=False))
        for _ in range(500):  # until the cancel waits for the finishing save's row lock
            if await db.store.backend.fetchone(WAITING):
                break
            assert not cancel.done(), await cancel
            await asyncio.sleep(0.01)
        else:
            raise AssertionError("the cancel never waited for the row")
        await saving.commit()
        assert await cancel is None
        stored = await db.tables.load(table.id)
        assert stored.status is TableStatus.FINISHED and stored.version == table.version + 1
        assert [e.kind for e in await db.tables.events(table.id)] == []
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
        await database.tables.watch(heard.append)
        await execute(postgres_url, "SELECT pg_notify('ohhell_tables', '5 2')")
        for _ in range(100):
            if TableChange(5, 2, None) in heard:
                break
            await asyncio.sleep(0.02)
        assert heard == [TableChange(5, 2, None)]
        # The server ends the listening connection (as a restart would).
        await execute(
            postgres_url,
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query LIKE 'LISTEN%'"
            " AND pid <> pg_backend_pid() AND datname = current_database()",
        )
        for attempt in range(100):  # notices sent while it was lost are not heard
            await execute(postgres_url, f"SELECT pg_notify('ohhell_tables', '6 {attempt}')")
            if any(change.table_id == 6 for change in heard):
                break
            await asyncio.sleep(0.05)
        assert any(change.table_id == 6 for change in heard), heard
    finally:
        await database.close()
