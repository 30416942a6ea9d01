"""Shared fixtures.

- `database_url`: a new database on each backend in turn (a SQLite file, a fresh schema on a
  real PostgreSQL server); `postgres_url`: one on PostgreSQL only. A module whose tests need one
  backend only takes `sqlite_only` (tests/databases.py) as its `database_url`.
- `database`: the database at `database_url`, open (with a module's `database_options`: a
  clock); `service`: the service on it (tests/services.py), with a module's `service_options`
  (a clock, settings, another generator).
- `standin`: a running local Discord (standin) that fails the test at teardown when the bot
  broke one of Discord's rules the test did not take with `standin.take_violations()`.
  Options: `@pytest.mark.standin(ack_deadline=0.5, ...)`.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest

from bot.service import TableService
from bot.storage import Database
from standin.server import StandIn
from standin.testing import running_standin, violations_report
from tests.databases import BACKENDS, drop_schema, fresh_schema, start_postgres
from tests.services import service_on


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "standin(**options): keyword arguments for the StandIn of the standin fixture"
    )


@pytest.fixture
async def standin(request: pytest.FixtureRequest) -> AsyncIterator[StandIn]:
    marker = request.node.get_closest_marker("standin")
    options = dict(marker.kwargs) if marker is not None else {}
    async with running_standin(**options) as server:
        yield server
        report = violations_report(server)
        if report:
            pytest.fail(report, pytrace=False)


@pytest.fixture
async def postgres_url(postgres_server: str) -> AsyncIterator[str]:
    """An empty schema on the PostgreSQL server (tests of several processes on one database)."""
    schema, url = await fresh_schema(postgres_server)
    yield url
    await drop_schema(postgres_server, schema)


@pytest.fixture(params=BACKENDS)
async def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[str]:
    """An empty database, once on SQLite and once on PostgreSQL."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'ohhell.sqlite3'}"
        return
    server = request.getfixturevalue("postgres_server")
    schema, url = await fresh_schema(server)
    yield url
    await drop_schema(server, schema)


@pytest.fixture
def database_options() -> dict[str, Any]:
    """What a module's `database` is opened with besides its URL (a clock): nothing."""
    return {}


@pytest.fixture
async def database(database_url: str, database_options: dict[str, Any]) -> AsyncIterator[Database]:
    """The database at `database_url`, opened (and migrated) for the test, closed after it."""
    opened = await Database.open(database_url, **database_options)
    yield opened
    await opened.close()


@pytest.fixture
def service_options() -> dict[str, Any]:
    """What a module's `service` is given besides `service_on`'s (a clock, settings): none."""
    return {}


@pytest.fixture
def service(database: Database, service_options: dict[str, Any]) -> TableService:
    """The service on `database` (tests/services.py)."""
    return service_on(database, **service_options)


# --- Parallel runs (pytest-xdist: `make pytest` runs `-n`) ------------------------------------
# Every worker is a process of its own with its own session fixtures: its own PostgreSQL server
# (below), its own temporary folders (tmp_path) and environment; each stand-in listens on a port
# the system gives it. No test may use a fixed port, file or folder outside tmp_path.


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[str]:
    """A real PostgreSQL server for the whole session, one a worker (tests/databases.py)."""
    yield from start_postgres()
