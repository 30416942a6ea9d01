"""Wall-clock time for the bot's deadlines, and a manual clock for tests (no real waiting)."""

from __future__ import annotations

import asyncio
import contextlib
import time
from typing import Protocol

LONGEST_SLEEP = 300.0
"""Wake at least this often, so a wall-clock jump cannot leave a deadline unnoticed."""


class Clock(Protocol):
    def now(self) -> float:
        """Seconds since the epoch (what Discord's <t:…:R> timestamps take)."""
        ...

    async def wait(self, wake: asyncio.Event, seconds: float | None) -> None:
        """Return after `seconds` (None: no limit) or as soon as `wake` is set."""
        ...


class SystemClock:
    def now(self) -> float:
        return time.time()

    async def wait(self, wake: asyncio.Event, seconds: float | None) -> None:
        limit = LONGEST_SLEEP if seconds is None else min(max(seconds, 0.0), LONGEST_SLEEP)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(wake.wait(), limit)


class ManualClock:
    """Moves only when told to; `advance` wakes whoever waits, who then looks at the time."""

    def __init__(self, start: float | None = None) -> None:
        self._now = time.time() if start is None else start
        self._waiting: set[asyncio.Event] = set()

    def now(self) -> float:
        return self._now

    def advance(self, seconds: float) -> None:
        self._now += seconds
        for event in self._waiting:
            event.set()

    async def wait(self, wake: asyncio.Event, seconds: float | None) -> None:
        if seconds is not None and seconds <= 0:
            return
        self._waiting.add(wake)
        try:
            await wake.wait()
        finally:
            self._waiting.discard(wake)
