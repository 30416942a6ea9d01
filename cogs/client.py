"""The discord.py client: one cog of tables, persistent components, commands synced at
start-up, and one answer for every refusal and error (cogs/errors.py)."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.clock import Clock
from bot.config import DEFAULTS, BotSettings
from bot.metrics import Metrics, rest_trace
from bot.service import TableService
from bot.service.review import ReviewService
from cogs import render
from cogs.clicks import TableController
from cogs.commands import TablesCog
from cogs.community import Community
from cogs.errors import answer_error, metrics_of, reply
from cogs.items import (
    BoardButton,
    HistoryPageButton,
    TableButton,
    TableSelect,
    claimed,
    on_message,
)
from cogs.pacing import rest_share
from cogs.review import ReviewCog

log = logging.getLogger(__name__)


class TableTree(app_commands.CommandTree[Any]):
    """Slash commands: refused in a DM (the handlers must not trust Discord's guild-only flag),
    and every error answered by the one handler."""

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        command = interaction.command
        if interaction.type is discord.InteractionType.application_command:  # not autocomplete
            metrics_of(interaction).commands(command.qualified_name if command else "?").inc()
        if interaction.guild_id is None:
            await reply(interaction, render.SERVER_ONLY)
            return False
        return True

    async def on_error(
        self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError, /
    ) -> None:
        original = error.original if isinstance(error, app_commands.CommandInvokeError) else error
        await answer_error(interaction, original)


class OhHellBot(commands.AutoShardedBot):
    """The bot: one cog of tables, persistent buttons, commands synced at start-up. Sharded as
    `SHARD_COUNT` and `SHARD_IDS` say (docs/deploy.md), or as Discord recommends."""

    def __init__(
        self,
        settings: BotSettings,
        service: TableService,
        *,
        edit_delay: float = DEFAULTS["table_edit_delay"].default,
        computer_delay: float = DEFAULTS["computer_delay"].default,
        clock: Clock | None = None,
        reviews: ReviewService | None = None,
        run_blocking: Callable[..., Awaitable[Any]] | None = None,
        metrics: Metrics | None = None,
    ) -> None:
        intents = discord.Intents.none()
        intents.guilds = True
        options: dict[str, Any] = {"shard_count": settings.shard_count}
        if settings.shard_ids is not None:
            options["shard_ids"] = list(settings.shard_ids)
        metrics = metrics or Metrics()
        if settings.metrics_port is not None:
            # Only when served: tracing costs each REST call some microseconds.
            options["http_trace"] = rest_trace(metrics)
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents,
            help_command=None,
            tree_cls=TableTree,
            **options,
        )
        self.settings = settings
        self.metrics = metrics
        """What an operator watches (bot/metrics.py); served when METRICS_PORT is set."""
        self.tables = TableController(
            self,
            service,
            edit_delay=edit_delay,
            computer_delay=computer_delay,
            clock=clock,
            run_blocking=run_blocking,
            deadline_poll=settings.deadline_poll,
            rest_share=rest_share(settings.shard_count, settings.shard_ids),
        )
        self.reviews = reviews
        self.community = Community(service, self.tables.run_blocking)
        self._resumed = False

    async def setup_hook(self) -> None:
        self.add_dynamic_items(TableButton, TableSelect, HistoryPageButton, BoardButton)
        self.boards = TablesCog(self.tables, self.community)
        """Where leaderboard page clicks go (cogs/items.py `BoardButton`)."""
        await self.add_cog(self.boards)
        if self.reviews is not None:
            await self.add_cog(ReviewCog(self.reviews, self.boards.ohhell))
        if self.settings.dev_guild_id:
            guild = discord.Object(self.settings.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)
        else:
            await self.tree.sync()

    async def on_ready(self) -> None:
        log.info("logged in as %s", self.user)
        if not self._resumed:
            self._resumed = True
            await self.tables.resume_open_tables()

    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        """Components no persistent item claims (foreign, malformed or forged custom_ids, or
        one that is not on the message clicked) still get an answer, instead of Discord's
        "This interaction failed"."""
        if interaction.type is not discord.InteractionType.component:
            return
        data: dict[str, Any] = dict(interaction.data or {})
        custom_id = str(data.get("custom_id", ""))
        if not claimed(custom_id) or not on_message(interaction.message, custom_id):
            forged_page = custom_id.startswith("lb:")
            self.metrics.refusals("no_such_page" if forged_page else "not_for_you").inc()
            await reply(interaction, render.NO_SUCH_PAGE if forged_page else render.NOT_FOR_YOU)

    async def close(self) -> None:
        await self.tables.close()
        await super().close()
