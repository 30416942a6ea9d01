"""`python -m bot.storage.copy FROM_URL TO_URL`: copy every row of one database into another
(SQLite to PostgreSQL, and back), so that the bot started on the copy carries on where it was.

Both databases are migrated to this bot's schema first, as the bot would at start. The tables
and their columns are read from the live schema (`bot.storage.catalog`), so a table a later
migration adds is copied too. The source is read from one snapshot and the target written in
one transaction, which is committed only once every table's row count and checksum (all its
rows, in any order) are equal on both: a copy that fails or does not verify leaves no row.
A target that holds rows already is refused unless `replace` is given.
"""

from __future__ import annotations

import argparse
import asyncio
import re
import sqlite3
import sys
import time
import traceback
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

import asyncpg

from bot.storage.backends import is_postgres, open_backend, sqlite_path
from bot.storage.catalog import TableShape, read_tables, restart_counters
from bot.storage.command_line import ProgressLine, one_line
from bot.storage.connection import Backend, Connection, Row, quoted
from bot.storage.masking import masked, scrubbed_of
from bot.storage.rows import StorageError
from bot.storage.schema import MIGRATIONS
from bot.storage.sqlite import MEMORY
from bot.storage.store import Store

BATCH = 5000
"""Rows read and written at a time."""

DATABASE_ERRORS = (OSError, sqlite3.Error, asyncpg.PostgresError, asyncpg.InterfaceError)
"""What a database that cannot be opened or read raises."""

Progress = Callable[[str, str, int, int], None]
"""Told (stage, table, rows done, rows in all) as a table's stage starts and after each batch;
the stages are "copied" (read and written) and "checked" (read back from the target)."""


class CopyError(StorageError):
    """The copy was refused or failed; the target holds none of its rows."""


@dataclass(frozen=True)
class CopiedTable:
    name: str
    rows: int
    checksum: int
    """A digest of every row, in any order, equal on both databases (in this process: see
    `_add_rows`)."""
    seconds: float


@dataclass(frozen=True)
class Copied:
    source: str
    target: str
    """Both without passwords."""
    schema_version: int
    tables: list[CopiedTable]
    replaced: dict[str, int]
    """The rows the target held before, by table (only those that held some)."""


async def copy_database(
    source_url: str,
    target_url: str,
    *,
    replace: bool = False,
    batch: int = BATCH,
    progress: Progress | None = None,
) -> Copied:
    """Copy every row of `source_url` into `target_url` (both migrated first), verified."""
    try:
        return await _copy_database(source_url, target_url, replace, batch, progress or _quiet)
    except CopyError as error:
        # The drivers' messages may quote a URL they could not parse, or part of it.
        raise CopyError(scrubbed_of(str(error), source_url, target_url)) from None


async def _copy_database(
    source_url: str, target_url: str, replace: bool, batch: int, progress: Progress
) -> Copied:
    if same_database(source_url, target_url):
        raise CopyError(f"{masked(source_url)} is both the source and the target")
    source = await open_migrated(source_url, must_exist=True)
    try:
        target = await open_migrated(target_url, must_exist=False)
        try:
            return await _copy(source, target, replace, batch, progress)
        except CopyError:
            raise
        except (ValueError, TypeError, StorageError, *DATABASE_ERRORS) as error:
            raise CopyError(one_line(error)) from None
        finally:
            await target.close()
    finally:
        await source.close()


async def open_migrated(url: str, *, must_exist: bool) -> Backend:
    """Open the database at `url` and bring its schema up to this bot's; a database that is
    not there (`must_exist`: a SQLite file is not made), will not open, or holds tables that
    are not this bot's (checked first: such a database is left as it was) is a `CopyError`."""
    shown = masked(url)
    try:
        if must_exist and not is_postgres(url) and not Path(sqlite_path(url)).is_file():
            raise CopyError(f"{shown}: no such database file")
        foreign = await _foreign_tables(url)
        if foreign:
            raise CopyError(
                f"{shown} holds tables that are not this bot's ({', '.join(foreign)}): give a"
                " database of this bot's, or an empty one; it was left as it was"
            )
        backend = await open_backend(url, pool_size=2)
    except (ValueError, *DATABASE_ERRORS) as error:
        raise CopyError(f"{shown}: {scrubbed_of(one_line(error), url)}") from None
    try:
        await Store(backend).migrate()
    except (StorageError, *DATABASE_ERRORS) as error:
        await backend.close()
        raise CopyError(f"{shown}: {scrubbed_of(one_line(error), url)}") from None
    return backend


