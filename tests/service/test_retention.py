"""Nothing kept longer than needed: a server the bot left `RETAIN_AFTER_LEAVE` days ago (7 here)
has no row left anywhere; one it was added back to in time keeps everything. With a hand-moved
clock, on each backend."""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from bot.config import BotSettings
from bot.service import TableService
from bot.service.privacy import MY_DATA_EVERY
from bot.service.retention import DAY
from bot.storage import Database
from bot.storage.backends import open_backend
from bot.storage.catalog import read_tables
from bot.storage.connection import quoted
from tests.clocks import Clock
from tests.privacy_scan import every_row, places_holding
from tests.service.test_privacy import AWAY, HOME, Scene, scene
from tests.services import service_on


@pytest.fixture
async def clock() -> Clock:
    return Clock()


@pytest.fixture
def service_options(clock: Clock) -> dict[str, Any]:
    """The service on a clock the test moves by hand, keeping a server's data a week."""
    settings = BotSettings.model_construct(retain_after_leave=7)
    return {"clock": clock, "rng": random.Random(3), "settings": settings}


async def rows_of_tables(url: str, table_ids: set[int]) -> dict[str, int]:
    """How many rows of each table of the schema belong to one of `table_ids`."""
    backend = await open_backend(url)
    found: dict[str, int] = {}
    try:
        for shape in await read_tables(backend):
            column = "id" if shape.name == "tables" else "table_id"
            if column not in shape.columns:
                continue
            for table_id in table_ids:
                row = await backend.fetchone(
                    f"SELECT COUNT(*) FROM {quoted(shape.name)} WHERE {column} = ?", (table_id,)
                )
                if row and row[0]:
                    found[shape.name] = found.get(shape.name, 0) + int(row[0])
    finally:
        await backend.close()
    return found


async def test_a_server_left_long_enough_goes_and_one_rejoined_in_time_stays(
    service: TableService, database_url: str, clock: Clock
) -> None:
    found: Scene = await scene(service)
    away = {game for guild, game in found.finished if guild == AWAY}
    home = {game for guild, game in found.finished if guild == HOME} | {found.playing}
    assert await rows_of_tables(database_url, away) != {}
    await service.retention.server_left(AWAY)
    await service.retention.server_left(HOME)
    clock.now += 3 * DAY
    await service.retention.server_left(AWAY)  # told again: the first time counts
    await service.retention.server_back(HOME)
    home_before = await rows_of_tables(database_url, home)
    clock.now += 4 * DAY - 60
    before = await every_row(database_url)
    assert await service.retention.sweep() == []
    assert await every_row(database_url) == before
    clock.now += 60
    assert await service.retention.sweep() == [AWAY]
    assert await places_holding(database_url, [str(AWAY)]) == {}
    assert await rows_of_tables(database_url, away) == {}
    assert await rows_of_tables(database_url, home) == home_before
    assert str(HOME) in str(await places_holding(database_url, [str(HOME)]))
    clock.now += 100 * DAY
    assert await service.retention.sweep() == []


async def test_leases_that_ran_out_go_with_the_sweep(
    service: TableService, database_url: str, clock: Clock
) -> None:
    """An erasure nobody confirmed, a copy asked for: their notes, keyed by the person's id,
    go once they run out."""
    person = 412_345_678_901_234_999
    offer = await service.privacy.offer_erasure(person)
    await service.privacy.my_data(person)
    await service.retention.sweep()
    assert ("leases", "key") in await places_holding(database_url, [str(person)])
    clock.now = max(offer.until, clock.now + MY_DATA_EVERY) + 1
    await service.retention.sweep()
    assert await places_holding(database_url, [str(person)]) == {}


async def test_servers_left_while_the_bot_was_stopped_are_found_at_start(
    service: TableService, clock: Clock
) -> None:
    await scene(service)
    mine = {HOME, AWAY}.__contains__
    assert await service.retention.servers_present({HOME, AWAY}, mine) == []
    # Removed from AWAY while stopped: marked now. A server of another process's shards is
    # not this one's to judge.
    assert await service.retention.servers_present({HOME}, lambda guild: guild == HOME) == []
    assert await service.retention.servers_present({HOME}, mine) == [AWAY]
    assert await service.db.retention.servers_left() == {AWAY: clock.now}
    clock.now += 5 * DAY
    assert await service.retention.servers_present({HOME}, mine) == []
    assert await service.db.retention.servers_left() == {AWAY: clock.now - 5 * DAY}
    # Added back while stopped.
    assert await service.retention.servers_present({HOME, AWAY}, mine) == []
    assert await service.db.retention.servers_left() == {}


async def test_an_erased_server_is_not_left_in_the_sqlite_file_or_its_log(
    tmp_path: Path, clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Right after a server's data is erased, neither the file's free pages nor its
    write-ahead log hold the server's id (`secure_delete`, and a checkpoint that empties the
    log), as after a person's erasure."""
    connect = sqlite3.connect

    def insecure(*args: Any, **kwargs: Any) -> sqlite3.Connection:
        connection = connect(*args, **kwargs)  # as SQLite itself builds
        connection.execute("PRAGMA secure_delete=OFF")
        return connection

    monkeypatch.setattr(sqlite3, "connect", insecure)
    path = tmp_path / "ohhell.sqlite3"
    database = await Database.open(f"sqlite:///{path}", clock)
    away = AWAY.to_bytes(8, "big")

    def traces() -> dict[str, int]:
        files = (path, path.with_name(path.name + "-wal"))
        return {f.name: f.read_bytes().count(away) if f.exists() else 0 for f in files}

    try:
        settings = BotSettings.model_construct(retain_after_leave=7)
        service = service_on(database, clock=clock, rng=random.Random(3), settings=settings)
        await scene(service)
        assert traces()[path.name + "-wal"] > 0  # the scan finds the server
        await service.retention.server_left(AWAY)
        clock.now += 8 * DAY
        assert await service.retention.sweep() == [AWAY]
        assert traces() == {path.name: 0, path.name + "-wal": 0}
    finally:
        await database.close()
