"""Coalesced refreshes of one message: at most one render of a message in flight, and requests
that come meanwhile merge into one more run after it. Each run renders the latest stored
state, so under Discord's rate limits edits merge by themselves instead of queueing up."""

from __future__ import annotations

import asyncio
import logging
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
        """Bring the message `key` up to date: `render_now` after `delay` (and after `before`,
        each run), or once more after the run in flight if there is one."""
        if key in self._refreshing:
            self._stale.add(key)
            return
        self._refreshing.add(key)
        self._spawn(self._run(key, render_now, delay, before))

    async def _run(
        self,
        key: MessageKey,
        render_now: Callable[[], Awaitable[None]],
        delay: float,
        before: Callable[[], Awaitable[None]] | None,
    ) -> None:
        try:
            if delay:
                await asyncio.sleep(delay)
            failures = 0
            while True:
                if before is not None:
                    await before()
                self._stale.discard(key)
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
