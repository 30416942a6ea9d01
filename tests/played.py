"""A database made by playing through the service, for the copy and backup tests: finished
games of every preset with a computer seat, one a person left, channel defaults, a lobby, and
a game in play whose third person left it."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path
from typing import Any

from bot.engine import PRESETS
from bot.service import TableService
from bot.storage import Database, TableStatus
from tests.service.test_service import (
    ANN,
    BOB,
    CAT,
    GUILD,
    choose,
    open_lobby,
    play_a_game,
    run_automatic,
)
from tests.services import service_on

LOBBY_CHANNEL = 11


async def play_everything(url: str) -> int:
    """Fill the (new) database at `url`; the id of the game left in play."""
    database = await Database.open(url)
    try:
        service = service_on(database)
        for number, preset in enumerate(PRESETS):
            await play_a_game(service, channel=20 + number, preset=preset, max_cards=2)
        await play_a_game(service, channel=40, ann_leaves_after=1, preset="classic", max_cards=3)
        await service.lobby.set_channel_defaults(
            guild_id=GUILD,
            channel_id=20,
            user_id=ANN,
            settings={"preset": "oh-hell", "max_cards": 4},
            turn_timer=60,
            can_manage=True,
        )
        table_id = await open_lobby(service, preset="oh-hell", max_cards=3)
        await service.lobby.join(table_id, BOB, "Bob")
        await service.lobby.join(table_id, CAT, "Cat")
        await service.lobby.add_computer(table_id, ANN, "normal")
        await service.lobby.start_game(table_id, ANN)
        for _ in range(3):
            await take_a_turn(service, table_id)
        await service.lobby.leave(table_id, CAT)
        await take_a_turn(service, table_id)
        lobby = await service.lobby.open_table(
            guild_id=GUILD, channel_id=LOBBY_CHANNEL, user_id=BOB, name="Bob", settings={}
        )
        assert lobby.table.status is TableStatus.LOBBY
        return table_id
    finally:
        await database.close()


async def take_a_turn(service: TableService, table_id: int) -> None:
    """The computers' moves, then the move of the person whose turn it is (the first allowed)."""
    await run_automatic(service, table_id)
    if (await service.lookups.table_view(table_id)).status is not TableStatus.PLAYING:
        return
    for user in (ANN, BOB, CAT):
        state = await service.lookups.hand_state(table_id, user)
        if state.my_turn:
            await service.playing.act(table_id, user, state.hand_number, choose(state))
            return


async def play_on(url: str, table_id: int) -> None:
    """Open the database at `url` and play the game at `table_id` to its end."""
    database = await Database.open(url)
    try:
        service = service_on(database)
        for _ in range(500):
            if (await service.lookups.table_view(table_id)).status is TableStatus.FINISHED:
                break
            await take_a_turn(service, table_id)
        assert (await service.lookups.table_view(table_id)).status is TableStatus.FINISHED
        assert set(await database.results.rating_changes(table_id)) >= {ANN, BOB, CAT}
    finally:
        await database.close()


def every_row(path: Path) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table of a SQLite file, each table's sorted, and its schema version."""
    with closing(sqlite3.connect(path)) as db:
        names = [
            row[0]
            for row in db.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
            )
        ]
        rows = {name: _sorted_rows(db, name) for name in names}
        rows["user_version"] = [tuple(db.execute("PRAGMA user_version").fetchone())]
    return rows


def _sorted_rows(db: sqlite3.Connection, table: str) -> list[tuple[Any, ...]]:
    width = len(db.execute(f'SELECT * FROM "{table}" LIMIT 0').description)
    order = ", ".join(str(column) for column in range(1, width + 1))
    return [tuple(row) for row in db.execute(f'SELECT * FROM "{table}" ORDER BY {order}')]
