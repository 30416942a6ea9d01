"""The table message: the one public message of a table, edited as the game moves (changes made
close together gathered into one edit), posted anew when it is missing."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

import discord

from bot.service import CorruptRow, TableView, UnreadableClosed
from cogs import render
from cogs.render.language import _, speaking
from cogs.showing import UNKNOWN_CHANNEL, Showing

log = logging.getLogger(__name__)


class TableMessages:
    """Edits and posts table messages, at most one render of each in flight (cogs/refresh.py)."""

    def __init__(
        self,
        ground: Showing,
        *,
        edit_delay: float,
        channel_missing: Callable[[int, int], None],
    ) -> None:
        self.ground = ground
        self.edit_delay = edit_delay
        self._channel_missing = channel_missing
        """Called with (guild, channel) when the table's channel turns out to be deleted."""

    def schedule_edit(self, table_id: int) -> None:
        """Bring the table message up to date after `edit_delay`, coalesced (cogs/refresh.py)."""
        pacer = self.ground.pacer
        self.ground.refreshes.request(
            ("table", table_id),
            lambda: self._edit(table_id),
            self.edit_delay,
            # Render after the pacer lets the edit go: under load the wait is longer and the
            # edit carries every change made meanwhile.
            before=lambda: pacer.wait(urgent=False),
        )

    async def refresh_closed(self, table_ids: list[int]) -> None:
        """After a restart: the messages of tables closed in the last minutes brought up to
        date (the bot may have stopped before showing the end), one at a time, each call with
        the allowance live games leave over (`Pacer` spare), and none for a table that has no
        message to edit. So a restart after many games does not hold up the live ones."""
        for table_id in table_ids:
            try:
                await self._edit(table_id, lambda: self.ground.pacer.wait(spare=True))
            except CorruptRow as error:
                log.error("%s", error)
            except discord.HTTPException as error:
                log.warning("table %s: could not edit the table message: %s", table_id, error)

    async def _edit(
        self, table_id: int, paced: Callable[[], Awaitable[None]] | None = None
    ) -> None:
        """Edit the table message (`paced`: wait for the call only once one is needed)."""
        ground = self.ground
        shown = ground.shown.get(table_id)
        table = (
            shown.view
            if shown and shown.view
            else await ground.service.lookups.table_view(table_id)
        )
        message_id = table.message_id
        if message_id is None:
            if table.status.is_open:
                # Stored, but never shown: the answer that would have posted it came too late
                # for Discord, or the bot stopped between the two.
                await self.post(table)
            return
        if paced is not None:
            await paced()
        try:
            async with ground.writing(table_id, table.version) as moved:
                if moved is not None:
                    # Another process moved the table on, and may have posted its message
                    # anew (the old one deleted): edit the one stored now.
                    table = moved.table
                    message_id = table.message_id or message_id
                with speaking(await ground.speakers.channel(table.guild_id, table.channel_id)):
                    rendered = render.table_message(table, self.ground.pages(table))
                await ground.edit(table.channel_id, message_id, rendered)
        except discord.NotFound as error:
            if error.code == UNKNOWN_CHANNEL:
                # Deleted while the bot was not listening (stopped, or the event was lost).
                self._channel_missing(table.guild_id, table.channel_id)
            elif table.status.is_open:
                await self.post(table)
        except discord.Forbidden as error:
            log.warning("table %s: may not edit the table message: %s", table_id, error)

    async def show_unreadable_closed(self, closed: UnreadableClosed) -> None:
        """The table message of a table cancelled because it could not be read: its text says
        so, and its buttons go."""
        self.ground.forget(closed.table_id)
        if closed.message_id is None:
            return
        with speaking(await self.ground.speakers.channel(None, closed.channel_id)):
            rendered = render.Rendered(_(render.UNREADABLE_TABLE_CLOSED), None, None)
        try:
            await self.ground.pacer.wait()
            await self.ground.edit(closed.channel_id, closed.message_id, rendered)
        except discord.HTTPException as error:
            log.warning("table %s: could not edit the table message: %s", closed.table_id, error)

    async def post(self, table: TableView) -> None:
        """Post the table message anew: a new table (a rematch, or one whose answer could not
        post it), or one whose message was deleted. A first post's nonce, of the table and
        version, lets Discord give back the message a process that died before storing its id
        had posted (one posted again in place of a deleted message makes a new one)."""
        nonce = f"t{table.table_id}.{table.version}" if table.message_id is None else None
        with speaking(await self.ground.speakers.channel(table.guild_id, table.channel_id)):
            rendered = render.table_message(table, self.ground.pages(table))
        sent = await self.ground.send(table.channel_id, rendered, nonce=nonce)
        if sent is not None:
            stored = await self.ground.service.lobby.set_message(table.table_id, sent.id)
            self.ground.remember_side(stored)
