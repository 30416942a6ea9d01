"""Each seated person's hand message: a DM edited as the game moves (a new DM for each new hand,
the last one closed), or a private reply to edit when their DMs are closed. While a person is at
the table's page (cogs/web/presence.py) their DM is left behind: it catches up when they leave
the page, and a finished game's shows its end at once."""

from __future__ import annotations

import contextlib
import hashlib
import time

import discord

from bot.service import DmRef, HandState, Refused, TableStatus, TableView
from cogs import render
from cogs.interaction import Interaction
from cogs.render.language import speaking, spoken
from cogs.showing import Showing
from cogs.shown import HandShown
from cogs.table_messages import TableMessages
from cogs.web.presence import Presence

EPHEMERAL_TOKEN_LIFETIME = 14 * 60  # Discord's 15 minutes, less a margin


def _shows(message: discord.Message, rendered: render.Rendered) -> bool:
    """Whether a message shows what `rendered` says (its text and its embed's words)."""

    def words(embed: discord.Embed | None) -> tuple[object, ...]:
        if embed is None:
            return ()
        fields = tuple((f.name, f.value) for f in embed.fields)
        return (embed.title, embed.description, embed.footer.text, fields)

    embed = message.embeds[0] if message.embeds else None
    return (message.content or None) == (rendered.content or None) and words(embed) == words(
        rendered.embed
    )


def hand_nonce(table_id: int, user_id: int, hand: int, replacing: DmRef | None) -> str:
    """The nonce of a hand's DM: a process that sent it and died before storing its id sends it
    again after a restart, and Discord gives back the first instead of making a second. A DM
    sent in place of one the person deleted (`replacing`, of the same hand) has a nonce of its
    own, or Discord could give back the deleted one."""
    instead = replacing.message_id if replacing is not None and replacing.hand == hand else 0
    key = f"{table_id}:{user_id}:{hand}:{instead}".encode()
    return "h" + hashlib.blake2b(key, digest_size=8).hexdigest()


