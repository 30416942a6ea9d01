"""The table message: the one public message of a table, edited as the game moves (changes made
close together gathered into one edit), posted anew when it is missing.

While every person seated is at the table's page (cogs/web/presence.py), the page is where the
game is followed and the channel's message is for those who look in: it follows each trick's
end, each hand's end and every change outside play at once, and otherwise gathers the cards
and bids of a trick or a bidding over `gather_at_page` seconds. When someone seated is not at
the page (they leave it, or a person who is not there sits down) the edit waiting goes within
`edit_delay` again. Each edit shows the latest state, so nothing is lost by gathering."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

import discord

from bot.engine import Phase
from bot.service import CorruptRow, TableStatus, TableView, UnreadableClosed
from cogs import render
from cogs.render.language import _, speaking
from cogs.showing import UNKNOWN_CHANNEL, Showing
from cogs.web.presence import Presence

log = logging.getLogger(__name__)


class TableMessages:
    """Edits and posts table messages, at most one render of each in flight (cogs/refresh.py)."""

    def __init__(
        self,
        ground: Showing,
        *,
        edit_delay: float,
        channel_missing: Callable[[int, int], None],
        gather_at_page: float | None = None,
    ) -> None:
        self.ground = ground
        self.edit_delay = edit_delay
        self.gather_at_page = edit_delay if gather_at_page is None else gather_at_page
        """Seconds to gather an edit over while everyone seated is at the page."""
        self._channel_missing = channel_missing
        """Called with (guild, channel) when the table's channel turns out to be deleted."""
        self.presence: Presence | None = None
        """Who is at the tables' pages (the web room, when it is on)."""

    def watch_presence(self, presence: Presence) -> None:
        """Gather longer while everyone seated at a table is at its page; when one of them
        leaves it, the edit waiting goes within `edit_delay`."""
        self.presence = presence
        presence.on_left.append(self.page_left)

    def page_left(self, table_id: int, user_id: int) -> None:
        """Someone left the table's page: an edit gathered for everyone at it goes sooner."""
        self.ground.refreshes.hurry(("table", table_id), self.edit_delay)

    def schedule_edit(self, table_id: int, changed: TableView | None = None) -> None:
        """Bring the table message up to date within `edit_delay` (`gather_at_page` while
        everyone seated is at the page, in the middle of a trick or a bidding), coalesced
        (cogs/refresh.py). `changed`: the change to show (default: the newest one known)."""
        pacer = self.ground.pacer
        self.ground.refreshes.request(
            ("table", table_id),
            lambda: self._edit(table_id),
            self._gathering(table_id, changed),
            # Render after the pacer lets the edit go: under load the wait is longer and the
            # edit carries every change made meanwhile.
            before=lambda: pacer.wait(urgent=False),
        )

    def _gathering(self, table_id: int, changed: TableView | None) -> float:
        """Seconds over which to gather the edit showing `changed`."""
        if changed is None:
            shown = self.ground.shown.get(table_id)
            changed = shown.view if shown is not None else None
        presence = self.presence
        if (
            presence is None
            or changed is None
            or changed.status is not TableStatus.PLAYING
            or changed.paused
            or not in_the_midst(changed)
        ):
            return self.edit_delay
        people = [seat.user_id for seat in changed.seats if seat.user_id is not None]
        if people and all(presence.at_page(table_id, person) for person in people):
            return self.gather_at_page
        return self.edit_delay

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


def in_the_midst(table: TableView) -> bool:
    """Whether a playing table is in the middle of a trick or of a bidding: not at a trick's
    end (or the bidding's), nor at a new hand (the last one's end), nor choosing trump."""
    game = table.game
    if game is None:
        return False
    if game.phase is Phase.PLAYING:
        return bool(game.trick)
    if game.phase is Phase.BIDDING:
        return any(game.has_bid)
    return False
