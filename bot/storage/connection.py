"""What storage's queries run on: a `Connection` (SQLite or PostgreSQL, one interface) and the
few places the two SQL dialects differ.

Queries are written once, with `?` placeholders, in the SQL both databases speak; a backend
translates what it must (placeholders, column types in migrations). Where the dialects really
differ, the query asks its connection's `Dialect`.
"""

from __future__ import annotations

import zlib
from collections.abc import Callable, Iterable, Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from typing import Any, Protocol

from bot.storage.rows import StorageError

Row = tuple[Any, ...]


@dataclass(frozen=True)
class Dialect:
    """The SQL that differs between SQLite and PostgreSQL."""

    name: str

    @property
    def is_postgres(self) -> bool:
        return self.name == "postgres"

    def json_text(self, column: str, key: str) -> str:
        """The JSON text of `key` in the JSON object stored as text in `column`."""
        if self.is_postgres:
            return f"({column})::json ->> '{key}'"
        return f"json_extract({column}, '$.{key}')"

    def unindexed(self, column: str) -> str:
        """`column`, in a form SQLite's planner will not pick an index for (GROUP BY)."""
        return column if self.is_postgres else f"+{column}"


SQLITE = Dialect("sqlite")
POSTGRES = Dialect("postgres")


class UniqueViolation(StorageError):
    """An insert or update broke a unique index (PostgreSQL: another process got there first)."""


class Connection(Protocol):
    """One database session: reads, or the writes of one transaction."""

    dialect: Dialect

    async def execute(self, sql: str, parameters: Sequence[Any] = ()) -> int:
        """Run one statement; how many rows it changed."""
        ...

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None: ...

    async def insert_rows(self, table: str, columns: Sequence[str], rows: Sequence[Row]) -> None:
        """Insert many rows into `table` at once, by the fastest way the database has
        (PostgreSQL: COPY)."""
        ...

    async def fetchone(self, sql: str, parameters: Sequence[Any] = ()) -> Row | None: ...

    async def fetchall(self, sql: str, parameters: Sequence[Any] = ()) -> list[Row]: ...

    async def run_script(self, script: str) -> None:
        """A migration's SQL: statements separated by ";", column types as SQLite names them
        (a PostgreSQL backend maps them)."""
        ...

    async def lock(self, namespace: str, key: int) -> None:
        """Hold a lock on (namespace, key) until the transaction ends: what must not run in
        two processes at once (PostgreSQL). SQLite writes one transaction at a time already."""
        ...

    async def notify(self, channel: str, payload: str) -> None:
        """Tell every process listening on `channel` (PostgreSQL: NOTIFY, sent when the
        transaction commits). SQLite: nobody else to tell."""
        ...

    async def schema_version(self) -> int: ...

    async def set_schema_version(self, version: int) -> None: ...


class Backend(Connection, Protocol):
    """An open database: reads on it directly, writes in `transaction()`."""

    url: str
    """Where it is, without any password (for logs)."""

    def transaction(self) -> AbstractAsyncContextManager[Connection]: ...

    def snapshot(self) -> AbstractAsyncContextManager[Connection]:
        """Reads that all see the database as it was at one moment, whatever other connections
        commit meanwhile (a read-only transaction; PostgreSQL: repeatable read)."""
        ...

    def hold(self, namespace: str, key: int) -> AbstractAsyncContextManager[Connection | None]:
        """Hold a lock on (namespace, key) across processes, outside any transaction, for as
        long as the block runs (PostgreSQL: an advisory lock on a connection of its own, let go
        if the process dies). None on SQLite: one process, nothing to hold."""
        ...

    async def listen(self, channel: str, callback: Callable[[str], None]) -> None:
        """Call `callback(payload)` for each notification on `channel` from any process (a
        connection of its own, PostgreSQL). SQLite: never called."""
        ...

    async def close(self) -> None: ...


def lock_key(namespace: str, key: int) -> int:
    """A signed 64-bit advisory-lock key for (namespace, key)."""
    mixed = (zlib.crc32(namespace.encode()) << 32) ^ (key & 0xFFFFFFFFFFFFFFFF)
    mixed &= 0xFFFFFFFFFFFFFFFF
    return mixed - (1 << 64) if mixed >= 1 << 63 else mixed


def quoted(name: str) -> str:
    """A table's or column's name as an identifier in either dialect's SQL."""
    return '"' + name.replace('"', '""') + '"'


def split_statements(script: str) -> Iterable[str]:
    return (statement for statement in script.split(";") if statement.strip())
