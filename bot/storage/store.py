"""The open database's store: the connection, migrating, one transaction a write, on either
backend; and `Repository`, what each part of the queries (bot/storage/__init__.py) is built on."""

from __future__ import annotations

import time
from collections.abc import Callable
from contextlib import AbstractAsyncContextManager
from pathlib import Path
from types import TracebackType
from typing import Any, Self

from bot.storage.backends import UNUSABLE, open_backend
from bot.storage.connection import Backend, Connection
from bot.storage.masking import masked, scrubbed_of
from bot.storage.rows import DatabaseUnavailable, StorageError
from bot.storage.schema import MIGRATIONS


class Store:
    """An open database (`bot.storage.connection`: SQLite or PostgreSQL). Reads go to
    `backend`; each write is one transaction (`transaction`)."""

    def __init__(self, backend: Backend, clock: Any = time.time) -> None:
        self.backend = backend
        self.clock = clock
        """What the stored moments are read from (seconds, as `time.time`)."""
        self.on_transaction: Callable[[float], None] | None = None
        """Told each write transaction's seconds, from asking for it to its end (metrics)."""

    @classmethod
    async def open(cls, where: Path | str, clock: Any = time.time, *, pool_size: int = 10) -> Self:
        """Open (and migrate) a database: a SQLite file's path, `sqlite:///path` or
        `postgresql://…`. `DatabaseUnavailable` says where and why when it cannot be."""
        try:
            backend = await open_backend(str(where), pool_size=pool_size)
        except (ValueError, *UNUSABLE) as error:  # ValueError: a URL of no known form
            # The URL's own error may quote it: neither the message nor a traceback keeps it.
            reason = scrubbed_of(_first_line(error), str(where))
            raise DatabaseUnavailable(masked(str(where)), reason) from None
        store = cls(backend, clock)
        try:
            await store.migrate()
        except BaseException as error:
            await backend.close()
            if isinstance(error, (StorageError, *UNUSABLE)):
                reason = scrubbed_of(_first_line(error), str(where))
                raise DatabaseUnavailable(backend.url, reason) from error
            raise
        return store

    @property
    def dialect_name(self) -> str:
        return self.backend.dialect.name

    @property
    def url(self) -> str:
        return self.backend.url

    async def close(self) -> None:
        await self.backend.close()

    async def schema_version(self) -> int:
        return await self.backend.schema_version()

    async def answer(self) -> None:
        """One trivial query: raises if the database does not answer."""
        await self.backend.fetchone("SELECT 1")

    async def migrate(self) -> None:
        """Bring the schema up to date, a migration a transaction. On PostgreSQL the processes
        starting together take turns: the first migrates, the others find it done."""
        while True:
            async with self.transaction() as db:
                await db.lock("migrations", 0)
                current = await db.schema_version()
                if current > len(MIGRATIONS):
                    raise StorageError(
                        f"the database is at schema version {current}, newer than this bot "
                        f"knows ({len(MIGRATIONS)}): update the bot"
                    )
                if current == len(MIGRATIONS):
                    return
                step = MIGRATIONS[current]
                if isinstance(step, str):
                    await db.run_script(step)
                else:
                    await step(db)
                await db.set_schema_version(current + 1)

    def transaction(self) -> AbstractAsyncContextManager[Connection]:
        """One write transaction (timed for `on_transaction`)."""
        transaction = self.backend.transaction()
        if self.on_transaction is None:
            return transaction
        return _Timed(transaction, self.on_transaction)


class Repository:
    """One part of the queries (the tables, the results, the outbox, …) on the store it shares
    with the others: reads go to `_db`, each write is one `_transaction()`."""

    def __init__(self, store: Store) -> None:
        self._store = store
        self._db = store.backend
        self._clock = store.clock

    def _transaction(self) -> AbstractAsyncContextManager[Connection]:
        return self._store.transaction()


class _Timed:
    """A transaction that tells `observe` how long it took (a class, not a generator: it is on
    every action's path)."""

    __slots__ = ("_inner", "_observe", "_started")

    def __init__(
        self, inner: AbstractAsyncContextManager[Connection], observe: Callable[[float], None]
    ) -> None:
        self._inner = inner
        self._observe = observe
        self._started = 0.0

    async def __aenter__(self) -> Connection:
        self._started = time.perf_counter()
        return await self._inner.__aenter__()

    async def __aexit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> bool | None:
        try:
            return await self._inner.__aexit__(kind, error, traceback)
        finally:
            self._observe(time.perf_counter() - self._started)


def _first_line(error: BaseException) -> str:
    text = str(error) or type(error).__name__
    return text.splitlines()[0]
