"""The SQLite backend (the default): one aiosqlite connection in WAL mode, one write
transaction at a time."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable, Iterable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, Self

import aiosqlite

from bot.storage.connection import SQLITE, Connection, Row, split_statements


class SqliteConnection:
    """Statements on the one aiosqlite connection (reads, and the open transaction's writes)."""

    dialect = SQLITE

    def __init__(self, connection: aiosqlite.Connection) -> None:
        self._db = connection

    async def execute(self, sql: str, parameters: Sequence[Any] = ()) -> int:
        cursor = await self._db.execute(sql, parameters)
        count = cursor.rowcount
        await cursor.close()
        return count

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        await self._db.executemany(sql, rows)

    # One trip to aiosqlite's thread a query (a cursor's execute, fetch and close would be
    # three, each a wake-up of the event loop): every query that reads asks for one row or a
    # few.
    async def fetchone(self, sql: str, parameters: Sequence[Any] = ()) -> Row | None:
        rows = list(await self._db.execute_fetchall(sql, parameters))
        return tuple(rows[0]) if rows else None

    async def fetchall(self, sql: str, parameters: Sequence[Any] = ()) -> list[Row]:
        return [tuple(row) for row in await self._db.execute_fetchall(sql, parameters)]

    async def run_script(self, script: str) -> None:
        for statement in split_statements(script):
            await self._db.execute(statement)

    async def lock(self, namespace: str, key: int) -> None:
        """Nothing to do: `transaction()` already lets one writer in at a time."""

    async def notify(self, channel: str, payload: str) -> None:
        """Nothing to do: no other process shares the file."""

    async def schema_version(self) -> int:
        row = await self.fetchone("PRAGMA user_version")
        return int(row[0]) if row else 0

    async def set_schema_version(self, version: int) -> None:
        await self._db.execute(f"PRAGMA user_version = {int(version)}")


class SqliteBackend(SqliteConnection):
    """An open SQLite file. Reads go straight to the connection; writes are serialised, each
    one transaction (BEGIN IMMEDIATE)."""

    def __init__(self, connection: aiosqlite.Connection, path: str) -> None:
        super().__init__(connection)
        self._write_lock = asyncio.Lock()
        self.url = f"sqlite:///{path}"

    @classmethod
    async def open(cls, path: Path | str) -> Self:
        if str(path) != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        connection = await aiosqlite.connect(path, isolation_level=None)
        # WAL keeps readers off the writer's back; synchronous=NORMAL in WAL mode still survives
        # a killed process (only an OS crash or power loss can lose the last commits).
        await connection.execute("PRAGMA journal_mode=WAL")
        await connection.execute("PRAGMA synchronous=NORMAL")
        await connection.execute("PRAGMA foreign_keys=ON")
        await connection.execute("PRAGMA busy_timeout=5000")
        return cls(connection, str(path))

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Connection]:
        async with self._write_lock:
            await self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self
            except BaseException:
                await self._db.execute("ROLLBACK")
                raise
            await self._db.execute("COMMIT")

    @asynccontextmanager
    async def hold(self, namespace: str, key: int) -> AsyncIterator[Connection | None]:
        yield None

    async def listen(self, channel: str, callback: Callable[[str], None]) -> None:
        """Nothing to listen to: this process makes every change itself."""

    async def close(self) -> None:
        await self._db.close()