async def _foreign_tables(url: str) -> list[str]:
    """The tables of the database at `url` that no migration of this bot makes, read without
    changing anything (a SQLite file read-only; nothing made where there is none)."""
    if is_postgres(url):
        backend = await open_backend(url, pool_size=1)  # opening it writes nothing
        try:
            names = {shape.name for shape in await read_tables(backend)}
        finally:
            await backend.close()
    else:
        file = Path(sqlite_path(url))
        if sqlite_path(url) == MEMORY or not file.is_file() or file.stat().st_size == 0:
            return []
        with closing(sqlite3.connect(f"file:{quote(str(file))}?mode=ro", uri=True)) as db:
            rows = db.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table'"
                " AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'"
            ).fetchall()
        names = {str(row[0]) for row in rows}
    return sorted(names - await _our_tables())


async def _our_tables() -> set[str]:
    """Every table a migration of this bot makes: those of its schema now, and any an older
    version made (a database of this bot's not migrated yet may hold one)."""
    fresh = await open_backend(MEMORY)
    try:
        await Store(fresh).migrate()
        names = {shape.name for shape in await read_tables(fresh)}
    finally:
        await fresh.close()
    for step in MIGRATIONS:
        if isinstance(step, str):
            names.update(match.lower() for match in _MADE.findall(step))
    return names


_MADE = re.compile(r"(?i)(?:CREATE\s+TABLE(?:\s+IF\s+NOT\s+EXISTS)?|RENAME\s+TO)\s+\"?(\w+)")
"""A table a migration script makes (or renames a table to)."""


async def _copy(
    source: Backend, target: Backend, replace: bool, batch: int, progress: Progress
) -> Copied:
    version, target_version = await source.schema_version(), await target.schema_version()
    if version != target_version:
        raise CopyError(
            f"{source.url} is at schema version {version}, {target.url} at {target_version}:"
            " both must be at the same"
        )
    tables = await _same_tables(source, target)
    held = await _held_rows(target, [shape for _, shape in tables])
    if held and not replace:
        listed = ", ".join(f"{name} {count:,}" for name, count in held.items())
        raise CopyError(
            f"{target.url} already holds rows ({listed}): give --replace to replace them"
        )
    copied: list[CopiedTable] = []
    async with source.snapshot() as reading, target.transaction() as writing:
        for shape, _ in reversed(tables):
            await writing.execute(f"DELETE FROM {quoted(shape.name)}")
        for shape, target_shape in tables:
            started = time.perf_counter()
            try:
                total = await _count(reading, shape)
                rows, digest = 0, 0
                progress("copied", shape.name, rows, total)
                async for chunk in _read(reading, shape, batch):
                    await writing.insert_rows(shape.name, shape.columns, chunk)
                    rows += len(chunk)
                    digest = _add_rows(digest, chunk)
                    progress("copied", shape.name, rows, total)
                await restart_counters(writing, target_shape)
            except (ValueError, TypeError, StorageError, *DATABASE_ERRORS) as error:
                raise CopyError(f"{shape.name}: {one_line(error)}") from error
            copied.append(CopiedTable(shape.name, rows, digest, time.perf_counter() - started))
        await _verify(writing, [shape for shape, _ in tables], copied, target.url, batch, progress)
    return Copied(source.url, target.url, version, copied, held)


async def _same_tables(source: Backend, target: Backend) -> list[tuple[TableShape, TableShape]]:
    """Each table as the source has it and as the target has it, in an order the target's
    foreign keys allow; a `CopyError` if the two have different tables or columns."""
    theirs = {shape.name: shape for shape in await read_tables(source)}
    ours = await read_tables(target)
    differ = sorted(
        theirs.keys() ^ {shape.name for shape in ours}
        | {shape.name for shape in ours if shape.name in theirs and not _fits(theirs, shape)}
    )
    if differ:
        raise CopyError(
            f"the two schemas differ ({', '.join(differ)}): are both at this bot's version?"
        )
    return [(theirs[shape.name], shape) for shape in ours]


def _fits(theirs: dict[str, TableShape], shape: TableShape) -> bool:
    return set(theirs[shape.name].columns) == set(shape.columns)


async def _held_rows(target: Backend, shapes: list[TableShape]) -> dict[str, int]:
    """The target's tables that hold more rows than the migrations alone put in them."""
    counts = {shape.name: await _count(target, shape) for shape in shapes}
    fresh = await open_migrated(MEMORY, must_exist=False)
    try:
        seeded = {shape.name: await _count(fresh, shape) for shape in await read_tables(fresh)}
    finally:
        await fresh.close()
    return {name: count for name, count in counts.items() if count > seeded.get(name, 0)}


async def _verify(
    db: Connection,
    shapes: list[TableShape],
    copied: list[CopiedTable],
    where: str,
    batch: int,
    progress: Progress,
) -> None:
    """Every table's row count and checksum as written equal to what was read."""
    for shape, table in zip(shapes, copied, strict=True):
        rows, digest = 0, 0
        progress("checked", shape.name, rows, table.rows)
        async for chunk in _read(db, shape, batch):
            rows += len(chunk)
            digest = _add_rows(digest, chunk)
            progress("checked", shape.name, rows, table.rows)
        if (rows, digest) != (table.rows, table.checksum):
            raise CopyError(
                f"{where}: {shape.name} holds {rows:,} rows (checksum {digest:016x}) where"
                f" {table.rows:,} were copied (checksum {table.checksum:016x})"
            )


