"""A server's finished games in pages, and the message a game's record comes with."""

from __future__ import annotations

import discord

from bot.service.summaries import HistoryEntry, HistoryPage
from cogs.items import HistoryPageButton, page_id
from cogs.render.common import COLOUR, Rendered

NAMES_SHOWN = 6
"""Players named in a history line; more are counted."""


def _names(names: tuple[str, ...], limit: int = NAMES_SHOWN) -> str:
    shown = ", ".join(n[:32] for n in names[:limit])
    return shown + (f" +{len(names) - limit}" if len(names) > limit else "")


def history_line(entry: HistoryEntry) -> str:
    winners = _names(entry.winners, 3) if entry.winners else "—"
    return (
        f"**#{entry.game}** · <t:{int(entry.finished_at)}:d> · <#{entry.channel_id}> · "
        f"{entry.preset} · {_names(entry.players)} · 🏆 {winners}"
    )


def _page_button(label: str, page: int, disabled: bool) -> HistoryPageButton:
    return HistoryPageButton(
        discord.ui.Button(
            label=label,
            custom_id=page_id("history", page),
            style=discord.ButtonStyle.secondary,
            disabled=disabled,
        )
    )


def history_message(page: HistoryPage, guild_name: str) -> Rendered:
    """One page of the server's finished games, newest first, with Previous / Next."""
    embed = discord.Embed(title=f"Recent games — {guild_name}"[:256], colour=COLOUR)
    if not page.entries:
        embed.description = "No finished games yet. Start one with `/ohhell start`."
        return Rendered(None, embed, None)
    embed.description = "\n".join(history_line(e) for e in page.entries)[:4096]
    embed.set_footer(text=f"Page {page.page} · /ohhell record game:<number> sends a game's record")
    view: discord.ui.View | None = None
    if page.page > 1 or page.has_next:
        view = discord.ui.View(timeout=None)
        view.add_item(_page_button("◀ Previous", max(page.page - 1, 1), page.page <= 1))
        view.add_item(_page_button("Next ▶", page.page + 1, not page.has_next))
    return Rendered(None, embed, view)


def record_text(game: int, file_name: str) -> str:
    return (
        f"The record of game #{game} (the `ohhell-record/1` format). Check and score it with "
        f"`python -m bot.engine.replay {file_name}`."
    )


def record_file_name(game: int) -> str:
    return f"ohhell-game-{game}.json"
