"""The server's leaderboard as a page, and its recent games: the same rows, orders and words as
/leaderboard and /ohhell history in Discord (cogs/render/leaderboard.py, history.py), the
orders and rule presets chosen by links, each person a link to their page, each game a link to
its replay. Names are the ones people played under here (the service's `names`)."""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from html import escape
from urllib.parse import urlencode

from bot.engine import PRESETS
from bot.service import BOARD_ORDERS, Leaderboard, LeaderboardRow, computer_level
from bot.service.summaries import HistoryPage
from cogs.render.common import name_text
from cogs.render.language import _, number
from cogs.render.leaderboard import (
    BOARD_ORDER_NAMES,
    UNRANKED,
    board_footer,
    board_row,
    player_name,
)
from cogs.render.lobby import value_text
from cogs.web.shell import document, header_links, link, text

NAMES_SHOWN = 6
"""Players named in a game's line; more are counted."""


@dataclass(frozen=True)
class BoardLinks:
    """Where the server's pages lead, as addresses the page can use."""

    player: Callable[[int], str]
    """A person's page."""
    game: Callable[[int], str]
    """A finished game's replay."""
    board: str = ""
    """The leaderboard itself (its first page, by rating)."""


def board_query(by: str = "rating", preset: str | None = None, page: int = 1) -> str:
    """The leaderboard's address for an order, a preset and a page, relative to the page:
    only what differs from the first page by rating is written."""
    query = {"by": by if by != "rating" else None, "preset": preset, "page": page}
    shown = {k: v for k, v in query.items() if v not in (None, 1)}
    return "?" + urlencode(shown) if shown else "?"


def games_query(page: int) -> str:
    return "?" + urlencode({"games": page})


def person(user_id: int, names: Mapping[int, str], links: BoardLinks) -> str:
    """A person as a link to their page; a computer level by name, as text."""
    if computer_level(user_id) is not None:
        return escape(player_name(user_id))
    # Translators: a person on the leaderboard page whose name no stored game gives.
    name = names.get(user_id) or _("(name unknown)")
    return link(links.player(user_id), name)


def row_html(row: LeaderboardRow, by: str, names: Mapping[int, str], links: BoardLinks) -> str:
    """One row: its place, the person, the measure ranked by in bold, then the rest, in the
    words of Discord's row (`board_row`: "**3.** <@1> — **1,050** · 4 wins · …")."""
    worded = board_row(row, by).split(" — ", 1)[1]
    first, rest = worded.removeprefix("**").split("** · ", 1)
    place = "" if row.rank is None else number(row.rank) + "."
    return (
        f'<li><span class="place">{place}</span> <span class="name">'
        f'{person(row.user_id, names, links)}</span> <span class="measures">'
        f"<strong>{escape(first)}</strong> · {escape(rest)}</span></li>"
    )


def _choices(board: Leaderboard) -> str:
    orders = " ".join(
        link(board_query(by, board.preset), _(BOARD_ORDER_NAMES[by]), by == board.by)
        for by in BOARD_ORDERS
    )
    # Translators: the link on the leaderboard page that shows every preset's games.
    presets = " ".join(
        [
            link(board_query(board.by), _("All presets"), board.preset is None),
            *(link(board_query(board.by, p), value_text(p), p == board.preset) for p in PRESETS),
        ]
    )
    # Translators: before the links that choose what the leaderboard page ranks by ("rating",
    # "wins", …).
    ranked_by = escape(_("Ranked by"))
    # Translators: before the links that choose the rule preset whose games the leaderboard
    # page ranks ("All presets", "classic", …).
    preset = escape(_("Rule preset"))
    return (
        f'<nav class="choices" aria-label="{ranked_by}">'
        f'<span class="label">{ranked_by}</span> {orders}</nav>'
        f'<nav class="choices" aria-label="{preset}">'
        f'<span class="label">{preset}</span> {presets}</nav>'
    )


def turns(previous: str | None, following: str | None) -> str:
    """Previous and Next as links, or as plain words where there is no page that way."""
    parts = []
    for words, url in ((_("◀ Previous"), previous), (_("Next ▶"), following)):
        parts.append(
            link(url, words) if url is not None else f'<span class="off">{escape(words)}</span>'
        )
    return '<nav class="turns">' + "".join(parts) + "</nav>"


def board_page(board: Leaderboard, names: Mapping[int, str], links: BoardLinks) -> str:
    """One page of the leaderboard, with its orders, presets, pages and the recent games."""
    title = _("Leaderboard")
    if not board.rows:
        rows = (
            "<p>"
            + text(
                _(
                    "Nobody here has a rating yet: a finished game gives its players one. Start a "
                    "game with `/ohhell start`."
                )
            )
            + "</p>"
        )
    else:
        lines: list[str] = []
        for index, row in enumerate(board.rows):
            if row.rank is None and (index == 0 or board.rows[index - 1].rank is not None):
                lines.append(f'</ol><p class="below">{escape(_(UNRANKED))}</p><ol class="board">')
            lines.append(row_html(row, board.by, names, links))
        rows = f'<ol class="board">{"".join(lines)}</ol>'.replace('<ol class="board"></ol>', "")
    previous = board_query(board.by, board.preset, board.page - 1) if board.page > 1 else None
    following = (
        board_query(board.by, board.preset, board.page + 1) if board.page < board.pages else None
    )
    body = (
        f"<section>{_choices(board)}{rows}{turns(previous, following)}"
        f'<p class="footer">{text(board_footer(board))}</p></section>'
    )
    return document(title, body, header_links(link(games_query(1), _("Recent games"))))


def _names(names: tuple[str, ...], limit: int = NAMES_SHOWN) -> str:
    shown = ", ".join(name_text(n) for n in names[:limit])
    return shown + (f" +{number(len(names) - limit)}" if len(names) > limit else "")


def history_page(page: HistoryPage, links: BoardLinks) -> str:
    """One page of the server's finished games, newest first, each a link to its replay."""
    title = _("Recent games")
    if not page.entries:
        body = "<p>" + text(_("No finished games yet. Start one with `/ohhell start`.")) + "</p>"
    else:
        lines = []
        for entry in page.entries:
            day = time.strftime("%Y-%m-%d", time.gmtime(entry.finished_at))
            winners = _names(entry.winners, 3) if entry.winners else "—"
            lines.append(
                f"<li>{link(links.game(entry.game), f'#{entry.game}')} · "
                f'<time datetime="{day}">{day}</time> · {escape(value_text(entry.preset))} · '
                f"{escape(_names(entry.players))} · 🏆 {escape(winners)}</li>"
            )
        body = f'<ol class="games">{"".join(lines)}</ol>'
    previous = games_query(page.page - 1) if page.page > 1 else None
    following = games_query(page.page + 1) if page.has_next else None
    return document(
        title,
        f"<section>{body}{turns(previous, following)}</section>",
        header_links(link(links.board or "?", _("Leaderboard"))),
    )
