"""cogs/refresh.py: coalesced refreshes of one message, and what a failed one leaves."""

from __future__ import annotations

import asyncio
from typing import Any

import discord
import pytest

from cogs.refresh import Refresher


class _Response:
    """What discord.HTTPException reads of an aiohttp response."""

    def __init__(self, status: int) -> None:
        self.status = status
        self.reason = "refused"


def refused(status: int) -> discord.HTTPException:
    response: Any = _Response(status)
    if status == 403:
        return discord.Forbidden(response, "Missing Access")
    return discord.HTTPException(response, "Invalid Form Body")


@pytest.mark.parametrize("status", [403, 400])
async def test_a_refresh_refused_for_good_leaves_nothing_behind(status: int) -> None:
    """A request that comes while a refresh is running is merged into one more run; when the
    running one is refused (403, or another 4xx), the merged request would be refused too, and
    nothing of the message is kept."""
    tasks: set[asyncio.Task[Any]] = set()
    refresher = Refresher(lambda c: tasks.add(asyncio.get_running_loop().create_task(c)))
    started = asyncio.Event()
    go_on = asyncio.Event()
    runs = 0

    async def render() -> None:
        nonlocal runs
        runs += 1
        started.set()
        await go_on.wait()
        raise refused(status)

    key = ("hand", 1, 1)
    refresher.request(key, render)
    await started.wait()
    refresher.request(key, render)  # meanwhile: merged into one more run
    assert refresher.running(key)
    go_on.set()
    await asyncio.gather(*tasks)
    assert runs == 1
    assert not refresher.running(key)
    assert refresher.tables() == set()


async def test_a_request_that_cannot_wait_brings_a_gathering_run_forward() -> None:
    """A run gathering changes over a long delay goes as soon as a request asks for less (or
    `hurry` it)."""
    tasks: set[asyncio.Task[Any]] = set()
    refresher = Refresher(lambda c: tasks.add(asyncio.get_running_loop().create_task(c)))
    loop = asyncio.get_running_loop()
    runs: list[float] = []
    started = loop.time()

    async def render() -> None:
        runs.append(loop.time() - started)

    key = ("table", 1)
    refresher.request(key, render, 30.0)
    await asyncio.sleep(0.05)
    assert runs == []
    refresher.request(key, render, 0.05)  # brought forward: one run, within 0.05 s of this
    await asyncio.wait_for(asyncio.gather(*tasks), 1)
    assert len(runs) == 1 and runs[0] < 0.5

    tasks.clear()
    refresher.request(key, render, 30.0)
    await asyncio.sleep(0.05)
    refresher.hurry(key, 0.0)
    refresher.hurry(("table", 2), 0.0)  # nothing to bring forward: nothing happens
    await asyncio.wait_for(asyncio.gather(*tasks), 1)
    assert len(runs) == 2
    assert refresher.tables() == set()
