"""``/ohhell review [game]``: a private reply that shows the review's progress, then the result."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any

import discord
from discord import app_commands
from discord.app_commands import locale_str
from discord.ext import commands

from bot.service import ReviewService
from cogs.interaction import Interaction
from cogs.render.review import review_embed, review_progress

log = logging.getLogger(__name__)

PROGRESS_EVERY = 1.0
"""Seconds between edits of the progress line (Discord's rate limits; people read it anyway)."""
MAX_GAME = 2**53 - 1
"""The largest game number the option takes (Discord's integers)."""


class ReviewCog(commands.Cog, name="Review"):
    """Adds ``review`` to the ``/ohhell`` group (which belongs to the tables cog)."""

    def __init__(
        self,
        reviews: ReviewService,
        group: app_commands.Group,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.reviews = reviews
        self.group = group
        self.clock = clock

        @app_commands.describe(
            game=locale_str("The game's number (default: your last finished game here)")
        )
        async def review(
            interaction: Interaction,
            game: app_commands.Range[int, 1, MAX_GAME] | None = None,
        ) -> None:
            await self.run(interaction, game)

        self.command: app_commands.Command[Any, Any, None] = app_commands.Command(
            name="review",
            description=locale_str(
                "How the hard computer player would have played your cards (only you see it)"
            ),
            callback=review,
        )

    async def cog_load(self) -> None:
        self.group.add_command(self.command)

    async def cog_unload(self) -> None:
        self.group.remove_command(self.command.name)

    async def run(self, interaction: Interaction, game: int | None) -> None:
        """Answer privately at once, edit in the progress at most every `PROGRESS_EVERY`
        seconds, then the result. A refusal replaces the "thinking" message (cogs/errors.py)."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        last = -float("inf")

        async def progress(done: int, total: int) -> None:
            nonlocal last
            now = self.clock()
            if now - last < PROGRESS_EVERY:
                return
            last = now
            try:
                await interaction.edit_original_response(content=review_progress(done, total))
            except discord.HTTPException as error:  # progress is a courtesy: the review goes on
                log.warning("review progress not shown to %s: %s", interaction.user.id, error)

        result = await self.reviews.review(
            interaction.guild_id or 0, interaction.user.id, game, progress
        )
        await interaction.edit_original_response(content=None, embed=review_embed(result))
