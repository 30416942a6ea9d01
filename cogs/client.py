"""The discord.py client: one cog of tables, persistent components, commands synced at
start-up when they changed, and one answer for every refusal and error (cogs/errors.py)."""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
from collections.abc import Awaitable, Callable
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.clock import Clock
from bot.config import BotSettings
from bot.metrics import Metrics, rest_trace
from bot.service import ReviewService, TableService
from cogs import render
from cogs.clicks import TableController
from cogs.commands import TablesCog
from cogs.community import Community
from cogs.errors import answer_error, metrics_of, reply
from cogs.interaction import Interaction
from cogs.items import (
    FAMILIES,
    BoardButton,
    EraseButton,
    HistoryPageButton,
    claimed,
    on_message,
)
from cogs.page_lobby import PageDesk
from cogs.presenter import Presenter
from cogs.privacy import PrivacyCog
from cogs.render.language import _
from cogs.retention import RetentionSweep
from cogs.review import ReviewCog
from cogs.translator import CatalogTranslator, commands_payload
from cogs.web.links import Links
from cogs.web.server import WebRoom

log = logging.getLogger(__name__)

SyncWhenChanged = Callable[[int, int, str, Callable[[], Awaitable[object]]], Awaitable[bool]]
"""(application id, scope: a guild's id or 0, the commands' digest, the sync) -> whether it
synced: the database's `sync_when_changed`."""


class TableTree(app_commands.CommandTree["OhHellBot"]):
    """Slash commands: refused in a DM (the handlers must not trust Discord's guild-only flag),
    and every error answered by the one handler."""

    async def interaction_check(self, interaction: Interaction, /) -> bool:
        command = interaction.command
        await interaction.client.speakers.hear(interaction)
        if interaction.type is discord.InteractionType.application_command:  # not autocomplete
            metrics_of(interaction).commands(command.qualified_name if command else "?").inc()
        if interaction.guild_id is None:
            await reply(interaction, _(render.SERVER_ONLY))
            return False
        return True

    async def on_error(
        self, interaction: Interaction, error: app_commands.AppCommandError, /
    ) -> None:
        original = error.original if isinstance(error, app_commands.CommandInvokeError) else error
        await answer_error(interaction, original)


