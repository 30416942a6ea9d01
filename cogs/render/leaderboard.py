"""The server's leaderboard."""

from __future__ import annotations

from typing import Any

import discord

from bot.service import (
    Leaderboard,
)
from cogs.render.common import (
    COLOUR,
)


def leaderboard_embed(board: Leaderboard, guild_name: str, preset: str | None) -> discord.Embed:
    title = f"Leaderboard — {guild_name}" + (f" ({preset})" if preset else "")
    embed = discord.Embed(title=title[:256], colour=COLOUR)
    if not board.top:
        embed.description = "No finished games yet. Start one with `/ohhell start`."
        return embed
    rows = [_board_row(row) for row in board.top]
    if board.caller is not None:
        rows.append("…")
        rows.append(_board_row(board.caller))
    embed.description = "\n".join(rows)[:4096]
    embed.set_footer(text="Ranked by wins, then win rate · avg place · exact bids")
    return embed


def _board_row(row: Any) -> str:
    return (
        f"**{row.rank}.** <@{row.user_id}> — {row.wins} win{'s' if row.wins != 1 else ''} "
        f"in {row.games} ({row.win_rate:.0%}) · avg place {row.average_place:.2f} · "
        f"exact {row.exact_bid_rate:.0%}"
    )
