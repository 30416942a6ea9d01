"""A restart after many games closed in the last minutes: their messages are brought up to date
one at a time with the allowance live games leave over, and a table with no message to edit
waits for no call, so the live game's own edits never queue behind them."""

from __future__ import annotations

import sqlite3
import time
from contextlib import closing
from typing import Any

import pytest

from cogs.pacing import Pacer
from standin.server import StandIn
from tests.end_to_end.conftest import BotFactory
from tools.simulated_people import hand_message, open_table

CLOSED = 60
"""Tables closed just before the restart; every other one has a message (one that is gone)."""


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
async def test_tables_closed_before_a_restart_wait_only_for_spare_calls(
    standin: StandIn, start_bot: BotFactory, database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    people = [standin.person(name) for name in ("Ann", "Bob", "Cat")]
    async with start_bot():
        table, table_id = await open_table(standin, people, preset="classic", max_cards=3)
        await people[0].click(table, f"oh:start:{table_id}")
        await standin.wait_for(lambda: all(hand_message(p) for p in people))
    close_copies_of(database_url.removeprefix("sqlite:///"), table_id)

    waits: list[tuple[int, bool]] = []
    wait = Pacer.wait

    async def counted(self: Pacer, *args: Any, **kwargs: Any) -> None:
        waits.append((self.waiting, kwargs.get("spare", False)))
        await wait(self, *args, **kwargs)

    monkeypatch.setattr(Pacer, "wait", counted)
    async with start_bot() as bot:
        await bot.presenter.ground.idle()
    # The live table's edit and its hand DMs (two calls each), at most, wait together.
    assert max(waiting for waiting, _ in waits) <= 1 + 2 * len(people), waits
    # Only the closed tables that have a message wait, each for a spare call.
    assert sum(spare for _, spare in waits) == CLOSED // 2


def close_copies_of(path: str, table_id: int) -> None:
    """`CLOSED` copies of the table, each in a channel of its own, closed a moment ago."""
    with closing(sqlite3.connect(path)) as db, db:
        columns = [row[1] for row in db.execute("PRAGMA table_info(tables)") if row[1] != "id"]
        for i in range(CLOSED):
            given = {
                "channel_id": 5000 + i,
                "message_id": None if i % 2 else 9_000_000 + i,
                "status": "cancelled",
                "updated_at": time.time(),
                "due_at": None,
            }
            picked = ", ".join("?" if column in given else column for column in columns)
            db.execute(
                f"INSERT INTO tables ({', '.join(columns)}) SELECT {picked} FROM tables"
                " WHERE id = ?",
                [given[column] for column in columns if column in given] + [table_id],
            )
