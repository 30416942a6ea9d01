"""Posts in the channel: a hand's score with its tricks, the final standings, timeouts, host
actions, catch-up posts."""

from __future__ import annotations

from typing import assert_never

import discord

from bot.engine import Action, Bid, ChooseTrump
from bot.service import (
    Notice,
)
from bot.service.notices import (
    Closure,
    ComputerPlaysFor,
    FinalStandings,
    HandScore,
    HostChange,
    Pause,
    Rematch,
    Removal,
    Resumption,
    StartedWithout,
    TimedOut,
    TrickPlays,
)
from bot.service.summaries import ScoreChart
from cogs.render.common import (
    MESSAGE_LIMIT,
    card_text,
    fit,
    link_button,
    link_view,
    name_text,
    relative_time,
    suit_text,
)
from cogs.render.language import _, ngettext, number, pgettext, signed
from cogs.render.ratings import rating_number
from cogs.render.rules import closed_text


def action_text(action: Action) -> str:
    """A move as people say it: "bid 2", "chose ♥ hearts as trump", "played Q♠"."""
    if isinstance(action, Bid):
        # Translators: a move, as in "Ann: bid 2".
        return _("bid {bid}").format(bid=number(action.n))
    if isinstance(action, ChooseTrump):
        # Translators: a move; {suit} is a suit with its symbol: "♥ hearts".
        return _("chose {suit} as trump").format(suit=suit_text(action.suit))
    # Translators: a move; {card} is a card: "Q♠".
    return _("played {card}").format(card=card_text(action.card))


def _trick_line(place: int, trick: TrickPlays) -> str:
    plays, winner = trick
    cards = " · ".join(f"{name_text(name)} {card_text(card)}" for name, card in plays)
    # Translators: who won a trick in which every card was cancelled (duplicate cards).
    won = name_text(winner) if winner is not None else _("nobody (all cancelled)")
    return f"{number(place)}. {cards} → {won}"


def result_line(name: str, bid: int, took: int, points: int, total: int) -> str:
    """A player's result in a hand: "Ann: bid 2, took 2, +22 → 61"."""
    # Translators: a player's result in a hand: "Ann: bid 2, took 2, +22 → 61".
    return _("{name}: bid {bid}, took {took}, {change} → {total}").format(
        name=name, bid=number(bid), took=number(took), change=signed(points), total=number(total)
    )


def _hand_scored(p: HandScore) -> str:
    if p.tiebreak:
        # Translators: a post's title: the scores of the deal that breaks a tie for first place.
        title = _("Tie-break deal scored")
    else:
        title = _("Hand {hand} scored").format(hand=number(p.hand))
    rows = [
        result_line(name_text(name), bid, took, points, total)
        for name, bid, took, points, total in p.rows
    ]
    text = f"**{title}**\n" + "\n".join(rows)
    if p.tricks:
        tricks = [_trick_line(i, t) for i, t in enumerate(p.tricks, start=1)]
        # Translators: a heading above the hand's tricks, one a line.
        text += "\n**" + _("Tricks") + "**\n" + "\n".join(tricks)
    return text


def names_text(names: list[str]) -> str:
    """Names side by side: "Ann and Bob" (joined one pair at a time, as "Ann and Bob and Cat")."""
    joined = names[0] if names else ""
    for name in names[1:]:
        # Translators: joins two names (or a list so far and one more name): "Ann and Bob".
        joined = _("{first} and {second}").format(first=joined, second=name)
    return joined


def _game_over(p: FinalStandings) -> str:
    standings = p.standings
    winners = [name_text(name) for place, name, _total in standings if place == 1]
    # Translators: a post's title, in bold; {names} are the winners: "Ann" or "Ann and Bob".
    head = ngettext("Game over — {names} wins!", "Game over — {names} win!", len(winners))
    ratings = p.ratings or (None,) * len(standings)
    lines = [
        f"{number(place)}. {name_text(name)} — {number(total)}" + rating_text(rated)
        for (place, name, total), rated in zip(standings, ratings, strict=True)
    ]
    text = "**" + head.format(names=names_text(winners)) + "**\n" + "\n".join(lines)
    game = p.game
    if game:
        # Translators: {game} is the game's number; keep the command as it is.
        text += "\n-# " + _("Game #{game} · its record: `/ohhell record game:{game}`").format(
            game=game
        )
    return text


def score_chart_of(notice: Notice) -> ScoreChart | None:
    """The picture a notice carries: the final standings' score chart."""
    return notice.chart if isinstance(notice, FinalStandings) else None


def chart_file_name(notice: Notice) -> str | None:
    """The file name of the picture a notice carries (the final standings' score chart)."""
    if isinstance(notice, FinalStandings) and notice.chart is not None:
        return f"ohhell-game-{notice.game}.png"
    return None


def replay_of(notice: Notice) -> int | None:
    """The finished game whose replay a notice links to: the final standings' game."""
    return notice.game if isinstance(notice, FinalStandings) and notice.game else None


def notice_view(replay: str | None) -> discord.ui.View | None:
    """A post's link button: the Replay of the game whose final standings it is (`replay`,
    its page's address); none without one."""
    # Translators: a button that opens the finished game's replay on a web page.
    return link_view(pgettext("button", "Replay"), replay)


REPLAYS_SHOWN = 25
"""Link buttons on one post: Discord's five rows of five."""


