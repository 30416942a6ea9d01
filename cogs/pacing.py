"""Keep the bot's own REST calls under Discord's global rate limit instead of meeting 429s."""

from __future__ import annotations

import asyncio
import heapq
import itertools
import logging
import math
import time
from collections.abc import Awaitable, Callable

log = logging.getLogger(__name__)

DISCORD_GLOBAL_LIMIT = 50
"""Requests a second per bot (interaction callbacks and interaction webhooks are exempt)."""


class Pacer:
    """A token bucket: `await pacer.wait()` before each call; at most `rate` calls a second on
    average, bursts up to `burst`. Discord answers calls over its limit with 429 and bans an IP
    that collects too many, so it is better to wait here.

    Several bot processes of one token share Discord's limit through one bucket in the
    database (`budget(n, rate, burst)`: takes up to n calls, answers how many it got and how
    long until the next): a process takes a couple of calls at a time as it needs them, so
    the one with the most to do (shard 0's, where every DM arrives) is not held to a fixed
    part. Should the database not answer, a process keeps to its `share` of the limit
    (`rest_share`) meanwhile.

    When calls queue up, they go in order of when they are due: an urgent call (someone's turn
    waits on it) is due at once, one that can wait (`urgent=False`, e.g. a table message that
    merges later changes into one edit) `patience` seconds after it asked, so under load the
    turns keep moving and the edits that can wait merge instead of queueing. A call that only
    tidies up (`spare=True`: the messages of tables closed before a restart) goes only when no
    other call waits, however long: it takes the allowance live games leave over."""

    def __init__(
        self,
        rate: float = DISCORD_GLOBAL_LIMIT * 0.8,
        # Discord counts calls per second: a burst plus a second's rate must stay under the
        # limit, or a busy bot meets global 429s, which stall every call (answers too). A call
        # let go at the end of one second can reach Discord in the next (the event loop and the
        # network add jitter): 40 + 2 leaves eight calls of margin (at 45 + 4 `make bench-bot`
        # met a dozen 429s in 13,000 calls, at 42 + 3 a few on a quiet machine).
        burst: float = 2,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
        patience: float = 2.0,
        share: float = 1.0,
        budget: Callable[[int, float, float], Awaitable[tuple[int, float]]] | None = None,
    ) -> None:
        self.rate = rate
        self.burst = burst
        self.share = share
        self._budget = budget
        self.patience = patience
        self._clock = clock
        self._sleep = sleep
        self._tokens = 0.0 if budget is not None else burst
        self._last = clock()
        self._queue: list[tuple[float, int, int, asyncio.Future[None]]] = []
        """(due, order, calls, future): the waiters, soonest due first."""
        self._order = itertools.count()
        self._granting: asyncio.Task[None] | None = None

    @property
    def shared(self) -> bool:
        """Whether the calls come from the bucket the bot's processes share."""
        return self._budget is not None

    @property
    def waiting(self) -> int:
        """Calls waiting for their turn (metrics)."""
        return sum(calls for _, _, calls, future in self._queue if not future.done())

    def level(self) -> float:
        """Calls this process may make at once now, changing nothing (metrics)."""
        if self._budget is not None:
            return self._tokens
        elapsed = self._clock() - self._last
        return min(self.burst, self._tokens + elapsed * self.rate * self.share)

    def _refill(self) -> None:
        if self._budget is not None:
            return  # tokens come from the shared bucket (`_grant`)
        now = self._clock()
        self._tokens = min(self.burst, self._tokens + (now - self._last) * self.rate * self.share)
        self._last = now

    def _take(self, calls: int = 1) -> bool:
        # A hair under a token counts as one: otherwise the sleep for the remainder can be
        # too small to move a float clock, and the wait would never end.
        if self._tokens >= calls - 1e-9:
            self._tokens = max(0.0, self._tokens - calls)
            return True
        return False

    async def wait(self, urgent: bool = True, calls: int = 1, *, spare: bool = False) -> None:
        """Wait until `calls` calls may go, made one straight after the other. Calls made
        together are waited for together: two waits in a row would each queue behind every
        call asked for meanwhile, and the pairs, let go one token apart, would then reach
        Discord at twice the rate. `spare`: after every other call, whenever asked."""
        if not 1 <= calls <= self.burst:
            raise ValueError(f"{calls} calls at once, but bursts are at most {self.burst}")
        self._refill()
        if not self._queue and self._take(calls):
            return
        loop = asyncio.get_running_loop()
        future: asyncio.Future[None] = loop.create_future()
        due = math.inf if spare else self._clock() + (0.0 if urgent else self.patience)
        heapq.heappush(self._queue, (due, next(self._order), calls, future))
        if self._granting is None or self._granting.done():
            self._granting = loop.create_task(self._grant())
        await future

    async def _grant(self) -> None:
        while self._queue:
            self._refill()
            _, _, calls, future = self._queue[0]
            if future.done():  # its caller was cancelled
                heapq.heappop(self._queue)
                continue
            if self._take(calls):
                heapq.heappop(self._queue)
                future.set_result(None)
                continue
            if self._budget is not None:
                await self._from_budget()
                continue
            await self._sleep((calls - self._tokens) / (self.rate * self.share))

    async def _from_budget(self) -> None:
        assert self._budget is not None
        try:
            granted, wait = await self._budget(max(1, int(self.burst)), self.rate, self.burst)
        except Exception as error:  # the database did not answer: this process's share
            log.warning(
                "the shared REST budget failed (%s): keeping to this process's share", error
            )
            await self._sleep(1 / (self.rate * self.share))
            self._tokens += 1
            return
        self._tokens += granted
        if not granted:
            await self._sleep(wait)


def rest_share(shard_count: int | None, shard_ids: tuple[int, ...] | None) -> float:
    """This process's part of the bot's global REST limit: the part of the shards it runs
    (all of them when it runs every shard, or when sharding is left to Discord)."""
    if shard_count is None or shard_ids is None:
        return 1.0
    return len(shard_ids) / shard_count
