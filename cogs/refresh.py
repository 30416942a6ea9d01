"""Coalesced refreshes of one message: at most one render of a message in flight, and requests
that come meanwhile merge into one more run after it. Each run renders the latest stored
state, so under Discord's rate limits edits merge by themselves instead of queueing up.

A request asks for the message within its `delay`: the run waits until the soonest time any
request not rendered yet asked for, so a request that cannot wait brings forward one that
gathers changes over a longer time (cogs/table_messages.py)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any

import aiohttp
import discord

log = logging.getLogger(__name__)

TRANSIENT = (discord.HTTPException, aiohttp.ClientError, OSError, asyncio.TimeoutError)
"""Failures a later attempt may get past (a 5xx, a dropped connection, a timeout)."""
MAX_REFRESH_RETRIES = 6

MessageKey = tuple[Any, ...]
"""("table", table id) or ("hand", table id, user id)."""


def worth_retrying(error: BaseException) -> bool:
    """Whether the same call may succeed later: a 429 or a 5xx from Discord, or no answer at
    all (a dropped connection, a timeout). Any other 4xx will fail the same way again."""
    if isinstance(error, discord.HTTPException):
        return error.status == 429 or error.status >= 500
    return isinstance(error, TRANSIENT)


class Refresher:
    """Runs the refreshes of every message of this process, one at a time per message."""

    def __init__(self, spawn: Callable[[Coroutine[Any, Any, Any]], object]) -> None:
        self._spawn = spawn
        self._refreshing: set[MessageKey] = set()
        self._stale: set[MessageKey] = set()
        self._in_flight: dict[MessageKey, asyncio.Event] = {}
        """By message: set once the render under way has landed (or failed)."""
        self._due: dict[MessageKey, float] = {}
        """By message: the soonest time a request not rendered yet asked for its run."""
        self._sooner: dict[MessageKey, asyncio.Event] = {}
        """By message: set when a request brings its run's time forward."""

    def in_flight(self, key: MessageKey) -> asyncio.Event | None:
        """The render of this message under way, if any: its event is set once it lands."""
        return self._in_flight.get(key)

    def running(self, key: MessageKey) -> bool:
        """Whether a refresh of this message is running or waiting to run."""
        return key in self._refreshing

    def tables(self) -> set[int]:
        """The tables a refresh is running or waiting for (tests check it empties)."""
        return {key[1] for key in self._refreshing | self._stale | set(self._in_flight)}

    def request(
        self,
        key: MessageKey,
        render_now: Callable[[], Awaitable[None]],
        delay: float = 0.0,
        before: Callable[[], Awaitable[None]] | None = None,
    ) -> None:
        """Bring the message `key` up to date: `render_now` within `delay` (and after `before`,
        each run), or once more after the run in flight if there is one."""
        if key in self._refreshing:
            self._stale.add(key)
            self._ask(key, delay)
            return
        self._refreshing.add(key)
        self._ask(key, delay)
        self._spawn(self._run(key, render_now, before))

    def hurry(self, key: MessageKey, delay: float) -> None:
        """A run of `key` still to come goes within `delay` from now, if that is sooner than
        asked (nothing when none is to come)."""
        if key in self._due:
            self._ask(key, delay)

    def _ask(self, key: MessageKey, delay: float) -> None:
        due = asyncio.get_running_loop().time() + delay
        if due < self._due.get(key, math.inf):
            self._due[key] = due
            sooner = self._sooner.get(key)
            if sooner is not None:
                sooner.set()

    async def _until_due(self, key: MessageKey) -> None:
        """Wait until the soonest time asked for the next run of `key` (none asked: go now)."""
        loop = asyncio.get_running_loop()
        while (left := self._due.get(key, 0.0) - loop.time()) > 0:
            sooner = self._sooner.setdefault(key, asyncio.Event())
            sooner.clear()
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(left):
                    await sooner.wait()

    async def _run(
        self,
        key: MessageKey,
        render_now: Callable[[], Awaitable[None]],
        before: Callable[[], Awaitable[None]] | None,
    ) -> None:
        try:
            failures = 0
            while True:
                await self._until_due(key)
                if before is not None:
                    await before()
                self._stale.discard(key)
                self._due.pop(key, None)
                landed = self._in_flight[key] = asyncio.Event()
                try:
                    await render_now()
                except discord.Forbidden as error:
                    log.warning("%s: not allowed: %s", key, error)
                    return
                except TRANSIENT as error:
                    if not worth_retrying(error):
                        log.error("%s: Discord refused the edit: %s", key, error)
                        return
                    # Dropping a failed edit would leave the message stale for good (a turn
                    # nobody is shown): try again, later and later.
                    failures += 1
                    if failures > MAX_REFRESH_RETRIES:
                        log.error("%s: giving up after %d failures: %s", key, failures, error)
                        return
                    log.warning("%s: refresh failed (%s); retrying", key, error)
                    self._stale.add(key)
                    await asyncio.sleep(min(30.0, 0.5 * 2**failures))
                    continue
                finally:
                    landed.set()
                if key not in self._stale:
                    return
        finally:
            # A run that gave up (refused, or failed for good) drops requests that came
            # meanwhile too: they would meet the same answer.
            self._refreshing.discard(key)
            self._stale.discard(key)
            self._in_flight.pop(key, None)
            self._due.pop(key, None)
            self._sooner.pop(key, None)
