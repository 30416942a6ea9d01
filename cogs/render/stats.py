"""A player's stats on a server."""

from __future__ import annotations

import discord

from bot.service.summaries import PlayerStats
from cogs.render.common import COLOUR, level_text, link_view
from cogs.render.language import _, ngettext, number, percent, pgettext, signed
from cogs.render.lobby import value_text
from cogs.render.ratings import HELP_POINTER, rating_number, unrated_text

RATING_CHART_FILE = "rating.png"


def _percent(rate: float | None) -> str:
    return "—" if rate is None else percent(rate)


def _bid_error(stats: PlayerStats) -> str:
    detail = stats.detail
    if detail.bid_error is None or detail.bid_miss is None:
        return "—"
    lean = detail.bid_error
    if lean > 0.05:
        # Translators: {lean} is the average of bid minus tricks taken, e.g. "+0.40"; {miss}
        # how far off the bids were on average, e.g. "0.85".
        text = _("{lean} a hand (bids high); off by {miss} on average")
    elif lean < -0.05:
        # Translators: {lean} is the average of bid minus tricks taken, e.g. "-0.40"; {miss}
        # how far off the bids were on average, e.g. "0.85".
        text = _("{lean} a hand (bids low); off by {miss} on average")
    else:
        # Translators: {lean} is the average of bid minus tricks taken, e.g. "+0.02"; {miss}
        # how far off the bids were on average, e.g. "0.85".
        text = _("{lean} a hand (no lean); off by {miss} on average")
    return text.format(lean=signed(lean, 2), miss=number(detail.bid_miss, 2))


def _rating(stats: PlayerStats, name: str) -> str:
    """ "1,412 (+18 in game #57) · #3 of 120 on /leaderboard", whether the last game did not
    count and why, each preset's rating when there are several, and where the help is."""
    assert stats.rating is not None
    rating = rating_number(stats.rating, stats.rating_provisional)
    if stats.rating_change is not None:
        # Translators: {rating} is a rating, {change} its change in that game, e.g. "+18".
        change = _("{rating} ({change} in game #{game})")
        rating = change.format(
            rating=rating, change=signed(stats.rating_change), game=stats.rating_change_game
        )
    parts = [rating]
    if stats.rating_provisional:
        points = stats.rating_uncertainty
        provisional = ngettext(
            "provisional: may be {points} point off, ranked once the ? goes",
            "provisional: may be {points} points off, ranked once the ? goes",
            points,
        )
        parts.append(provisional.format(points=number(points)))
    elif stats.rating_rank is not None:
        # Translators: a place on the leaderboard among {ranked} players, e.g. "#3 of 120 on
        # /leaderboard".
        rank = ngettext(
            "#{rank} of {ranked} on /leaderboard",
            "#{rank} of {ranked} on /leaderboard",
            stats.rating_ranked,
        )
        parts.append(
            rank.format(rank=number(stats.rating_rank), ranked=number(stats.rating_ranked))
        )
    text = " · ".join(parts)
    if stats.unrated_game is not None:
        text += "\n" + unrated_text(stats.unrated_game, stats.unrated_reason, name)
    if len(stats.preset_ratings) > 1:
        # Translators: a rule preset's name and the player's rating with it, e.g. "classic: 1,050".
        each = _("{preset}: {rating}")
        text += "\n" + " · ".join(
            each.format(preset=value_text(preset), rating=rating_number(rating, provisional))
            for preset, rating, provisional in stats.preset_ratings
        )
    return f"{text}\n-# {_(HELP_POINTER)}"[:1024]


def _games(stats: PlayerStats) -> str:
    win_rate = stats.wins / stats.games
    # Translators: the number of games a player played, under "Games".
    played = ngettext("{count} played", "{count} played", stats.games)
    # Translators: the number of games a player won and their share, under "Games".
    won = ngettext("{count} won ({rate})", "{count} won ({rate})", stats.wins)
    parts = [
        played.format(count=number(stats.games)),
        won.format(count=number(stats.wins), rate=percent(win_rate)),
    ]
    if stats.left_early:
        # Translators: the number of games a player left before the end, under "Games".
        left = ngettext("{count} left early", "{count} left early", stats.left_early)
        parts.append(left.format(count=number(stats.left_early)))
    return " · ".join(parts)


