"""Point the real discord.py client at another Discord API base and gateway (`DISCORD_API_BASE`,
`DISCORD_GATEWAY_URL`: the local stand-in in tests and the demo)."""

from __future__ import annotations

import discord
import discord.gateway
import discord.http
import yarl


def point_discord_py_at(api_base: str, gateway_url: str) -> tuple[str, yarl.URL]:
    """Send discord.py's REST calls (webhooks and interaction callbacks included) to `api_base`
    and its gateway connection to `gateway_url`. Returns the previous values, for
    `restore_discord_py`."""
    previous = (discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY)
    discord.http.Route.BASE = api_base.rstrip("/")
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway_url)
    return previous


def restore_discord_py(previous: tuple[str, yarl.URL]) -> None:
    discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = previous
