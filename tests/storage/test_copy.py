"""`python -m bot.storage.copy`: a played database copied SQLite → PostgreSQL → SQLite comes back
equal and the bot on each copy carries on the open game; refusals copy nothing."""

from __future__ import annotations

import asyncio
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from bot.storage import MIGRATIONS, Database
from bot.storage.backends import open_backend
from bot.storage.catalog import read_tables
from bot.storage.copy import CopyError, copy_database, main
from bot.storage.sqlite import SqliteConnection
from tests.databases import execute
from tests.played import LOBBY_CHANNEL, every_row, play_everything, play_on
from tests.service.test_service import GUILD


def sqlite_url(path: Path) -> str:
    return f"sqlite:///{path}"


async def command(arguments: list[str]) -> int:
    """The command's exit code (run in a thread: it runs an event loop of its own)."""
    return await asyncio.to_thread(main, arguments)


async def test_a_played_database_goes_to_postgres_and_back_equal_and_plays_on(
    tmp_path: Path, postgres_url: str
) -> None:
    first, back = tmp_path / "first.sqlite3", tmp_path / "back.sqlite3"
    open_game = await play_everything(sqlite_url(first))
    shown: list[tuple[str, str, int, int]] = []
    there = await copy_database(
        sqlite_url(first), postgres_url, batch=7, progress=lambda *a: shown.append(a)
    )
    again = await copy_database(postgres_url, sqlite_url(back))
    assert every_row(back) == every_row(first)
    copied = {table.name: table.rows for table in there.tables}
    assert copied == {table.name: table.rows for table in again.tables}
    assert [t.checksum for t in there.tables] == [t.checksum for t in again.tables]
    assert {"tables", "events", "results", "ratings", "rating_history"} <= copied.keys()
    assert copied["tables"] == len(every_row(first)["tables"]) == 9
    # Every table's progress goes up to its row count, a batch at a time, copied then checked.
    for stage in ("copied", "checked"):
        ends = {
            (name, done) for step, name, done, total in shown if step == stage and done == total
        }
        assert ends == set(copied.items())
    assert sum(name == "events" for _, name, _, _ in shown) > 4

    await play_on(postgres_url, open_game)
    await play_on(sqlite_url(back), open_game)
    # The copy's table ids go on after the copied ones (PostgreSQL's identity sequence).
    database = await Database.open(postgres_url)
    try:
        row = await database.tables.create(
            guild_id=GUILD, channel_id=99, host_id=1, preset="classic", document={}
        )
        assert row.id == copied["tables"] + 1
        assert (await database.tables.open_in_channel(LOBBY_CHANNEL)) is not None
    finally:
        await database.close()


