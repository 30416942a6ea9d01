"""`python -m bot.storage.backup PATH`: a consistent copy of the bot's SQLite database, taken
while the bot runs (SQLite's online backup API), written to PATH.

The pages are copied a step at a time, so that progress can be shown. A write by another
connection (the bot) between two steps makes SQLite start again; should that happen, the rest
is copied in one step, which reads one snapshot (WAL: the bot's writes carry on meanwhile) and
so cannot be overtaken. The copy goes to `PATH.partial` and is renamed to PATH once checked, so
a PATH that exists is always a whole backup. PostgreSQL is backed up with pg_dump
(docs/deploy.md).
"""

from __future__ import annotations

import argparse
import os
import sqlite3
import sys
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

from bot.config import BotSettings
from bot.storage.backends import is_postgres, sqlite_path
from bot.storage.command_line import ProgressLine, one_line
from bot.storage.masking import masked, scrubbed_of
from bot.storage.rows import StorageError

STEP = 1024
"""Pages copied a step."""

Progress = Callable[[int, int], None]
"""Told (pages copied, pages in all) after each step."""


class BackupError(StorageError):
    """The backup was refused or failed; PATH is as it was."""


@dataclass(frozen=True)
class BackedUp:
    pages: int
    bytes: int
    schema_version: int
    restarted: bool
    """The database changed during the stepwise copy, and was copied again in one step."""


class _Changed(Exception):
    """The source changed between two steps (the backup would start again)."""


def back_up(
    database: str,
    path: Path,
    *,
    replace: bool = False,
    step: int = STEP,
    progress: Progress | None = None,
) -> BackedUp:
    """Back up the SQLite database at `database` (a path or `sqlite:///path`) to `path`."""
    if is_postgres(database):
        raise BackupError(
            f"{masked(database)} is PostgreSQL: back it up with pg_dump (docs/deploy.md)"
        )
    _refuse_the_source(database, path)
    if path.is_dir():
        raise BackupError(f"{path} is a folder: give the path of the backup file to write")
    if path.exists() and not replace:
        raise BackupError(f"{path} exists: give --replace to replace it")
    if not path.parent.is_dir():
        raise BackupError(f"{path.parent}: no such folder")
    if not os.access(path.parent, os.W_OK | os.X_OK):
        raise BackupError(f"{path.parent}: this user may not write in that folder")
    source, version = _open_source(database)
    partial = path.with_name(f"{path.name}.partial")
    try:
        partial.unlink(missing_ok=True)
        try:
            target = sqlite3.connect(partial)
            target.execute("PRAGMA user_version")  # SQLite opens the file at its first use
        except sqlite3.Error as error:
            raise BackupError(
                f"{path.parent}: the backup cannot be written there ({one_line(error)})"
            ) from None
        try:
            restarted = _copy_pages(source, target, step, progress or _quiet)
            checked = target.execute("PRAGMA quick_check").fetchone()[0]
            pages = int(target.execute("PRAGMA page_count").fetchone()[0])
            page_size = int(target.execute("PRAGMA page_size").fetchone()[0])
        finally:
            target.close()
        if checked != "ok":
            raise BackupError(f"the copy of {masked(database)} does not check out: {checked}")
        os.replace(partial, path)
    except sqlite3.Error as error:
        partial.unlink(missing_ok=True)
        raise BackupError(f"{masked(database)} to {path}: {one_line(error)}") from error
    except BaseException:
        partial.unlink(missing_ok=True)
        raise
    finally:
        source.close()
    return BackedUp(pages, pages * page_size, version, restarted)


SIDE_FILES = ("-wal", "-shm", "-journal")
"""The files SQLite keeps beside a database while it is written: part of it."""


def _refuse_the_source(database: str, path: Path) -> None:
    """A backup written onto the database it copies (the same file by any path: a link, a
    relative path, `..`), or onto one of its side files, would destroy it: refused."""
    try:
        file = Path(sqlite_path(database))
    except ValueError as error:
        raise BackupError(f"{masked(database)}: {error}") from None
    ours = [file, *(file.with_name(file.name + side) for side in SIDE_FILES)]
    partial = path.with_name(f"{path.name}.partial")
    for written in (path, partial):
        for part in ours:
            if _same_file(written, part):
                raise BackupError(
                    f"{path} is the database being backed up ({file}), or part of it:"
                    " give a path outside it"
                )


