"""A player's page on a server: the /ohhell stats content (cogs/render/stats.py words it for
Discord; the page reuses its words) with the rating chart drawn in the page as SVG, and a link
back to the server's leaderboard. Someone with no finished game here gets a page saying so."""

from __future__ import annotations

from collections.abc import Callable
from html import escape

from bot.service.summaries import PlayerStats
from cogs.render.common import level_text
from cogs.render.language import _, ngettext, number
from cogs.render.lobby import value_text
from cogs.render.stats import _bid_error, _games, _percent, _places, _rating
from cogs.web.score_chart import rating_svg, rating_title
from cogs.web.shell import document, header_links, link, text


def _field(name: str, value: str) -> str:
    """One of the stats: its name, and its value as HTML."""
    return f"<dt>{escape(name)}</dt><dd>{value}</dd>"


def _lines(worded: str) -> str:
    """Discord's lines as paragraphs: a `-# ` line (Discord's small print) small."""
    return "".join(
        f'<p class="small">{text(line[3:])}</p>'
        if line.startswith("-# ")
        else f"<p>{text(line)}</p>"
        for line in worded.splitlines()
    )


def player_page(
    stats: PlayerStats, name: str, board: str, game: Callable[[int], str] | None = None
) -> str:
    """The page, in the language being spoken: `name` the person's name here, `board` the
    leaderboard's address, `game` a game's replay's."""
    # Translators: {name} is the player's name.
    title = _("Oh Hell stats — {name}").format(name=name)
    nav = header_links(link(board, _("Leaderboard")))
    if stats.games == 0:
        # Translators: {name} is the player's name.
        empty = _("{name} has no finished games on this server yet.").format(name=name)
        return document(title, f"<section><p>{escape(empty)}</p></section>", nav)
    fields = [
        _field(_("Games"), escape(_games(stats))),
        _field(_("Places"), escape(_places(stats))),
    ]
    chart = ""
    if stats.rating is not None:
        fields.append(_field(_("Rating"), _lines(_rating(stats, name))))
        if stats.rating_history:
            heading = escape(rating_title(stats.rating_history_provisional))
            chart = (
                f'<section class="rating-chart"><h2>{heading}</h2>'
                + rating_svg(stats.rating_history, stats.rating_history_provisional)
                + "</section>"
            )
    fields.append(_field(_("Exact bids"), escape(_percent(stats.exact_bid_rate))))
    per_hand = "—" if stats.points_per_hand is None else number(stats.points_per_hand, 1)
    fields.append(_field(_("Points a hand"), escape(per_hand)))
    fields.append(_field(_("Bid − tricks taken"), escape(_bid_error(stats))))
    if stats.best_game is not None:
        best_game, points = stats.best_game
        best = ngettext(
            "{points} point in game #{game}", "{points} points in game #{game}", abs(points)
        ).format(points=number(points), game=best_game)
        shown = escape(best) if game is None else link(game(best_game), best)
        fields.append(_field(_("Best game"), shown))
    if stats.favourite_preset is not None:
        preset, count = stats.favourite_preset
        favourite = ngettext("{preset} ({count} game)", "{preset} ({count} games)", count)
        fields.append(
            _field(
                _("Favourite rules"),
                escape(favourite.format(preset=value_text(preset), count=number(count))),
            )
        )
    computers = " · ".join(
        ngettext(
            "{level}: {wins} won of {games}", "{level}: {wins} won of {games}", r.games
        ).format(level=level_text(r.level), wins=number(r.wins), games=number(r.games))
        for r in stats.computers
    )
    fields.append(_field(_("At tables with computer players"), escape(computers or _("none yet"))))
    footer = ""
    if stats.detail.games >= stats.detail_limit:
        worded = ngettext(
            "Bid − tricks taken: the last {count} game. Wins count games played to the end.",
            "Bid − tricks taken: the last {count} games. Wins count games played to the end.",
            stats.detail_limit,
        )
        footer = f'<p class="small">{escape(worded.format(count=number(stats.detail_limit)))}</p>'
    body = f'<section><dl class="stats">{"".join(fields)}</dl>{footer}</section>{chart}'
    return document(title, body, nav)
