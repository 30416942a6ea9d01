"""Keeps Discord in step with the database: the table message (gathered edits), each person's
hand DM, notices in the channel, turn mentions, catch-up posts, and the automatic moves and
deadlines that run between clicks. It renders from the outcomes the service hands back and holds
per-table state only while a table is open (cogs/shown.py)."""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine
from typing import Any

import aiohttp
import discord
from discord.ext import commands
from discord.http import handle_message_parameters

from bot.clock import Clock, SystemClock
from bot.config import DEFAULTS
from bot.service import (
    CorruptRow,
    DmRef,
    HandState,
    Outcome,
    Refused,
    TableChange,
    TableService,
    TableStatus,
    TableView,
)
from cogs import render
from cogs.pacing import Pacer
from cogs.render.charts import score_chart_png
from cogs.shown import HandShown, Shown

log = logging.getLogger(__name__)

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


RECENTLY_CLOSED = 15 * 60.0
"""Seconds back that a starting bot looks for closed tables whose message may be behind."""

CHART_TIMEOUT = 60.0
"""Seconds the score chart may take in a worker before the standings stay without it."""

HAND_OVER = "Hand {hand} is over — your next hand is in a new message."
EPHEMERAL_TOKEN_LIFETIME = 14 * 60  # Discord's 15 minutes, less a margin


