"""Clicks: every button and select of a table, from its family of persistent items
(cogs/items/table.py), answered here: one method a control, turned into service calls; what a
change stored is handed to the presenter."""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import time
from collections.abc import Iterator
from typing import Any

import discord

from bot.engine import SUITS
from bot.service import Outcome, Refused, TableStatus, TableView
from bot.service.refusals import (
    ActivitiesOff,
    AlreadyStarted,
    HostOnly,
    JoinFirst,
    NotForYou,
    TableClosed,
)
from cogs import render
from cogs.errors import AfterCommit, answer_error, metrics_of, reply
from cogs.interaction import Interaction
from cogs.items import CardChoice, Control, Controller, Move, whole_number
from cogs.presenter import IN_FLIGHT_WAIT, Presenter
from cogs.render.language import _, speaking

_COMMITTED: contextvars.ContextVar[bool] = contextvars.ContextVar("committed", default=False)
"""Whether the click being answered stored a change (its person acted: their language is
remembered), set by `TableController.committed`."""


class TableController(Controller):
    """Turns clicks into service calls and their answers; what a change stored is handed to
    the presenter, which shows it."""

    def __init__(self, presenter: Presenter) -> None:
        self.presenter = presenter
        self.service = presenter.service

    async def on_click(self, interaction: Interaction, control: Control[Any]) -> None:
        """Every control's click: refused in a DM unless its family is a hand message's,
        counted, timed, and every failure answered by the one error handler."""
        started = time.perf_counter()
        metrics = metrics_of(interaction)
        speakers = self.presenter.ground.speakers
        await speakers.hear(interaction)
        _COMMITTED.set(False)
        try:
            if interaction.guild_id is None and not control.in_dm:
                raise Refused(NotForYou())  # no other control is ever sent in a DM
            metrics.clicks(control.kind).inc()
            await control.handle(self, interaction)
        except Exception as error:  # the one error handler answers every failure
            await answer_error(interaction, error)
        if _COMMITTED.get():
            await speakers.acted(interaction)
        metrics.answer_seconds.observe(time.perf_counter() - started)

    @contextlib.contextmanager
    def committed(
        self, outcome: Outcome, *, publish: bool = True, move_on: bool = True
    ) -> Iterator[None]:
        """Around a click's answer to a stored change: the change is shown whatever becomes of
        the answer (Discord's 3 s may have run out, the message may be gone). With `publish`,
        it is published; without, the answer shows it (and asks for the table message's edit
        itself), so the table message is edited here only if the answer failed. Then automatic
        moves go on."""
        self.presenter.ground.remember(outcome)
        self.presenter.tell_followers(outcome)
        _COMMITTED.set(True)
        answered = False
        try:
            yield
            answered = True
        except Exception as error:
            raise AfterCommit(error) from error
        finally:
            if publish:
                self.presenter.publish_later(outcome)
            elif not answered:
                self.presenter.table_messages.schedule_edit(outcome.table.table_id)
            if move_on:
                self.presenter.automatic.move_on(outcome.table.table_id)

    def from_page(self, outcome: Outcome, user_id: int, move_on: bool) -> None:
        """A move `user_id` made at the table's page (cogs/web/actions.py), shown as a click's
        is: the table message, the hand DMs and every page follow; their own hand DM, which a
        click's answer would have edited, is brought up to date."""
        with self.committed(outcome, move_on=move_on):
            if outcome.table.status.is_open:
                self.presenter.hands.refresh_hand(outcome.table.table_id, user_id)

    # -- the lobby -------------------------------------------------------------------------

    async def join(self, interaction: Interaction, table_id: int) -> None:
        user = interaction.user
        outcome = await self.service.lobby.join(table_id, user.id, user.display_name)
        with self.committed(outcome, publish=False, move_on=False):
            await self._update_table_in_place(interaction, outcome)

    async def leave(self, interaction: Interaction, table_id: int) -> None:
        """The lobby's Leave: the table message is the answer."""
        outcome = await self.service.lobby.leave(table_id, interaction.user.id)
        with self.committed(outcome, publish=False, move_on=False):
            await self._update_table_in_place(interaction, outcome)

    async def confirm_leave(self, interaction: Interaction, table_id: int) -> None:
        """Yes on /ohhell leave's question."""
        outcome = await self.service.lobby.leave(table_id, interaction.user.id)
        with self.committed(outcome):
            await self._settle(interaction, outcome)

    async def offer_computer(self, interaction: Interaction, table_id: int) -> None:
        await self._require_seated_lobby(table_id, interaction.user.id)
        picker = render.computer_level_picker(table_id)
        await interaction.response.send_message(**picker.send_kwargs(), ephemeral=True)

    async def add_computer(self, interaction: Interaction, table_id: int, level: str) -> None:
        outcome = await self.service.lobby.add_computer(table_id, interaction.user.id, level)
        with self.committed(outcome, publish=False, move_on=False):
            await self._settle(interaction, outcome)
            self.presenter.table_messages.schedule_edit(table_id)

    async def open_rules(self, interaction: Interaction, table_id: int) -> None:
        await self._require_host(table_id, interaction)
        rendered = render.rules_editor(table_id, await self.service.lookups.rules(table_id), 0)
        await interaction.response.send_message(**rendered.send_kwargs(), ephemeral=True)

    async def rules_page(self, interaction: Interaction, table_id: int, page: int) -> None:
        await self._require_host(table_id, interaction)
        rendered = render.rules_editor(table_id, await self.service.lookups.rules(table_id), page)
        await interaction.response.edit_message(**rendered.kwargs())

    async def set_rule(
        self, interaction: Interaction, table_id: int, field: str, value: str
    ) -> None:
        outcome = await self.service.lobby.set_rule(
            table_id,
            interaction.user.id,
            field,
            _rule_value(field, value),
            can_manage=can_manage(interaction),
        )
        with self.committed(outcome, publish=False, move_on=False):
            page = next((i for i, fields in enumerate(render.RULE_PAGES) if field in fields), 0)
            rendered = render.rules_editor(
                table_id, await self.service.lookups.rules(table_id), page
            )
            await interaction.response.edit_message(**rendered.kwargs())
            self.presenter.table_messages.schedule_edit(table_id)

    async def start(self, interaction: Interaction, table_id: int) -> None:
        manage = can_manage(interaction)
        outcome = await self.service.lobby.start_game(
            table_id, interaction.user.id, can_manage=manage
        )
        with self.committed(outcome):
            await self._update_table_in_place(interaction, outcome)

    # -- the table message and the host ------------------------------------------------------

    async def show_scores(self, interaction: Interaction, table_id: int) -> None:
        await reply(
            interaction, render.scores_text(await self.service.lookups.table_view(table_id))
        )

    async def rematch(self, interaction: Interaction, table_id: int) -> None:
        outcome = await self.service.lobby.rematch(table_id, interaction.user.id)
        assert outcome.opened is not None
        with self.committed(outcome, move_on=False):
            await reply(interaction, _(render.REMATCH_OPENED))

    async def play_at_table(self, interaction: Interaction, table_id: int) -> None:
        """Play at the table: Discord opens the bot's Activity in the channel, where the page
        finds the channel's table. Discord refusing it (Activities not enabled: 400) is said."""
        try:
            await interaction.response.launch_activity()
        except discord.HTTPException as error:
            if error.status != 400:
                raise
            raise Refused(ActivitiesOff()) from None

    async def open_host_panel(self, interaction: Interaction, table_id: int) -> None:
        table = await self._require_host(table_id, interaction)
        panel = render.host_panel(table)
        await interaction.response.send_message(**panel.send_kwargs(), ephemeral=True)

    async def ask_cancel(self, interaction: Interaction, table_id: int) -> None:
        await self._require_host(table_id, interaction)
        question = render.cancel_confirm(table_id)
        await interaction.response.send_message(**question.send_kwargs(), ephemeral=True)

    async def cancel(self, interaction: Interaction, table_id: int) -> None:
        manage = can_manage(interaction)
        outcome = await self.service.lobby.cancel(table_id, interaction.user.id, can_manage=manage)
        with self.committed(outcome, move_on=False):
            await self._settle(interaction, outcome)

    async def kick(self, interaction: Interaction, table_id: int, user_id: int) -> None:
        manage = can_manage(interaction)
        outcome = await self.service.host.kick(
            table_id, interaction.user.id, user_id, can_manage=manage
        )
        await self._host_changed(interaction, outcome, removed=user_id)

    async def hand_over(self, interaction: Interaction, table_id: int, user_id: int) -> None:
        host, manage = interaction.user.id, can_manage(interaction)
        outcome = await self.service.host.hand_over(table_id, host, user_id, can_manage=manage)
        await self._host_changed(interaction, outcome)

    async def set_turn_timer(self, interaction: Interaction, table_id: int, seconds: int) -> None:
        host, manage = interaction.user.id, can_manage(interaction)
        outcome = await self.service.host.set_turn_timer(table_id, host, seconds, can_manage=manage)
        await self._host_changed(interaction, outcome)

    async def pause(self, interaction: Interaction, table_id: int) -> None:
        await self._set_paused(interaction, table_id, True)

    async def resume(self, interaction: Interaction, table_id: int) -> None:
        await self._set_paused(interaction, table_id, False)

    async def _set_paused(self, interaction: Interaction, table_id: int, paused: bool) -> None:
        host, manage = interaction.user.id, can_manage(interaction)
        outcome = await self.service.host.set_paused(table_id, host, paused, can_manage=manage)
        await self._host_changed(interaction, outcome)

    # -- the hand message ------------------------------------------------------------------

    async def act(self, interaction: Interaction, table_id: int, hand: int, move: Move) -> None:
        dm = _dm_channel(interaction)
        user_id = interaction.user.id
        if await self._caught_up(interaction, table_id, hand):
            return
        if isinstance(move, CardChoice):
            # A card by its id; a joker led in no trumps also names its suit (the engine
            # refuses a suit named for any other card or moment).
            named = None if move.suit is None else SUITS[move.suit]
            outcome = await self.service.playing.act(
                table_id, user_id, hand, move.card_id, named=named, dm_channel=dm
            )
        else:
            outcome = await self.service.playing.act(table_id, user_id, hand, move, dm_channel=dm)
        with self.committed(outcome, move_on=outcome.automatic):
            await self._answer_act(interaction, hand, outcome)

    async def _caught_up(self, interaction: Interaction, table_id: int, hand: int) -> bool:
        """A click on a hand DM left behind while its person was at the page (it shows an
        older moment of this hand): the answer shows the hand as it is now, and the click does
        not act on what the DM showed. Whether it was such a click."""
        message, user_id = interaction.message, interaction.user.id
        hands = self.presenter.hands
        if message is None or not hands.behind(table_id, user_id, message.id):
            return False
        state = await self.service.lookups.hand_state(table_id, user_id)
        if state.hand_number != hand:
            return False  # an earlier hand's DM: the service refuses the click, as ever
        table = await self.service.lookups.table_view(table_id)
        async with self.presenter.ground.writing(table_id, table.version, user_id) as moved:
            if moved is not None:
                table = moved.table
                state = (moved.every_hand or {}).get(user_id, state)
            rendered = render.hand_message(state, table, render.where_of(table))
            await interaction.response.edit_message(**rendered.kwargs())
            hands.hand_answered(table_id, user_id, message.id, hands.hand_shown_as(state, table))
        return True

    async def set_auto_play(self, interaction: Interaction, table_id: int, on: bool) -> None:
        user_id = interaction.user.id
        dm = _dm_channel(interaction)
        outcome = await self.service.playing.set_auto_play(table_id, user_id, on, dm_channel=dm)
        with self.committed(outcome, publish=False):
            state = await self.service.lookups.hand_state(table_id, user_id)
            table = outcome.table
            await interaction.response.edit_message(
                **render.hand_message(state, table, render.where_of(table)).kwargs()
            )

    async def come_back(self, interaction: Interaction, table_id: int) -> None:
        user_id = interaction.user.id
        outcome = await self.service.host.come_back(
            table_id, user_id, dm_channel=_dm_channel(interaction)
        )
        with self.committed(outcome):
            table = outcome.table
            message = interaction.message
            private = message is not None and (
                interaction.guild_id is None or message.flags.ephemeral
            )
            if message is not None and private and message.id != table.message_id:
                # Pressed in their hand message (their DM, or an ephemeral hand): it becomes
                # their hand again, in place.
                state = outcome.hands.get(user_id) or await self.service.lookups.hand_state(
                    table_id, user_id
                )
                rendered = render.hand_message(state, table, render.where_of(table))
                await interaction.response.edit_message(**rendered.kwargs())
                if not message.flags.ephemeral:
                    shows = self.presenter.hands.hand_shown_as(state, table)
                    self.presenter.hands.hand_answered(table_id, user_id, message.id, shows)
            elif message is not None and message.id != table.message_id:
                # A channel message that is not the table's (an old or duplicate table
                # message): everyone reads it, so the hand comes as a private answer.
                await self.send_hand(interaction, table_id)
            else:
                await reply(interaction, render.answer(outcome.reply, render.WELCOME_BACK))

    async def send_hand(self, interaction: Interaction, table_id: int) -> None:
        """The person's hand, as a private answer."""
        state = await self.service.lookups.hand_state(table_id, interaction.user.id)
        table = await self.service.lookups.table_view(table_id)
        rendered = render.hand_message(state, table, render.where_of(table))
        await interaction.response.send_message(**rendered.send_kwargs(), ephemeral=True)
        self.presenter.hands.private_hand(table, interaction.user.id, interaction)

    async def _answer_act(self, interaction: Interaction, hand: int, outcome: Outcome) -> None:
        """Answer a move with the mover's hand as it is now."""
        table, user_id = outcome.table, interaction.user.id
        t = table.table_id
        state = outcome.hands.get(user_id) or await self.service.lookups.hand_state(t, user_id)
        landed = self.presenter.ground.refreshes.in_flight(("hand", t, user_id))
        if landed is not None and not self.service.sharing.shared:
            # A refresh of this hand rendered before the click is on its way: let it land
            # first, so it cannot overwrite this answer (the refresh then runs again). With
            # other processes both hold this hand message (`writing`), and the refresh renders
            # the newest state once it has it: no need to wait.
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(landed.wait(), IN_FLIGHT_WAIT)
        ephemeral = interaction.message is not None and interaction.message.flags.ephemeral
        async with self.presenter.ground.writing(t, table.version, user_id) as moved:
            if moved is not None:  # another process moved the table on: answer with that
                table = moved.table
                state = (moved.every_hand or {}).get(user_id, state)
            rendered = render.hand_message(state, table, render.where_of(table))
            if (outcome.new_hand or state.hand_number != hand) and not ephemeral:
                # The clicked DM belongs to the finished hand: close it; the new hand comes as
                # a new DM (which notifies, unlike an edit).
                await interaction.response.edit_message(
                    content=render.hand_over_text(hand), embed=None, view=None
                )
                if interaction.message is not None:
                    self.presenter.hands.hand_closed(t, interaction.message.id)
            else:
                await interaction.response.edit_message(**rendered.kwargs())
                if ephemeral:
                    self.presenter.hands.private_hand(table, user_id, interaction)
                elif interaction.message is not None:
                    shows = self.presenter.hands.hand_shown_as(state, table)
                    self.presenter.hands.hand_answered(t, user_id, interaction.message.id, shows)

    # -- answers ---------------------------------------------------------------------------

    async def _update_table_in_place(self, interaction: Interaction, outcome: Outcome) -> None:
        """A lobby button on the table message: the answer is the table message itself."""
        message = interaction.message
        known = outcome.table.message_id
        if message is not None and known in (None, message.id):
            async with self.presenter.ground.writing(
                outcome.table.table_id, outcome.table.version
            ) as moved:
                table = outcome.table if moved is None else moved.table
                channel = await self.presenter.ground.speakers.channel(
                    table.guild_id, table.channel_id
                )
                with speaking(channel):
                    rendered = render.table_message(table, self.presenter.ground.pages(table))
                await interaction.response.edit_message(**rendered.kwargs())
            if known is None:
                stored = await self.service.lobby.set_message(outcome.table.table_id, message.id)
                self.presenter.ground.remember_side(stored)
        else:
            await reply(interaction, render.answer(outcome.reply))
            self.presenter.table_messages.schedule_edit(outcome.table.table_id)

    @staticmethod
    async def _settle(interaction: Interaction, outcome: Outcome) -> None:
        """A private question or picker that is answered: it becomes the answer, controls
        gone."""
        await interaction.response.edit_message(content=render.answer(outcome.reply), view=None)

    async def _host_changed(
        self, interaction: Interaction, outcome: Outcome, *, removed: int | None = None
    ) -> None:
        """A host control's change stored: the host panel shows the answer and the new state
        (someone no longer host gets the answer alone); a removed person's hand message says
        they were removed."""
        with self.committed(outcome):
            table = outcome.table
            if removed is not None:
                self.presenter.hands.refresh_hand(table.table_id, removed)
            if table.host_id == interaction.user.id or can_manage(interaction):
                panel = render.host_panel(table)
                await interaction.response.edit_message(
                    content=f"{render.answer(outcome.reply)}\n{panel.content}",
                    embed=None,
                    view=panel.view,
                )
            else:
                await self._settle(interaction, outcome)

    async def _require_seated_lobby(self, table_id: int, user_id: int) -> None:
        table = await self.service.lookups.table_view(table_id)
        if table.status is not TableStatus.LOBBY:
            raise Refused(AlreadyStarted())
        if all(seat.user_id != user_id for seat in table.seats):
            raise Refused(JoinFirst())

    async def _require_host(self, table_id: int, interaction: Interaction) -> TableView:
        table = await self.service.lookups.table_view(table_id)
        if not table.status.is_open:
            raise Refused(TableClosed(status=table.status))
        if table.host_id != interaction.user.id and not can_manage(interaction):
            raise Refused(HostOnly(doing=""))
        return table


def _rule_value(field: str, raw: str) -> object:
    if raw == "-":
        return None
    if raw in ("true", "false"):
        return raw == "true"
    number = whole_number(raw)
    if field in ("max_cards", "target") and number is not None:
        return number
    return raw


def _dm_channel(interaction: Interaction) -> int | None:
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
            raise Refused(NotForYou())
        return None
    return interaction.channel_id


def can_manage(interaction: Interaction) -> bool:
    permissions = getattr(interaction.user, "guild_permissions", None)
    channel_permissions = interaction.permissions
    return bool(
        (channel_permissions and channel_permissions.manage_channels)
        or (permissions and permissions.manage_channels)
    )
