"""Clicks: every button and select of the game, from the persistent items, turned into service
calls; their answers, and the outcomes handed to the presenter."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Iterator
from typing import Any

import discord

from bot.engine import SUITS, Bid, ChooseTrump, Play
from bot.engine.cards import HIDDEN
from bot.service import (
    Outcome,
    Refused,
    TableStatus,
    TableView,
)
from cogs import render
from cogs.errors import AfterCommit, answer_error, metrics_of, reply
from cogs.items import CardChoice, Click, NotOffered, card_choice, parse, whole_number
from cogs.presenter import IN_FLIGHT_WAIT, Presenter

DM_KINDS = frozenset({"bid", "bidsel", "play", "playsel", "trump", "auto", "back"})
"""The controls a hand DM carries."""


class TableController:
    """Turns clicks into service calls and their answers; what a change stored is handed to
    the presenter, which shows it."""

    def __init__(self, presenter: Presenter) -> None:
        self.presenter = presenter
        self.service = presenter.service

    async def on_click(
        self,
        interaction: discord.Interaction[Any],
        custom_id: str,
        values: tuple[str, ...] = (),
        offered: tuple[str, ...] | None = None,
    ) -> None:
        """Every button and select of the game, from the persistent items (cogs/items/table.py)."""
        started = time.perf_counter()
        metrics = metrics_of(interaction)
        try:
            try:
                click = parse(custom_id, values, offered)
            except NotOffered:
                raise Refused("not_offered") from None
            if click is None:
                raise Refused("not_for_you")
            metrics.clicks(click.kind).inc()
            await self._handle(interaction, click)
        except Exception as error:  # the one error handler answers every failure
            await answer_error(interaction, error)
        metrics.answer_seconds.observe(time.perf_counter() - started)

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
            with self.committed(outcome, publish=False, move_on=False):
                await self._update_table_in_place(interaction, outcome)
        elif kind == "leave":
            outcome = await service.leave(t, user.id)
            with self.committed(outcome, publish=False, move_on=False):
                await self._update_table_in_place(interaction, outcome)
        elif kind == "addcpu":
            await self._require_seated_lobby(t, user.id)
            await interaction.response.send_message(
                **render.computer_level_picker(t).send_kwargs(), ephemeral=True
            )
        elif kind == "cpulevel":
            level = click.values[0] if click.values else "normal"
            outcome = await service.add_computer(t, user.id, level)
            with self.committed(outcome, publish=False, move_on=False):
                await interaction.response.edit_message(
                    content=render.answer(outcome.reply), view=None
                )
                self.presenter.schedule_table_edit(t)
        elif kind in ("rules", "rulepg"):
            await self._require_host(t, interaction)
            page = (whole_number(click.arg) or 0) if kind == "rulepg" else 0
            rendered = render.rules_editor(t, await service.rules(t), page)
            if kind == "rules":
                await interaction.response.send_message(**rendered.send_kwargs(), ephemeral=True)
            else:
                await interaction.response.edit_message(**rendered.kwargs())
        elif kind == "rule":
            field = click.arg or ""
            raw = click.values[0] if click.values else "-"
            outcome = await service.set_rule(
                t, user.id, field, _rule_value(field, raw), can_manage=can_manage(interaction)
            )
            with self.committed(outcome, publish=False, move_on=False):
                page = next((i for i, fs in enumerate(render.RULE_PAGES) if field in fs), 0)
                rendered = render.rules_editor(t, await service.rules(t), page)
                await interaction.response.edit_message(**rendered.kwargs())
                self.presenter.schedule_table_edit(t)
        elif kind == "start":
            outcome = await service.start_game(t, user.id, can_manage=can_manage(interaction))
            with self.committed(outcome):
                await self._update_table_in_place(interaction, outcome)
        elif kind == "leaveok":
            outcome = await service.leave(t, user.id)
            with self.committed(outcome):
                await interaction.response.edit_message(
                    content=render.answer(outcome.reply), view=None
                )
        elif kind == "cancel":
            await self._require_host(t, interaction)
            await interaction.response.send_message(
                **render.cancel_confirm(t).send_kwargs(), ephemeral=True
            )
        elif kind == "cancelok":
            outcome = await service.cancel(t, user.id, can_manage=can_manage(interaction))
            with self.committed(outcome, move_on=False):
                await interaction.response.edit_message(
                    content=render.answer(outcome.reply), view=None
                )
        elif kind == "hand":
            await self.send_hand(interaction, t)
        elif kind == "scores":
            table = await service.table_view(t)
            await reply(interaction, render.scores_text(table))
        elif kind == "auto":
            outcome = await service.set_auto_play(t, user.id, click.arg == "1", dm_channel=dm)
            with self.committed(outcome, publish=False):
                state = await service.hand_state(t, user.id)
                table = outcome.table
                await interaction.response.edit_message(
                    **render.hand_message(state, table, render.where_of(table)).kwargs()
                )
        elif kind in ("bid", "bidsel", "play", "playsel", "trump"):
            await self._act(interaction, click, dm)
        elif kind == "back":
            outcome = await service.come_back(t, user.id, dm_channel=dm)
            with self.committed(outcome):
                table = outcome.table
                message = interaction.message
                private = message is not None and (
                    interaction.guild_id is None or message.flags.ephemeral
                )
                if message is not None and private and message.id != table.message_id:
                    # Pressed in their hand message (their DM, or an ephemeral hand): it
                    # becomes their hand again, in place.
                    state = outcome.hands.get(user.id) or await service.hand_state(t, user.id)
                    rendered = render.hand_message(state, table, render.where_of(table))
                    await interaction.response.edit_message(**rendered.kwargs())
                    if not message.flags.ephemeral:
                        shows = self.presenter.hand_shown_as(state, table)
                        self.presenter.hand_answered(t, user.id, message.id, shows)
                elif message is not None and message.id != table.message_id:
                    # A channel message that is not the table's (an old or duplicate table
                    # message): everyone reads it, so the hand comes as a private answer.
                    await self.send_hand(interaction, t)
                else:
                    await reply(interaction, render.answer(outcome.reply, render.WELCOME_BACK))
        elif kind == "hostctl":
            table = await self._require_host(t, interaction)
            await interaction.response.send_message(
                **render.host_panel(table).send_kwargs(), ephemeral=True
            )
        elif kind in ("kick", "hostto", "timer", "pause", "resume"):
            await self._host_action(interaction, click)
        elif kind == "rematch":
            outcome = await service.rematch(t, user.id)
            assert outcome.opened is not None
            with self.committed(outcome, move_on=False):
                await reply(interaction, render.REMATCH_OPENED)
        else:
            raise Refused("not_for_you")

    @contextlib.contextmanager
    def committed(
        self, outcome: Outcome, *, publish: bool = True, move_on: bool = True
    ) -> Iterator[None]:
        """Around a click's answer to a stored change: the change is shown whatever becomes of
        the answer (Discord's 3 s may have run out, the message may be gone). With `publish`,
        it is published; without, the answer shows it (and asks for the table message's edit
        itself), so the table message is edited here only if the answer failed. Then automatic
        moves go on."""
        self.presenter.remember(outcome)
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
                self.presenter.schedule_table_edit(outcome.table.table_id)
            if move_on:
                self.presenter.move_on(outcome.table.table_id)

    async def _host_action(self, interaction: discord.Interaction[Any], click: Click) -> None:
        """A host control from the host panel; the panel is redrawn with the new state."""
        t, kind, user = click.table_id, click.kind, interaction.user
        manage = can_manage(interaction)
        number = whole_number(click.values[0] if click.values else None)
        if kind in ("kick", "hostto", "timer") and number is None:
            raise Refused("not_for_you")
        value = number or 0
        if kind == "kick":
            outcome = await self.service.kick(t, user.id, value, can_manage=manage)
        elif kind == "hostto":
            outcome = await self.service.hand_over(t, user.id, value, can_manage=manage)
        elif kind == "timer":
            outcome = await self.service.set_turn_timer(t, user.id, value, can_manage=manage)
        else:
            outcome = await self.service.set_paused(t, user.id, kind == "pause", can_manage=manage)
        with self.committed(outcome):
            if kind == "kick":
                self.presenter.refresh_hand(t, value)  # their hand message says they were removed
            table = outcome.table
            if table.host_id == user.id or manage:
                panel = render.host_panel(table)
                await interaction.response.edit_message(
                    content=f"{render.answer(outcome.reply)}\n{panel.content}",
                    embed=None,
                    view=panel.view,
                )
            else:
                await interaction.response.edit_message(
                    content=render.answer(outcome.reply), view=None
                )

    async def _act(
        self, interaction: discord.Interaction[Any], click: Click, dm: int | None
    ) -> None:
        if click.hand is None:
            raise Refused("not_for_you")
        t, user = click.table_id, interaction.user
        chosen = self._action(click)
        if isinstance(chosen, CardChoice):
            # A card by its id; a joker led in no trumps also names its suit (the engine
            # refuses a suit named for any other card or moment).
            named = None if chosen.suit is None else SUITS[chosen.suit]
            outcome = await self.service.act(
                t, user.id, click.hand, chosen.card_id, named=named, dm_channel=dm
            )
        else:
            outcome = await self.service.act(t, user.id, click.hand, chosen, dm_channel=dm)
        with self.committed(outcome, move_on=outcome.automatic):
            await self._answer_act(interaction, click, outcome)

    async def _answer_act(
        self, interaction: discord.Interaction[Any], click: Click, outcome: Outcome
    ) -> None:
        """Answer a game click with the clicker's hand as it is now."""
        t, user = click.table_id, interaction.user
        state = outcome.hands.get(user.id) or await self.service.hand_state(t, user.id)
        landed = self.presenter.refreshes.in_flight(("hand", t, user.id))
        if landed is not None and not self.service.shared_database:
            # A refresh of this hand rendered before the click is on its way: let it land
            # first, so it cannot overwrite this answer (the refresh then runs again). With
            # other processes both hold this hand message (`writing`), and the refresh renders
            # the newest state once it has it: no need to wait.
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(landed.wait(), IN_FLIGHT_WAIT)
        ephemeral = interaction.message is not None and interaction.message.flags.ephemeral
        table = outcome.table
        async with self.presenter.writing(t, table.version, user.id) as moved:
            if moved is not None:  # another process moved the table on: answer with that
                table = moved.table
                state = (moved.every_hand or {}).get(user.id, state)
            rendered = render.hand_message(state, table, render.where_of(table))
            if (outcome.new_hand or state.hand_number != click.hand) and not ephemeral:
                # The clicked DM belongs to the finished hand: close it; the new hand comes as
                # a new DM (which notifies, unlike an edit).
                await interaction.response.edit_message(
                    content=render.hand_over_text(click.hand), embed=None, view=None
                )
                if interaction.message is not None:
                    self.presenter.hand_closed(t, interaction.message.id)
            else:
                await interaction.response.edit_message(**rendered.kwargs())
                if ephemeral:
                    self.presenter.private_hand(table, user.id, interaction)
                elif interaction.message is not None:
                    shows = self.presenter.hand_shown_as(state, table)
                    self.presenter.hand_answered(t, user.id, interaction.message.id, shows)

    @staticmethod
    def _action(click: Click) -> Bid | Play | ChooseTrump | CardChoice:
        """The action a game control stands for; a card as its id in the pack (and, for a joker
        led in no trumps, the suit it is named as)."""
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
        choice = card_choice(value)
        if choice is None or (choice.suit is not None and kind != "play"):
            raise Refused("not_for_you")
        return choice

    async def send_hand(self, interaction: discord.Interaction[Any], table_id: int) -> None:
        state = await self.service.hand_state(table_id, interaction.user.id)
        table = await self.service.table_view(table_id)
        rendered = render.hand_message(state, table, render.where_of(table))
        await interaction.response.send_message(**rendered.send_kwargs(), ephemeral=True)
        self.presenter.private_hand(table, interaction.user.id, interaction)

    async def _update_table_in_place(
        self, interaction: discord.Interaction[Any], outcome: Outcome
    ) -> None:
        """A lobby button on the table message: the answer is the table message itself."""
        message = interaction.message
        known = outcome.table.message_id
        if message is not None and known in (None, message.id):
            async with self.presenter.writing(
                outcome.table.table_id, outcome.table.version
            ) as moved:
                table = outcome.table if moved is None else moved.table
                await interaction.response.edit_message(**render.table_message(table).kwargs())
            if known is None:
                stored = await self.service.set_message(outcome.table.table_id, message.id)
                self.presenter.remember_side(stored)
        else:
            await reply(interaction, render.answer(outcome.reply))
            self.presenter.schedule_table_edit(outcome.table.table_id)

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
        if table.host_id != interaction.user.id and not can_manage(interaction):
            raise Refused("host_only", doing="")
        return table


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


def can_manage(interaction: discord.Interaction[Any]) -> bool:
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
