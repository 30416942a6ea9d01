"""Figures for the stand-in: `python -m standin.bench [N]`.

Times the real discord.py client against the stand-in on this machine: login to ready, slash
command round trips, button round trips and channel messages, with the spec checks on and off.
"""

from __future__ import annotations

import argparse
import asyncio
import time
from pathlib import Path
from typing import Any

import discord
from discord import app_commands

from standin.server import StandIn
from standin.testing import run_bot


class _Bot(discord.Client):
    def __init__(self, guild_id: int) -> None:
        super().__init__(intents=discord.Intents.default())
        self.tree = app_commands.CommandTree(self)
        self.guild_id = guild_id

        @self.tree.command(name="ping", description="Ephemeral pong")
        async def ping(interaction: discord.Interaction) -> None:
            view = discord.ui.View()
            view.add_item(discord.ui.Button(label="Again", custom_id="bench:again"))
            await interaction.response.send_message("pong", ephemeral=True, view=view)

    async def setup_hook(self) -> None:
        guild = discord.Object(self.guild_id)
        self.tree.copy_global_to(guild=guild)
        await self.tree.sync(guild=guild)

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        data: Any = interaction.data or {}
        if data.get("custom_id") == "bench:again":
            await interaction.response.edit_message(content="again")


async def _measure(n: int, spec: bool) -> dict[str, float]:
    options: dict[str, Any] = {"global_rate_limit": None}
    if not spec:
        options["spec_path"] = Path("/nonexistent")
    figures: dict[str, float] = {}
    async with StandIn(**options) as standin:
        bot = _Bot(standin.guild.id)
        started = time.perf_counter()
        async with run_bot(standin, bot):
            figures["login to ready (s)"] = time.perf_counter() - started
            ann = standin.person("Ann")
            started = time.perf_counter()
            last = None
            for _ in range(n):
                last = await ann.slash(standin.channel, "ping")
            figures["slash -> ephemeral reply (ms)"] = (time.perf_counter() - started) / n * 1000
            assert last is not None and last.reply is not None
            started = time.perf_counter()
            for _ in range(n):
                await ann.click(last.reply, "bench:again")
            figures["click -> update (ms)"] = (time.perf_counter() - started) / n * 1000
            channel = bot.get_channel(standin.channel.id)
            assert isinstance(channel, discord.TextChannel)
            started = time.perf_counter()
            for i in range(n):
                await channel.send(f"message {i}", embed=discord.Embed(title="t", description="d"))
            figures["channel message with embed (ms)"] = (time.perf_counter() - started) / n * 1000
        if standin.violations:
            raise SystemExit(f"violations: {[str(v) for v in standin.violations[:3]]}")
        figures["REST calls logged"] = len(standin.calls)
    return figures


async def main(n: int) -> None:
    for spec in (True, False):
        figures = await _measure(n, spec)
        print(f"spec checks {'on' if spec else 'off'}, N={n}:")
        for name, value in figures.items():
            print(f"  {name:34} {value:8.2f}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(
        prog="python -m standin.bench", description=__doc__.splitlines()[0] if __doc__ else None
    )
    parser.add_argument(
        "n", nargs="?", type=int, default=200, help="round trips of each kind (default: 200)"
    )
    asyncio.run(main(parser.parse_args().n))
