"""Keep the bot's own REST calls under Discord's global rate limit instead of meeting 429s."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable

DISCORD_GLOBAL_LIMIT = 50
"""Requests a second per bot (interaction callbacks and interaction webhooks are exempt)."""


class Pacer:
    """A token bucket: `await pacer.wait()` before each call; at most `rate` calls a second on
    average, bursts up to `burst`. Discord answers calls over its limit with 429 and bans an IP
    that collects too many, so it is better to wait here."""

    def __init__(
        self,
        rate: float = DISCORD_GLOBAL_LIMIT * 0.9,
        burst: float = 10,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        self.rate = rate
        self.burst = burst
        self._clock = clock
        self._sleep = sleep
        self._tokens = burst
        self._last = clock()
        self._lock = asyncio.Lock()

    async def wait(self) -> None:
        async with self._lock:
            while True:
                now = self._clock()
                self._tokens = min(self.burst, self._tokens + (now - self._last) * self.rate)
                self._last = now
                # A hair under one token counts as one: otherwise the sleep for the remainder can
                # be too small to move a float clock, and the loop would never end.
                if self._tokens >= 1 - 1e-9:
                    self._tokens = max(0.0, self._tokens - 1)
                    return
                await self._sleep((1 - self._tokens) / self.rate)
