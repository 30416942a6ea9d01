"""The SQLite backend (the default): one connection in WAL mode on the event loop's thread, one
write transaction at a time, and a second, read-only connection in a thread of its own for the
queries that return lists.

A table row's load or save takes tens of microseconds on the loop's thread; handing each
statement to a database thread and waking the loop for its answer cost several times that
(aiosqlite: about 180 microseconds of CPU a load and save, against 40 done here). The lists
(leaderboards, histories, a game's events) can take milliseconds on a big database, so they
are read in a thread instead, from the last committed state (WAL lets it read while the loop's
connection writes).
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator, Callable, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, Self

from bot.storage.connection import SQLITE, Connection, Row, quoted, split_statements

MEMORY = ":memory:"
ERRORS = (OSError, sqlite3.Error)
"""What opening or migrating a SQLite file raises when it cannot be used (a folder that cannot
be made, a file that cannot be written or is not a database)."""


def _connect(path: str, *, writer: bool = True) -> sqlite3.Connection:
    connection = sqlite3.connect(path, isolation_level=None)
    if writer:
        # WAL keeps the reader off the writer's back; synchronous=NORMAL in WAL mode still
        # survives a killed process (only an OS crash or power loss can lose the last commits).
        connection.execute("PRAGMA journal_mode=WAL")
        connection.execute("PRAGMA synchronous=NORMAL")
        # Deleted and rewritten rows are overwritten with zeros, not left readable in the
        # file's free pages (an erased person stays erased on disk: PRIVACY.md).
        connection.execute("PRAGMA secure_delete=ON")
    connection.execute("PRAGMA foreign_keys=ON")
    connection.execute("PRAGMA busy_timeout=5000")
    return connection


class SqliteConnection:
    """Statements on the loop's connection (reads, and the open transaction's writes)."""

    dialect = SQLITE

    def __init__(self, connection: sqlite3.Connection) -> None:
        self._db = connection

    async def execute(self, sql: str, parameters: Sequence[Any] = ()) -> int:
        return self._db.execute(sql, parameters).rowcount

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        self._db.executemany(sql, rows)

    async def insert_rows(self, table: str, columns: Sequence[str], rows: Sequence[Row]) -> None:
        names = ", ".join(quoted(column) for column in columns)
        marks = ", ".join("?" * len(columns))
        self._db.executemany(f"INSERT INTO {quoted(table)} ({names}) VALUES ({marks})", rows)

    async def fetchone(self, sql: str, parameters: Sequence[Any] = ()) -> Row | None:
        row = self._db.execute(sql, parameters).fetchone()
        return None if row is None else tuple(row)

    async def fetchall(self, sql: str, parameters: Sequence[Any] = ()) -> list[Row]:
        return [tuple(row) for row in self._db.execute(sql, parameters).fetchall()]

    async def run_script(self, script: str) -> None:
        for statement in split_statements(script):
            self._db.execute(statement)

    async def lock(self, namespace: str, key: int) -> None:
        """Nothing to do: `transaction()` already lets one writer in at a time."""

    async def notify(self, channel: str, payload: str) -> None:
        """Nothing to do: no other process shares the file."""

    async def schema_version(self) -> int:
        row = await self.fetchone("PRAGMA user_version")
        return int(row[0]) if row else 0

    async def set_schema_version(self, version: int) -> None:
        self._db.execute(f"PRAGMA user_version = {int(version)}")


class SqliteBackend(SqliteConnection):
    """An open SQLite file. Reads go straight to the loop's connection, lists to the reading
    thread; writes are serialised, each one transaction (BEGIN IMMEDIATE)."""

    def __init__(self, connection: sqlite3.Connection, path: str) -> None:
        super().__init__(connection)
        self._write_lock = asyncio.Lock()
        self._path = path
        self.url = f"sqlite:///{path}"
        self._reading: ThreadPoolExecutor | None = None
        self._reader: sqlite3.Connection | None = None
        """Opened, used and closed on the reading thread only."""

    @classmethod
    async def open(cls, path: Path | str) -> Self:
        if str(path) != MEMORY:
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        return cls(_connect(str(path)), str(path))

    async def fetchall(self, sql: str, parameters: Sequence[Any] = ()) -> list[Row]:
        if self._path == MEMORY:  # no second connection sees an in-memory database
            return await super().fetchall(sql, parameters)
        if self._reading is None:
            self._reading = ThreadPoolExecutor(1, thread_name_prefix="sqlite-reader")
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._reading, self._read_all, sql, parameters)

    def _read_all(self, sql: str, parameters: Sequence[Any]) -> list[Row]:
        if self._reader is None:
            self._reader = _connect(self._path, writer=False)
        return [tuple(row) for row in self._reader.execute(sql, parameters).fetchall()]

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Connection]:
        async with self._write_lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                # Everything in the transaction reads the loop's connection, lists too: the
                # reading thread would not see what the transaction has written.
                yield SqliteConnection(self._db)
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

    @asynccontextmanager
    async def snapshot(self) -> AsyncIterator[Connection]:
        async with self._write_lock:
            # A deferred transaction: its first read fixes what every later one sees (WAL lets
            # other connections write meanwhile), and it takes no write lock.
            self._db.execute("BEGIN")
            try:
                yield SqliteConnection(self._db)
            finally:
                self._db.execute("ROLLBACK")

    @asynccontextmanager
    async def hold(self, namespace: str, key: int) -> AsyncIterator[Connection | None]:
        yield None

    async def listen(self, channel: str, callback: Callable[[str], None]) -> None:
        """Nothing to listen to: this process makes every change itself."""

    async def close(self) -> None:
        if self._reading is not None:
            await asyncio.get_running_loop().run_in_executor(self._reading, self._close_reader)
            self._reading.shutdown()
        self._db.close()

    def _close_reader(self) -> None:
        if self._reader is not None:
            self._reader.close()