def _places(stats: PlayerStats) -> str:
    return " · ".join(
        # Translators: a finishing place and how often the player finished there: "#1 ×5" is
        # first place five times (write places as your language does, e.g. "{place}. ×{count}").
        ngettext("#{place} ×{count}", "#{place} ×{count}", count).format(
            place=number(where), count=number(count)
        )
        for where, count in stats.places
    )


def stats_embed(stats: PlayerStats, name: str, *, chart: bool = False) -> discord.Embed:
    """Games, wins, places, bidding, best game, favourite rules, results against computer
    levels, and the rating when there is one (`chart`: with the rating chart attached)."""
    # Translators: {name} is the player's name.
    title = _("Oh Hell stats — {name}").format(name=name)
    embed = discord.Embed(title=title[:256], colour=COLOUR)
    if stats.games == 0:
        # Translators: {name} is the player's name.
        empty = _("{name} has no finished games on this server yet.")
        embed.description = empty.format(name=name)
        return embed
    embed.add_field(name=_("Games"), value=_games(stats), inline=False)
    embed.add_field(name=_("Places"), value=_places(stats)[:1024], inline=False)
    if stats.rating is not None:
        embed.add_field(name=_("Rating"), value=_rating(stats, name), inline=False)
    embed.add_field(name=_("Exact bids"), value=_percent(stats.exact_bid_rate), inline=True)
    per_hand = "—" if stats.points_per_hand is None else number(stats.points_per_hand, 1)
    embed.add_field(name=_("Points a hand"), value=per_hand, inline=True)
    embed.add_field(name=_("Bid − tricks taken"), value=_bid_error(stats), inline=False)
    if stats.best_game is not None:
        game, points = stats.best_game
        # Translators: the player's best score in one game, and that game's number.
        best = ngettext(
            "{points} point in game #{game}", "{points} points in game #{game}", abs(points)
        )
        embed.add_field(
            name=_("Best game"), value=best.format(points=number(points), game=game), inline=True
        )
    if stats.favourite_preset is not None:
        preset, count = stats.favourite_preset
        # Translators: a rule preset's name and how many games the player played with it.
        favourite = ngettext("{preset} ({count} game)", "{preset} ({count} games)", count)
        embed.add_field(
            name=_("Favourite rules"),
            value=favourite.format(preset=value_text(preset), count=number(count)),
            inline=True,
        )
    computers = " · ".join(
        # Translators: a computer level's name, and the player's wins of the {games} games at
        # tables with it.
        ngettext(
            "{level}: {wins} won of {games}", "{level}: {wins} won of {games}", r.games
        ).format(level=level_text(r.level), wins=number(r.wins), games=number(r.games))
        for r in stats.computers
    )
    embed.add_field(
        name=_("At tables with computer players"),
        # Translators: no games at tables with computer players yet.
        value=computers or _("none yet"),
        inline=False,
    )
    if stats.detail.games >= stats.detail_limit:
        footer = ngettext(
            "Bid − tricks taken: the last {count} game. Wins count games played to the end.",
            "Bid − tricks taken: the last {count} games. Wins count games played to the end.",
            stats.detail_limit,
        )
        embed.set_footer(text=footer.format(count=number(stats.detail_limit)))
    if chart:
        embed.set_image(url=f"attachment://{RATING_CHART_FILE}")
    return embed


def stats_view(stats: PlayerStats, web_page: str | None) -> discord.ui.View | None:
    """A link to the player's web page (`web_page`, its address, when the bot serves one), for a
    player with finished games."""
    if stats.games == 0:
        return None
    # Translators: a button that opens a player's stats and rating chart on a web page.
    return link_view(pgettext("button", "Player page"), web_page)
