"""What the bot's processes share when several run on one PostgreSQL: holds on the messages
they write, the changes each stores, who is at the pages each serves, Discord's rate limit."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Callable

from bot.service.session import Session
from bot.storage import Pages, PagesTold, RestBudget, TableChange


class Sharing:
    """One process among several (docs/deploy.md)."""

    def __init__(self, session: Session, budget: RestBudget, pages: Pages) -> None:
        self.session = session
        self._budget = budget
        self._pages = pages

    @property
    def shared(self) -> bool:
        """Whether other bot processes share the database (PostgreSQL, and this process runs
        only some of the shards): then the Discord layer holds each message it writes
        (`showing`) and listens for the changes the others store (`watch_changes`)."""
        return self.session.shared_database

    @contextlib.asynccontextmanager
    async def showing(self, table_id: int, user_id: int | None = None) -> AsyncIterator[int | None]:
        """Hold one of the table's messages (the table message, or `user_id`'s hand message)
        while it is written, across the bot's processes, and give the newest stored version
        (None: one process alone, which knows every version). A writer holding an older
        version shows `newest` instead."""
        async with self.session.tables.showing(table_id, user_id) as version:
            yield version

    async def watch_changes(self, callback: Callable[[TableChange], None]) -> None:
        """Every change any process stores (PostgreSQL, when other processes share it: the
        presenter calls this only then): one that brings a deadline nearer wakes the
        scheduler, one that closed a table drops what this process holds of it (another
        process may have closed it: this one would not load it again), and each goes to
        `callback`."""
        session = self.session

        def changed(change: TableChange) -> None:
            session.due_moved(change.due_at)
            if change.closed:
                session.forget(change.table_id)
            callback(change)

        await session.tables.watch(changed)

    async def tell_pages(self, told: PagesTold) -> None:
        """Tell the other processes who arrived at, left, or is still at this one's pages."""
        await self._pages.tell(told)

    async def hear_pages(self, callback: Callable[[PagesTold], None]) -> None:
        """What every process tells of who is at its pages (this one's own too) goes to
        `callback` (PostgreSQL, when other processes share it)."""
        await self._pages.hear(callback)

    async def take_rest_calls(self, wanted: int, rate: float, burst: float) -> tuple[int, float]:
        """Up to `wanted` calls from Discord's global limit (`rate` a second, `burst` saved up
        at most), shared by the bot's processes (PostgreSQL): how many were taken, and seconds
        until the next one is there."""
        return await self._budget.take(wanted, rate=rate, burst=burst)
