"""The interactions the bot answers, typed with its client (cogs/client.py `OhHellBot`), so the
type checker follows every `interaction.client.…` a handler reaches for."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, TypeAlias

import discord

if TYPE_CHECKING:
    # Only the type checker reads the client here: the client imports every handler.
    from cogs.client import OhHellBot

    Interaction: TypeAlias = discord.Interaction[OhHellBot]
else:
    Interaction: TypeAlias = discord.Interaction[Any]


def of_the_bot(interaction: discord.Interaction[Any]) -> Interaction:
    """An interaction discord.py hands a component's callback, as the bot's: discord.py declares
    those callbacks for any client, and this bot is the one client they are registered with."""
    return interaction
