"""What people look up about finished games: /ohhell history (in pages), /ohhell record, /ohhell
replay and /ohhell stats. Answers are private; the slash commands themselves are declared in
cogs/commands.py and hand over to this."""

from __future__ import annotations

import functools
import io
import json
import logging
from collections.abc import Awaitable, Callable
from typing import Any

import discord

from bot.service import Refused, TableService
from bot.service.refusals import NotForYou
from bot.service.summaries import HistoryPage
from cogs.errors import answer_error
from cogs.interaction import Interaction
from cogs.items import parse_page
from cogs.render.charts import rating_chart_png
from cogs.render.common import Rendered
from cogs.render.history import history_message, record_file_name, record_text, replay_text
from cogs.render.language import _, spoken
from cogs.render.stats import RATING_CHART_FILE, stats_embed, stats_view
from cogs.web.links import Links
from cogs.web.replay import GameLinks, replay_file_name, replay_page_in

log = logging.getLogger(__name__)


class Community:
    """History, records and stats: read-only looks at the server's finished games."""

    def __init__(
        self,
        service: TableService,
        run_blocking: Callable[..., Awaitable[Any]],
        links: Links | None = None,
    ) -> None:
        self.service = service
        self.run_blocking = run_blocking
        self.links = links
        """The web pages' links, when the bot serves them: replays, players' pages."""

    async def history(self, interaction: Interaction, page: int = 1) -> None:
        listed = await self.service.finished_games.history(interaction.guild_id or 0, page)
        rendered = self._history_page(interaction, listed)
        await interaction.response.send_message(**rendered.send_kwargs(), ephemeral=True)

    async def on_page(self, interaction: Interaction, custom_id: str) -> None:
        """Previous / Next on a history page: the page the button names, of the server the
        click comes from. Anything else is refused and the message stays as it is."""
        await interaction.client.speakers.hear(interaction)
        try:
            parsed = parse_page(custom_id)
            if parsed is None or interaction.guild_id is None:
                raise Refused(NotForYou())
            _, page = parsed
            listed = await self.service.finished_games.history(interaction.guild_id, page)
            rendered = self._history_page(interaction, listed)
            await interaction.response.edit_message(**rendered.kwargs())
        except Exception as error:  # the one error handler answers every failure
            await answer_error(interaction, error)

    def _history_page(self, interaction: Interaction, listed: HistoryPage) -> Rendered:
        """A page of games, each linked to its replay when the bot serves the pages."""
        links, guild_id = self.links, interaction.guild_id
        replays = (
            {e.game: links.game(guild_id, e.game) for e in listed.entries}
            if links is not None and guild_id is not None
            else {}
        )
        return history_message(listed, _guild_name(interaction), replays)

    async def record(self, interaction: Interaction, game: int | None) -> None:
        found = await self.service.finished_games.game_record(
            interaction.guild_id or 0, interaction.channel_id or 0, game
        )
        name = record_file_name(found.game)
        data = json.dumps(found.record, indent=1, ensure_ascii=False).encode()
        await interaction.response.send_message(
            record_text(found.game, name),
            file=discord.File(io.BytesIO(data), filename=name),
            ephemeral=True,
        )

    async def replay(self, interaction: Interaction, game: int | None) -> None:
        found = await self.service.finished_games.game_record(
            interaction.guild_id or 0, interaction.channel_id or 0, game
        )
        # Writing the page of a long game takes a moment: Discord is told at once, and the
        # page is written off the bot's loop.
        await interaction.response.defer(ephemeral=True, thinking=True)
        name = replay_file_name(found.game)
        guild_id, links = interaction.guild_id, self.links
        leads = None
        if links is not None and guild_id is not None:  # the file leads to the served pages
            leads = GameLinks(
                board=links.board(guild_id),
                people=[None if p is None else links.player(guild_id, p) for p in found.people],
            )
        write = functools.partial(replay_page_in, links=leads)
        page = await self.run_blocking(
            write, spoken().code, found.game, found.record, found.ratings
        )
        await interaction.followup.send(
            replay_text(found.game, name),
            file=discord.File(io.BytesIO(page.encode()), filename=name),
            ephemeral=True,
        )

    async def stats(self, interaction: Interaction, player: discord.abc.User | None) -> None:
        who = player or interaction.user
        # Reading the stored games takes a moment: Discord is told at once.
        await interaction.response.defer(ephemeral=True, thinking=True)
        stats = await self.service.finished_games.player_stats(interaction.guild_id or 0, who.id)
        chart: bytes | None = None
        if stats.rating_history:
            try:
                chart = await self.run_blocking(
                    rating_chart_png,
                    list(stats.rating_history),
                    list(stats.rating_history_provisional),
                    spoken().code,
                )
            except Exception:
                log.exception("the rating chart of user %s could not be drawn", who.id)
        embed = stats_embed(stats, who.display_name, chart=chart is not None)
        extra: dict[str, Any] = {}
        links = self.links
        guild_id = interaction.guild_id
        web_page = links.player(guild_id, who.id) if links and guild_id else None
        view = stats_view(stats, web_page)
        if view is not None:
            extra["view"] = view
        if chart is not None:
            extra["file"] = discord.File(io.BytesIO(chart), filename=RATING_CHART_FILE)
        await interaction.followup.send(embed=embed, ephemeral=True, **extra)


def _guild_name(interaction: Interaction) -> str:
    return interaction.guild.name if interaction.guild else _("this server")
