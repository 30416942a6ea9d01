"""Slash commands are synced with Discord when they changed, not at every start: the stand-in
counts each bulk overwrite (PUT …/commands) the bot makes."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import discord
from discord import app_commands

from bot.app import build
from bot.config import BotSettings
from cogs.client import OhHellBot
from cogs.translator import CatalogTranslator
from standin.server import StandIn
from standin.testing import run_bot
from tests.catalogs import wrapped, wrapping_everywhere
from tests.end_to_end.conftest import random_legal

ROOT = Path(__file__).resolve().parents[2]


@asynccontextmanager
async def started(
    standin: StandIn, database_url: str, *, extra: str | None = None, **settings: Any
) -> AsyncIterator[OhHellBot]:
    """The bot on `database_url`, with one more slash command named `extra` if given."""
    options = BotSettings(
        discord_token="test",
        database_url=database_url,
        _env_file=None,  # type: ignore[call-arg]
        **{"dev_guild_id": None, **settings},
    )
    bot, database, _ = await build(options, decide=random_legal, workers=0)
    if extra is not None:

        async def answer(interaction: discord.Interaction[Any]) -> None:
            await interaction.response.send_message("ok")

        bot.tree.add_command(app_commands.Command(name=extra, description="x", callback=answer))
    try:
        async with run_bot(standin, bot):
            await standin.wait_for(
                lambda: bot.presenter.automatic.scheduling
            )  # start-up's work is done
            yield bot
    finally:
        await database.close()


async def test_a_second_start_with_the_same_commands_makes_no_sync_call(
    standin: StandIn, database_url: str
) -> None:
    async with started(standin, database_url):
        assert standin.command_syncs == [None]
    async with started(standin, database_url):
        pass
    assert standin.command_syncs == [None]
    assert standin.find_command("ohhell", standin.channel)  # the first start's, still there


async def test_changed_commands_are_synced_again(standin: StandIn, database_url: str) -> None:
    async with started(standin, database_url):
        pass
    async with started(standin, database_url, extra="newcommand"):
        pass
    assert standin.command_syncs == [None, None]
    assert standin.find_command("newcommand", standin.channel)
    async with started(standin, database_url, extra="newcommand"):
        pass
    assert standin.command_syncs == [None, None]


async def test_a_catalog_that_words_the_commands_anew_syncs_them_again(
    standin: StandIn, database_url: str
) -> None:
    async with started(standin, database_url) as bot:
        assert standin.command_syncs == [None]
        await bot.tree.set_translator(CatalogTranslator(wrapping_everywhere))
        await bot.sync_commands()
        assert standin.command_syncs == [None, None]
        await bot.sync_commands()
        assert standin.command_syncs == [None, None]
    # What Discord was sent: the stand-in checked it as Discord would (the fixture fails on any
    # violation) and keeps it.
    start = standin.find_command("ohhell", standin.channel)["options"][0]
    assert start["description_localizations"]["nl"] == wrapped("Open a table in this channel")
    assert "name_localizations" not in start["options"][0]
    classic = next(c for c in start["options"][0]["choices"] if c["value"] == "classic")
    assert classic["name_localizations"]["pt-BR"] == wrapped("classic")
    # The next start has the bot's own catalogs again: synced back.
    async with started(standin, database_url):
        pass
    assert standin.command_syncs == [None, None, None]


async def test_a_dev_server_gets_its_own_sync_and_the_global_one_is_kept(
    standin: StandIn, database_url: str
) -> None:
    async with started(standin, database_url):
        pass
    async with started(standin, database_url, dev_guild_id=standin.guild.id):
        pass
    async with started(standin, database_url, dev_guild_id=standin.guild.id):
        pass
    async with started(standin, database_url):
        pass
    assert standin.command_syncs == [None, standin.guild.id]


async def test_python_m_bot_sync_syncs_even_when_nothing_changed(
    standin: StandIn, tmp_path: Path
) -> None:
    url = f"sqlite:///{tmp_path / 'ohhell.sqlite3'}"
    async with started(standin, url):
        pass
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "DEV_GUILD"))}
    env.update(
        DISCORD_TOKEN=standin.token,
        DISCORD_API_BASE=standin.api_base,
        DISCORD_GATEWAY_URL=standin.gateway_url,
        DATABASE_URL=url,
        PYTHONPATH=str(ROOT),
        LOG_LEVEL="DEBUG",
    )
    done = await _run(env, tmp_path)
    assert done.returncode == 0, done.stderr
    assert "synced" in done.stdout, done.stdout
    assert "DEBUG" in done.stderr
    # discord.py's debug log of its calls and their bodies stays out even at DEBUG (the
    # bodies hold people's hands), and nothing holds the token.
    assert "PUT" not in done.stderr
    assert standin.token not in done.stdout + done.stderr
    assert standin.command_syncs == [None, None]
    # What it synced is stored: the next start syncs nothing.
    async with started(standin, url):
        pass
    assert standin.command_syncs == [None, None]


async def _run(env: dict[str, str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return await asyncio.to_thread(
        subprocess.run,
        [sys.executable, "-m", "bot", "sync"],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
