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
    name_text,
    relative_time,
    timer_text,
)
from cogs.render.explanations import explanation_text
from cogs.render.language import N_, _, ngettext, number

HOST_DOINGS = {
    "rules": N_("only the host (or someone with Manage Channels) can change the rules"),
    "start": N_("only the host (or someone with Manage Channels) can start the game"),
    "cancel": N_("only the host (or someone with Manage Channels) can cancel the table"),
    "remove": N_("only the host (or someone with Manage Channels) can remove players"),
    "host": N_("only the host (or someone with Manage Channels) can hand over the host role"),
    "pause": N_("only the host (or someone with Manage Channels) can pause or resume the game"),
    "timer": N_("only the host (or someone with Manage Channels) can change the turn timer"),
    "": N_("only the host (or someone with Manage Channels) can do that"),
}
"""The refusal of each thing only a table's host may do, by the service's `doing`."""

PERMISSION_NAMES = {
    "view_channel": N_("View Channel"),
    "send_messages": N_("Send Messages"),
    "embed_links": N_("Embed Links"),
    "read_message_history": N_("Read Message History"),
    "attach_files": N_("Attach Files"),
}
"""Discord's names of the channel permissions the bot may lack, by discord.py's attribute."""

# A closed table's state, by TableStatus value: the refusal of a click on it.
_TABLE_CLOSED = {
    "finished": N_("that table is finished"),
    "cancelled": N_("that table is cancelled"),
    "abandoned": N_("that table is abandoned"),
}
_NOT_REVIEWABLE = {
    # Translators: {game} is a game's number; the game's table has not started yet.
    "lobby": N_("game #{game} has not started: only a finished game can be reviewed"),
    "playing": N_("game #{game} is still being played: only a finished game can be reviewed"),
    "cancelled": N_("game #{game} is cancelled: only a finished game can be reviewed"),
    "abandoned": N_("game #{game} is abandoned: only a finished game can be reviewed"),
}


def _missing_permissions(p: Mapping[str, Any]) -> str:
    names = [
        _(PERMISSION_NAMES[name]) if name in PERMISSION_NAMES else name.replace("_", " ").title()
        for name in p["names"]
    ]
    # Translators: {permissions} lists Discord permission names: "View Channel, Embed Links".
    return ngettext(
        "I can't run a table here: I need the {permissions} permission in this channel",
        "I can't run a table here: I need the {permissions} permissions in this channel",
        len(names),
    ).format(permissions=", ".join(names))


def _host_only(p: Mapping[str, Any]) -> str:
    return _(HOST_DOINGS.get(str(p["doing"]), HOST_DOINGS[""]))


def _table_closed(p: Mapping[str, Any]) -> str:
    closed = _TABLE_CLOSED.get(str(p["status"]))
    return _(closed) if closed is not None else _("that table is closed")


def _not_reviewable(p: Mapping[str, Any]) -> str:
    wording = _NOT_REVIEWABLE.get(str(p["status"]))
    if wording is None:
        return _("game #{game} is not finished: only a finished game can be reviewed").format(
            game=p["game"]
        )
    return _(wording).format(game=p["game"])


def _no_such_page(p: Mapping[str, Any]) -> str:
    if "pages" not in p:
        return _("that page of the leaderboard does not exist: use /leaderboard")
    pages = int(p["pages"])
    # Translators: {pages} is how many pages the leaderboard has.
    return ngettext(
        "there is no page {page} of the leaderboard: it has {pages}",
        "there is no page {page} of the leaderboard: it has {pages}",
        pages,
    ).format(page=number(int(p["page"])), pages=number(pages))


