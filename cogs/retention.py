"""Nothing kept longer than needed, as the bot runs: at start-up the servers it is in are
compared with those it has data for (one removed while the bot was stopped is marked as left
now, one added back is unmarked), and every `SWEEP_EVERY` the servers it left
`RETAIN_AFTER_LEAVE` days ago are erased (bot/service/retention.py)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Collection

from bot.clock import Clock
from bot.service import TableService

log = logging.getLogger(__name__)

SWEEP_EVERY = 3600.0
"""Seconds between looks for servers to erase (a look is one query on a table of a few rows)."""


class RetentionSweep:
    def __init__(
        self,
        service: TableService,
        clock: Clock,
        *,
        server_gone: Callable[[int], Awaitable[None]],
    ) -> None:
        self.service = service
        self.clock = clock
        self.server_gone = server_gone
        """Called for a server found gone at start-up: its open tables are closed."""
        self._task: asyncio.Task[None] | None = None
        self._stopped = False

    async def start(self, present: Collection[int], covers: Callable[[int], bool]) -> None:
        """After a start: the servers the bot is in (`present`, of those `covers` says this
        process is told about) compared with the stored ones; then the sweeps begin."""
        if self._stopped:
            return
        try:
            for guild_id in await self.service.retention.servers_present(present, covers):
                log.info("server %s: the bot left it while stopped; its data goes later", guild_id)
                await self.server_gone(guild_id)
        except Exception:
            log.exception("the servers the bot is in could not be compared with the stored ones")
        if self._task is None and not self._stopped:  # not stopped meanwhile
            self._task = asyncio.get_running_loop().create_task(self._sweep_forever())

    async def stop(self) -> None:
        """Stop the sweeps for good: a `start` after this (or under way) starts none."""
        self._stopped = True
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)

    async def _sweep_forever(self) -> None:
        while True:
            try:
                for guild_id in await self.service.retention.sweep():
                    log.info("server %s: its data is erased (the bot left it)", guild_id)
            except Exception:
                log.exception("could not erase the data of servers the bot left")
            due = self.clock.now() + SWEEP_EVERY
            while self.clock.now() < due:  # the clock may wake its sleepers sooner
                await self.clock.wait(asyncio.Event(), due - self.clock.now())