class Presenter:
    """Shows committed changes; the click handling (cogs/clicks.py) builds on it."""

    def __init__(
        self,
        bot: commands.Bot | commands.AutoShardedBot,
        service: TableService,
        *,
        edit_delay: float = DEFAULTS["table_edit_delay"].default,
        computer_delay: float = DEFAULTS["computer_delay"].default,
        clock: Clock | None = None,
        run_blocking: Callable[..., Awaitable[Any]] | None = None,
        deadline_poll: float = DEFAULTS["deadline_poll"].default,
        rest_share: float = 1.0,
    ) -> None:
        self.bot = bot
        self.service = service
        self.run_blocking = run_blocking or asyncio.to_thread
        """Runs a picklable function outside the event loop (the worker processes)."""
        self.clock: Clock = clock or SystemClock()
        self._scheduler: asyncio.Task[None] | None = None
        self.edit_delay = edit_delay
        self.computer_delay = computer_delay
        self.deadline_poll = deadline_poll if service.shared_database else None
        """Seconds between looks for deadlines set elsewhere: only when other processes share
        the database (one process alone is told of every change)."""
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
        shared = service.take_rest_calls if service.shared_database else None
        self.pacer = Pacer(share=rest_share, budget=shared)
        self._watching = False

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

    def cached_tables(self) -> set[int]:
        """The tables anything is held in memory for (tests check it empties)."""
        refreshing = {key[1] for key in self._refreshing | self._stale | set(self._in_flight)}
        return set(self._shown) | set(self._steppers) | set(self._missed) | refreshing

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
        computers carry on where they stopped. Tables closed in the last minutes get their
        message brought up to date too (the final standings may not have been shown)."""
        for table_id in await self.service.closed_since(RECENTLY_CLOSED):
            self.schedule_table_edit(table_id)
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
            self.move_on(table_id)
        await self.service.allow_grace()
        if not self._watching:
            self._watching = True
            await self.service.watch_changes(self._changed_elsewhere)
        self.start_scheduler()

    def _changed_elsewhere(self, change: TableChange) -> None:
        """A change stored by any process (PostgreSQL). Private hand replies (people whose DMs
        are closed) can be edited only by the process that answered them: if this one holds
        some for a table another process changed, it brings them up to date."""
        shown = self._shown.get(change.table_id)
        if shown is None or not shown.ephemeral:
            return
        if shown.view is not None and shown.view.version >= change.version:
            return  # this process's own change, or one it already shows
        self._spawn(self._catch_up_private_hands(change.table_id))

    async def _catch_up_private_hands(self, table_id: int) -> None:
        self.remember(await self.service.newest(table_id))
        shown = self._shown.get(table_id)
        for user_id in list(shown.ephemeral) if shown is not None else ():
            self.refresh_hand(table_id, user_id)

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
                if not await self.service.claim(*due):
                    continue  # another bot process took it
                try:
                    outcome = await self.service.tick(due[0])
                except Exception:
                    # One bad table must not hold up every other table's deadlines.
                    log.exception("table %s: a deadline could not be handled", due[0])
                    await self.service.postpone(due[0], 60.0)
                    continue
                if outcome is not None:
                    self.publish_later(outcome)
                    self.move_on(due[0])
                continue
            self.service.watching = float("inf") if due is None else due[1]
            timeout = None if due is None else due[1] - self.clock.now()
            if self.deadline_poll is not None:
                timeout = (
                    self.deadline_poll if timeout is None else min(timeout, self.deadline_poll)
                )
            await self.clock.wait(wake, timeout)

    def move_on(self, table_id: int) -> None:
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
            name = render.chart_file_name(notice)
            if sent is not None and name is not None:
                self._spawn(self._attach_chart(sent, notice.params["chart"], name))
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

    async def _attach_chart(self, message: discord.Message, chart: Any, name: str) -> None:
        """Draw the score chart in a worker and add it to the standings post; if it cannot be
        drawn, the post stays as it is (logged)."""
        try:
            png = await asyncio.wait_for(
                self.run_blocking(score_chart_png, chart), timeout=CHART_TIMEOUT
            )
            await self.pacer.wait(urgent=False)
            await message.edit(attachments=[discord.File(io.BytesIO(png), filename=name)])
        except Exception:
            log.exception("game %s: the score chart could not be added", chart.game)

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
            f": {render.closed_text(table.closed_reason)}." if table.closed_reason else "."
        )
        shown = self._shown.get(table.table_id)
        refs = shown.dm_refs if shown is not None else await self.service.dm_refs(table.table_id)
        for ref in refs.values():
            self._spawn(self._close_hand_message(ref, text))

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
        message_id = table.message_id
        if message_id is None:
            return
        try:
            async with self.writing(table_id, table.version) as moved:
                if moved is not None:
                    table = moved.table
                await self._edit(table.channel_id, message_id, render.table_message(table))
        except discord.NotFound:
            if table.status.is_open:
                sent = await self._send_channel(table.channel_id, None, render.table_message(table))
                if sent is not None:
                    self.remember_side(await self.service.set_message(table_id, sent.id))
        except discord.Forbidden as error:
            log.warning("table %s: may not edit the table message: %s", table_id, error)

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

    def _where(self, table: TableView) -> str:
        guild = self.bot.get_guild(table.guild_id)
        channel = guild.get_channel_or_thread(table.channel_id) if guild else None
        if guild is None or channel is None:
            return f"<#{table.channel_id}>"
        return f"#{channel.name} on {guild.name}"

    async def _show_hand(self, table_id: int, user_id: int) -> None:
        """Render one person's hand message from the latest stored state and send it: an edit,
        or a new DM for a new hand (closing the last one). Skipped when nothing would change.
        Only ever called through `refresh_hand`, one at a time per person in this process; with
        other processes, under the hand message's `writing` hold, so two never send one hand
        twice."""
        shown = self._shown.get(table_id)
        state = shown.hands.get(user_id) if shown else None
        table = shown.view if shown else None
        if state is None or table is None:
            try:
                state = await self.service.hand_state(table_id, user_id)
            except Refused:
                return
            table = await self.service.table_view(table_id)
        shows = self.hand_shown_as(state, table)
        if shown is not None and shown.last_dm.get(user_id) == shows:
            return  # the same inputs render the same message: nothing to render or send
        if user_id in table.dms_closed:
            rendered = render.hand_message(state, table, self._where(table))
            await self._refresh_ephemeral_hand(table_id, user_id, rendered)
            return
        # The calls are paced before the hold, which a click's answer may be waiting for: a
        # first hand's DM channel is opened too.
        await self.pacer.wait()
        if shown is None or user_id not in shown.dm_refs:
            await self.pacer.wait()
        async with self.writing(table_id, table.version, user_id):
            newer = self._shown.get(table_id)
            if newer and newer.view and newer.view.version > table.version:
                # A change landed while this waited (a click's own answer, or another
                # process, may already show it, or have sent this hand's DM): render that
                # instead of overwriting it with an older state.
                fresh = newer.hands.get(user_id)
                if fresh is None or fresh.hand_number != state.hand_number:
                    return self.refresh_hand(table_id, user_id)
                state, table = fresh, newer.view
                shows = self.hand_shown_as(state, table)
                if newer.last_dm.get(user_id) == shows:
                    return None
            rendered = render.hand_message(state, table, self._where(table))
            if newer is not None and newer.view is not None:
                ref = newer.dm_refs.get(user_id)
            else:
                ref = await self.service.dm_ref(table_id, user_id)
            if ref is not None and ref.hand == state.hand_number:
                try:
                    await self._edit(ref.channel_id, ref.message_id, rendered)
                    self._showing(table_id, user_id, shows)
                    return None
                except discord.NotFound:
                    pass  # deleted by the person: send a new one
            new_ref = await self._send_hand(table_id, user_id, ref, rendered, state.hand_number)
            if new_ref is not None:
                self._showing(table_id, user_id, shows, new_ref)
        if new_ref is None:
            self.schedule_table_edit(table_id)  # DMs closed: the table message says so
        elif ref is not None and ref.hand != state.hand_number:
            # After the new hand is out: nobody waits on this edit.
            self._spawn(self._close_hand_message(ref, table_id=table_id))
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
                channel = self.bot.get_partial_messageable(
                    ref.channel_id, type=discord.ChannelType.private
                )
            else:
                channel = await self.bot.create_dm(discord.Object(user_id))
            sent = await channel.send(**rendered.send_kwargs())
        except discord.Forbidden:
            self.remember_side(await self.service.record_dm(table_id, user_id, None))
            return None
        new_ref = DmRef(channel_id=sent.channel.id, message_id=sent.id, hand=hand)
        self.remember_side(await self.service.record_dm(table_id, user_id, new_ref))
        return new_ref

    def hand_shown_as(self, state: HandState, table: TableView) -> HandShown:
        """What a hand message shows, as the inputs that render it: equal inputs render the
        same message, so comparing them needs no rendering."""
        where = (table.guild_id, table.channel_id, table.message_id, self._where(table))
        return (state.hand_number, (state, where))

    def _showing(
        self, table_id: int, user_id: int, shows: HandShown, ref: DmRef | None = None
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