REASONS: dict[str, Callable[[Mapping[str, Any]], str]] = {
    # refusals
    "not_for_you": lambda p: _(NOT_FOR_YOU),
    "not_offered": lambda p: _(NOT_OFFERED),
    "table_gone": lambda p: _("that table no longer exists"),
    "table_closed": _table_closed,
    "not_seated": lambda p: _("you are not seated at this table"),
    "not_started": lambda p: _("the game has not started yet"),
    # Translators: {problem} says what is wrong with the rules.
    "rules_invalid": lambda p: _("those rules are not valid: {problem}").format(
        problem=explanation_text(p)
    ),
    "channel_busy": lambda p: (
        # Translators: {url} is a link to the table's message.
        _("this channel already has an open table: {url}").format(url=p["url"])
        if p.get("url")
        # Translators: {table} is the table's number.
        else _("this channel already has an open table (#{table})").format(table=p["table_id"])
    ),
    "no_table_here": lambda p: _("there is no open table in this channel"),
    "missing_permissions": _missing_permissions,
    "already_seated": lambda p: _("you are already seated at this table"),
    "join_first": lambda p: _("only seated players can add a computer player: join first"),
    "no_level": lambda p: _("there is no computer level {level}").format(level=repr(p["level"])),
    # Translators: {rule} is the name of a setting as the commands write it (max_cards).
    "no_rule": lambda p: _("there is no rule called {rule}").format(rule=repr(p["field"])),
    "rule_invalid": lambda p: (
        # Translators: {rule} is the name of a setting as the commands write it (max_cards).
        _("{rule} can't be {value}: {problem}").format(
            rule=p["field"], value=repr(p["value"]), problem=explanation_text(p)
        )
    ),
    # Translators: {low} to {high} is how many players the rules allow; {players} how many sit.
    "player_count": lambda p: ngettext(
        "these rules need {low} to {high} players; {players} seated",
        "these rules need {low} to {high} players; {players} seated",
        int(p["high"]),
    ).format(
        low=number(int(p["low"])),
        high=number(int(p["high"])),
        players=number(int(p["players"])),
    ),
    "rules_unplayable": explanation_text,
    "no_card": lambda p: _("there is no such card in this game"),
    "computer_has_seat": lambda p: _(
        "a computer player has your seat: press **I'm back** to take it back"
    ),
    "removed": lambda p: _("the host removed you from this game"),
    "paused": lambda p: _("the game is paused: the host can resume it"),
    "earlier_hand": lambda p: _(
        "that button is from an earlier hand: use your newest hand message"
    ),
    "illegal": explanation_text,
    "already_playing": lambda p: _("you are already playing your seat"),
    "not_seated_other": lambda p: _("that person is not seated at this table"),
    "remove_self": lambda p: _("you can't remove yourself: use Leave"),
    # Translators: {name} is a player's name.
    "already_removed": lambda p: _("{name} was already removed").format(name=name_text(p["name"])),
    "host_must_play": lambda p: _("the new host must be a person playing at this table"),
    "already_host": lambda p: _("they are the host already"),
    "already_paused": lambda p: _("the game is paused already"),
    "already_running": lambda p: _("the game is running already"),
    "rematch_not_over": lambda p: _("a rematch can start once the game is over"),
    "rematch_players_only": lambda p: _("only the players of this game can start a rematch"),
    "manage_channels": lambda p: _(
        "only someone with Manage Channels can set this channel's defaults"
    ),
    "already_started": lambda p: _("the game has already started"),
    "table_full": lambda p: ngettext(
        "the table is full ({seats} seat)", "the table is full ({seats} seats)", p["seats"]
    ).format(seats=number(p["seats"])),
    "too_many": lambda p: ngettext(
        "these rules take at most {high} player",
        "these rules take at most {high} players",
        p["high"],
    ).format(high=number(p["high"])),
    "host_only": _host_only,
    "conflict": lambda p: _("the table changed at the same moment: look again and retry"),
    # Translators: {timers} lists the turn timers to choose from: "off, 30 s, 2 min".
    "timer_choices": lambda p: _("the turn timer can be {timers}").format(
        timers=", ".join(timer_text(t) for t in p["timers"])
    ),
    "no_such_page": _no_such_page,
    # Translators: {order} is what someone asked to rank the leaderboard by.
    "no_such_order": lambda p: _("the leaderboard cannot be ranked by {order}").format(
        order=repr(p["by"])
    ),
    # Translators: the hook: the dealer may not bid so that the bids add up to the cards dealt.
    "hook": lambda p: _("the hook: the bids would add up to {total}").format(
        total=number(p["total"])
    ),
    "review_no_games": lambda p: _("you have no finished game in this server to review yet"),
    # Translators: {game} is a game's number.
    "review_no_game": lambda p: _("this server has no game #{game}").format(game=p["game"]),
    "review_not_finished": _not_reviewable,
    # Translators: {game} is a game's number.
    "review_not_player": lambda p: _("you did not play in game #{game}").format(game=p["game"]),
    "review_running": lambda p: _("you already have a review running: wait for it to finish"),
    # Translators: {when} is a moment Discord shows as "in 5 minutes".
    "my_data_wait": lambda p: _("you asked for your data a moment ago: ask again {when}").format(
        when=relative_time(p["until"])
    ),
    "erasure_not_offered": lambda p: _(
        "that confirmation is used up or too old, so nothing was erased: "
        "use /ohhell forget-me again"
    ),
    "no_page": lambda p: _("there is no such page of games"),
    "no_games": lambda p: _("no game has finished on this server yet"),
    # Translators: {game} is a game's number.
    "no_game": lambda p: _("there is no finished game #{game} on this server").format(
        game=p["game"]
    ),
    # answers to whoever acted
    "opened": lambda p: _("Table opened."),
    "confirmed": lambda p: _("Your seat is confirmed."),
    "joined": lambda p: _("You joined the table."),
    # Translators: {name} is a computer player's name: "Computer (hard)".
    "computer_added": lambda p: _("{name} takes a seat.").format(name=name_text(p["name"])),
    "left_game": lambda p: _(
        "You left the game; a computer player takes your seat. "
        "Press **I'm back** on the table message to take it back."
    ),
    "left_closed": lambda p: _("You left; the table is closed."),
    "left": lambda p: _("You left the table."),
    # Translators: {rule} is the name of a setting as the commands write it (max_cards).
    "rule_set": lambda p: _("{rule} set.").format(rule=p["field"]),
    "begins": lambda p: _("The game begins."),
    "cancelled": lambda p: _("The table is cancelled."),
    "auto_play": lambda p: (
        _("Auto-play of a forced card is on.")
        if p["on"]
        else _("Auto-play of a forced card is off.")
    ),
    "back": lambda p: _("Welcome back: your seat is yours again."),
    # Translators: {name} is a player's name.
    "removed_player": lambda p: _("{name} is removed from the table.").format(
        name=name_text(p["name"])
    ),
    # Translators: {name} is a player's name.
    "new_host": lambda p: _("{name} is the host now.").format(name=name_text(p["name"])),
    "paused_now": lambda p: _("Paused."),
    "resumed_now": lambda p: _("Resumed."),
    # Translators: {timer} is "off", "30 s", "2 min"…
    "timer_set": lambda p: _("Turn timer: {timer}.").format(timer=timer_text(int(p["seconds"]))),
    "rematch_opened": lambda p: _("Rematch table opened."),
}


def reason_text(reason: Reason) -> str:
    """A refusal's or an answer's words (refusals start lower case: see `refusal`)."""
    wording = REASONS.get(reason.code)
    return wording(reason.params) if wording is not None else reason.code


def answer(reason: Reason | None, default: str = N_("Done.")) -> str:
    """The private answer to whoever acted; `default` is a marked sentence (`N_`), said in the
    language being spoken when the service gave no answer."""
    return _(default) if reason is None else reason_text(reason)


def refusal(error: Refused) -> str:
    """What a person is told when the service refuses their action: a sentence."""
    text = reason_text(error.reason)
    return text[:1].upper() + text[1:]
