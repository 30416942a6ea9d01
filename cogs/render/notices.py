"""Posts in the channel: a hand's score with its tricks, the final standings, timeouts, host
actions, catch-up posts."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from bot.engine import Action, Bid, ChooseTrump
from bot.service import (
    Notice,
)
from cogs.render.common import (
    MESSAGE_LIMIT,
    SUIT_NAMES,
    SUIT_SYMBOLS,
    card_text,
    fit,
    relative_time,
)
from cogs.render.ratings import rating_number
from cogs.render.rules import closed_text


def action_text(action: Action) -> str:
    """A move as people say it: "bid 2", "chose ♥ hearts as trump", "played Q♠"."""
    if isinstance(action, Bid):
        return f"bid {action.n}"
    if isinstance(action, ChooseTrump):
        return f"chose {SUIT_SYMBOLS[action.suit]} {SUIT_NAMES[action.suit]} as trump"
    return f"played {card_text(action.card)}"


def _trick_line(number: int, trick: Any) -> str:
    plays, winner = trick
    cards = " · ".join(f"{name} {card_text(card)}" for name, card in plays)
    return f"{number}. {cards} → {winner if winner is not None else 'nobody (all cancelled)'}"


def _hand_scored(p: Mapping[str, Any]) -> str:
    title = "Tie-break deal" if p["tiebreak"] else f"Hand {p['hand']}"
    rows = [
        f"{name}: bid {bid}, took {took}, {points:+d} → {total}"
        for name, bid, took, points, total in p["rows"]
    ]
    text = f"**{title} scored**\n" + "\n".join(rows)
    if p["tricks"]:
        tricks = [_trick_line(i, t) for i, t in enumerate(p["tricks"], start=1)]
        text += "\n**Tricks**\n" + "\n".join(tricks)
    return text


def _game_over(p: Mapping[str, Any]) -> str:
    standings = p["standings"]
    winners = [name for place, name, _ in standings if place == 1]
    head = " and ".join(winners) + (" win!" if len(winners) > 1 else " wins!")
    ratings = p.get("ratings") or (None,) * len(standings)
    lines = [
        f"{place}. {name} — {total}" + rating_text(rated)
        for (place, name, total), rated in zip(standings, ratings, strict=True)
    ]
    text = f"**Game over — {head}**\n" + "\n".join(lines)
    number = p.get("game")
    if number:
        text += f"\n-# Game #{number} · its record: `/ohhell record game:{number}`"
    return text


def chart_file_name(notice: Notice) -> str | None:
    """The file name of the picture a notice carries (the final standings' score chart)."""
    if notice.code == "game_over" and notice.params.get("chart") is not None:
        return f"ohhell-game-{notice.params.get('game')}.png"
    return None


def rating_text(rated: tuple[int, int, bool] | None) -> str:
    """A player's rating after a game and its change: " · 1,412 (+18)", " · 1,012? (+40)"
    while provisional."""
    if rated is None:
        return ""
    rating, change, provisional = rated
    return f" · {rating_number(rating, provisional)} ({change:+,})"


def _timed_out(p: Mapping[str, Any]) -> str:
    action = p["action"]
    done = "a computer bid for them" if action is None else f"a computer {action_text(action)}"
    return f"⏰ {p['name']} ran out of time: {done} for them."


NOTICES: dict[str, Callable[[Mapping[str, Any]], str]] = {
    "hand_scored": _hand_scored,
    "game_over": _game_over,
    "timed_out": _timed_out,
    "computer_plays_for": lambda p: (
        f"{p['name']} missed two turns in a row: a computer plays their seat "
        "until they press **I'm back**."
    ),
    "started_without": lambda p: (
        "Started without " + ", ".join(p["names"]) + " (seat not confirmed)."
    ),
    "closed": lambda p: (
        f"This table is closed: {closed_text(p['reason'])}. Start a new one any time."
    ),
    "removed": lambda p: (
        f"{p['name']} was removed from the table"
        + (": a computer player takes the seat." if p["in_game"] else ".")
    ),
    # No id: the new host has been erased since (a former player).
    "new_host": lambda p: (
        f"<@{p['user_id']}> is the host of this table now."
        if p["user_id"] is not None
        else "The table has a new host."
    ),
    "paused": lambda p: "⏸ The host paused the game.",
    "resumed": lambda p: "▶ The game goes on.",
    "rematch": lambda p: (
        "Rematch! "
        + " ".join(f"<@{u}>" for u in p["user_ids"])
        + " — press **Join** on the new table to keep your seat."
    ),
}


def turn_ping_text(waiting: tuple[int, ...], table_url: str, deadline: float | None = None) -> str:
    """The one short message that mentions whoever a table has waited on for a while."""
    mentions = " ".join(f"<@{user}>" for user in waiting)
    runs_out = f"; time runs out {relative_time(deadline)}" if deadline is not None else ""
    return f"{mentions} — your turn at the table{runs_out}: {table_url}"


def notice_text(notice: Notice) -> str:
    return fit(NOTICES[notice.code](notice.params), MESSAGE_LIMIT)


def catch_up_posts(texts: list[str]) -> list[tuple[str, int]]:
    """What the channel missed while the bot could not send there, in as few posts as fit:
    each post, and how many of `texts` it holds."""
    posts: list[tuple[str, int]] = []
    current, held = "**Missed while I could not post here:**", 0
    for text in texts:
        if len(current) + 2 + len(text) > MESSAGE_LIMIT and held:
            posts.append((current, held))
            current, held = "", 0
        current = f"{current}\n\n{text}" if current else text
        held += 1
    posts.append((fit(current, MESSAGE_LIMIT), held))
    return posts
