"""Databases for tests: a SQLite file, or a fresh schema on a real PostgreSQL server.

The PostgreSQL server is `TEST_DATABASE_URL` when it is set, otherwise one the test session
starts from the `pgserver` package (PostgreSQL's own binaries in a pip wheel); in a parallel run
each worker has its own. Each test gets a schema of its own on it (`search_path` in the URL), so
tests never see each other's rows.
"""

from __future__ import annotations

import asyncio
import os
import tempfile
import uuid
from collections.abc import AsyncIterator, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import asyncpg
import pytest

from bot.storage.backends import open_backend

BACKENDS = ("sqlite", "postgres")

_STARTED: dict[str, Any] = {}
"""The servers this session started (pgserver's), by URL: the ones a test may stop."""


def start_postgres() -> Iterator[str]:
    """The URL of a PostgreSQL server for the session, or a skip that says why there is none.

    Its data folder is a temporary folder of its own, not one under pytest's basetemp: pytest
    deletes old basetemps and narrows their permissions as other sessions start, which a server
    of a session still running must not meet."""
    given = os.environ.get("TEST_DATABASE_URL")
    if given:
        yield from _database_of_this_worker(given)
        return
    try:
        import pgserver

        folder = Path(tempfile.mkdtemp(prefix="ohhell-postgres-"))
        server = pgserver.get_server(folder, cleanup_mode="delete")
    except Exception as error:  # no wheel for this platform, or the server would not start
        pytest.skip(f"no PostgreSQL: pgserver could not start one ({error})")
    url = server.get_uri()
    _STARTED[url] = server
    try:
        yield url
    finally:
        _STARTED.pop(url, None)
        server.cleanup()


def _database_of_this_worker(server_url: str) -> Iterator[str]:
    """`server_url` itself, or in a parallel run (pytest-xdist) a database of this worker's own
    on that server: NOTIFY and the server's views of its sessions are per database, so one
    worker's bots do not hear another's table changes, nor a test end another's connections."""
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    if worker is None:
        yield server_url
        return
    name = f"ohhell_test_{worker}_{uuid.uuid4().hex[:8]}"
    _on_the_server(server_url, f"CREATE DATABASE {name}")
    try:
        yield urlsplit(server_url)._replace(path=f"/{name}").geturl()
    finally:
        _on_the_server(server_url, f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


def _on_the_server(server_url: str, sql: str) -> None:
    """One statement outside any transaction, from a thread of its own: a fixture's event loop
    may be running in this one."""

    async def run() -> None:
        connection = await asyncpg.connect(server_url)
        try:
            await connection.execute(sql)
        finally:
            await connection.close()

    with ThreadPoolExecutor(1) as thread:
        thread.submit(asyncio.run, run()).result()


@asynccontextmanager
async def stopped(server_url: str) -> AsyncIterator[None]:
    """The PostgreSQL server at `server_url` stopped while the block runs, then started again at
    the same address (a server this session started; another one is skipped)."""
    server = _STARTED.get(server_url)
    if server is None:
        pytest.skip("TEST_DATABASE_URL names a server this session did not start: not stopping it")
    import pgserver

    stop = ["-w", "-m", "fast", "stop"]
    await asyncio.to_thread(pgserver.pg_ctl, stop, pgdata=server.pgdata, user=server.system_user)
    try:
        yield
    finally:
        await asyncio.to_thread(server.ensure_postgres_running)


def with_search_path(url: str, schema: str) -> str:
    return f"{url}{'&' if '?' in url else '?'}search_path={schema}"


async def fresh_schema(server_url: str) -> tuple[str, str]:
    """A new, empty schema on the server: (its name, a URL whose connections use it)."""
    name = f"t_{uuid.uuid4().hex[:12]}"
    connection = await asyncpg.connect(server_url)
    try:
        await connection.execute(f"CREATE SCHEMA {name}")
    finally:
        await connection.close()
    return name, with_search_path(server_url, name)


async def drop_schema(server_url: str, name: str) -> None:
    connection = await asyncpg.connect(server_url)
    try:
        await connection.execute(f"DROP SCHEMA IF EXISTS {name} CASCADE")
    finally:
        await connection.close()


async def execute(url: str, sql: str, parameters: tuple[Any, ...] = ()) -> int:
    """One statement on the database at `url`, from a connection of its own (as a hand edit or
    another process would), committed."""
    backend = await open_backend(url)
    try:
        async with backend.transaction() as connection:
            return await connection.execute(sql, parameters)
    finally:
        await backend.close()


@pytest.fixture(name="database_url")
def sqlite_only(tmp_path: Path) -> str:
    """An empty SQLite database, for a module whose tests are of what the service or the cogs
    answer, not of storage: `database_url = sqlite_only` there runs them once, not once a
    backend."""
    return f"sqlite:///{tmp_path / 'ohhell.sqlite3'}"
