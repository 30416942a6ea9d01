"""Who is at the table's page: each person's open seat streams, by table. The Discord layer asks
it whether a person is at the page (their hand DM need not follow every card while they are)
and is told when the last of their pages closes (their DM catches up).

With several bot processes on one PostgreSQL, a person's stream may be open on one process
while another stores the moves that would edit their DM: each process tells the others
(`share`), at once when a person arrives at or leaves its pages and every `TELL_EVERY` seconds
who is still there. A person no process has told of for `FORGET_AFTER` seconds (that process
stopped, or a notice was lost) is no longer at its page; a process that starts later knows
everyone within `TELL_EVERY`."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections import Counter
from collections.abc import Callable
from typing import Literal

from bot.service import PagesTold
from bot.service.sharing import Sharing

log = logging.getLogger(__name__)

Seat = tuple[int, int]
"""(table, person)."""

TELL_EVERY = 20.0
"""Seconds between a process's tellings of who is still at its pages."""
FORGET_AFTER = 3 * TELL_EVERY
"""Seconds after which a person no process told of is no longer at another process's page."""


class Presence:
    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._open: Counter[Seat] = Counter()
        self._elsewhere: dict[Seat, dict[str, float]] = {}
        """By seat: the other processes at whose pages its person is, and when each said so."""
        self.on_left: list[Callable[[int, int], None]] = []
        """Told (table, person) when a person's last page of a table closes, on any process
        (at least once)."""
        self.process = secrets.token_hex(6)
        """The word naming this process to the others."""
        self._clock = clock
        self._sharing: Sharing | None = None
        self._untold: dict[Seat, bool] = {}
        """Arrivals (True) and leavings (False) not told to the other processes yet."""
        self._wake = asyncio.Event()
        self._telling: asyncio.Task[None] | None = None

    def arrive(self, table_id: int, user_id: int) -> None:
        """A page of `user_id`'s seat at `table_id` opened its stream."""
        seat = (table_id, user_id)
        self._open[seat] += 1
        if self._open[seat] == 1:
            self._tell(seat, arrived=True)

    def leave(self, table_id: int, user_id: int) -> None:
        """One of those pages closed its stream."""
        seat = (table_id, user_id)
        if self._open[seat] <= 1:
            self._open.pop(seat, None)
            self._tell(seat, arrived=False)
            self._left_if_gone(seat)
        else:
            self._open[seat] -= 1

    def at_page(self, table_id: int, user_id: int) -> bool:
        """Whether the person is at a page of their seat, on this process or another."""
        seat = (table_id, user_id)
        if self._open.get(seat, 0) > 0:
            return True
        told = self._elsewhere.get(seat)
        return told is not None and max(told.values()) > self._clock() - FORGET_AFTER

    def tables(self) -> set[int]:
        """The tables with a seat's page open on this process."""
        return {table_id for table_id, _ in self._open}

    # Several processes

    async def share(self, sharing: Sharing) -> None:
        """Tell the other processes sharing the database who is at this one's pages, and hear
        who is at theirs, until `stop`."""
        if self._telling is not None:
            return
        self._sharing = sharing
        await sharing.hear_pages(self.heard)
        self._untold.update(dict.fromkeys(self._open, True))
        self._wake.set()
        self._telling = asyncio.get_running_loop().create_task(self._keep_telling())

    async def stop(self) -> None:
        """Stop telling, once the others are told that nobody is at this one's pages."""
        telling, self._telling = self._telling, None
        if telling is None:
            return
        telling.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await telling
        self._untold.update(dict.fromkeys(self._open, False))
        await self._tell_untold()
        self._sharing = None

    def heard(self, told: PagesTold) -> None:
        """What a process told of who is at its pages (this one's own is known already)."""
        if told.process == self.process:
            return
        now = self._clock()
        for seat in told.seats:
            if told.told != "-":
                self._elsewhere.setdefault(seat, {})[told.process] = now
                continue
            processes = self._elsewhere.get(seat)
            if processes is not None and processes.pop(told.process, None) is not None:
                if not processes:
                    del self._elsewhere[seat]
                self._left_if_gone(seat)

    def forget_unheard(self) -> None:
        """Whoever no process told of for `FORGET_AFTER` seconds is no longer at its pages."""
        since = self._clock() - FORGET_AFTER
        for seat, processes in list(self._elsewhere.items()):
            for process, at in list(processes.items()):
                if at <= since:
                    del processes[process]
            if not processes:
                del self._elsewhere[seat]
                self._left_if_gone(seat)

    def _left_if_gone(self, seat: Seat) -> None:
        if not self.at_page(*seat):
            for told in self.on_left:
                told(*seat)

    def _tell(self, seat: Seat, *, arrived: bool) -> None:
        if self._sharing is not None:
            self._untold[seat] = arrived
            self._wake.set()

    async def _keep_telling(self) -> None:
        """One teller a process, so what it tells of a seat comes in the order it happened."""
        told_all = self._clock()
        while True:
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(max(0.0, told_all + TELL_EVERY - self._clock())):
                    await self._wake.wait()
            self._wake.clear()
            await self._tell_untold()
            if self._clock() >= told_all + TELL_EVERY:
                told_all = self._clock()
                await self._tell_pages("=", tuple(self._open))
                self.forget_unheard()

    async def _tell_untold(self) -> None:
        untold, self._untold = self._untold, {}
        await self._tell_pages("+", tuple(seat for seat, arrived in untold.items() if arrived))
        await self._tell_pages("-", tuple(seat for seat, arrived in untold.items() if not arrived))

    async def _tell_pages(self, told: Literal["+", "-", "="], seats: tuple[Seat, ...]) -> None:
        sharing = self._sharing
        if sharing is None or not seats:
            return
        try:
            await sharing.tell_pages(PagesTold(self.process, told, seats))
        except Exception as error:  # the database is away: the next telling of all puts it right
            log.warning("could not tell the other processes who is at the pages: %s", error)
