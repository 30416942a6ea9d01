"""``/ohhell my-data`` (a private reply with a JSON file of everything stored about the person)
and ``/ohhell forget-me`` (a private confirmation, then the erasure); the confirmation's click
comes here from its persistent item (cogs/items/erasure.py)."""

from __future__ import annotations

import dataclasses
import io
import logging
import zipfile
from typing import Any

import discord
from discord import app_commands
from discord.app_commands import locale_str
from discord.ext import commands

from bot.service import Forgotten, Refused, TableService
from bot.service.refusals import NotForYou
from cogs.errors import AfterCommit, answer_error
from cogs.interaction import Interaction
from cogs.items import parse_erase
from cogs.presenter import Presenter
from cogs.render.privacy import (
    MY_DATA_FILE,
    MY_DATA_ZIP,
    erasure_confirm,
    forgotten_text,
    former_player,
    my_data_text,
)

log = logging.getLogger(__name__)

FILE_LIMIT = 8 * 1024 * 1024
"""Bytes of a file a bot may attach (Discord's smallest upload limit, 8 MiB); a larger copy is
zipped (JSON zips to a tenth or less)."""


def names_of(user: discord.abc.User) -> tuple[str, ...]:
    """The names a person goes by now: as seated names are taken (`display_name`), and the
    others Discord knows."""
    names = (user.display_name, user.name, getattr(user, "global_name", None))
    return tuple(dict.fromkeys(name for name in names if name))


class PrivacyCog(commands.Cog, name="Privacy"):
    """Adds ``my-data`` and ``forget-me`` to the ``/ohhell`` group (which belongs to the tables
    cog)."""

    def __init__(
        self, service: TableService, presenter: Presenter, group: app_commands.Group
    ) -> None:
        self.service = service
        self.presenter = presenter
        self.group = group

        async def my_data(interaction: Interaction) -> None:
            await self.send_data(interaction)

        async def forget_me(interaction: Interaction) -> None:
            await self.offer_erasure(interaction)

        self.commands: tuple[app_commands.Command[Any, Any, None], ...] = (
            app_commands.Command(
                name="my-data",
                description=locale_str(
                    "A file of everything this bot stores about you (only you see it)"
                ),
                callback=my_data,
            ),
            app_commands.Command(
                name="forget-me",
                description=locale_str(
                    "Erase everything this bot stores about you, in every server"
                ),
                callback=forget_me,
            ),
        )

    async def cog_load(self) -> None:
        for command in self.commands:
            self.group.add_command(command)

    async def cog_unload(self) -> None:
        for command in self.commands:
            self.group.remove_command(command.name)

    async def send_data(self, interaction: Interaction) -> None:
        # Reading every game takes a moment: Discord is told at once.
        await interaction.response.defer(ephemeral=True, thinking=True)
        export = await self.service.privacy.my_data(interaction.user.id, names_of(interaction.user))
        data, name = export.data, MY_DATA_FILE
        if len(data) > FILE_LIMIT:
            packed = io.BytesIO()
            with zipfile.ZipFile(packed, "w", zipfile.ZIP_DEFLATED) as archive:
                archive.writestr(MY_DATA_FILE, data)
            data, name = packed.getvalue(), MY_DATA_ZIP
        await interaction.followup.send(
            my_data_text(export, zipped=name == MY_DATA_ZIP),
            file=discord.File(io.BytesIO(data), filename=name),
            ephemeral=True,
        )

    async def offer_erasure(self, interaction: Interaction) -> None:
        offer = await self.service.privacy.offer_erasure(interaction.user.id)
        rendered = erasure_confirm(offer)
        await interaction.response.send_message(**rendered.send_kwargs(), ephemeral=True)

    async def on_confirm(self, interaction: Interaction, custom_id: str) -> None:
        """The confirmation clicked: its (untrusted) token must be the one offered to whoever
        clicks, unused and in time; anything else is refused and changes nothing."""
        await interaction.client.speakers.hear(interaction)
        user = interaction.user
        try:
            token = parse_erase(custom_id)
            if token is None:
                raise Refused(NotForYou())
            # The erasure reads every table that names the person: Discord is told at once.
            await interaction.response.defer()
            forgotten = await self.service.privacy.forget(
                user.id, token, former_player, names_of(user)
            )
        except Exception as error:  # the one error handler answers every failure
            await answer_error(interaction, error)
            return
        interaction.client.speakers.forget(user.id)
        try:
            await interaction.edit_original_response(content=forgotten_text(forgotten), view=None)
        except Exception as error:
            await answer_error(interaction, AfterCommit(error))
        finally:
            try:
                await self._show(forgotten, user.id)
            except Exception:
                log.exception("the tables user %s left on being erased could not be shown", user.id)

    async def _show(self, forgotten: Forgotten, user_id: int) -> None:
        """The tables the person left, shown as any leave is but for their own hand message
        (nothing of theirs is stored any more, so nothing of theirs is shown, or sent: that
        would store its id again); then every open table with their seat's new name."""
        for outcome in forgotten.left:
            hands = {user: state for user, state in outcome.hands.items() if user != user_id}
            await self.presenter.publish(dataclasses.replace(outcome, hands=hands))
        for table_id in forgotten.open_tables:
            await self.presenter.publish(await self.service.lookups.newest(table_id))
        for table_id in {o.table.table_id for o in forgotten.left} | set(forgotten.open_tables):
            self.presenter.automatic.move_on(table_id)
