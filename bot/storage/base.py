"""The open connection: migrations, one write at a time, each write one transaction."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, Self

import aiosqlite

from bot.storage.rows import StorageError
from bot.storage.schema import MIGRATIONS

log = logging.getLogger("bot.storage")


class Store:
    """An open SQLite database. Writes are serialised; each is one transaction."""

    def __init__(self, connection: aiosqlite.Connection, clock: Any = time.time) -> None:
        self._db = connection
        self._write_lock = asyncio.Lock()
        self._clock = clock
        self.table_loads = 0
        """`load_table` calls since opening (logged on close; `make bench-bot` reads it)."""
        self.table_saves = 0
        """`save_table` calls that wrote, since opening."""

    @classmethod
    async def open(cls, path: Path | str, clock: Any = time.time) -> Self:
        path = Path(path)
        if str(path) != ":memory:":
            path.parent.mkdir(parents=True, exist_ok=True)
        connection = await aiosqlite.connect(path, isolation_level=None)
        # WAL keeps readers off the writer's back; synchronous=NORMAL in WAL mode still survives
        # a killed process (only an OS crash or power loss can lose the last commits).
        await connection.execute("PRAGMA journal_mode=WAL")
        await connection.execute("PRAGMA synchronous=NORMAL")
        await connection.execute("PRAGMA foreign_keys=ON")
        await connection.execute("PRAGMA busy_timeout=5000")
        database = cls(connection, clock)
        try:
            await database.migrate()
        except BaseException:
            await connection.close()
            raise
        return database

    async def close(self) -> None:
        """Close the connection and log how many table loads and saves it served."""
        log.info("storage: %d table loads, %d saves", self.table_loads, self.table_saves)
        await self._db.close()

    async def schema_version(self) -> int:
        async with self._db.execute("PRAGMA user_version") as cursor:
            row = await cursor.fetchone()
        return int(row[0]) if row else 0

    async def migrate(self) -> None:
        current = await self.schema_version()
        if current > len(MIGRATIONS):
            raise StorageError(
                f"the database is at schema version {current}, newer than this bot knows "
                f"({len(MIGRATIONS)}): update the bot"
            )
        for number, step in enumerate(MIGRATIONS[current:], start=current + 1):
            async with self._transaction():
                if isinstance(step, str):
                    for statement in step.split(";"):
                        if statement.strip():
                            await self._db.execute(statement)
                else:
                    await step(self._db)
                await self._db.execute(f"PRAGMA user_version = {number}")

    @asynccontextmanager
    async def _transaction(self) -> AsyncIterator[None]:
        async with self._write_lock:
            await self._db.execute("BEGIN IMMEDIATE")
            try:
                yield
            except BaseException:
                await self._db.execute("ROLLBACK")
                raise
            await self._db.execute("COMMIT")
