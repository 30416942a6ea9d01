"""The server's leaderboard: one page of ten, Previous and Next, and your own row."""

from __future__ import annotations

from typing import Any

import discord

from bot.service import Leaderboard, LeaderboardRow, computer_level
from cogs.items import BoardButton, board_id
from cogs.render.common import COLOUR
from cogs.render.ratings import HELP_POINTER, SETTLES_AFTER, rating_number

NO_SUCH_PAGE = "That page of the leaderboard does not exist: use /leaderboard."

BOARD_ORDER_NAMES = {
    "rating": "rating",
    "wins": "wins",
    "win_rate": "win rate",
    "exact_bids": "exact-bid rate",
    "points": "average points a hand",
}
"""/leaderboard's `by:` choices, as people read them."""


def leaderboard_embed(board: Leaderboard, guild_name: str) -> discord.Embed:
    title = f"Leaderboard — {guild_name}" + (f" ({board.preset})" if board.preset else "")
    embed = discord.Embed(title=title[:256], colour=COLOUR)
    if not board.rows:
        embed.description = (
            "Nobody here has a settled rating yet: a rating is provisional (shown with ?) "
            f"until the bot is surer of it, {SETTLES_AFTER}. Start a game with `/ohhell start`."
        )
    else:
        lines = [board_row(row, board.by) for row in board.rows]
        if board.caller is not None:
            lines += ["…", board_row(board.caller, board.by)]
        embed.description = "\n".join(lines)[:4096]
    if board.caller_rating is not None:
        games = f"{board.caller_games} game{'s' if board.caller_games != 1 else ''}"
        embed.add_field(
            name="You",
            value=f"{rating_number(board.caller_rating, True)} after {games}: provisional, "
            "so not ranked yet.",
        )
    by = BOARD_ORDER_NAMES.get(board.by, board.by)
    embed.set_footer(
        text=f"Ranked by {by} · page {board.page} of {board.pages} · {board.ranked} ranked "
        f"(settled ratings) · {HELP_POINTER}"
    )
    return embed


def board_row(row: LeaderboardRow, by: str = "rating") -> str:
    """One ranked player: the measure ranked by first, in bold, then the rest and games."""
    measures = {
        "rating": f"{row.rating:,}",
        "wins": f"{row.wins} win{'s' if row.wins != 1 else ''}",
        "win_rate": f"{row.win_rate:.0%} won",
        "exact_bids": f"{row.exact_bid_rate:.0%} bids exact",
        "points": f"{row.points_per_hand:.1f} points a hand",
    }
    first = measures.pop(by) if by in measures else measures.pop("rating")
    games = f"{row.games} game{'s' if row.games != 1 else ''}"
    rest = " · ".join([*measures.values(), games])
    return f"**{row.rank}.** {player_name(row.user_id)} — **{first}** · {rest}"


def player_name(user_id: int) -> str:
    """A person as a mention (not pinging: the board sends no mentions), a computer level
    by name."""
    level = computer_level(user_id)
    return f"🤖 {level} (computer)" if level is not None else f"<@{user_id}>"


def leaderboard_view(board: Leaderboard) -> discord.ui.View | None:
    """Previous and Next, or nothing when everything fits on one page."""
    if board.pages <= 1:
        return None
    view = discord.ui.View(timeout=None)
    for label, direction, page, disabled in (
        ("◀ Previous", "prev", max(board.page - 1, 1), board.page <= 1),
        ("Next ▶", "next", min(board.page + 1, board.pages), board.page >= board.pages),
    ):
        cid = board_id(direction, board.by, board.preset, page)
        item: Any = discord.ui.Button(label=label, custom_id=cid, disabled=disabled)
        view.add_item(BoardButton(item))
    return view