class OhHellBot(commands.AutoShardedBot):
    """The bot: one cog of tables, persistent buttons, commands synced at start-up when they
    changed. Sharded as `SHARD_COUNT` and `SHARD_IDS` say (docs/deploy.md), or as Discord
    recommends."""

    def __init__(
        self,
        settings: BotSettings,
        service: TableService,
        *,
        sync_when_changed: SyncWhenChanged,
        clock: Clock | None = None,
        reviews: ReviewService | None = None,
        run_blocking: Callable[..., Awaitable[Any]] | None = None,
        metrics: Metrics | None = None,
        links: Links | None = None,
    ) -> None:
        # This bot joins no voice channel: discord.py's warnings, as each client is made, that
        # the voice libraries (PyNaCl, davey) are missing are not about it.
        discord.VoiceClient.warn_nacl = discord.VoiceClient.warn_dave = False
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
        self.links = links
        """The web pages' links (PUBLIC_URL set), for the Watch and Replay buttons."""
        self.metrics = metrics
        """What an operator watches (bot/metrics.py); served when METRICS_PORT is set."""
        self.presenter = Presenter(
            self, service, settings, clock=clock, run_blocking=run_blocking, links=links
        )
        """Shows every stored change in Discord."""
        self.speakers = self.presenter.ground.speakers
        """Which language each person and channel reads (cogs/speakers.py)."""
        self.tables = TableController(self.presenter)
        """Where the game's clicks go (cogs/items/table.py)."""
        self.sync_when_changed = sync_when_changed
        self.reviews = reviews
        self.community = Community(service, self.presenter.ground.run_blocking, links)
        self.retention = RetentionSweep(
            service,
            self.presenter.ground.clock,
            server_gone=lambda guild_id: self.presenter.guild_gone(guild_id, ()),
        )
        """Erases the servers the bot left, once it has been gone long enough."""
        self.web: WebRoom | None = None
        """The web pages (PUBLIC_URL set): served from the start to the close."""
        if links is not None:
            self.web = WebRoom(
                settings,
                service,
                links,
                channel_language=lambda guild_id, channel_id: self.speakers.channel_setting(
                    channel_id
                ),
                server_language=self.speakers.server,
                spawn=self.presenter.ground.spawn,
            )
            self.presenter.followers.append(self.web.watchers)
            self.presenter.hands.watch_presence(self.web.presence)
            self.presenter.table_messages.watch_presence(self.web.presence)
            self.web.acted = self.tables.from_page
            self.web.lobby_desk = PageDesk(self, self.presenter, self.covers)
        self._resumed = False
        self._closing = False
        self._starting: asyncio.Task[None] | None = None
        """The start-up work (`on_ready`), while it may be running."""

    async def setup_hook(self) -> None:
        if self.web is not None:
            self.web.application_id = self.application_id
            await self.web.start()
        await self.add_commands()
        await self.sync_commands()

    async def add_commands(self) -> None:
        """The cogs with their slash commands and persistent items, and the translator that
        words the commands in each person's language."""
        self.add_dynamic_items(*FAMILIES, HistoryPageButton, BoardButton, EraseButton)
        self.boards = TablesCog(self.tables, self.community)
        """Where leaderboard page clicks go (cogs/items/pages.py `BoardButton`)."""
        await self.add_cog(self.boards)
        self.privacy = PrivacyCog(self.tables.service, self.presenter, self.boards.ohhell)
        """Where the confirmation of an erasure goes (cogs/items/erasure.py `EraseButton`)."""
        await self.add_cog(self.privacy)
        if self.reviews is not None:
            await self.add_cog(ReviewCog(self.reviews, self.boards.ohhell))
        await self.tree.set_translator(CatalogTranslator())

    async def sync_commands(self) -> None:
        """Sync the slash commands with Discord (DEV_GUILD_ID: to that server, where they show
        at once) unless the same ones were synced last: Discord rate-limits syncing, and one
        process of several does it."""
        guild = discord.Object(self.settings.dev_guild_id) if self.settings.dev_guild_id else None
        if guild is not None:
            self.tree.copy_global_to(guild=guild)
        # Translations included: a catalog that words a description anew syncs again.
        payload = await commands_payload(self.tree, guild)
        digest = hashlib.sha256(json.dumps(payload, sort_keys=True).encode()).hexdigest()
        assert self.application_id is not None, "known once logged in, before setup_hook"
        synced = await self.sync_when_changed(
            self.application_id,
            guild.id if guild is not None else 0,
            digest,
            lambda: self.tree.sync(guild=guild),
        )
        scope = f"to server {guild.id}" if guild is not None else "globally"
        if synced:
            log.info("slash commands synced %s", scope)
        else:
            log.info("slash commands unchanged since they were synced %s", scope)

    async def on_ready(self) -> None:
        log.info("logged in as %s", self.user)
        if not self._resumed and not self._closing:
            self._resumed = True
            # discord.py runs this handler as a task nobody awaits: the start-up work is a
            # task of the bot's own, which `close` cancels and waits for.
            self._starting = asyncio.get_running_loop().create_task(self._start_up())
            self._starting.add_done_callback(_log_failure)

    async def _start_up(self) -> None:
        """After the first connection: every open table resumed, then the servers the bot is
        in compared with the stored ones and the retention sweeps begun."""
        await self.presenter.resume_open_tables()
        await self.retention.start({guild.id for guild in self.guilds}, self.covers)

    def covers(self, guild_id: int) -> bool:
        """Whether this process runs the server's shard (its gateway tells it of the server)."""
        if self.shard_count is None:
            return True
        return (guild_id >> 22) % self.shard_count in self.shards

    async def on_interaction(self, interaction: Interaction) -> None:
        """Components no persistent item claims (foreign, malformed or forged custom_ids, or
        one that is not on the message clicked) still get an answer, instead of Discord's
        "This interaction failed"."""
        if interaction.type is not discord.InteractionType.component:
            return
        await self.speakers.hear(interaction)
        data: dict[str, Any] = dict(interaction.data or {})
        custom_id = str(data.get("custom_id", ""))
        ours = claimed(custom_id)
        if not ours or not on_message(interaction.message, custom_id):
            forged_page = custom_id.startswith("lb:")
            self.metrics.refusals("no_such_page" if forged_page else "not_for_you").inc()
            await reply(interaction, _(render.NO_SUCH_PAGE if forged_page else render.NOT_FOR_YOU))

    async def close(self) -> None:
        """Stop, in order: the start-up work (it may be under way), the sweeps, the
        presenter's work, then the gateway. Nothing of the bot's runs after it, so the
        database can be closed."""
        self._closing = True
        starting, self._starting = self._starting, None
        if starting is not None:
            starting.cancel()
            await asyncio.gather(starting, return_exceptions=True)
        await self.retention.stop()
        if self.web is not None:
            await self.web.stop()
        await self.presenter.close()
        await super().close()


def _log_failure(task: asyncio.Task[None]) -> None:
    if not task.cancelled() and task.exception() is not None:
        log.error("start-up failed", exc_info=task.exception())