def replays_view(replays: list[tuple[int, str]]) -> discord.ui.View | None:
    """A catch-up post's links: the Replay of each game whose final standings it holds (game,
    page's address), the first 25; none without one."""
    if not replays:
        return None
    view = discord.ui.View(timeout=None)
    for game, url in replays[:REPLAYS_SHOWN]:
        # Translators: a button that opens a finished game's replay on a web page; {game} is
        # the game's number.
        view.add_item(link_button(pgettext("button", "Replay #{game}").format(game=game), url))
    return view


def rating_text(rated: tuple[int, int, bool] | None) -> str:
    """A player's rating after a game and its change: " · 1,412 (+18)", " · 1,012? (+40)"
    while provisional."""
    if rated is None:
        return ""
    rating, change, provisional = rated
    return f" · {rating_number(rating, provisional)} ({signed(change)})"


def _timed_out(p: TimedOut) -> str:
    action = p.action
    name = name_text(p.name)
    if action is None:
        # Translators: {name} is a player's name.
        text = _("{name} ran out of time: a computer bid for them.").format(name=name)
    elif isinstance(action, Bid):
        # Translators: {name} is a player's name.
        text = _("{name} ran out of time: a computer bid {bid} for them.").format(
            name=name, bid=number(action.n)
        )
    elif isinstance(action, ChooseTrump):
        # Translators: {name} is a player's name; {suit} a suit with its symbol: "♥ hearts".
        text = _("{name} ran out of time: a computer chose {suit} as trump for them.").format(
            name=name, suit=suit_text(action.suit)
        )
    else:
        # Translators: {name} is a player's name; {card} a card: "Q♠".
        text = _("{name} ran out of time: a computer played {card} for them.").format(
            name=name, card=card_text(action.card)
        )
    return "⏰ " + text


def _removed(p: Removal) -> str:
    name = name_text(p.name)
    if p.in_game:
        # Translators: {name} is a player's name.
        return _("{name} was removed from the table: a computer player takes the seat.").format(
            name=name
        )
    # Translators: {name} is a player's name.
    return _("{name} was removed from the table.").format(name=name)


def _notice_words(notice: Notice) -> str:
    """Every notice's words: one case a kind of notice (mypy checks none is missing)."""
    match notice:
        case HandScore():
            return _hand_scored(notice)
        case FinalStandings():
            return _game_over(notice)
        case TimedOut():
            return _timed_out(notice)
        case ComputerPlaysFor(name=name):
            # Translators: {name} is a player's name.
            return _(
                "{name} missed two turns in a row: a computer plays their seat "
                "until they press **I'm back**."
            ).format(name=name_text(name))
        case StartedWithout(names=names):
            # Translators: {names} lists players' names: "Ann, Bob".
            return _("Started without {names} (seat not confirmed).").format(
                names=", ".join(name_text(name) for name in names)
            )
        case Closure(reason=reason):
            # Translators: {reason} says why, as "nobody played for 2 days".
            return _("This table is closed: {reason}. Start a new one any time.").format(
                reason=closed_text(reason)
            )
        case Removal():
            return _removed(notice)
        case HostChange(user_id=int() as user_id):
            # Translators: {mention} mentions a person (Discord shows their name).
            return _("{mention} is the host of this table now.").format(mention=f"<@{user_id}>")
        case HostChange():
            # No id: the new host has been erased since (a former player).
            return _("The table has a new host.")
        case Pause():
            return "⏸ " + _("The host paused the game.")
        case Resumption():
            return "▶ " + _("The game goes on.")
        case Rematch(user_ids=user_ids):
            # Translators: {mentions} mentions the players of the game that ended.
            return _(
                "Rematch! {mentions} — press **Join** on the new table to keep your seat."
            ).format(mentions=" ".join(f"<@{u}>" for u in user_ids))
        case _:
            assert_never(notice)


def turn_ping_text(waiting: tuple[int, ...], table_url: str, deadline: float | None = None) -> str:
    """The one short message that mentions whoever a table has waited on for a while."""
    mentions = " ".join(f"<@{user}>" for user in waiting)
    if deadline is None:
        # Translators: {mentions} mentions the players to act; {url} links to the table.
        return _("{mentions} — your turn at the table: {url}").format(
            mentions=mentions, url=table_url
        )
    # Translators: {when} is a moment Discord shows as "in 2 minutes"; {url} links to the table.
    return _("{mentions} — your turn at the table; time runs out {when}: {url}").format(
        mentions=mentions, when=relative_time(deadline), url=table_url
    )


def notice_text(notice: Notice) -> str:
    return fit(_notice_words(notice), MESSAGE_LIMIT)


def catch_up_posts(texts: list[str]) -> list[tuple[str, int]]:
    """What the channel missed while the bot could not send there, in as few posts as fit:
    each post, and how many of `texts` it holds."""
    posts: list[tuple[str, int]] = []
    # Translators: the heading of posts the bot sends once it may post in a channel again.
    current, held = "**" + _("Missed while I could not post here:") + "**", 0
    for text in texts:
        if len(current) + 2 + len(text) > MESSAGE_LIMIT and held:
            posts.append((fit(current, MESSAGE_LIMIT), held))
            current, held = "", 0
        current = f"{current}\n\n{text}" if current else text
        held += 1
    posts.append((fit(current, MESSAGE_LIMIT), held))
    return posts
