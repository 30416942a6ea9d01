"""The ground the presenter stands on: what this process holds for each open table
(cogs/shown.py), its background tasks, the hold that keeps one message's writes in order across
processes, the paced calls that edit and send messages, and the table message itself."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine
from typing import Any

import discord
from discord.ext import commands
from discord.http import handle_message_parameters

from bot.clock import Clock, SystemClock
from bot.config import DEFAULTS
from bot.service import Outcome, TableService, TableView, UnreadableClosed
from cogs import render
from cogs.pacing import Pacer
from cogs.refresh import Refresher
from cogs.shown import Shown

log = logging.getLogger(__name__)


UNKNOWN_CHANNEL = 10003
"""Discord's error code for a channel that does not exist (deleted)."""


class Showing:
    """Per-table memory and the Discord calls every kind of message shares."""

    def __init__(
        self,
        bot: commands.Bot | commands.AutoShardedBot,
        service: TableService,
        *,
        edit_delay: float = DEFAULTS["table_edit_delay"].default,
        clock: Clock | None = None,
        run_blocking: Callable[..., Awaitable[Any]] | None = None,
        rest_share: float = 1.0,
    ) -> None:
        self.bot = bot
        self.service = service
        self.run_blocking = run_blocking or asyncio.to_thread
        """Runs a picklable function outside the event loop (the worker processes)."""
        self.clock: Clock = clock or SystemClock()
        self.edit_delay = edit_delay
        self._shown: dict[int, Shown] = {}
        """By open table: what this process holds for it (cogs/shown.py); dropped when the
        table closes."""
        self._tasks: set[asyncio.Task[Any]] = set()
        self.refreshes = Refresher(self._spawn)
        shared = service.take_rest_calls if service.shared_database else None
        self.pacer = Pacer(share=rest_share, budget=shared)

    # What is held for each open table

    def _state(self, table_id: int) -> Shown:
        shown = self._shown.get(table_id)
        if shown is None:
            shown = self._shown[table_id] = Shown()
        return shown

    def remember(self, outcome: Outcome) -> None:
        """Keep an outcome's views for the messages still to render. A closed table's are kept
        only while its last outcome is published (see `forget`)."""
        table = outcome.table
        if table.status.is_open:
            self._state(table.table_id).remember(outcome)
        elif table.table_id in self._shown:
            self._shown[table.table_id].remember(outcome)

    def remember_side(self, outcome: Outcome | None) -> None:
        """A message id stored (not an action): its views are the newest, for an open table."""
        if outcome is not None and outcome.table.table_id in self._shown:
            self.remember(outcome)

    def forget(self, table_id: int) -> None:
        """A closed table: drop what is held for it (a message rendered later loads it)."""
        shown = self._shown.pop(table_id, None)
        if shown is not None and shown.ping is not None:
            self._spawn(self._delete(shown.ping))

    @contextlib.asynccontextmanager
    async def writing(
        self, table_id: int, version: int, user_id: int | None = None
    ) -> AsyncIterator[Outcome | None]:
        """Hold one message for one write (an edit, or a click's answer): the table message,
        or with `user_id` that person's hand message. When other bot processes share the
        database and one moved the table past `version`, this yields the newest stored state,
        which the write shows instead: a message never goes back to an older state than one
        another process showed. One process alone: None at once."""
        if not self.service.shared_database:
            yield None  # one process: it knows every version, and nothing to hold
            return
        async with self.service.showing(table_id, user_id) as newest:
            if newest is None or newest <= version:
                yield None
                return
            outcome = await self.service.newest(table_id)
            self.remember(outcome)
            yield outcome

    @contextlib.asynccontextmanager
    async def holding(self, table_id: int, user_id: int | None = None) -> AsyncIterator[None]:
        """Hold one message (as `writing`) for a write that shows no state of the table (an
        old hand's DM closed): other processes' writes to it wait. One process: nothing."""
        if not self.service.shared_database:
            yield
            return
        async with self.service.showing(table_id, user_id):
            yield

    # Background work

    def _spawn(self, coroutine: Coroutine[Any, Any, Any]) -> asyncio.Task[Any]:
        task = asyncio.get_running_loop().create_task(coroutine)
        self._tasks.add(task)
        task.add_done_callback(self._finished)
        return task

    def _finished(self, task: asyncio.Task[Any]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("background task failed", exc_info=task.exception())

    async def _cancel_tasks(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        for task in list(self._tasks):
            with contextlib.suppress(BaseException):
                await task

    async def idle(self) -> None:
        """Wait until no background work is left (for tests and the demo)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    # The calls

    async def _edit(self, channel_id: int, message_id: int, rendered: render.Rendered) -> None:
        """Edit a message, without reading back the message Discord returns: discord.py would
        build a `Message` from it, a third of an edit's CPU, for a value nobody uses."""
        with handle_message_parameters(
            **rendered.kwargs(), previous_allowed_mentions=self.bot.allowed_mentions
        ) as params:
            await self.bot.http.edit_message(channel_id, message_id, params=params)

    async def _send_channel(
        self,
        channel_id: int,
        text: str | None,
        rendered: render.Rendered | None = None,
        *,
        mention: tuple[int, ...] = (),
    ) -> discord.Message | None:
        channel = self.bot.get_partial_messageable(channel_id)
        try:
            await self.pacer.wait()
            if rendered is not None:
                return await channel.send(**rendered.send_kwargs())
            return await channel.send(
                text or "",
                allowed_mentions=discord.AllowedMentions(
                    everyone=False, roles=False, users=[discord.Object(u) for u in mention]
                ),
            )
        except discord.HTTPException as error:
            log.warning("channel %s: could not send: %s", channel_id, error)
            return None

    async def _delete(self, message: discord.PartialMessage) -> None:
        with contextlib.suppress(discord.HTTPException):
            await self.pacer.wait(urgent=False)
            await message.delete()

    # The table message

    def schedule_table_edit(self, table_id: int) -> None:
        """Bring the table message up to date after `edit_delay`, coalesced (cogs/refresh.py)."""
        self.refreshes.request(
            ("table", table_id),
            lambda: self._edit_table(table_id),
            self.edit_delay,
            # Render after the pacer lets the edit go: under load the wait is longer and the
            # edit carries every change made meanwhile.
            before=lambda: self.pacer.wait(urgent=False),
        )

    async def _edit_table(self, table_id: int) -> None:
        shown = self._shown.get(table_id)
        table = shown.view if shown and shown.view else await self.service.table_view(table_id)
        message_id = table.message_id
        if message_id is None:
            if table.status.is_open:
                # Stored, but never shown: the answer that would have posted it came too late
                # for Discord, or the bot stopped between the two.
                await self.post_table(table)
            return
        try:
            async with self.writing(table_id, table.version) as moved:
                if moved is not None:
                    # Another process moved the table on, and may have posted its message
                    # anew (the old one deleted): edit the one stored now.
                    table = moved.table
                    message_id = table.message_id or message_id
                await self._edit(table.channel_id, message_id, render.table_message(table))
        except discord.NotFound as error:
            if error.code == UNKNOWN_CHANNEL:
                # Deleted while the bot was not listening (stopped, or the event was lost).
                self._channel_missing(table)
            elif table.status.is_open:
                await self.post_table(table)
        except discord.Forbidden as error:
            log.warning("table %s: may not edit the table message: %s", table_id, error)

    def _channel_missing(self, table: TableView) -> None:
        """A call found the table's channel deleted. The presenter closes the table."""

    async def show_unreadable_closed(self, closed: UnreadableClosed) -> None:
        """The table message of a table cancelled because it could not be read: its text says
        so, and its buttons go."""
        self.forget(closed.table_id)
        if closed.message_id is None:
            return
        rendered = render.Rendered(render.UNREADABLE_TABLE_CLOSED, None, None)
        try:
            await self.pacer.wait()
            await self._edit(closed.channel_id, closed.message_id, rendered)
        except discord.HTTPException as error:
            log.warning("table %s: could not edit the table message: %s", closed.table_id, error)

    async def post_table(self, table: TableView) -> None:
        """Post the table message anew: a new table (a rematch, or one whose answer could not
        post it), or one whose message was deleted."""
        sent = await self._send_channel(table.channel_id, None, render.table_message(table))
        if sent is not None:
            self.remember_side(await self.service.set_message(table.table_id, sent.id))
