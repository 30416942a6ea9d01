"""Keeps Discord in step with the database: it publishes each committed outcome (the table
message, the hand messages, the posts in the channel from the outbox, a turn mention) and brings
every open table up to date after a start. Hand messages are cogs/hand_messages.py, the ground
under both cogs/showing.py, the moves between clicks cogs/automatic.py; the click handling
(cogs/clicks.py) builds on this."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Iterable
from typing import Any, Protocol

import discord
from discord.ext import commands

from bot.clock import Clock
from bot.config import BotSettings
from bot.service import (
    CorruptRow,
    Gone,
    Outcome,
    Post,
    TableChange,
    TableService,
    TableStatus,
    TableView,
    UnreadableClosed,
)
from cogs import render
from cogs.automatic import AutomaticMoves
from cogs.hand_messages import HandMessages
from cogs.pacing import rest_share
from cogs.posts import ChannelPosts
from cogs.render.language import speaking
from cogs.showing import Showing
from cogs.shown import Shown
from cogs.table_messages import TableMessages
from cogs.web.links import Links

log = logging.getLogger(__name__)

IN_FLIGHT_WAIT = 1.0
"""Seconds a click's answer waits for an edit of the same hand message already under way
(well inside Discord's 3 s to answer)."""

RECENTLY_CLOSED = 15 * 60.0
"""Seconds back that a starting bot looks for closed tables whose message may be behind."""


class Follower(Protocol):
    """Told of each change: `published` of every change this process shows, in the order they
    were committed, with the posts it sends the channel; `changed_elsewhere` of each another
    process stored (PostgreSQL)."""

    def published(self, table: TableView, posts: tuple[Post, ...] = ()) -> None: ...

    def changed_elsewhere(self, change: TableChange) -> None: ...

    def listening(self) -> None:
        """This process hears other processes' changes from now on: what it was told of before
        (the web pages' watchers are served from before the start-up ends) may be behind."""


class Presenter:
    """Shows committed changes (the click handling, cogs/clicks.py, hands them over). Made of
    parts, each an object of its own that callers use by name: `ground` (`Showing`: what is
    held per table, the hold on a message's writes, background work, the pacer, the speakers),
    `table_messages`, `hands` (the hand messages), `posts` (the outbox's posts) and
    `automatic` (computers' and forced moves, the deadline scheduler). What is its own is what
    takes several of them: publishing an outcome, bringing the tables up to date after a
    start, a channel or server gone, the turn mention."""

    def __init__(
        self,
        bot: commands.Bot | commands.AutoShardedBot,
        service: TableService,
        settings: BotSettings,
        *,
        clock: Clock | None = None,
        run_blocking: Callable[..., Awaitable[Any]] | None = None,
        links: Links | None = None,
    ) -> None:
        self.bot = bot
        self.service = service
        self.ground = Showing(
            bot,
            service,
            clock=clock,
            run_blocking=run_blocking,
            rest_share=rest_share(settings.shard_count, settings.shard_ids),
            links=links,
            activity=settings.discord_client_secret is not None,
        )
        ground = self.ground
        self.table_messages = TableMessages(
            ground,
            edit_delay=settings.table_edit_delay,
            gather_at_page=settings.table_gather_at_page,
            channel_missing=lambda guild, channel: self._channel_missing_at(guild, channel),
        )
        self.hands = HandMessages(ground, self.table_messages)
        self.automatic = AutomaticMoves(
            service,
            ground.clock,
            publish=self.publish,
            spawn=ground.spawn,
            computer_delay=settings.computer_delay,
            deadline_poll=settings.deadline_poll if service.sharing.shared else None,
        )
        self.posts = ChannelPosts(
            bot,
            service.posts,
            ground.pacer,
            speakers=ground.speakers,
            run_blocking=ground.run_blocking,
            spawn=ground.spawn,
            channel_missing=lambda guild, channel: self._channel_missing_at(guild, channel),
            # A post still waiting once its lease runs out is taken up within a quarter more.
            sweep_every=settings.post_retry_after / 4,
            links=links,
        )
        self._watching = False
        self.followers: list[Follower] = []
        """Others told of every change shown (the web pages' watchers, cogs/web)."""

    def cached_tables(self) -> set[int]:
        """The tables anything is held in memory for (tests check it empties)."""
        return set(self.ground.shown) | self.automatic.tables() | self.ground.refreshes.tables()

    async def close(self) -> None:
        await self.automatic.stop_scheduler()
        await self.posts.stop()
        await self.ground.cancel_tasks()

    async def resume_open_tables(self) -> None:
        """After a start-up: bring every open table's message and every seated person's hand
        message up to date (the bot may have stopped between a commit and showing it), and let
        computers carry on where they stopped. Tables closed in the last minutes get their
        message brought up to date too (the final standings may not have been shown), and the
        posts a stopped process left in the outbox are made."""
        closed = await self.service.lookups.closed_since(RECENTLY_CLOSED)
        self.ground.spawn(self.table_messages.refresh_closed(closed))
        for table_id in await self.service.lookups.open_table_ids():
            self.table_messages.schedule_edit(table_id)
            try:
                table = await self.service.lookups.table_view(table_id)
            except CorruptRow as error:
                log.error("%s", error)
                continue
            if table.status is TableStatus.PLAYING:
                for seat in table.seats:
                    if seat.user_id is not None and seat.away != "kicked":
                        self.hands.refresh_hand(table_id, seat.user_id)
                self.watch_turn(table)
            self.automatic.move_on(table_id)
        await self.service.deadlines.allow_grace()
        # Only processes that share the database with others listen for changes: one process
        # makes every change itself, and would only hear its own back.
        if self.service.sharing.shared and not self._watching:
            self._watching = True
            await self.service.sharing.watch_changes(self._changed_elsewhere)
            for follower in self.followers:
                follower.listening()
        self.automatic.start_scheduler()
        self.posts.start()

    def _changed_elsewhere(self, change: TableChange) -> None:
        """A change stored by any process (PostgreSQL). Private hand replies (people whose DMs
        are closed) can be edited only by the process that answered them: if this one holds
        some for a table another process changed, it brings them up to date; a table another
        process closed is forgotten."""
        for follower in self.followers:
            follower.changed_elsewhere(change)
        shown = self.ground.shown.get(change.table_id)
        if change.closed:
            if shown is not None and (shown.view is None or shown.view.version < change.version):
                self.ground.spawn(self._forget_closed(change.table_id, shown))
            return  # closed here: forgotten once its last outcome is published (`publish`)
        if shown is None or not shown.ephemeral:
            return
        if shown.view is not None and shown.view.version >= change.version:
            return  # this process's own change, or one it already shows
        self.ground.spawn(self._catch_up_private_hands(change.table_id))

    async def _forget_closed(self, table_id: int, shown: Shown) -> None:
        """Forget a table another process closed, once this one's own outcomes of it in flight
        are published (one at a time, in order, under its publish lock): forgetting it sooner
        would let them publish side by side, an older state after a newer."""
        async with shown.publish_lock:
            if self.ground.shown.get(table_id) is shown:
                self.ground.forget(table_id)

    async def _catch_up_private_hands(self, table_id: int) -> None:
        self.ground.remember(await self.service.lookups.newest(table_id))
        shown = self.ground.shown.get(table_id)
        for user_id in list(shown.ephemeral) if shown is not None else ():
            self.hands.refresh_hand(table_id, user_id)

    def tell_followers(self, outcome: Outcome) -> None:
        """Tell the followers of a committed change, at once: a click's change before its
        answer's round trip to Discord, and one whose answer shows it (no `publish`). Told
        again when it is published; a follower keeps the newest version it was told."""
        for follower in self.followers:
            follower.published(outcome.table, outcome.posts)

    def publish_later(self, outcome: Outcome) -> None:
        """Publish after the interaction has been answered, as tracked background work."""
        self.ground.spawn(self.publish(outcome))

    async def publish(self, outcome: Outcome) -> None:
        """Show a committed change: the table message (coalesced), private hands, notices.
        One table's outcomes are shown one at a time, in the order they were committed."""
        table = outcome.table
        self.ground.remember(outcome)
        shown = self.ground.shown.get(table.table_id)
        if shown is None:  # a closed table: nothing else can be published for it
            await self._publish(outcome)
            return
        async with shown.publish_lock:
            await self._publish(outcome)

    async def _publish(self, outcome: Outcome) -> None:
        table = outcome.table
        self.tell_followers(outcome)
        self.table_messages.schedule_edit(table.table_id, table)
        # The person who acted saw their new hand in the click's answer; but a refresh rendered
        # before their click may still be in flight and land after it, so then they are
        # refreshed too (it renders again once the one in flight has landed).
        shown = self.ground.shown.get(table.table_id)
        for user, state in outcome.hands.items():
            if (
                shown is not None
                and shown.last_dm.get(user) == self.hands.hand_shown_as(state, table)
                and not self.ground.refreshes.running(("hand", table.table_id, user))
            ):
                continue
            self.hands.refresh_hand(table.table_id, user)
        if table.status is not TableStatus.PLAYING:
            self.hands.catch_up(table.table_id)
        self.watch_turn(table)
        await self.posts.post(outcome.posts)
        if outcome.nudge:
            shown = self.ground.shown.get(table.table_id)
            await self._ping(table, shown.turn if shown else (), outcome.nudge)
        if outcome.opened is not None:
            await self.table_messages.post(outcome.opened)
        if outcome.finished and table.status is not TableStatus.FINISHED:
            await self.hands.close_all_hands(table)
        if not table.status.is_open:
            self.ground.forget(table.table_id)

    async def channel_gone(
        self, guild_id: int, channel_id: int, why: Gone = "channel_deleted"
    ) -> None:
        """A channel or thread deleted, or out of reach with its server: its open table is
        cancelled, the players' hand messages say why, and its waiting posts go."""
        await self.posts.drop(channels=(channel_id,))
        try:
            closed = await self.service.places.channel_gone(guild_id, channel_id, why)
        except Exception:
            log.exception("channel %s: its table could not be closed", channel_id)
            return
        if isinstance(closed, UnreadableClosed):
            self.ground.forget(closed.table_id)
        elif closed is not None:
            await self.publish(closed)

    async def guild_gone(self, guild_id: int, channel_ids: Iterable[int]) -> None:
        """The bot was removed from a server: every table there is cancelled as above, and the
        posts waiting for its channels go."""
        await self.posts.drop(guild_id=guild_id)
        for channel_id in await self.service.places.channels_with_tables(guild_id):
            await self.channel_gone(guild_id, channel_id, "bot_removed")

    def _channel_missing_at(self, guild_id: int, channel_id: int) -> None:
        self.ground.spawn(self.channel_gone(guild_id, channel_id))

    async def channel_changed(self, channel_id: int) -> None:
        """A channel's permissions may have changed: post what its tables missed, and bring its
        table's message up to date."""
        await self.posts.catch_up(channel_id)
        row = await self.service.lookups.table_in_channel(channel_id)
        if row is not None:
            self.table_messages.schedule_edit(row.id)

    async def channel_language_changed(self, channel_id: int) -> None:
        """The channel's language was set: its table's message speaks it at once (the hands
        are the players' own)."""
        row = await self.service.lookups.table_in_channel(channel_id)
        if row is not None:
            self.table_messages.schedule_edit(row.id)

    def watch_turn(self, table: TableView) -> None:
        """Edits do not notify, and a ping for every card would flood the channel: when a turn
        has lasted a while (the service's nudge, see `publish`), one short message mentions the
        person; here it is deleted once the turn passes, so a table never leaves more than one."""
        game = table.game
        waiting: tuple[int, ...] = ()
        marker: tuple[Any, ...] = ()
        if game is not None and table.status is TableStatus.PLAYING:
            waiting = tuple(
                uid
                for s in game.to_act
                if (uid := table.seats[s].user_id) is not None and not table.seats[s].left
            )
            marker = (waiting, game.hand_number, len(game.tricks), len(game.trick), game.has_bid)
        shown = self.ground.shown.get(table.table_id)
        if shown is None or shown.turn == marker:
            return
        shown.turn = marker
        if shown.ping is not None:
            self.ground.spawn(self.ground.delete(shown.ping))
            shown.ping = None

    async def _ping(
        self, table: TableView, marker: tuple[Any, ...], waiting: tuple[int, ...]
    ) -> None:
        """One short message that mentions whoever the table waits for (but those at the table's
        page); deleted once the turn passes (see `watch_turn`)."""
        shown = self.ground.shown.get(table.table_id)
        if shown is None or shown.turn != marker:
            return
        presence = self.hands.presence
        if presence is not None:
            # Someone at the table's page sees their turn there: a mention would only ping them.
            waiting = tuple(u for u in waiting if not presence.at_page(table.table_id, u))
            if not waiting:
                return
        url = render.jump_url(table.guild_id, table.channel_id, table.message_id)
        if shown.ping is not None:
            self.ground.spawn(self.ground.delete(shown.ping))
            shown.ping = None
        channel = self.bot.get_partial_messageable(table.channel_id)
        with speaking(await self.ground.speakers.channel(table.guild_id, table.channel_id)):
            text = render.turn_ping_text(waiting, url, table.deadline)
        try:
            await self.ground.pacer.wait()
            sent = await channel.send(
                text,
                allowed_mentions=discord.AllowedMentions(
                    users=[discord.Object(user) for user in waiting]
                ),
            )
        except discord.HTTPException as error:
            log.warning("table %s: could not ping: %s", table.table_id, error)
            return
        if self.ground.shown.get(table.table_id) is shown and shown.turn == marker:
            shown.ping = channel.get_partial_message(sent.id)
        else:  # the turn passed while sending
            self.ground.spawn(self.ground.delete(channel.get_partial_message(sent.id)))
