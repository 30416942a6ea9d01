"""Refusals and answers: the words for every code the service gives."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from bot.service import (
    Reason,
    Refused,
)
from cogs.render.common import (
    NOT_FOR_YOU,
    NOT_OFFERED,
    relative_time,
    timer_text,
)

HOST_DOINGS = {
    "rules": "change the rules",
    "start": "start the game",
    "cancel": "cancel the table",
    "remove": "remove players",
    "host": "hand over the host role",
    "pause": "pause or resume the game",
    "timer": "change the turn timer",
}

REASONS: dict[str, Callable[[Mapping[str, Any]], str]] = {
    # refusals
    "not_for_you": lambda p: NOT_FOR_YOU,
    "not_offered": lambda p: NOT_OFFERED,
    "table_gone": lambda p: "that table no longer exists",
    "table_closed": lambda p: f"that table is {p['status']}",
    "not_seated": lambda p: "you are not seated at this table",
    "not_started": lambda p: "the game has not started yet",
    "rules_invalid": lambda p: f"those rules are not valid: {p['problem']}",
    "channel_busy": lambda p: (
        f"this channel already has an open table: {p['url']}"
        if p.get("url")
        else f"this channel already has an open table (#{p['table_id']})"
    ),
    "no_table_here": lambda p: "there is no open table in this channel",
    "missing_permissions": lambda p: (
        "I can't run a table here: I need the "
        + ", ".join(name.replace("_", " ").title() for name in p["names"])
        + (" permissions" if len(p["names"]) > 1 else " permission")
        + " in this channel"
    ),
    "already_seated": lambda p: "you are already seated at this table",
    "join_first": lambda p: "only seated players can add a computer player: join first",
    "no_level": lambda p: f"there is no computer level {p['level']!r}",
    "no_rule": lambda p: f"there is no rule called {p['field']!r}",
    "rule_invalid": lambda p: f"{p['field']} can't be {p['value']!r}: {p['problem']}",
    "player_count": lambda p: (
        f"these rules need {p['low']} to {p['high']} players; {p['players']} seated"
    ),
    "rules_unplayable": lambda p: str(p["explanation"]),
    "no_card": lambda p: "there is no such card in this game",
    "computer_has_seat": lambda p: (
        "a computer player has your seat: press **I'm back** to take it back"
    ),
    "removed": lambda p: "the host removed you from this game",
    "paused": lambda p: "the game is paused: the host can resume it",
    "earlier_hand": lambda p: "that button is from an earlier hand: use your newest hand message",
    "illegal": lambda p: str(p["explanation"]),
    "already_playing": lambda p: "you are already playing your seat",
    "not_seated_other": lambda p: "that person is not seated at this table",
    "remove_self": lambda p: "you can't remove yourself: use Leave",
    "already_removed": lambda p: f"{p['name']} was already removed",
    "host_must_play": lambda p: "the new host must be a person playing at this table",
    "already_host": lambda p: "they are the host already",
    "already_paused": lambda p: "the game is paused already",
    "already_running": lambda p: "the game is running already",
    "rematch_not_over": lambda p: "a rematch can start once the game is over",
    "rematch_players_only": lambda p: "only the players of this game can start a rematch",
    "manage_channels": lambda p: (
        "only someone with Manage Channels can set this channel's defaults"
    ),
    "already_started": lambda p: "the game has already started",
    "table_full": lambda p: f"the table is full ({p['seats']} seats)",
    "too_many": lambda p: f"these rules take at most {p['high']} players",
    "host_only": lambda p: (
        "only the host (or someone with Manage Channels) can "
        + HOST_DOINGS.get(str(p["doing"]), "do that")
    ),
    "conflict": lambda p: "the table changed at the same moment: look again and retry",
    "timer_choices": lambda p: (
        "the turn timer can be " + ", ".join(timer_text(t) for t in p["timers"])
    ),
    "no_such_page": lambda p: (
        f"there is no page {p['page']} of the leaderboard: it has {p['pages']}"
        if "pages" in p
        else "that page of the leaderboard does not exist: use /leaderboard"
    ),
    "no_such_order": lambda p: f"the leaderboard cannot be ranked by {p['by']!r}",
    "hook": lambda p: f"the hook: the bids would add up to {p['total']}",
    "review_no_games": lambda p: "you have no finished game in this server to review yet",
    "review_no_game": lambda p: f"this server has no game #{p['game']}",
    "review_not_finished": lambda p: (
        f"game #{p['game']} is {p['status']}: only a finished game can be reviewed"
    ),
    "review_not_player": lambda p: f"you did not play in game #{p['game']}",
    "review_running": lambda p: "you already have a review running: wait for it to finish",
    "my_data_wait": lambda p: (
        f"you asked for your data a moment ago: ask again {relative_time(p['until'])}"
    ),
    "erasure_not_offered": lambda p: (
        "that confirmation is used up or too old, so nothing was erased: "
        "use /ohhell forget-me again"
    ),
    "no_page": lambda p: "there is no such page of games",
    "no_games": lambda p: "no game has finished on this server yet",
    "no_game": lambda p: f"there is no finished game #{p['game']} on this server",
    # answers to whoever acted
    "opened": lambda p: "Table opened.",
    "confirmed": lambda p: "Your seat is confirmed.",
    "joined": lambda p: "You joined the table.",
    "computer_added": lambda p: f"{p['name']} takes a seat.",
    "left_game": lambda p: (
        "You left the game; a computer player takes your seat. "
        "Press **I'm back** on the table message to take it back."
    ),
    "left_closed": lambda p: "You left; the table is closed.",
    "left": lambda p: "You left the table.",
    "rule_set": lambda p: f"{p['field']} set.",
    "begins": lambda p: "The game begins.",
    "cancelled": lambda p: "The table is cancelled.",
    "auto_play": lambda p: f"Auto-play of a forced card is {'on' if p['on'] else 'off'}.",
    "back": lambda p: "Welcome back: your seat is yours again.",
    "removed_player": lambda p: f"{p['name']} is removed from the table.",
    "new_host": lambda p: f"{p['name']} is the host now.",
    "paused_now": lambda p: "Paused.",
    "resumed_now": lambda p: "Resumed.",
    "timer_set": lambda p: f"Turn timer: {timer_text(int(p['seconds']))}.",
    "rematch_opened": lambda p: "Rematch table opened.",
}


def reason_text(reason: Reason) -> str:
    """A refusal's or an answer's words (refusals start lower case: see `refusal`)."""
    wording = REASONS.get(reason.code)
    return wording(reason.params) if wording is not None else reason.code


def answer(reason: Reason | None, default: str = "Done.") -> str:
    """The private answer to whoever acted."""
    return default if reason is None else reason_text(reason)


def refusal(error: Refused) -> str:
    """What a person is told when the service refuses their action: a sentence."""
    text = reason_text(error.reason)
    return text[:1].upper() + text[1:]
