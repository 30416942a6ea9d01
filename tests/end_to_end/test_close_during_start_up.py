"""A bot closed while its start-up work runs (a SIGTERM moments after it started): the close
cancels that work and waits for it, so nothing of the bot's touches the database once it is
closed, no error is logged and no task is left behind, whichever moment the close comes at."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from bot.app import build
from bot.config import BotSettings
from standin.server import StandIn
from standin.testing import run_bot
from tests.end_to_end.conftest import random_legal

MOMENTS = [
    "lookups.closed_since",  # the tables closed in the last minutes, to refresh
    "lookups.open_table_ids",  # the open tables, to resume
    "deadlines.allow_grace",  # their turn timers given their grace
    "retention.servers_present",  # the servers it is in compared with the stored ones
    "retention.sweep",  # the first retention sweep
    None,  # start-up done: the sweeps wait for their next turn
]


def gated(
    call: Callable[..., Awaitable[Any]], reached: asyncio.Event, gate: asyncio.Event
) -> Callable[..., Awaitable[Any]]:
    async def waiting(*args: Any, **kwargs: Any) -> Any:
        reached.set()
        await gate.wait()
        return await call(*args, **kwargs)

    return waiting


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
@pytest.mark.parametrize("moment", MOMENTS)
async def test_a_close_at_any_moment_of_start_up_logs_no_error_and_leaves_no_task(
    standin: StandIn,
    database_url: str,
    moment: str | None,
    caplog: pytest.LogCaptureFixture,
) -> None:
    settings = BotSettings(
        discord_token="test", database_url=database_url, _env_file=None, table_edit_delay=0.02
    )
    bot, database, _ = await build(settings, decide=random_legal, workers=0)
    service = bot.presenter.service
    reached, gate = asyncio.Event(), asyncio.Event()
    if moment is None:
        reached.set()
    else:
        job_name, method = moment.split(".")
        job = getattr(service, job_name)
        setattr(job, method, gated(getattr(job, method), reached, gate))
    before = asyncio.all_tasks()
    closed: list[bool] = []
    try:
        async with run_bot(standin, bot):
            await asyncio.wait_for(reached.wait(), 10)
            if moment is None:
                await standin.wait_for(lambda: bot.presenter.automatic.scheduling)
            await bot.close()
            closed.append(True)
            await database.close()  # as `bot.app.run` does once the bot is closed
            gate.set()  # what waited at the moment would go on now
            await asyncio.sleep(0.2)
    finally:
        gate.set()
        if not closed:
            await database.close()
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert errors == [], [r.getMessage() for r in errors]
    left = [
        task
        for task in asyncio.all_tasks() - before
        if task is not asyncio.current_task() and not task.done()
    ]
    assert left == [], left
