"""A server's finished games in pages, and the message a game's record comes with."""

from __future__ import annotations

from collections.abc import Mapping

import discord

from bot.service.summaries import HistoryEntry, HistoryPage
from cogs.items import HistoryPageButton, page_id
from cogs.render.common import COLOUR, Rendered, name_text
from cogs.render.language import _, number
from cogs.render.lobby import value_text

DESCRIPTION_LIMIT = 4096  # Discord: characters in an embed's description
NAMES_SHOWN = 6
"""Players named in a history line; more are counted."""


def _names(names: tuple[str, ...], limit: int = NAMES_SHOWN) -> str:
    shown = ", ".join(name_text(n)[:32] for n in names[:limit])
    return shown + (f" +{number(len(names) - limit)}" if len(names) > limit else "")


def history_line(entry: HistoryEntry, replay: str | None = None) -> str:
    """A game in the list; its number links to its replay (`replay`, the page's address)."""
    winners = _names(entry.winners, 3) if entry.winners else "—"
    game = f"#{entry.game}" if replay is None else f"[#{entry.game}]({replay})"
    return (
        f"**{game}** · <t:{int(entry.finished_at)}:d> · <#{entry.channel_id}> · "
        f"{value_text(entry.preset)} · {_names(entry.players)} · 🏆 {winners}"
    )


def _history_lines(entries: tuple[HistoryEntry, ...], replays: Mapping[int, str]) -> str:
    """The games' lines, each game's number linked to its replay while the description still
    fits Discord's limit (a long address on long lines: the later ones go without)."""
    lines = [history_line(e) for e in entries]
    size = len("\n".join(lines))
    for i, entry in enumerate(entries):
        replay = replays.get(entry.game)
        if replay is None:
            continue
        linked = history_line(entry, replay)
        if size - len(lines[i]) + len(linked) <= DESCRIPTION_LIMIT:
            size += len(linked) - len(lines[i])
            lines[i] = linked
    return "\n".join(lines)[:DESCRIPTION_LIMIT]


def _page_button(label: str, page: int, disabled: bool) -> HistoryPageButton:
    return HistoryPageButton(
        discord.ui.Button(
            label=label[:80],
            custom_id=page_id("history", page),
            style=discord.ButtonStyle.secondary,
            disabled=disabled,
        )
    )


def history_message(
    page: HistoryPage, guild_name: str, replays: Mapping[int, str] | None = None
) -> Rendered:
    """One page of the server's finished games, newest first, with Previous / Next; each
    game's number links to its replay when `replays` (by game) has its page's address."""
    # Translators: {server} is the server's name.
    title = _("Recent games — {server}").format(server=guild_name)
    embed = discord.Embed(title=title[:256], colour=COLOUR)
    if not page.entries:
        embed.description = _("No finished games yet. Start one with `/ohhell start`.")
        return Rendered(None, embed, None)
    embed.description = _history_lines(page.entries, replays or {})
    # Translators: `game:<number>` is the command's option as it is typed (keep `game:`).
    footer = _("Page {page} · /ohhell record game:<number> sends a game's record")
    embed.set_footer(text=footer.format(page=number(page.page)))
    view: discord.ui.View | None = None
    if page.page > 1 or page.has_next:
        view = discord.ui.View(timeout=None)
        # Translators: a button label (at most 80 characters).
        view.add_item(_page_button(_("◀ Previous"), max(page.page - 1, 1), page.page <= 1))
        # Translators: a button label (at most 80 characters).
        view.add_item(_page_button(_("Next ▶"), page.page + 1, not page.has_next))
    return Rendered(None, embed, view)


def record_text(game: int, file_name: str) -> str:
    # Translators: {file} is the record's file name; keep the command in backticks as it is.
    text = _(
        "The record of game #{game} (the `ohhell-record/1` format). Check and score it with "
        "`python -m bot.engine.replay {file}`."
    )
    return text.format(game=game, file=file_name)


def record_file_name(game: int) -> str:
    return f"ohhell-game-{game}.json"


def replay_text(game: int, file_name: str) -> str:
    # Translators: {file} is the replay's file name, a page that opens in any web browser.
    text = _("The replay of game #{game}: open {file} in any web browser, step by step.")
    return text.format(game=game, file=f"`{file_name}`")