async def test_a_table_a_later_migration_adds_is_copied_with_its_sequence(
    tmp_path: Path, postgres_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    later = """
        CREATE TABLE later_settings (name TEXT PRIMARY KEY, value TEXT NOT NULL);
        CREATE TABLE later_outbox (id INTEGER PRIMARY KEY, body TEXT NOT NULL);
        CREATE TABLE later_bag (value REAL)
    """
    monkeypatch.setattr("bot.storage.store.MIGRATIONS", (*MIGRATIONS, later))
    source = sqlite_url(tmp_path / "later.sqlite3")
    await play_everything(source)
    await execute(source, "INSERT INTO later_settings VALUES ('synced', 'abc'), ('é', '')")
    await execute(source, "INSERT INTO later_outbox (id, body) VALUES (5, 'x'), (41, 'y')")
    await execute(source, "INSERT INTO later_bag VALUES (0.1), (NULL), (0.1)")
    copied = await copy_database(source, postgres_url)
    counts = {table.name: table.rows for table in copied.tables}
    assert (counts["later_settings"], counts["later_outbox"], counts["later_bag"]) == (2, 2, 3)
    assert copied.schema_version == len(MIGRATIONS) + 1
    await execute(postgres_url, "INSERT INTO later_outbox (body) VALUES ('z')")
    back = tmp_path / "back.sqlite3"
    await copy_database(postgres_url, sqlite_url(back))
    with closing(sqlite3.connect(back)) as db:
        assert db.execute("SELECT id FROM later_outbox ORDER BY id").fetchall() == [
            (5,),
            (41,),
            (42,),
        ]
        assert sorted(db.execute("SELECT * FROM later_settings")) == [("synced", "abc"), ("é", "")]


async def test_a_row_postgres_cannot_take_fails_the_copy_naming_its_table_and_copies_nothing(
    tmp_path: Path, postgres_url: str
) -> None:
    source = sqlite_url(tmp_path / "source.sqlite3")
    await play_everything(source)
    # SQLite keeps text in an INTEGER column; PostgreSQL's BIGINT does not take it.
    await execute(source, "UPDATE results SET points = 'many' WHERE seat = 1")
    with pytest.raises(CopyError, match=r"^results: .*integer"):
        await copy_database(source, postgres_url)
    database = await Database.open(postgres_url)
    try:
        assert await database.tables.open_ids() == []
        assert (await database.results.leaderboard(GUILD)).rows == []
    finally:
        await database.close()


async def test_a_target_that_holds_rows_is_refused_unless_replaced(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source, target = tmp_path / "source.sqlite3", tmp_path / "target.sqlite3"
    await play_everything(sqlite_url(source))
    await play_everything(sqlite_url(target))
    before = every_row(target)
    assert await command([sqlite_url(source), sqlite_url(target)]) == 1
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and "already holds rows (" in error and "tables 9," in error
    assert error.startswith("copy: nothing was copied: ") and "--replace" in error
    assert every_row(target) == before
    assert await command([sqlite_url(source), sqlite_url(target), "--replace"]) == 0
    out = capsys.readouterr().out
    assert "replaced the rows" in out and "verified" in out
    assert every_row(target) == every_row(source)


async def test_a_new_target_holding_only_what_migrations_put_there_is_not_refused(
    tmp_path: Path,
) -> None:
    source, target = tmp_path / "source.sqlite3", tmp_path / "target.sqlite3"
    await play_everything(sqlite_url(source))
    await (await Database.open(target)).close()  # migrated: rest_budget has its one row
    copied = await copy_database(sqlite_url(source), sqlite_url(target))
    assert copied.replaced == {}
    assert every_row(target) == every_row(source)


async def test_a_copy_that_does_not_verify_is_not_committed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    source, target = tmp_path / "source.sqlite3", tmp_path / "target.sqlite3"
    await play_everything(sqlite_url(source))
    insert_rows = SqliteConnection.insert_rows

    async def one_row_short(self, table, columns, rows):  # type: ignore[no-untyped-def]
        await insert_rows(self, table, columns, rows[:-1] if table == "ratings" else rows)

    monkeypatch.setattr(SqliteConnection, "insert_rows", one_row_short)
    with pytest.raises(CopyError, match=r"ratings holds \d+ rows .* where \d+ were copied"):
        await copy_database(sqlite_url(source), sqlite_url(target))
    assert {name: rows for name, rows in every_row(target).items() if rows} == {
        "rest_budget": [(1, 0.0, 0.0, 0)],
        "user_version": [(len(MIGRATIONS),)],
    }


async def test_what_cannot_be_copied_is_one_line_naming_the_database(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "missing.sqlite3"
    target = sqlite_url(tmp_path / "target.sqlite3")
    assert await command([sqlite_url(missing), target]) == 1
    assert capsys.readouterr().err == (
        f"copy: nothing was copied: sqlite:///{missing}: no such database file\n"
    )
    assert not missing.exists()

    garbage = tmp_path / "garbage.sqlite3"
    garbage.write_text("not a database " * 100)
    assert await command([sqlite_url(garbage), target]) == 1
    assert f"copied: sqlite:///{garbage}: file is not a database\n" in capsys.readouterr().err

    newer = tmp_path / "newer.sqlite3"
    await (await Database.open(newer)).close()
    with closing(sqlite3.connect(newer)) as db:
        db.execute(f"PRAGMA user_version = {len(MIGRATIONS) + 1}")
    assert await command([sqlite_url(newer), target]) == 1
    assert "newer than this bot knows" in capsys.readouterr().err

    assert await command([target, target]) == 1
    assert "is both the source and the target" in capsys.readouterr().err

    nobody = "postgresql://ohhell:s3cret@127.0.0.1:1/ohhell"
    await (await Database.open(tmp_path / "target.sqlite3")).close()
    assert await command([target, nobody]) == 1
    out, err = capsys.readouterr()
    assert "s3cret" not in out + err
    assert err.startswith("copy: nothing was copied: postgresql://ohhell:***@127.0.0.1:1/ohhell: ")
    assert err.count("\n") == 1


def test_help_says_what_the_exit_codes_mean(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["--help"])
    assert exited.value.code == 0
    assert "--replace" in capsys.readouterr().out
    with pytest.raises(SystemExit) as exited:
        main(["only-one"])
    assert exited.value.code == 2


async def test_a_database_of_another_application_is_refused_before_anything_changes(
    tmp_path: Path, postgres_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    source = sqlite_url(tmp_path / "source.sqlite3")
    await play_everything(source)
    theirs = tmp_path / "shop.sqlite3"
    with closing(sqlite3.connect(theirs)) as db:
        db.executescript(
            "CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT);"
            "CREATE TABLE orders (id INTEGER PRIMARY KEY, customer INTEGER);"
            "INSERT INTO customers VALUES (1, 'Ann');"
        )
    before = theirs.read_bytes()
    await execute(postgres_url, "CREATE TABLE customers (id BIGINT PRIMARY KEY, name TEXT)")
    for target, shown in ((sqlite_url(theirs), sqlite_url(theirs)), (postgres_url, None)):
        for replace in ([], ["--replace"]):
            assert await command([source, target, *replace]) == 1
            error = capsys.readouterr().err
            assert error.count("\n") == 1, error
            assert "holds tables that are not this bot's (customers" in error, error
            assert "schemas differ" not in error and "--replace" not in error, error
            if shown:
                assert f"copied: {shown} holds tables" in error
    assert theirs.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["shop.sqlite3", "source.sqlite3"]
    backend = await open_backend(postgres_url)
    try:
        assert [shape.name for shape in await read_tables(backend)] == ["customers"]
        assert await backend.fetchall("SELECT to_regclass('schema_version')") == [(None,)]
    finally:
        await backend.close()
    # Copied the other way round, a foreign source is refused as well, and left as it was.
    assert await command([sqlite_url(theirs), sqlite_url(tmp_path / "new.sqlite3")]) == 1
    assert "holds tables that are not this bot's (customers, orders)" in capsys.readouterr().err
    assert theirs.read_bytes() == before
