"""What moves a game on between clicks: the automatic moves (computers, forced cards) and the
one scheduler for every table's deadlines, which are stored in the database."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Coroutine
from typing import Any

from bot.clock import Clock
from bot.service import CorruptRow, Outcome, Refused, TableService

log = logging.getLogger(__name__)

POSTPONE_FAILED = 60.0
"""Seconds a deadline that could not be handled waits before it is tried again."""
STEP_RETRY = 0.5
STEP_RETRIES = 6
"""An automatic move that failed unexpectedly is tried again after 0.5 s, doubled each time,
at most this many times (about 30 s in all)."""
SCHEDULER_RETRY = 1.0
SCHEDULER_RETRY_MAX = 60.0
"""Seconds the scheduler waits after the database failed it: doubled at each failure in a
row, up to the most."""


class AutomaticMoves:
    """Steps tables until people must act, and runs the deadline scheduler; every outcome goes
    to `publish`."""

    def __init__(
        self,
        service: TableService,
        clock: Clock,
        *,
        publish: Callable[[Outcome], Coroutine[Any, Any, None]],
        spawn: Callable[[Coroutine[Any, Any, Any]], asyncio.Task[Any]],
        computer_delay: float,
        deadline_poll: float | None,
    ) -> None:
        self.service = service
        self.clock = clock
        self._publish = publish
        self._spawn = spawn
        self.computer_delay = computer_delay
        self.deadline_poll = deadline_poll
        """Seconds between looks for deadlines set elsewhere: only when other processes share
        the database (one process alone is told of every change)."""
        self._steppers: dict[int, asyncio.Task[None]] = {}
        self._again: set[int] = set()
        """Tables whose stepper must look again before it stops: asked to move on while it
        was publishing an outcome older than the change that asked."""
        self._scheduler: asyncio.Task[None] | None = None

    def tables(self) -> set[int]:
        """The tables a stepper runs for (tests check it empties)."""
        return set(self._steppers)

    def move_on(self, table_id: int) -> None:
        """Make automatic moves (computers, forced cards) until people must act."""
        running = self._steppers.get(table_id)
        if running is not None and not running.done():
            self._again.add(table_id)
            return
        task = self._spawn(self._step_until_people(table_id))
        self._steppers[table_id] = task
        task.add_done_callback(
            lambda done: (
                self._steppers.pop(table_id, None) if self._steppers.get(table_id) is done else None
            )
        )

    async def _step_until_people(self, table_id: int) -> None:
        try:
            await self._steps(table_id)
        finally:
            self._again.discard(table_id)

    async def _steps(self, table_id: int) -> None:
        failures = 0
        while True:
            # A change stored from here on asks again (`move_on`): this loop looks once more.
            self._again.discard(table_id)
            try:
                outcome = await self.service.playing.step(table_id)
            except (Refused, CorruptRow) as error:
                # The code alone: an illegal move's explanation names the seat's cards.
                why = error.code if isinstance(error, Refused) else "unreadable"
                log.warning("table %s: automatic move refused: %s", table_id, why)
                return
            except Exception:
                # A database that failed for a moment, or a computer players' worker that
                # died: computers have no deadline, so without another try the table would
                # wait for them until a restart. A step is one unit of work: trying it again
                # makes at most the one move that is due.
                failures += 1
                if failures > STEP_RETRIES:
                    log.exception("table %s: automatic moves gave up", table_id)
                    return
                log.exception("table %s: an automatic move failed; trying again", table_id)
                await asyncio.sleep(STEP_RETRY * 2 ** (failures - 1))
                continue
            failures = 0
            if outcome is not None:
                await self._publish(outcome)
                if outcome.automatic:
                    if self.computer_delay:
                        await asyncio.sleep(self.computer_delay)
                    continue
            if table_id not in self._again:
                return  # people must act now: no need to ask the service again

    @property
    def scheduling(self) -> bool:
        """Whether the deadline scheduler runs (after start-up has loaded the open tables)."""
        return self._scheduler is not None and not self._scheduler.done()

    def start_scheduler(self) -> None:
        if self._scheduler is None or self._scheduler.done():
            self._scheduler = asyncio.get_running_loop().create_task(self._run_scheduler())

    async def stop_scheduler(self) -> None:
        if self._scheduler is not None:
            self._scheduler.cancel()
            with contextlib.suppress(BaseException):
                await self._scheduler

    async def _run_scheduler(self) -> None:
        """One task for every table's deadlines: sleep until the earliest one stored in the
        database (or until a change may have moved it), handle it, look again. A failure of
        the database (a dropped connection, a locked file) is logged and looked at again
        later: the scheduler must outlive it, or no deadline would fire until a restart."""
        failures = 0
        while True:
            try:
                await self._look_once()
                failures = 0
            except Exception:
                failures += 1
                pause = min(SCHEDULER_RETRY_MAX, SCHEDULER_RETRY * 2 ** (failures - 1))
                log.exception("the deadline scheduler failed; it looks again in %.0f s", pause)
                await self.clock.wait(asyncio.Event(), pause)

    async def _look_once(self) -> None:
        wake = self.service.deadlines.due_changed
        wake.clear()
        self.service.deadlines.watching = float("inf")
        due = await self.service.deadlines.next_due()
        if due is not None and due[1] <= self.clock.now():
            claimed = await self.service.deadlines.claim(*due)
            if claimed is None:
                return  # another bot process took it
            try:
                outcome = await self.service.deadlines.tick(due[0])
            except Exception:
                # One bad table must not hold up every other table's deadlines.
                log.exception("table %s: a deadline could not be handled", due[0])
                await self.service.deadlines.postpone(due[0], claimed, POSTPONE_FAILED)
                return
            if outcome is not None:
                self._spawn(self._publish(outcome))
                self.move_on(due[0])
            return
        self.service.deadlines.watching = float("inf") if due is None else due[1]
        timeout = None if due is None else due[1] - self.clock.now()
        if self.deadline_poll is not None:
            timeout = self.deadline_poll if timeout is None else min(timeout, self.deadline_poll)
        await self.clock.wait(wake, timeout)
