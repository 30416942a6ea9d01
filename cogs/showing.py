"""The ground every kind of message stands on: what this process holds for each open table
(cogs/shown.py), its background tasks, the hold that keeps one message's writes in order across
processes, and the paced calls that edit and send messages."""

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
from bot.service import Outcome, TableService, TableStatus, TableView
from cogs import render
from cogs.pacing import Pacer
from cogs.refresh import Refresher
from cogs.shown import Shown
from cogs.speakers import Speakers
from cogs.web.links import Links

log = logging.getLogger(__name__)


UNKNOWN_CHANNEL = 10003
"""Discord's error code for a channel that does not exist (deleted)."""


class Showing:
    """Per-table memory and the Discord calls every kind of message shares; the table message,
    the hand messages, the posts and the presenter each hold this one."""

    def __init__(
        self,
        bot: commands.Bot | commands.AutoShardedBot,
        service: TableService,
        *,
        clock: Clock | None = None,
        run_blocking: Callable[..., Awaitable[Any]] | None = None,
        rest_share: float = 1.0,
        links: Links | None = None,
        activity: bool = False,
    ) -> None:
        self.bot = bot
        self.links = links
        """The web pages' links, when the bot serves them (PUBLIC_URL set)."""
        self.activity = activity
        """Whether the bot's Activity is on (DISCORD_CLIENT_SECRET set too): Play at the
        table."""
        self.service = service
        self.run_blocking = run_blocking or asyncio.to_thread
        """Runs a picklable function outside the event loop (the worker processes)."""
        self.clock: Clock = clock or SystemClock()
        self.shown: dict[int, Shown] = {}
        """By open table: what this process holds for it (cogs/shown.py); dropped when the
        table closes."""
        self._tasks: set[asyncio.Task[Any]] = set()
        self.refreshes = Refresher(self.spawn)
        shared = service.sharing.take_rest_calls if service.sharing.shared else None
        self.pacer = Pacer(share=rest_share, budget=shared)
        self.speakers = Speakers(bot, service)
        """Which language each person and channel reads (cogs/speakers.py)."""

    # What is held for each open table

    def state(self, table_id: int) -> Shown:
        shown = self.shown.get(table_id)
        if shown is None:
            shown = self.shown[table_id] = Shown()
        return shown

    def remember(self, outcome: Outcome) -> None:
        """Keep an outcome's views for the messages still to render. A closed table's are kept
        only while its last outcome is published (see `forget`)."""
        table = outcome.table
        if table.status.is_open:
            self.state(table.table_id).remember(outcome)
        elif table.table_id in self.shown:
            self.shown[table.table_id].remember(outcome)

    def remember_side(self, outcome: Outcome | None) -> None:
        """A message id stored (not an action): its views are the newest, for an open table."""
        if outcome is not None and outcome.table.table_id in self.shown:
            self.remember(outcome)

    def forget(self, table_id: int) -> None:
        """A closed table: drop what is held for it (a message rendered later loads it)."""
        shown = self.shown.pop(table_id, None)
        if shown is not None and shown.ping is not None:
            self.spawn(self.delete(shown.ping))
        if shown is not None and shown.view is not None:
            self.speakers.forget_channel(shown.view.channel_id)

    @contextlib.asynccontextmanager
    async def writing(
        self, table_id: int, version: int, user_id: int | None = None
    ) -> AsyncIterator[Outcome | None]:
        """Hold one message for one write (an edit, or a click's answer): the table message,
        or with `user_id` that person's hand message. When other bot processes share the
        database and one moved the table past `version`, this yields the newest stored state,
        which the write shows instead: a message never goes back to an older state than one
        another process showed. One process alone: None at once."""
        if not self.service.sharing.shared:
            yield None  # one process: it knows every version, and nothing to hold
            return
        async with self.service.sharing.showing(table_id, user_id) as newest:
            if newest is None or newest <= version:
                yield None
                return
            outcome = await self.service.lookups.newest(table_id)
            self.remember(outcome)
            yield outcome

    @contextlib.asynccontextmanager
    async def holding(self, table_id: int, user_id: int | None = None) -> AsyncIterator[None]:
        """Hold one message (as `writing`) for a write that shows no state of the table (an
        old hand's DM closed): other processes' writes to it wait. One process: nothing."""
        if not self.service.sharing.shared:
            yield
            return
        async with self.service.sharing.showing(table_id, user_id):
            yield

    def pages(self, table: TableView) -> render.TablePages:
        """The web pages a table's message links to: the live table while it is open, the
        replay once its game is finished; none without the web pages."""
        links = self.links
        if links is None:
            return render.TablePages()
        if table.status.is_open:
            watch = links.table(table.guild_id, table.table_id)
            return render.TablePages(watch=watch, activity=self.activity)
        if table.status is TableStatus.FINISHED and table.game is not None:
            return render.TablePages(replay=links.game(table.guild_id, table.table_id))
        return render.TablePages()

    # Background work

    def spawn(self, coroutine: Coroutine[Any, Any, Any]) -> asyncio.Task[Any]:
        task = asyncio.get_running_loop().create_task(coroutine)
        self._tasks.add(task)
        task.add_done_callback(self._finished)
        return task

    def _finished(self, task: asyncio.Task[Any]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("background task failed", exc_info=task.exception())

    async def cancel_tasks(self) -> None:
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

    async def edit(self, channel_id: int, message_id: int, rendered: render.Rendered) -> None:
        """Edit a message, without reading back the message Discord returns: discord.py would
        build a `Message` from it, a third of an edit's CPU, for a value nobody uses. Its
        public `PartialMessage.edit` always reads it back, so this calls the two internals it
        is built on, `discord.http.handle_message_parameters` and `HTTPClient.edit_message`
        (pinned by tests/cogs/test_discord_internals.py)."""
        with handle_message_parameters(
            **rendered.kwargs(), previous_allowed_mentions=self.bot.allowed_mentions
        ) as params:
            await self.bot.http.edit_message(channel_id, message_id, params=params)

    async def send(
        self, channel_id: int, rendered: render.Rendered, *, nonce: str | None = None
    ) -> discord.Message | None:
        """Send a message to a channel (paced): the message, or None when Discord refused it
        (logged)."""
        channel = self.bot.get_partial_messageable(channel_id)
        try:
            await self.pacer.wait()
            if nonce is None:
                return await channel.send(**rendered.send_kwargs())
            return await channel.send(**rendered.send_kwargs(), nonce=nonce)
        except discord.HTTPException as error:
            log.warning("channel %s: could not send: %s", channel_id, error)
            return None

    async def delete(self, message: discord.PartialMessage) -> None:
        with contextlib.suppress(discord.HTTPException):
            await self.pacer.wait(urgent=False)
            await message.delete()