def _same_file(first: Path, second: Path) -> bool:
    try:
        if first.exists() and second.exists():
            return os.path.samefile(first, second)
        return first.resolve() == second.resolve()
    except OSError:
        return False


def _open_source(database: str) -> tuple[sqlite3.Connection, int]:
    """The database to back up (never made: it must be there), and its schema version."""
    file = Path(sqlite_path(database))
    if not file.is_file():
        raise BackupError(f"{masked(database)}: no such database file")
    try:
        source = sqlite3.connect(f"file:{quote(str(file))}?mode=rw", uri=True)
    except sqlite3.Error as error:
        raise BackupError(f"{masked(database)}: {one_line(error)}") from error
    try:
        source.execute("PRAGMA busy_timeout = 5000")
        version = int(source.execute("PRAGMA user_version").fetchone()[0])
    except sqlite3.Error as error:
        source.close()
        raise BackupError(f"{masked(database)}: {one_line(error)}") from error
    if version == 0:
        source.close()
        raise BackupError(f"{masked(database)}: not a database of this bot (schema version 0)")
    return source, version


def _copy_pages(
    source: sqlite3.Connection, target: sqlite3.Connection, step: int, progress: Progress
) -> bool:
    """Copy `source` into `target` a step at a time; whether it changed on the way (then it
    was copied again, in one step)."""
    left = [sys.maxsize]

    def stepped(status: int, remaining: int, total: int) -> None:
        # Each step copies at least one page: remaining pages that do not go down mean the
        # backup started again.
        if remaining >= left[0]:
            raise _Changed
        left[0] = remaining
        progress(total - remaining, total)

    try:
        source.backup(target, pages=step, progress=stepped)
        return False
    except _Changed:
        source.backup(target, pages=-1)
        total = int(target.execute("PRAGMA page_count").fetchone()[0])
        progress(total, total)
        return True


def _quiet(done: int, total: int) -> None:
    """No progress shown."""


# -- the command ------------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bot.storage.backup",
        description="Back up the bot's SQLite database while it runs (SQLite's online backup), "
        "to PATH. Exit 0: backed up; 1: refused or failed, PATH as it was; 2: bad arguments. "
        "PostgreSQL: pg_dump (docs/deploy.md).",
    )
    parser.add_argument("path", metavar="PATH", type=Path, help="the backup file to write")
    parser.add_argument(
        "--database",
        metavar="URL",
        help="the database to back up (default: the bot's, DATABASE_URL or DATABASE_PATH)",
    )
    parser.add_argument("--replace", action="store_true", help="replace PATH if it exists")
    args = parser.parse_args(argv)
    try:
        database = args.database or BotSettings().database
    except ValueError as error:
        print(f"backup: the bot's settings: {one_line(error)}", file=sys.stderr)
        return 1
    print(f"backing up {masked(database)} to {args.path}", flush=True)
    line = ProgressLine(sys.stdout.isatty())

    def show(done: int, total: int) -> None:
        line.show(f"  {done:,} of {total:,} pages", finished=done >= total)

    started = time.perf_counter()
    try:
        done = back_up(database, args.path, replace=args.replace, progress=show)
    except BackupError as error:
        print(f"backup: {error}", file=sys.stderr)
        return 1
    except OSError as error:
        print(f"backup: {args.path}: {error.strerror or error}", file=sys.stderr)
        return 1
    except Exception:
        # A failure nobody foresaw: its traceback, without the database URL's password.
        shown = scrubbed_of(traceback.format_exc(), database)
        print(f"backup: it failed:\n{shown}", file=sys.stderr, end="")
        return 1
    if done.restarted:
        print("the database changed during the copy: it was copied again in one step")
    print(
        f"backed up {done.pages:,} pages ({done.bytes / 1e6:.1f} MB, schema version"
        f" {done.schema_version}) in {time.perf_counter() - started:.1f} s: {args.path}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