class HandMessages:
    """Renders and sends hand messages, at most one at a time per person (cogs/refresh.py)."""

    def __init__(self, ground: Showing, table_messages: TableMessages) -> None:
        self.ground = ground
        self.service = ground.service
        self.table_messages = table_messages
        self.presence: Presence | None = None
        """Who is at the tables' pages (the web room, when it is on): their DMs wait."""

    def watch_presence(self, presence: Presence) -> None:
        """Leave the hand DMs of people at a table's page behind, and catch each up when the
        last of their pages of that table closes."""
        self.presence = presence
        presence.on_left.append(self.page_left)

    def page_left(self, table_id: int, user_id: int) -> None:
        """A person left the table's page: their hand DM, if it was left behind, catches up."""
        shown = self.ground.shown.get(table_id)
        if shown is not None and shown.held_back.pop(user_id, None) is not None:
            self.refresh_hand(table_id, user_id)

    def catch_up(self, table_id: int) -> None:
        """The game ended or stopped: every DM left behind shows where it ended."""
        shown = self.ground.shown.get(table_id)
        if shown is None:
            return
        for user_id in list(shown.held_back):
            del shown.held_back[user_id]
            self.refresh_hand(table_id, user_id)

    def behind(self, table_id: int, user_id: int, message_id: int) -> bool:
        """Whether a hand DM was left behind the game while its person was at the page: a
        click on it answers with the hand as it is now, and does not act on what it showed."""
        shown = self.ground.shown.get(table_id)
        if shown is None or user_id not in shown.held_back:
            return False
        ref = shown.dm_refs.get(user_id)
        return ref is not None and ref.message_id == message_id

    def _hold_back(self, table_id: int, user_id: int, state: HandState, table: TableView) -> bool:
        """Whether to leave a person's hand DM behind: they are at the table's page, which
        shows their hand, and the game goes on (its end is shown at once). A new hand's DM
        waits too (sent, it would notify someone who is looking at the page); the earlier
        hand's DM is closed, so that none of its buttons looks live."""
        presence, shown = self.presence, self.ground.shown.get(table_id)
        if (
            presence is None
            or shown is None
            or table.status is not TableStatus.PLAYING
            or not presence.at_page(table_id, user_id)
        ):
            return False
        ref = shown.dm_refs.get(user_id)
        earlier = shown.held_back.get(user_id)
        if ref is not None and ref.hand != state.hand_number and earlier != state.hand_number:
            self.ground.spawn(self.close_hand_message(ref, table_id=table_id, user_id=user_id))
        shown.held_back[user_id] = state.hand_number
        return True

    def refresh_hand(self, table_id: int, user_id: int) -> None:
        """Bring one person's hand message up to date, coalesced (cogs/refresh.py)."""
        self.ground.refreshes.request(
            ("hand", table_id, user_id), lambda: self._show_hand(table_id, user_id)
        )

    def hand_shown_as(self, state: HandState, table: TableView) -> HandShown:
        """What a hand message shows, as the inputs that render it (in the language spoken):
        equal inputs render the same message, so comparing them needs no rendering."""
        where = (table.guild_id, table.channel_id, table.message_id, render.where_of(table))
        return (state.hand_number, (state, where, spoken().code))

    # What a click's answer showed (cogs/clicks.py), kept for the next refresh to compare with

    def hand_answered(self, table_id: int, user_id: int, message_id: int, shows: HandShown) -> None:
        """A click's answer edited a person's hand DM to show `shows`."""
        shown = self.ground.shown.get(table_id)
        if shown is not None:
            shown.showing_dm(user_id, message_id, shows)

    def hand_closed(self, table_id: int, message_id: int) -> None:
        """A click's answer took the controls off a finished hand's DM."""
        shown = self.ground.shown.get(table_id)
        if shown is not None:
            shown.closed_dms.add(message_id)

    def private_hand(self, table: TableView, user_id: int, interaction: Interaction) -> None:
        """A person's hand shown as a private reply (their DMs are closed): kept to edit it
        as the game moves, while Discord lets it be edited and the table is open."""
        if table.status.is_open:
            self.ground.state(table.table_id).ephemeral[user_id] = (interaction, time.monotonic())

    async def _show_hand(self, table_id: int, user_id: int) -> None:
        """`_show_hand_in` the person's language."""
        with speaking(await self.ground.speakers.person(user_id)):
            await self._show_hand_in(table_id, user_id)

    async def _show_hand_in(self, table_id: int, user_id: int) -> None:
        """Render one person's hand message from the latest stored state and send it: an edit,
        or a new DM for a new hand (closing the last one). Skipped when nothing would change.
        Only ever called through `refresh_hand`, one at a time per person in this process; with
        other processes, under the hand message's `writing` hold, so two never send one hand
        twice."""
        shown = self.ground.shown.get(table_id)
        state = shown.hands.get(user_id) if shown else None
        table = shown.view if shown else None
        if state is None or table is None:
            # Both of one version, in one load: another process may move the game on between
            # two, and a hand state older than its table view would pass for the newest
            # under the hold below (and send a finished hand's DM again).
            try:
                newest = await self.service.lookups.newest(table_id)
            except Refused:
                return
            self.ground.remember(newest)
            table = newest.table
            state = (newest.every_hand or {}).get(user_id)
            if state is None:  # someone the host removed (only what everyone sees), or none
                try:
                    state = await self.service.lookups.hand_state(table_id, user_id)
                except Refused:
                    return
        shows = self.hand_shown_as(state, table)
        if shown is not None and shown.last_dm.get(user_id) == shows:
            return  # the same inputs render the same message: nothing to render or send
        if user_id in table.dms_closed:
            rendered = render.hand_message(state, table, render.where_of(table))
            await self._refresh_ephemeral_hand(table_id, user_id, rendered)
            return
        if self._hold_back(table_id, user_id, state, table):
            return
        # The calls are paced before the hold, which a click's answer may be waiting for: a
        # first hand's DM channel is opened too, straight before the DM is sent.
        opens_dm = shown is None or user_id not in shown.dm_refs
        await self.ground.pacer.wait(calls=2 if opens_dm else 1)
        async with self.ground.writing(table_id, table.version, user_id) as moved:
            newer = self.ground.shown.get(table_id)
            if moved is not None:
                # Another process moved the table on: what it stored is what to show, even
                # when this one holds nothing more of the table (closed, and forgotten).
                fresh = (moved.every_hand or {}).get(user_id)
                if fresh is None or fresh.hand_number != state.hand_number:
                    return self.refresh_hand(table_id, user_id)
                state, table = fresh, moved.table
            elif newer and newer.view and newer.view.version > table.version:
                # A change landed while this waited (a click's own answer may already show
                # it, or have sent this hand's DM): render that instead of overwriting it
                # with an older state.
                fresh = newer.hands.get(user_id)
                if fresh is None or fresh.hand_number != state.hand_number:
                    return self.refresh_hand(table_id, user_id)
                state, table = fresh, newer.view
            shows = self.hand_shown_as(state, table)
            if newer is not None and newer.last_dm.get(user_id) == shows:
                return None
            rendered = render.hand_message(state, table, render.where_of(table))
            if moved is not None:
                ref = moved.dm_refs.get(user_id)
            elif newer is not None and newer.view is not None:
                ref = newer.dm_refs.get(user_id)
            else:
                ref = await self.service.playing.dm_ref(table_id, user_id)
            if ref is not None and ref.hand == state.hand_number:
                try:
                    await self.ground.edit(ref.channel_id, ref.message_id, rendered)
                    self._showing(table_id, user_id, shows, ref)
                    return None
                except discord.NotFound:
                    pass  # deleted by the person: send a new one
            new_ref = await self._send_hand(table_id, user_id, ref, rendered, state.hand_number)
            if new_ref is not None:
                self._showing(table_id, user_id, shows, new_ref)
        if new_ref is None:
            self.table_messages.schedule_edit(table_id)  # DMs closed: the table message says so
        elif ref is not None and ref.hand != state.hand_number:
            # After the new hand is out: nobody waits on this edit.
            self.ground.spawn(self.close_hand_message(ref, table_id=table_id, user_id=user_id))
        return None

    async def _send_hand(
        self,
        table_id: int,
        user_id: int,
        ref: DmRef | None,
        rendered: render.Rendered,
        hand: int,
    ) -> DmRef | None:
        """Send a hand message as a new DM and store where it is, before the hand message's hold
        is let go (the next writer edits this one); None, stored too, when their DMs are
        closed."""
        try:
            # The DM channel of an earlier hand is known; opening it again would cost a call
            # (discord.py keeps no DM cache without the members' users).
            channel: discord.abc.Messageable
            if ref is not None:
                channel = self.ground.bot.get_partial_messageable(
                    ref.channel_id, type=discord.ChannelType.private
                )
            else:
                channel = await self.ground.bot.create_dm(discord.Object(user_id))
            nonce = hand_nonce(table_id, user_id, hand, ref)
            sent = await channel.send(**rendered.send_kwargs(), nonce=nonce)
            if not _shows(sent, rendered):
                # Discord gave back the DM a process that died had sent (by its nonce), as it
                # was then: it shows this state from now on.
                await self.ground.edit(sent.channel.id, sent.id, rendered)
        except discord.Forbidden:
            self.ground.remember_side(await self.service.playing.record_dm(table_id, user_id, None))
            return None
        new_ref = DmRef(channel_id=sent.channel.id, message_id=sent.id, hand=hand)
        self.ground.remember_side(await self.service.playing.record_dm(table_id, user_id, new_ref))
        return new_ref

    def _showing(self, table_id: int, user_id: int, shows: HandShown, ref: DmRef) -> None:
        """What a hand DM shows now that an edit or a new DM landed (the table's state may have
        been created meanwhile: a later refresh compares against this)."""
        shown = self.ground.shown.get(table_id)
        if shown is not None:
            shown.dm_refs[user_id] = ref
            shown.showing_dm(user_id, ref.message_id, shows)

    async def close_all_hands(self, table: TableView) -> None:
        """A game that ended early: every hand DM says so, without its controls."""
        shown = self.ground.shown.get(table.table_id)
        refs = (
            shown.dm_refs
            if shown is not None
            else await self.service.playing.dm_refs(table.table_id)
        )
        for user_id, ref in refs.items():
            self.ground.spawn(
                self.close_hand_message(ref, table, table_id=table.table_id, user_id=user_id)
            )

    async def close_hand_message(
        self, ref: DmRef, closed: TableView | None = None, *, table_id: int, user_id: int
    ) -> None:
        """Take the controls off a finished hand's message, so no stale button looks live
        (`closed`: the game ended early, and the message says so). Under the hand message's
        hold, as every other write to it: another process's answer to a click on it then lands
        before this, or renders the newest state after it (which closes it too), never an
        older hand over the closed message."""
        shown = self.ground.shown.get(table_id)
        if closed is None and shown is not None and ref.message_id in shown.closed_dms:
            return  # a click's answer closed it already (a game closed early still says so)
        with speaking(await self.ground.speakers.person(user_id)):
            text = (
                render.hand_over_text(ref.hand)
                if closed is None
                else render.game_closed_text(closed)
            )
        message = self.ground.bot.get_partial_messageable(ref.channel_id).get_partial_message(
            ref.message_id
        )
        with contextlib.suppress(discord.HTTPException):
            await self.ground.pacer.wait(urgent=False)
            async with self.ground.holding(table_id, user_id):
                await message.edit(content=text, embed=None, view=None)
        if shown is not None:
            shown.closed_dms.add(ref.message_id)

    async def _refresh_ephemeral_hand(
        self, table_id: int, user_id: int, rendered: render.Rendered
    ) -> None:
        shown = self.ground.shown.get(table_id)
        held = shown.ephemeral.get(user_id) if shown else None
        if held is None or time.monotonic() - held[1] > EPHEMERAL_TOKEN_LIFETIME:
            return
        with contextlib.suppress(discord.HTTPException):
            await held[0].edit_original_response(**rendered.kwargs())
