"""The server's leaderboard: one page of ten, the ranked players then, below a line, the ones
not ranked yet (provisional ratings); Previous and Next, and your own row."""

from __future__ import annotations

from typing import Any

import discord

from bot.service import Leaderboard, LeaderboardRow, computer_level
from cogs.items import BoardButton, board_id
from cogs.render.common import COLOUR, level_text, link_button
from cogs.render.language import N_, _, ngettext, number, percent, pgettext
from cogs.render.lobby import value_text
from cogs.render.ratings import HELP_POINTER, rating_number

NO_SUCH_PAGE = N_("That page of the leaderboard does not exist: use /leaderboard.")

# Translators: the line on the leaderboard above the players it lists but does not rank yet.
UNRANKED = N_("Not ranked yet: provisional ratings (shown with ?)")

BOARD_ORDER_NAMES = {
    # Translators: what the leaderboard ranks by, completing "Ranked by …" (also a choice of
    # /leaderboard's `by:` option, at most 100 characters).
    "rating": N_("rating"),
    "wins": N_("wins"),
    "win_rate": N_("win rate"),
    "exact_bids": N_("exact-bid rate"),
    "points": N_("average points a hand"),
}
"""/leaderboard's `by:` choices, as people read them (`_()` translates them where shown)."""


def leaderboard_embed(board: Leaderboard, guild_name: str) -> discord.Embed:
    title = (
        # Translators: {server} is the server's name, {preset} a rule preset's name.
        _("Leaderboard — {server} ({preset})")
        if board.preset
        # Translators: {server} is the server's name.
        else _("Leaderboard — {server}")
    ).format(server=guild_name, preset=value_text(board.preset or ""))
    embed = discord.Embed(title=title[:256], colour=COLOUR)
    if not board.rows:
        embed.description = _(
            "Nobody here has a rating yet: a finished game gives its players one. Start a game "
            "with `/ohhell start`."
        )
    else:
        lines: list[str] = []
        below = False
        for row in board.rows:
            if row.rank is None and not below:
                lines.append(f"*{_(UNRANKED)}*")
                below = True
            lines.append(board_row(row, board.by))
        if board.caller is not None:
            lines.append("…")
            if board.caller.rank is None and not below:
                lines.append(f"*{_(UNRANKED)}*")
            lines.append(board_row(board.caller, board.by))
        embed.description = "\n".join(lines)[:4096]
    embed.set_footer(text=board_footer(board))
    return embed


def board_footer(board: Leaderboard) -> str:
    """What the board ranks by, the page, how many are ranked, and where ratings are told."""
    by = BOARD_ORDER_NAMES.get(board.by)
    order = board.by if by is None else _(by)
    if board.ranks_everyone:
        # Translators: {order} is what the board ranks by, e.g. "wins" (a count: everyone is
        # ranked, provisional ratings too); {help} points to the ratings' help, e.g. "What
        # the number means: /ohhell ratings".
        footer = ngettext(
            "Ranked by {order} · page {page} of {pages} · {ranked} player · {help}",
            "Ranked by {order} · page {page} of {pages} · {ranked} players · {help}",
            board.ranked,
        )
    else:
        # Translators: {order} is what the board ranks by, e.g. "rating"; {help} points to the
        # ratings' help, e.g. "What the number means: /ohhell ratings".
        footer = ngettext(
            "Ranked by {order} · page {page} of {pages} · {ranked} ranked (settled ratings) · "
            "{help}",
            "Ranked by {order} · page {page} of {pages} · {ranked} ranked (settled ratings) · "
            "{help}",
            board.ranked,
        )
    return footer.format(
        order=order,
        page=number(board.page),
        pages=number(board.pages),
        ranked=number(board.ranked),
        help=_(HELP_POINTER),
    )


def board_row(row: LeaderboardRow, by: str = "rating") -> str:
    """One player: their rank (none when unranked), the measure ranked by first, in bold, then
    the rest and games; a provisional rating with its `?`."""
    measures = {
        "rating": rating_number(row.rating, row.provisional),
        "wins": ngettext("{count} win", "{count} wins", row.wins).format(count=number(row.wins)),
        # Translators: {rate} is a percentage of games won, e.g. "25%".
        "win_rate": _("{rate} won").format(rate=percent(row.win_rate)),
        # Translators: {rate} is a percentage of bids met exactly, e.g. "50%".
        "exact_bids": _("{rate} bids exact").format(rate=percent(row.exact_bid_rate)),
        # Translators: {points} is a number with one decimal, e.g. "3.2".
        "points": ngettext(
            "{points} point a hand", "{points} points a hand", row.points_per_hand, 1
        ).format(points=number(row.points_per_hand, 1)),
    }
    first = measures.pop(by) if by in measures else measures.pop("rating")
    games = ngettext("{count} game", "{count} games", row.games).format(count=number(row.games))
    rest = " · ".join([*measures.values(), games])
    place = "" if row.rank is None else f"**{number(row.rank)}.** "
    return f"{place}{player_name(row.user_id)} — **{first}** · {rest}"


def player_name(user_id: int) -> str:
    """A person as a mention (not pinging: the board sends no mentions), a computer level
    by name."""
    level = computer_level(user_id)
    if level is None:
        return f"<@{user_id}>"
    # Translators: a computer player on the leaderboard; {level} is its level, e.g. "hard".
    return "🤖 " + _("{level} (computer)").format(level=level_text(level))


def leaderboard_view(board: Leaderboard, web_page: str | None = None) -> discord.ui.View | None:
    """Previous and Next when the board takes more than one page, and a link to the server's
    leaderboard page (`web_page`, its address, when the bot serves one); nothing when neither."""
    if board.pages <= 1 and web_page is None:
        return None
    view = discord.ui.View(timeout=None)
    if board.pages > 1:
        for label, direction, page, disabled in (
            # Translators: a button label (at most 80 characters).
            (_("◀ Previous"), "prev", max(board.page - 1, 1), board.page <= 1),
            # Translators: a button label (at most 80 characters).
            (_("Next ▶"), "next", min(board.page + 1, board.pages), board.page >= board.pages),
        ):
            cid = board_id(direction, board.by, board.preset, page)
            item: Any = discord.ui.Button(label=label[:80], custom_id=cid, disabled=disabled)
            view.add_item(BoardButton(item))
    if web_page is not None:
        # Translators: a button that opens the server's leaderboard on a web page.
        view.add_item(link_button(pgettext("button", "Leaderboard page"), web_page))
    return view
