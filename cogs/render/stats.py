"""A player's stats on a server."""

from __future__ import annotations

import discord

from bot.service.summaries import PlayerStats
from cogs.render.common import COLOUR
from cogs.render.ratings import HELP_POINTER, rating_number, unrated_text

RATING_CHART_FILE = "rating.png"


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th, 11th, 22nd."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _percent(rate: float | None) -> str:
    return "—" if rate is None else f"{rate:.0%}"


def _bid_error(stats: PlayerStats) -> str:
    detail = stats.detail
    if detail.bid_error is None or detail.bid_miss is None:
        return "—"
    lean = detail.bid_error
    tendency = "bids high" if lean > 0.05 else "bids low" if lean < -0.05 else "no lean"
    return f"{lean:+.2f} a hand ({tendency}); off by {detail.bid_miss:.2f} on average"


def _rating(stats: PlayerStats, name: str) -> str:
    """ "1,412 (+18 in game #57) · #3 of 120 on /leaderboard", whether the last game did not
    count and why, each preset's rating when there are several, and where the help is."""
    assert stats.rating is not None
    text = rating_number(stats.rating, stats.rating_provisional)
    if stats.rating_change is not None:
        text += f" ({stats.rating_change:+,.0f} in game #{stats.rating_change_game})"
    if stats.rating_provisional:
        text += (
            f" · provisional: may be {stats.rating_uncertainty} points off, ranked once the ? goes"
        )
    elif stats.rating_rank is not None:
        text += f" · #{stats.rating_rank} of {stats.rating_ranked} on /leaderboard"
    if stats.unrated_game is not None:
        text += "\n" + unrated_text(stats.unrated_game, stats.unrated_reason, name)
    if len(stats.preset_ratings) > 1:
        text += "\n" + " · ".join(
            f"{preset}: {rating_number(rating, provisional)}"
            for preset, rating, provisional in stats.preset_ratings
        )
    return f"{text}\n-# {HELP_POINTER}"[:1024]


def stats_embed(stats: PlayerStats, name: str, *, chart: bool = False) -> discord.Embed:
    """Games, wins, places, bidding, best game, favourite rules, results against computer
    levels, and the rating when there is one (`chart`: with the rating chart attached)."""
    embed = discord.Embed(title=f"Oh Hell stats — {name}"[:256], colour=COLOUR)
    if stats.games == 0:
        embed.description = f"{name} has no finished games on this server yet."
        return embed
    win_rate = stats.wins / stats.games
    games = f"{stats.games} played · {stats.wins} won ({win_rate:.0%})"
    if stats.left_early:
        games += f" · {stats.left_early} left early"
    embed.add_field(name="Games", value=games, inline=False)
    places = " · ".join(f"{ordinal(place)} ×{count}" for place, count in stats.places)
    embed.add_field(name="Places", value=places[:1024], inline=False)
    if stats.rating is not None:
        embed.add_field(name="Rating", value=_rating(stats, name), inline=False)
    embed.add_field(name="Exact bids", value=_percent(stats.exact_bid_rate), inline=True)
    per_hand = "—" if stats.points_per_hand is None else f"{stats.points_per_hand:.1f}"
    embed.add_field(name="Points a hand", value=per_hand, inline=True)
    embed.add_field(name="Bid − tricks taken", value=_bid_error(stats), inline=False)
    if stats.best_game is not None:
        number, points = stats.best_game
        embed.add_field(name="Best game", value=f"{points} points in game #{number}", inline=True)
    if stats.favourite_preset is not None:
        preset, count = stats.favourite_preset
        played = f"{count} game{'s' if count != 1 else ''}"
        embed.add_field(name="Favourite rules", value=f"{preset} ({played})", inline=True)
    computers = " · ".join(f"{r.level}: {r.wins} won of {r.games}" for r in stats.computers)
    embed.add_field(
        name="At tables with computer players", value=computers or "none yet", inline=False
    )
    if stats.detail.games >= stats.detail_limit:
        embed.set_footer(
            text=f"Bid − tricks taken: the last {stats.detail_limit} games. "
            "Wins count games played to the end."
        )
    if chart:
        embed.set_image(url=f"attachment://{RATING_CHART_FILE}")
    return embed
