"""Slash commands, the click handler, and the presenter that keeps Discord in step with the
database. Thin: every decision is the service's; this module only answers and renders."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any

import aiohttp
import discord
from discord import app_commands
from discord.ext import commands

from bot.clock import Clock, SystemClock
from bot.engine import Bid, ChooseTrump, Play
from bot.engine.cards import HIDDEN
from bot.service import (
    CorruptRow,
    DmRef,
    Outcome,
    Refused,
    TableService,
    TableStatus,
    TableView,
)
from bot.service.document import TURN_TIMERS
from bot.service.service import timer_text
from cogs import render
from cogs.errors import answer_error, reply
from cogs.items import Click, NotOffered, parse, whole_number
from cogs.pacing import Pacer
from cogs.shown import Shown

log = logging.getLogger(__name__)

NOT_FOR_YOU = render.NOT_FOR_YOU
TRANSIENT = (discord.HTTPException, aiohttp.ClientError, OSError, asyncio.TimeoutError)
"""Failures a later attempt may get past (a 5xx, a dropped connection, a timeout)."""
MAX_REFRESH_RETRIES = 6
IN_FLIGHT_WAIT = 1.0
"""Seconds a click's answer waits for an edit of the same hand message already under way
(well inside Discord's 3 s to answer)."""


def worth_retrying(error: BaseException) -> bool:
    """Whether the same call may succeed later: a 429 or a 5xx from Discord, or no answer at
    all (a dropped connection, a timeout). Any other 4xx will fail the same way again."""
    if isinstance(error, discord.HTTPException):
        return error.status == 429 or error.status >= 500
    return isinstance(error, TRANSIENT)


HAND_OVER = "Hand {hand} is over — your next hand is in a new message."
EPHEMERAL_TOKEN_LIFETIME = 14 * 60  # Discord's 15 minutes, less a margin
REQUIRED_PERMISSIONS = ("view_channel", "send_messages", "embed_links")


def _choices(field: str) -> list[app_commands.Choice[str]]:
    """A slash option's choices: the values the engine allows for a setting."""
    return [app_commands.Choice(name=v, value=v) for v in render.RULE_CHOICES[field]]


PRESET_CHOICES = _choices("preset")
TIMER_CHOICES = [app_commands.Choice(name=timer_text(t), value=t) for t in TURN_TIMERS]
# The rule options /ohhell start and /ohhell settings share.
RULE_OPTION_HELP = {
    "preset": "The rule system",
    "max_cards": "The most cards dealt in a hand (a smaller number makes a shorter game)",
    "sequence": "The order of hand sizes",
    "bidding": "How bids are made",
    "scoring": "How points are scored",
    "trump": "How trump is decided",
    "first_lead": "Who leads the first trick",
    "timer": "Time each player has for a decision (2 min by default)",
}
RULE_OPTION_CHOICES = {
    "preset": PRESET_CHOICES,
    **{
        field: _choices(field)
        for field in ("sequence", "bidding", "scoring", "trump", "first_lead")
    },
}


def _rule_options(**options: object) -> dict[str, object]:
    """The rule settings a command was given."""
    return {k: v for k, v in options.items() if v is not None}


class TableController:
    """Turns clicks into service calls and outcomes into messages."""

    def __init__(
        self,
        bot: commands.Bot,
        service: TableService,
        *,
        edit_delay: float = 0.5,
        computer_delay: float = 1.0,
        clock: Clock | None = None,
    ) -> None:
        self.bot = bot
        self.service = service
        self.clock: Clock = clock or SystemClock()
        self._scheduler: asyncio.Task[None] | None = None
        self.edit_delay = edit_delay
        self.computer_delay = computer_delay
        self._shown: dict[int, Shown] = {}
        """By open table: what this process holds for it (cogs/shown.py); dropped when the
        table closes."""
        self._refreshing: set[tuple[Any, ...]] = set()
        self._in_flight: dict[tuple[Any, ...], asyncio.Event] = {}
        """By message key: set once the render under way has landed (or failed)."""
        self._stale: set[tuple[Any, ...]] = set()
        self._steppers: dict[int, asyncio.Task[None]] = {}
        self._tasks: set[asyncio.Task[Any]] = set()
        self._missed: dict[int, tuple[int, list[str]]] = {}
        """By table: its channel and the notices that could not be posted there."""
        self.pacer = Pacer()

    def _state(self, table_id: int) -> Shown:
        shown = self._shown.get(table_id)
        if shown is None:
            shown = self._shown[table_id] = Shown()
        return shown

    def remember(self, outcome: Outcome) -> None:
        """Keep an outcome's views for the messages still to render. A closed table's are kept
        only while its last outcome is published (see `forget`)."""
        table = outcome.table
        shown = self._state(table.table_id) if table.status.is_open else None
        (shown or self._shown.get(table.table_id) or Shown()).remember(outcome)

    def remember_side(self, outcome: Outcome | None) -> None:
        """A message id stored (not an action): its views are the newest, for an open table."""
        if outcome is not None and outcome.table.table_id in self._shown:
            self.remember(outcome)

    def forget(self, table_id: int) -> None:
        """A closed table: drop what is held for it (a message rendered later loads it)."""
        shown = self._shown.pop(table_id, None)
        if shown is not None and shown.ping is not None:
            self._spawn(self._delete(shown.ping))

    def cached_tables(self) -> set[int]:
        """The tables anything is held in memory for (tests check it empties)."""
        refreshing = {key[1] for key in self._refreshing | self._stale | set(self._in_flight)}
        return set(self._shown) | set(self._steppers) | set(self._missed) | refreshing

    # -- background work ------------------------------------------------------------------------

    def _spawn(self, coroutine: Coroutine[Any, Any, Any]) -> asyncio.Task[Any]:
        task = asyncio.get_running_loop().create_task(coroutine)
        self._tasks.add(task)
        task.add_done_callback(self._finished)
        return task

    def _finished(self, task: asyncio.Task[Any]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("background task failed", exc_info=task.exception())

    async def close(self) -> None:
        if self._scheduler is not None:
            self._scheduler.cancel()
            with contextlib.suppress(BaseException):
                await self._scheduler
        for task in list(self._tasks):
            task.cancel()
        for task in list(self._tasks):
            with contextlib.suppress(BaseException):
                await task

    async def idle(self) -> None:
        """Wait until no background work is left (for tests and the demo)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    async def resume_open_tables(self) -> None:
        """After a start-up: bring every open table's message and every seated person's hand
        message up to date (the bot may have stopped between a commit and showing it), and let
        computers carry on where they stopped."""
        for table_id in await self.service.open_table_ids():
            self.schedule_table_edit(table_id)
            try:
                table = await self.service.table_view(table_id)
            except CorruptRow as error:
                log.error("%s", error)
                continue
            if table.status is TableStatus.PLAYING:
                for seat in table.seats:
                    if seat.user_id is not None and seat.away != "kicked":
                        self.refresh_hand(table_id, seat.user_id)
                self.watch_turn(table)
            self.kick(table_id)
        await self.service.allow_grace()
        self.start_scheduler()

    # -- deadlines --------------------------------------------------------------------------------

    @property
    def scheduling(self) -> bool:
        """Whether the deadline scheduler runs (after start-up has loaded the open tables)."""
        return self._scheduler is not None and not self._scheduler.done()

    def start_scheduler(self) -> None:
        if self._scheduler is None or self._scheduler.done():
            self._scheduler = asyncio.get_running_loop().create_task(self._run_scheduler())

    async def _run_scheduler(self) -> None:
        """One task for every table's deadlines: sleep until the earliest one stored in the
        database (or until a change may have moved it), handle it, look again."""
        wake = self.service.due_changed
        while True:
            wake.clear()
            self.service.watching = float("inf")
            due = await self.service.next_due()
            if due is not None and due[1] <= self.clock.now():
                try:
                    outcome = await self.service.tick(due[0])
                except Exception:
                    # One bad table must not hold up every other table's deadlines.
                    log.exception("table %s: a deadline could not be handled", due[0])
                    await self.service.postpone(due[0], 60.0)
                    continue
                if outcome is not None:
                    self.publish_later(outcome)
                    self.kick(due[0])
                continue
            self.service.watching = float("inf") if due is None else due[1]
            await self.clock.wait(wake, None if due is None else due[1] - self.clock.now())

    def kick(self, table_id: int) -> None:
        """Make automatic moves (computers, forced cards) until people must act."""
        running = self._steppers.get(table_id)
        if running is not None and not running.done():
            return
        task = self._spawn(self._step_until_people(table_id))
        self._steppers[table_id] = task
        task.add_done_callback(
            lambda done: (
                self._steppers.pop(table_id, None) if self._steppers.get(table_id) is done else None
            )
        )

    async def _step_until_people(self, table_id: int) -> None:
        while True:
            try:
                outcome = await self.service.step(table_id)
            except (Refused, CorruptRow) as error:
                log.warning("table %s: automatic move refused: %s", table_id, error)
                return
            if outcome is None:
                return
            await self.publish(outcome)
            if not outcome.automatic:
                return  # people must act now: no need to ask the service again
            if self.computer_delay:
                await asyncio.sleep(self.computer_delay)

    # -- showing outcomes -----------------------------------------------------------------------

    def publish_later(self, outcome: Outcome) -> None:
        """Publish after the interaction has been answered, as tracked background work."""
        self._spawn(self.publish(outcome))

    async def publish(self, outcome: Outcome) -> None:
        """Show a committed change: the table message (coalesced), private hands, notices.
        One table's outcomes are shown one at a time, in the order they were committed."""
        table = outcome.table
        self.remember(outcome)
        shown = self._shown.get(table.table_id)
        if shown is None:  # a closed table: nothing else can be published for it
            await self._publish(outcome)
            return
        async with shown.publish_lock:
            await self._publish(outcome)

    async def _publish(self, outcome: Outcome) -> None:
        table = outcome.table
        self.schedule_table_edit(table.table_id)
        # The person who acted saw their new hand in the click's answer, and a refresh that
        # renders the same is skipped; but one rendered before their click may still be in
        # flight and land after it, so they are refreshed too.
        for user in outcome.hands:
            self.refresh_hand(table.table_id, user)
        self.watch_turn(table)
        if outcome.announcements and table.table_id in self._missed:
            await self.catch_up(table.table_id)
        for notice in outcome.announcements:
            text = render.notice_text(notice)
            sent = await self._send_channel(table.channel_id, text, mention=outcome.mention)
            if sent is None:
                # Kept for a catch-up post once the channel takes messages again (see
                # `catch_up`): a hand's score is never silently dropped.
                self._missed.setdefault(table.table_id, (table.channel_id, []))[1].append(text)
        if outcome.nudge:
            shown = self._shown.get(table.table_id)
            await self._ping(table, shown.turn if shown else (), outcome.nudge)
        if outcome.opened is not None:
            await self._post_table(outcome.opened)
        if outcome.finished and table.status is not TableStatus.FINISHED:
            await self._close_all_hands(table)
        if not table.status.is_open:
            self.forget(table.table_id)

    async def catch_up(self, table_id: int) -> None:
        """Post what a table's channel missed while the bot could not send there."""
        missed = self._missed.get(table_id)
        if missed is None:
            return
        channel_id, texts = missed
        for post in render.catch_up_posts(texts):
            if await self._send_channel(channel_id, post) is None:
                return  # still refused: kept for the next try
        self._missed.pop(table_id, None)

    async def channel_changed(self, channel_id: int) -> None:
        """A channel's permissions may have changed: post what its tables missed."""
        for table_id, (channel, _) in list(self._missed.items()):
            if channel == channel_id:
                await self.catch_up(table_id)
                self.schedule_table_edit(table_id)

    async def _post_table(self, table: TableView) -> None:
        sent = await self._send_channel(table.channel_id, None, render.table_message(table))
        if sent is not None:
            self.remember_side(await self.service.set_message(table.table_id, sent.id))

    async def _close_all_hands(self, table: TableView) -> None:
        text = f"This game was {table.status.value}" + (
            f": {table.closed_reason}." if table.closed_reason else "."
        )
        shown = self._shown.get(table.table_id)
        refs = shown.dm_refs if shown is not None else await self.service.dm_refs(table.table_id)
        for ref in refs.values():
            self._spawn(self._close_hand_message(ref, text))

    # -- turn nudges ------------------------------------------------------------------------------

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
        shown = self._shown.get(table.table_id)
        if shown is None or shown.turn == marker:
            return
        shown.turn = marker
        if shown.ping is not None:
            self._spawn(self._delete(shown.ping))
            shown.ping = None

    async def _ping(
        self, table: TableView, marker: tuple[Any, ...], waiting: tuple[int, ...]
    ) -> None:
        """One short message that mentions whoever the table waits for; deleted once the turn
        passes (see `watch_turn`)."""
        shown = self._shown.get(table.table_id)
        if shown is None or shown.turn != marker:
            return
        url = render.jump_url(table.guild_id, table.channel_id, table.message_id)
        mentions = " ".join(f"<@{user}>" for user in waiting)
        deadline = (
            f"; time runs out {render.relative_time(table.deadline)}"
            if table.deadline is not None
            else ""
        )
        if shown.ping is not None:
            self._spawn(self._delete(shown.ping))
            shown.ping = None
        channel = self.bot.get_partial_messageable(table.channel_id)
        try:
            await self.pacer.wait()
            sent = await channel.send(
                f"{mentions} — your turn at the table{deadline}: {url}",
                allowed_mentions=discord.AllowedMentions(
                    users=[discord.Object(user) for user in waiting]
                ),
            )
        except discord.HTTPException as error:
            log.warning("table %s: could not ping: %s", table.table_id, error)
            return
        if self._shown.get(table.table_id) is shown and shown.turn == marker:
            shown.ping = channel.get_partial_message(sent.id)
        else:  # the turn passed while sending
            self._spawn(self._delete(channel.get_partial_message(sent.id)))

    async def _delete(self, message: discord.PartialMessage) -> None:
        with contextlib.suppress(discord.HTTPException):
            await self.pacer.wait(urgent=False)
            await message.delete()

    def schedule_table_edit(self, table_id: int) -> None:
        """Bring the table message up to date after `edit_delay`, coalesced (see `_refresh`)."""
        self._refresh(
            ("table", table_id),
            lambda: self._edit_table(table_id),
            self.edit_delay,
            # Render after the pacer lets the edit go: under load the wait is longer and the
            # edit carries every change made meanwhile.
            before=lambda: self.pacer.wait(urgent=False),
        )

    def refresh_hand(self, table_id: int, user_id: int) -> None:
        """Bring one person's hand message up to date, coalesced (see `_refresh`)."""
        self._refresh(("hand", table_id, user_id), lambda: self._show_hand(table_id, user_id))

    def _refresh(
        self,
        key: tuple[Any, ...],
        render_now: Callable[[], Awaitable[None]],
        delay: float = 0.0,
        before: Callable[[], Awaitable[None]] | None = None,
    ) -> None:
        """At most one refresh of a message in flight; requests that come meanwhile merge into
        one more run after it. Each run renders the latest stored state, so under Discord's
        rate limits edits merge by themselves instead of queueing up."""
        if key in self._refreshing:
            self._stale.add(key)
            return
        self._refreshing.add(key)

        async def run() -> None:
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
                        # Dropping a failed edit would leave the message stale for good (a
                        # turn nobody is shown): try again, later and later.
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
                self._refreshing.discard(key)
                self._in_flight.pop(key, None)

        self._spawn(run())

    async def _edit_table(self, table_id: int) -> None:
        shown = self._shown.get(table_id)
        table = shown.view if shown and shown.view else await self.service.table_view(table_id)
        if table.message_id is None:
            return
        message = self.bot.get_partial_messageable(table.channel_id).get_partial_message(
            table.message_id
        )
        try:
            await message.edit(**render.table_message(table).kwargs())
        except discord.NotFound:
            if table.status.is_open:
                sent = await self._send_channel(table.channel_id, None, render.table_message(table))
                if sent is not None:
                    self.remember_side(await self.service.set_message(table_id, sent.id))
        except discord.Forbidden as error:
            log.warning("table %s: may not edit the table message: %s", table_id, error)

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
                return await channel.send(**_send_kwargs(rendered))
            return await channel.send(
                text or "",
                allowed_mentions=discord.AllowedMentions(
                    everyone=False, roles=False, users=[discord.Object(u) for u in mention]
                ),
            )
        except discord.HTTPException as error:
            log.warning("channel %s: could not send: %s", channel_id, error)
            return None

    def _where(self, table: TableView) -> str:
        guild = self.bot.get_guild(table.guild_id)
        channel = guild.get_channel_or_thread(table.channel_id) if guild else None
        if guild is None or channel is None:
            return f"<#{table.channel_id}>"
        return f"#{channel.name} on {guild.name}"

    async def _show_hand(self, table_id: int, user_id: int) -> None:
        """Render one person's hand message from the latest stored state and send it: an edit,
        or a new DM for a new hand (closing the last one). Skipped when nothing would change.
        Only ever called through `refresh_hand`, one at a time per person."""
        shown = self._shown.get(table_id)
        state = shown.hands.get(user_id) if shown else None
        table = shown.view if shown else None
        if state is None or table is None:
            try:
                state = await self.service.hand_state(table_id, user_id)
            except Refused:
                return
            table = await self.service.table_view(table_id)
        rendered = render.hand_message(state, table, self._where(table))
        signature = _signature(rendered)
        if shown is not None and shown.last_dm.get(user_id) == (state.hand_number, signature):
            return
        if user_id in table.dms_closed:
            await self._refresh_ephemeral_hand(table_id, user_id, rendered)
            return
        if shown is not None and shown.view is not None:
            ref = shown.dm_refs.get(user_id)
        else:
            ref = await self.service.dm_ref(table_id, user_id)
        if ref is not None and ref.hand == state.hand_number:
            message = self.bot.get_partial_messageable(ref.channel_id).get_partial_message(
                ref.message_id
            )
            try:
                await self.pacer.wait()
                newer = self._shown.get(table_id)
                if newer and newer.view and newer.view.version > table.version:
                    # A change landed while this waited (a click's own answer may already
                    # show it): render that instead of overwriting it with an older state.
                    fresh = newer.hands.get(user_id)
                    if fresh is None or fresh.hand_number != state.hand_number:
                        return self.refresh_hand(table_id, user_id)
                    rendered = render.hand_message(fresh, newer.view, self._where(newer.view))
                    signature = _signature(rendered)
                    if newer.last_dm.get(user_id) == (state.hand_number, signature):
                        return None
                await message.edit(**rendered.kwargs())
                self._showing(table_id, user_id, (state.hand_number, signature))
                return None
            except discord.NotFound:
                pass  # deleted by the person: send a new one
        try:
            # The DM channel of an earlier hand is known; opening it again would cost a call
            # (discord.py keeps no DM cache without the members' users).
            channel: discord.abc.Messageable
            if ref is not None:
                channel = self.bot.get_partial_messageable(
                    ref.channel_id, type=discord.ChannelType.private
                )
            else:
                await self.pacer.wait()
                channel = await self.bot.create_dm(discord.Object(user_id))
            await self.pacer.wait()
            sent = await channel.send(**_send_kwargs(rendered))
        except discord.Forbidden:
            self.remember_side(await self.service.record_dm(table_id, user_id, None))
            self.schedule_table_edit(table_id)
            return
        new_ref = DmRef(channel_id=sent.channel.id, message_id=sent.id, hand=state.hand_number)
        self._showing(table_id, user_id, (state.hand_number, signature), new_ref)
        self.remember_side(await self.service.record_dm(table_id, user_id, new_ref))
        if ref is not None and ref.hand != state.hand_number:
            # After the new hand is out: nobody waits on this edit.
            self._spawn(self._close_hand_message(ref, table_id=table_id))

    def _showing(
        self, table_id: int, user_id: int, shows: tuple[int, str], ref: DmRef | None = None
    ) -> None:
        """What a hand DM shows now that an edit landed (the table's state may have been
        created meanwhile: a later refresh compares against this)."""
        shown = self._shown.get(table_id)
        if shown is not None:
            shown.last_dm[user_id] = shows
            if ref is not None:
                shown.dm_refs[user_id] = ref

    async def _close_hand_message(
        self, ref: DmRef, text: str | None = None, *, table_id: int | None = None
    ) -> None:
        """Take the controls off a finished hand's message, so no stale button looks live."""
        shown = self._shown.get(table_id) if table_id is not None else None
        if shown is not None and ref.message_id in shown.closed_dms:
            return
        message = self.bot.get_partial_messageable(ref.channel_id).get_partial_message(
            ref.message_id
        )
        with contextlib.suppress(discord.HTTPException):
            await self.pacer.wait(urgent=False)
            await message.edit(
                content=text or HAND_OVER.format(hand=ref.hand), embed=None, view=None
            )
        if shown is not None:
            shown.closed_dms.add(ref.message_id)

    async def _refresh_ephemeral_hand(
        self, table_id: int, user_id: int, rendered: render.Rendered
    ) -> None:
        shown = self._shown.get(table_id)
        held = shown.ephemeral.get(user_id) if shown else None
        if held is None or time.monotonic() - held[1] > EPHEMERAL_TOKEN_LIFETIME:
            return
        with contextlib.suppress(discord.HTTPException):
            await held[0].edit_original_response(**rendered.kwargs())

    # -- clicks ---------------------------------------------------------------------------------

    async def on_click(
        self,
        interaction: discord.Interaction[Any],
        custom_id: str,
        values: tuple[str, ...] = (),
        offered: tuple[str, ...] | None = None,
    ) -> None:
        """Every button and select of the game, from the persistent items (cogs/items.py)."""
        try:
            try:
                click = parse(custom_id, values, offered)
            except NotOffered:
                raise Refused("not_offered") from None
            if click is None:
                raise Refused("not_for_you")
            await self._handle(interaction, click)
        except Exception as error:  # the one error handler answers every failure
            await answer_error(interaction, error)

    async def _handle(self, interaction: discord.Interaction[Any], click: Click) -> None:
        user = interaction.user
        t = click.table_id
        service = self.service
        kind = click.kind
        dm = _dm_channel(interaction)
        if dm is not None and kind not in DM_KINDS:
            raise Refused("not_for_you")  # no other control is ever sent in a DM
        if kind == "join":
            outcome = await service.join(t, user.id, user.display_name)
            self.remember(outcome)
            await self._update_table_in_place(interaction, outcome)
        elif kind == "leave":
            outcome = await service.leave(t, user.id)
            self.remember(outcome)
            await self._update_table_in_place(interaction, outcome)
        elif kind == "addcpu":
            await self._require_seated_lobby(t, user.id)
            await interaction.response.send_message(
                **_send_kwargs(render.computer_level_picker(t)), ephemeral=True
            )
        elif kind == "cpulevel":
            level = click.values[0] if click.values else "normal"
            outcome = await service.add_computer(t, user.id, level)
            self.remember(outcome)
            await interaction.response.edit_message(content=render.answer(outcome.reply), view=None)
            self.schedule_table_edit(t)
        elif kind in ("rules", "rulepg"):
            await self._require_host(t, interaction)
            page = (whole_number(click.arg) or 0) if kind == "rulepg" else 0
            rendered = render.rules_editor(t, await service.settings(t), page)
            if kind == "rules":
                await interaction.response.send_message(**_send_kwargs(rendered), ephemeral=True)
            else:
                await interaction.response.edit_message(**rendered.kwargs())
        elif kind == "rule":
            field = click.arg or ""
            raw = click.values[0] if click.values else "-"
            outcome = await service.set_rule(
                t, user.id, field, _rule_value(field, raw), can_manage=_can_manage(interaction)
            )
            self.remember(outcome)
            page = next((i for i, fields in enumerate(render.RULE_PAGES) if field in fields), 0)
            rendered = render.rules_editor(t, await service.settings(t), page)
            await interaction.response.edit_message(**rendered.kwargs())
            self.schedule_table_edit(t)
        elif kind == "start":
            outcome = await service.start_game(t, user.id, can_manage=_can_manage(interaction))
            self.remember(outcome)
            await self._update_table_in_place(interaction, outcome)
            self.publish_later(outcome)
            self.kick(t)
        elif kind == "leaveok":
            outcome = await service.leave(t, user.id)
            self.remember(outcome)
            await interaction.response.edit_message(content=render.answer(outcome.reply), view=None)
            self.publish_later(outcome)
            self.kick(t)
        elif kind == "cancel":
            await self._require_host(t, interaction)
            await interaction.response.send_message(
                **_send_kwargs(render.cancel_confirm(t)), ephemeral=True
            )
        elif kind == "cancelok":
            outcome = await service.cancel(t, user.id, can_manage=_can_manage(interaction))
            self.remember(outcome)
            await interaction.response.edit_message(content=render.answer(outcome.reply), view=None)
            self.publish_later(outcome)
        elif kind == "hand":
            await self.send_hand(interaction, t)
        elif kind == "scores":
            table = await service.table_view(t)
            await reply(interaction, render.scores_text(table))
        elif kind == "auto":
            outcome = await service.set_auto_play(t, user.id, click.arg == "1", dm_channel=dm)
            self.remember(outcome)
            state = await service.hand_state(t, user.id)
            await interaction.response.edit_message(
                **render.hand_message(state, outcome.table, self._where(outcome.table)).kwargs()
            )
            self.kick(t)
        elif kind in ("bid", "bidsel", "play", "playsel", "trump"):
            await self._act(interaction, click)
        elif kind == "back":
            outcome = await service.come_back(t, user.id, dm_channel=dm)
            self.remember(outcome)
            table = outcome.table
            if interaction.message is not None and interaction.message.id != table.message_id:
                # Pressed in their hand message: it becomes their hand again, in place.
                state = outcome.hands.get(user.id) or await service.hand_state(t, user.id)
                rendered = render.hand_message(state, table, self._where(table))
                await interaction.response.edit_message(**rendered.kwargs())
                if not interaction.message.flags.ephemeral and t in self._shown:
                    self._shown[t].last_dm[user.id] = (state.hand_number, _signature(rendered))
            else:
                await reply(interaction, render.answer(outcome.reply, "Welcome back."))
            self.publish_later(outcome)
            self.kick(t)
        elif kind == "hostctl":
            table = await self._require_host(t, interaction)
            await interaction.response.send_message(
                **_send_kwargs(render.host_panel(table)), ephemeral=True
            )
        elif kind in ("kick", "hostto", "timer", "pause", "resume"):
            await self._host_action(interaction, click)
        elif kind == "rematch":
            outcome = await service.rematch(t, user.id)
            self.remember(outcome)
            opened = outcome.opened
            assert opened is not None
            await reply(interaction, "Rematch table opened below: the others confirm with Join.")
            self.publish_later(outcome)
        else:
            raise Refused("not_for_you")

    async def _host_action(self, interaction: discord.Interaction[Any], click: Click) -> None:
        """A host control from the host panel; the panel is redrawn with the new state."""
        t, kind, user = click.table_id, click.kind, interaction.user
        manage = _can_manage(interaction)
        number = whole_number(click.values[0] if click.values else None)
        if kind in ("kick", "hostto", "timer") and number is None:
            raise Refused("not_for_you")
        value = number or 0
        if kind == "kick":
            outcome = await self.service.kick(t, user.id, value, can_manage=manage)
            self.remember(outcome)
        elif kind == "hostto":
            outcome = await self.service.hand_over(t, user.id, value, can_manage=manage)
            self.remember(outcome)
        elif kind == "timer":
            outcome = await self.service.set_turn_timer(t, user.id, value, can_manage=manage)
            self.remember(outcome)
        else:
            outcome = await self.service.set_paused(t, user.id, kind == "pause", can_manage=manage)
            self.remember(outcome)
        table = outcome.table
        if table.host_id == user.id or manage:
            panel = render.host_panel(table)
            await interaction.response.edit_message(
                content=f"{render.answer(outcome.reply)}\n{panel.content}",
                embed=None,
                view=panel.view,
            )
        else:
            await interaction.response.edit_message(content=render.answer(outcome.reply), view=None)
        if kind == "kick":
            self.refresh_hand(t, value)
        self.publish_later(outcome)
        self.kick(t)

    async def _act(self, interaction: discord.Interaction[Any], click: Click) -> None:
        if click.hand is None:
            raise Refused("not_for_you")
        t, user = click.table_id, interaction.user
        action = self._action(click)
        outcome = await self.service.act(
            t, user.id, click.hand, action, dm_channel=_dm_channel(interaction)
        )
        self.remember(outcome)
        state = outcome.hands.get(user.id) or await self.service.hand_state(t, user.id)
        landed = self._in_flight.get(("hand", t, user.id))
        if landed is not None:
            # A refresh of this hand rendered before the click is on its way: let it land
            # first, so it cannot overwrite this answer (the refresh then runs again).
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(landed.wait(), IN_FLIGHT_WAIT)
        rendered = render.hand_message(state, outcome.table, self._where(outcome.table))
        ephemeral = interaction.message is not None and interaction.message.flags.ephemeral
        if outcome.new_hand and not ephemeral:
            # The clicked DM belongs to the finished hand: close it; the new hand comes as a
            # new DM (which notifies, unlike an edit).
            await interaction.response.edit_message(
                content=HAND_OVER.format(hand=click.hand), embed=None, view=None
            )
            if interaction.message is not None and t in self._shown:
                self._shown[t].closed_dms.add(interaction.message.id)
        else:
            await interaction.response.edit_message(**rendered.kwargs())
            shown = self._shown.get(t)
            if shown is not None and ephemeral:
                shown.ephemeral[user.id] = (interaction, time.monotonic())
            elif shown is not None:
                shown.last_dm[user.id] = (state.hand_number, _signature(rendered))
        self.publish_later(outcome)
        if outcome.automatic:
            self.kick(t)

    @staticmethod
    def _action(click: Click) -> Bid | Play | ChooseTrump | int:
        """The action a game control stands for; a card as its id in the pack."""
        kind = click.kind
        value = click.values[0] if click.values else click.arg
        if value is None:
            raise Refused("not_for_you")
        number = whole_number(value)
        if kind in ("bid", "bidsel"):
            if number is None:
                raise Refused("not_for_you")
            return Bid(number)
        if kind == "trump":
            if value not in ("C", "D", "H", "S"):
                raise Refused("not_for_you")
            return ChooseTrump(value)  # type: ignore[arg-type]
        if value == "hidden":
            return Play(HIDDEN)
        if number is None:
            raise Refused("not_for_you")
        return number

    async def send_hand(self, interaction: discord.Interaction[Any], table_id: int) -> None:
        state = await self.service.hand_state(table_id, interaction.user.id)
        table = await self.service.table_view(table_id)
        rendered = render.hand_message(state, table, self._where(table))
        await interaction.response.send_message(**_send_kwargs(rendered), ephemeral=True)
        if table.status.is_open:
            self._state(table_id).ephemeral[interaction.user.id] = (interaction, time.monotonic())

    async def _update_table_in_place(
        self, interaction: discord.Interaction[Any], outcome: Outcome
    ) -> None:
        """A lobby button on the table message: the answer is the table message itself."""
        message = interaction.message
        known = outcome.table.message_id
        if message is not None and known in (None, message.id):
            await interaction.response.edit_message(**render.table_message(outcome.table).kwargs())
            if known is None:
                stored = await self.service.set_message(outcome.table.table_id, message.id)
                self.remember_side(stored)
        else:
            await reply(interaction, render.answer(outcome.reply))
            self.schedule_table_edit(outcome.table.table_id)

    async def _require_seated_lobby(self, table_id: int, user_id: int) -> None:
        table = await self.service.table_view(table_id)
        if table.status is not TableStatus.LOBBY:
            raise Refused("already_started")
        if all(seat.user_id != user_id for seat in table.seats):
            raise Refused("join_first")

    async def _require_host(
        self, table_id: int, interaction: discord.Interaction[Any]
    ) -> TableView:
        table = await self.service.table_view(table_id)
        if not table.status.is_open:
            raise Refused("table_closed", status=table.status.value)
        if table.host_id != interaction.user.id and not _can_manage(interaction):
            raise Refused("host_only", doing="")
        return table


DM_KINDS = frozenset({"bid", "bidsel", "play", "playsel", "trump", "auto", "back"})
"""The controls a hand DM carries."""


def _dm_channel(interaction: discord.Interaction[Any]) -> int | None:
    """For a click in a DM (whose answer edits a message there): refused at once if the DM is
    someone else's; else the channel, for the service to check against the person's hand DM
    when Discord did not say whose DM it is. None: not a DM, or known to be the person's."""
    message = interaction.message
    if interaction.guild_id is not None or message is None or message.flags.ephemeral:
        return None
    channel = interaction.channel
    recipient = channel.recipient if isinstance(channel, discord.DMChannel) else None
    if recipient is not None:
        if recipient.id != interaction.user.id:
            raise Refused("not_for_you")
        return None
    return interaction.channel_id


def _send_kwargs(rendered: render.Rendered) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if rendered.content is not None:
        out["content"] = rendered.content
    if rendered.embed is not None:
        out["embed"] = rendered.embed
    if rendered.view is not None:
        out["view"] = rendered.view
    return out


def _signature(rendered: render.Rendered) -> str:
    """What a message would show, to tell whether an edit would change anything."""
    embed = rendered.embed.to_dict() if rendered.embed is not None else None
    view = rendered.view.to_components() if rendered.view is not None else None
    return repr((rendered.content, embed, view))


def _can_manage(interaction: discord.Interaction[Any]) -> bool:
    permissions = getattr(interaction.user, "guild_permissions", None)
    channel_permissions = interaction.permissions
    return bool(
        (channel_permissions and channel_permissions.manage_channels)
        or (permissions and permissions.manage_channels)
    )


def _rule_value(field: str, raw: str) -> object:
    if raw == "-":
        return None
    if raw in ("true", "false"):
        return raw == "true"
    number = whole_number(raw)
    if field in ("max_cards", "target") and number is not None:
        return number
    return raw


def _missing_permissions(interaction: discord.Interaction[Any]) -> list[str]:
    granted = interaction.app_permissions
    return [name for name in REQUIRED_PERMISSIONS if not getattr(granted, name)]


class TablesCog(commands.Cog, name="Tables"):
    ohhell = app_commands.Group(
        name="ohhell", description="Play Oh Hell in this channel", guild_only=True
    )

    def __init__(self, controller: TableController) -> None:
        self.controller = controller
        self.service = controller.service

    @commands.Cog.listener()
    async def on_guild_channel_update(
        self, before: discord.abc.GuildChannel, after: discord.abc.GuildChannel
    ) -> None:
        # Permission overwrites changed, perhaps given back to the bot: catch up.
        await self.controller.channel_changed(after.id)

    @ohhell.command(name="start", description="Open a table in this channel")
    @app_commands.describe(**RULE_OPTION_HELP)
    @app_commands.choices(**RULE_OPTION_CHOICES)
    @app_commands.choices(timer=TIMER_CHOICES)
    async def start(
        self,
        interaction: discord.Interaction[Any],
        preset: str | None = None,
        max_cards: app_commands.Range[int, 1, 26] | None = None,
        sequence: str | None = None,
        bidding: str | None = None,
        scoring: str | None = None,
        trump: str | None = None,
        first_lead: str | None = None,
        timer: int | None = None,
    ) -> None:
        missing = _missing_permissions(interaction)
        if missing:
            names = ", ".join(name.replace("_", " ").title() for name in missing)
            await reply(
                interaction,
                f"I can't run a table here: I need the {names} permission"
                f"{'s' if len(missing) > 1 else ''} in this channel.",
            )
            return
        existing = await self.service.table_in_channel(interaction.channel_id or 0)
        if existing is not None:
            url = render.jump_url(existing.guild_id, existing.channel_id, existing.message_id)
            await reply(interaction, f"This channel already has an open table: {url}")
            return
        settings = _rule_options(
            preset=preset,
            max_cards=max_cards,
            sequence=sequence,
            bidding=bidding,
            scoring=scoring,
            trump=trump,
            first_lead=first_lead,
        )
        outcome = await self.service.open_table(
            guild_id=interaction.guild_id or 0,
            channel_id=interaction.channel_id or 0,
            user_id=interaction.user.id,
            name=interaction.user.display_name,
            settings=settings,
            turn_timer=timer,
        )
        rendered = render.table_message(outcome.table)
        callback = await interaction.response.send_message(**_send_kwargs(rendered))
        message = callback.resource
        if not isinstance(message, discord.InteractionMessage):
            message = await interaction.original_response()
        stored = await self.service.set_message(outcome.table.table_id, message.id)
        self.controller.remember_side(stored)

    @ohhell.command(
        name="settings",
        description="Set the rules /ohhell start uses in this channel (Manage Channels)",
    )
    @app_commands.describe(**RULE_OPTION_HELP, clear="Forget this channel's defaults")
    @app_commands.choices(**RULE_OPTION_CHOICES)
    @app_commands.choices(timer=TIMER_CHOICES)
    async def channel_settings(
        self,
        interaction: discord.Interaction[Any],
        preset: str | None = None,
        max_cards: app_commands.Range[int, 1, 26] | None = None,
        sequence: str | None = None,
        bidding: str | None = None,
        scoring: str | None = None,
        trump: str | None = None,
        first_lead: str | None = None,
        timer: int | None = None,
        clear: bool = False,
    ) -> None:
        settings = _rule_options(
            preset=preset,
            max_cards=max_cards,
            sequence=sequence,
            bidding=bidding,
            scoring=scoring,
            trump=trump,
            first_lead=first_lead,
        )
        channel = interaction.channel_id or 0
        if not clear and not settings and timer is None:
            current = await self.service.channel_defaults(channel)
            text = (
                "This channel has no defaults: `/ohhell start` uses the classic preset."
                if current is None
                else "This channel's defaults: "
                + ", ".join(
                    f"{k} {timer_text(int(str(v))) if k == 'turn_timer' else v}"
                    for k, v in current.items()
                )
            )
            await reply(interaction, text)
            return
        text = await self.service.set_channel_defaults(
            guild_id=interaction.guild_id or 0,
            channel_id=channel,
            user_id=interaction.user.id,
            settings=None if clear else settings,
            turn_timer=timer,
            can_manage=_can_manage(interaction),
        )
        await reply(interaction, text)

    async def _channel_table(self, interaction: discord.Interaction[Any]) -> TableView | None:
        row = await self.service.table_in_channel(interaction.channel_id or 0)
        if row is None:
            await reply(interaction, "There is no open table in this channel.")
            return None
        return await self.service.table_view(row.id)

    @ohhell.command(
        name="hand", description="Show your hand at this channel's table (only you see it)"
    )
    async def hand(self, interaction: discord.Interaction[Any]) -> None:
        table = await self._channel_table(interaction)
        if table is None:
            return
        await self.controller.send_hand(interaction, table.table_id)

    @ohhell.command(name="scores", description="The score sheet of this channel's table")
    async def scores(self, interaction: discord.Interaction[Any]) -> None:
        table = await self._channel_table(interaction)
        if table is not None:
            await reply(interaction, render.scores_text(table))

    @ohhell.command(name="rules", description="The rules of this channel's table")
    async def rules(self, interaction: discord.Interaction[Any]) -> None:
        table = await self._channel_table(interaction)
        if table is not None:
            source = f"\n*Rules from {table.rules_source}.*" if table.rules_source else ""
            timer = f"\nTurn timer: {timer_text(table.turn_timer)}"
            await reply(interaction, "\n".join(table.rules_summary) + timer + source)

    @ohhell.command(name="leave", description="Leave this channel's table")
    async def leave(self, interaction: discord.Interaction[Any]) -> None:
        table = await self._channel_table(interaction)
        if table is None:
            return
        seat = next((s for s in table.seats if s.user_id == interaction.user.id), None)
        if seat is None or seat.left:
            await reply(interaction, "You are not seated at this table.")
            return
        await interaction.response.send_message(
            **_send_kwargs(render.leave_confirm(table)), ephemeral=True
        )

    @ohhell.command(
        name="cancel", description="Cancel this channel's table (host or Manage Channels)"
    )
    async def cancel(self, interaction: discord.Interaction[Any]) -> None:
        table = await self._channel_table(interaction)
        if table is None:
            return
        if table.host_id != interaction.user.id and not _can_manage(interaction):
            await reply(interaction, "Only the host (or someone with Manage Channels) can cancel.")
            return
        await interaction.response.send_message(
            **_send_kwargs(render.cancel_confirm(table.table_id)), ephemeral=True
        )

    @app_commands.command(name="leaderboard", description="This server's Oh Hell leaderboard")
    @app_commands.guild_only()
    @app_commands.describe(preset="Only games of this rule system")
    @app_commands.choices(preset=PRESET_CHOICES)
    async def leaderboard(
        self, interaction: discord.Interaction[Any], preset: str | None = None
    ) -> None:
        board = await self.service.leaderboard(
            interaction.guild_id or 0, preset=preset, caller_id=interaction.user.id
        )
        guild_name = interaction.guild.name if interaction.guild else "this server"
        await interaction.response.send_message(
            embed=render.leaderboard_embed(board, guild_name, preset),
            allowed_mentions=discord.AllowedMentions.none(),
        )