async def _count(db: Connection, shape: TableShape) -> int:
    row = await db.fetchone(f"SELECT COUNT(*) FROM {quoted(shape.name)}")
    return int(row[0]) if row else 0


async def _read(db: Connection, shape: TableShape, batch: int) -> AsyncIterator[list[Row]]:
    """The table's rows, `batch` at a time, in the order of its primary key (keyset: each
    read starts after the last key, so no read gets slower); all at once without a key."""
    columns = ", ".join(quoted(column) for column in shape.columns)
    select = f"SELECT {columns} FROM {quoted(shape.name)}"
    if not shape.key:
        yield await db.fetchall(select)
        return
    key = ", ".join(quoted(column) for column in shape.key)
    at = [shape.columns.index(column) for column in shape.key]
    after = f"{select} WHERE ({key}) > ({', '.join('?' * len(at))}) ORDER BY {key} LIMIT {batch}"
    rows = await db.fetchall(f"{select} ORDER BY {key} LIMIT {batch}")
    while rows:
        yield rows
        if len(rows) < batch:
            return
        rows = await db.fetchall(after, [rows[-1][i] for i in at])


def _add_rows(digest: int, rows: Sequence[Row]) -> int:
    """`digest` with `rows` added: a sum of each row's hash, so the order rows come in (which
    differs between the databases' collations) does not change it. Python's own hash: both
    sides are summed in this process (a string's hash differs from one process to the next)."""
    return (digest + sum(hash(row) for row in rows)) % (1 << 64)


def same_database(first: str, second: str) -> bool:
    if is_postgres(first) or is_postgres(second):
        return masked(first) == masked(second)
    try:
        return Path(sqlite_path(first)).resolve() == Path(sqlite_path(second)).resolve()
    except ValueError:
        return False


def _quiet(stage: str, table: str, done: int, total: int) -> None:
    """No progress shown."""


# -- the command ------------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bot.storage.copy",
        description="Copy every row of the bot's database into another one (SQLite to "
        "PostgreSQL, or back), in one transaction, verified before it is committed. Both are "
        "migrated to this bot's schema first. Exit 0: copied and verified; 1: refused or "
        "failed, nothing copied; 2: bad arguments.",
    )
    parser.add_argument("source", metavar="FROM_URL", help="sqlite:///path or postgresql://…")
    parser.add_argument("target", metavar="TO_URL", help="sqlite:///path or postgresql://…")
    parser.add_argument(
        "--replace",
        action="store_true",
        help="replace the rows TO_URL holds (without it a database that holds any is refused)",
    )
    parser.add_argument(
        "--batch", type=int, default=BATCH, help=f"rows read and written at a time ({BATCH})"
    )
    args = parser.parse_args(argv)
    if args.batch < 1:
        parser.error("--batch must be at least 1")
    shown = f"{masked(args.source)} → {masked(args.target)}"
    print(f"copying {shown}", flush=True)
    started = time.perf_counter()
    try:
        copied = asyncio.run(
            copy_database(
                args.source,
                args.target,
                replace=args.replace,
                batch=args.batch,
                progress=_shown(ProgressLine(sys.stdout.isatty())),
            )
        )
    except CopyError as error:
        print(f"copy: nothing was copied: {error}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("copy: interrupted: nothing was copied", file=sys.stderr)
        return 130
    except Exception:
        # A failure nobody foresaw: its traceback, with neither URL's password in it.
        shown = scrubbed_of(traceback.format_exc(), args.source, args.target)
        print(f"copy: nothing was copied: it failed:\n{shown}", file=sys.stderr, end="")
        return 1
    _print_copied(copied, time.perf_counter() - started)
    return 0


def _shown(line: ProgressLine) -> Progress:
    def show(stage: str, table: str, done: int, total: int) -> None:
        text = f"  {table:<20} {done:>12,} of {total:,} rows {stage}"
        line.show(text, finished=done >= total)

    return show


def _print_copied(copied: Copied, seconds: float) -> None:
    if copied.replaced:
        listed = ", ".join(f"{name} {count:,}" for name, count in copied.replaced.items())
        print(f"replaced the rows {copied.target} held ({listed})")
    rows = sum(table.rows for table in copied.tables)
    print(
        f"verified: every table's row count and checksum of its rows equal on both"
        f" (schema version {copied.schema_version})"
    )
    print(f"copied {rows:,} rows ({len(copied.tables)} tables) in {seconds:.1f} s")


if __name__ == "__main__":
    raise SystemExit(main())
