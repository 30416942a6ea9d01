"""How a rating reads: the number with its `?`, why a game did not count, and the short help
/ohhell ratings shows (which /leaderboard and /ohhell stats point to)."""

from __future__ import annotations

import discord

from bot.service.summaries import RatingGuide
from cogs.render.common import COLOUR

HELP_POINTER = "What the number means: /ohhell ratings"
SETTLES_AFTER = "usually after a dozen games or so"
"""When a rating loses its `?` (the median of the simulated seasons: docs/ratings.md)."""

UNRATED_REASON_TEXTS = {
    "removed": "{name} was removed by the host",
    "too_few_rated": "everyone else at the table was removed",
    "nobody_stayed": "everyone at the table left it",
}


def rating_number(rating: float, provisional: bool) -> str:
    """A rating as people read it: `1,412`, or `1,012?` while it is provisional."""
    return f"{rating:,.0f}" + ("?" if provisional else "")


def unrated_text(game: int, reason: str | None, name: str) -> str:
    """Why a player's last game did not change their rating."""
    why = UNRATED_REASON_TEXTS.get(reason or "")
    return f"Game #{game} did not change it" + (f": {why.format(name=name)}." if why else ".")


def ratings_help(guide: RatingGuide) -> discord.Embed:
    """/ohhell ratings: what the number is, what `?` means, what a difference means, and why
    a leaver loses."""
    chances = "; ".join(f"{points} points: {chance:.0%}" for points, chance in guide.ahead)
    embed = discord.Embed(title="How ratings work", colour=COLOUR)
    embed.description = "\n\n".join(
        [
            "**The number** is the bot's estimate of your skill on this server, worked out "
            "(with openskill) from your place in every finished game. Everyone starts at "
            f"{guide.start:,}, which stays the average. Finishing ahead of other players raises "
            "it and finishing behind them lowers it, by more when the result is a surprise "
            "(ahead of a stronger player, behind a weaker one): a win alone always raises it, a "
            "last place alone always lowers it.",
            "**?** after a rating: it is still a guess, and may be more than "
            f"{guide.provisional_points} points off. The mark goes once the bot is surer, "
            f"{SETTLES_AFTER}; until then /leaderboard does not rank you.",
            "**A difference** says how often the higher player finishes ahead of the lower "
            f"one at a table: {chances} of games, much as in chess ratings.",
            "**Leaving** a game (or missing two turns and not coming back) rates you last, "
            "below everyone who stayed, whatever your score: leaving always costs rating. A "
            "player the host removes is not rated at all.",
            "Each server has its own ratings: overall, and one for each rule preset "
            "(`/leaderboard preset:`).",
        ]
    )
    return embed
