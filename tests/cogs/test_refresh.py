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
