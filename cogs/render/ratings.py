"""How a rating reads: the number with its `?`, why a game did not count, and the short help
/ohhell ratings shows (which /leaderboard and /ohhell stats point to)."""

from __future__ import annotations

import discord

from bot.service.summaries import RatingGuide
from cogs.render.common import COLOUR
from cogs.render.language import N_, _, ngettext, number, percent

HELP_POINTER = N_("What the number means: /ohhell ratings")
# Translators: completes "a rating is provisional … until the bot is surer of it, …".
SETTLES_AFTER = N_("usually after a dozen games or so")
"""When a rating loses its `?` (the median of the simulated seasons: docs/ratings.md)."""

UNRATED_REASON_TEXTS = {
    # Translators: why a game did not change a rating; {name} is the player's name.
    "removed": N_("{name} was removed by the host"),
    "too_few_rated": N_("everyone else at the table was removed"),
    "nobody_stayed": N_("everyone at the table left it"),
}


def rating_number(rating: float, provisional: bool) -> str:
    """A rating as people read it: `1,412`, or `1,012?` while it is provisional."""
    return number(rating) + ("?" if provisional else "")


def unrated_text(game: int, reason: str | None, name: str) -> str:
    """Why a player's last game did not change their rating."""
    why = UNRATED_REASON_TEXTS.get(reason or "")
    if why is None:
        return _("Game #{game} did not change it.").format(game=game)
    # Translators: "it" is the player's rating; {why} is the reason, e.g. "everyone at the
    # table left it".
    text = _("Game #{game} did not change it: {why}.")
    return text.format(game=game, why=_(why).format(name=name))


def ratings_help(guide: RatingGuide) -> discord.Embed:
    """/ohhell ratings: what the number is, what `?` means, what a difference means, and why
    a leaver loses."""
    chances = "; ".join(
        # Translators: a difference between two ratings and how often the higher player
        # finishes ahead, e.g. "100 points: 64%".
        ngettext("{points} point: {chance}", "{points} points: {chance}", points).format(
            points=number(points), chance=percent(rate)
        )
        for points, rate in guide.ahead
    )
    embed = discord.Embed(title=_("How ratings work"), colour=COLOUR)
    embed.description = "\n\n".join(
        [
            _(
                "**The number** is the bot's estimate of your skill on this server, worked out "
                "(with openskill) from your place in every finished game. Everyone starts at "
                "{start}, which stays the average. Finishing ahead of other players raises it "
                "and finishing behind them lowers it, by more when the result is a surprise "
                "(ahead of a stronger player, behind a weaker one): a win alone always raises "
                "it, a last place alone always lowers it."
            ).format(start=number(guide.start)),
            ngettext(
                "**?** after a rating: it is still a guess, and may be more than {points} point "
                "off. The mark goes once the bot is surer, {settles}; until then /leaderboard "
                "lists you below the players it ranks, without a place (except by wins, which "
                "ranks everyone).",
                "**?** after a rating: it is still a guess, and may be more than {points} points "
                "off. The mark goes once the bot is surer, {settles}; until then /leaderboard "
                "lists you below the players it ranks, without a place (except by wins, which "
                "ranks everyone).",
                guide.provisional_points,
            ).format(points=number(guide.provisional_points), settles=_(SETTLES_AFTER)),
            # Translators: {chances} lists rating differences with a share of games each,
            # e.g. "100 points: 64%; 200 points: 76%".
            _(
                "**A difference** says how often the higher player finishes ahead of the lower "
                "one at a table: {chances} of games, much as in chess ratings."
            ).format(chances=chances),
            _(
                "**Leaving** a game (or missing two turns and not coming back) rates you last, "
                "below everyone who stayed, whatever your score: leaving always costs rating. A "
                "player the host removes is not rated at all."
            ),
            _(
                "Each server has its own ratings: overall, and one for each rule preset "
                "(`/leaderboard preset:`)."
            ),
        ]
    )
    return embed
