"""What a table's stored state means for turns and seats: who is waited for, what a computer
or auto-play does next, who hosts after whom, the turn timer's choices."""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable
from typing import Any

from pydantic import ValidationError

from bot.engine import Action, EngineError, Event, Game, Phase, Settings, SettingsError
from bot.service.document import TURN_TIMERS, AwayReason, Seat, TableDocument
from bot.service.errors import Refused
from bot.service.players import player_range
from bot.service.refusals import (
    Explanation,
    NotForYou,
    PlayerCount,
    RulesUnplayable,
    SettingsProblem,
    TimerChoices,
)
from bot.storage import CorruptRow, TableRow


def load_document(row: TableRow) -> TableDocument:
    try:
        document = TableDocument.model_validate(row.document)
    except ValidationError as error:
        raise CorruptRow(
            f"table #{row.id} could not be read: {error.error_count()} errors",
            closed=not row.status.is_open,
        ) from error
    try:
        settings_of(document)
    except ValidationError as error:  # rules no version of the bot stores (or a bad edit)
        raise CorruptRow(
            f"table #{row.id} could not be read: its rules: {error.error_count()} errors",
            closed=not row.status.is_open,
        ) from error
    if not document.last_activity:
        # Saved before tables kept this: the last save is the best guess (not the epoch, which
        # would expire the table at once).
        document.last_activity = row.updated_at
    return document


UNREADABLE_GAME = (EngineError, ValueError, KeyError, TypeError, IndexError)
"""What a stored game record that does not load raises (`Game.from_json` replays it)."""


def decode_game(row: TableRow, document: TableDocument) -> Game:
    """The row's stored game, decoded (replayed through the rules); a record that does not
    load is a corrupt row, answered as one, not an unexpected error."""
    assert document.game is not None
    try:
        return Game.from_json(document.game)
    except UNREADABLE_GAME as error:
        raise CorruptRow(
            f"table #{row.id} could not be read: its game: {error}", closed=not row.status.is_open
        ) from error


def settings_of(document: TableDocument) -> Settings:
    """The table's rules. Settings are frozen, so equal choices share one value (every save
    and view of a table asks for them)."""
    try:
        return _settings(tuple(sorted(document.settings.items())))
    except TypeError:  # a value that is not hashable: validated as it is (and refused)
        return Settings.model_validate(document.settings)


@functools.lru_cache(maxsize=1024)
def _settings(choices: tuple[tuple[str, object], ...]) -> Settings:
    return Settings.model_validate(dict(choices))


TIMER_FIELD = "turn_timer"
"""Channel defaults hold the turn timer beside the rule settings, under this name."""


def check_timer(seconds: int) -> None:
    if seconds not in TURN_TIMERS:
        raise Refused(TimerChoices(timers=TURN_TIMERS))


def without_dms(row: TableRow) -> dict[str, Any]:
    """A row's document less where its hand DMs are (bookkeeping, not the game's state)."""
    return {k: v for k, v in row.document.items() if k not in ("dms", "dms_closed")}


def check_dm(document: TableDocument, user_id: int, dm_channel: int | None) -> None:
    """A control clicked in a DM must be on the clicking person's own hand message: its answer
    edits that message with their hand, which nobody else may read."""
    if dm_channel is None:
        return
    ref = document.dms.get(str(user_id))
    if ref is None or ref.channel_id != dm_channel:
        raise Refused(NotForYou())


def running_deadline(document: TableDocument) -> float | None:
    if document.turn is None or document.turn.deadline is None or document.paused:
        return None
    return max(document.turn.deadline, document.grace_until)


def host_after(document: TableDocument, host: int, gone: int, fallback: int | None = None) -> int:
    """Who hosts once `gone` is no longer playing: the same host, or else the first person
    still playing their seat (not one whose rematch seat is unconfirmed)."""
    if host != gone:
        return host
    people = sorted(document.people_playing(), key=lambda entry: entry[1].pending)
    for _, seat in people:
        if seat.user_id is not None:
            return seat.user_id
    return host if fallback is None else fallback


def hand_to_computer(seat: Seat, why: AwayReason) -> None:
    seat.left = True
    seat.away = why
    seat.level = "normal"
    seat.missed = 0


def waiting_for_someone_away(document: TableDocument) -> bool:
    """No person plays their own seat and someone only stepped away (missed their turns):
    the game waits for them (or for abandonment) instead of computers playing it out."""
    return not document.people_playing() and any(s.away == "timeout" for s in document.seats)


def explained(error: EngineError) -> Explanation:
    """What the engine refused: its code and the values it names, for cogs/render to word."""
    return Explanation(error.code, error.params)


def settings_problem(error: ValidationError) -> Explanation:
    """What is wrong with which setting (`setting`) of rules that are not valid, for
    cogs/render to word. The rule options and menus offer valid values only, so only a forged
    value (or channel defaults stored by a version of the bot with other rules) gets here: no
    more detail."""
    first = error.errors()[0]
    problem: SettingsProblem = "bad_settings"
    if not first["loc"]:
        return Explanation(problem)
    problem = "no_such_setting" if first["type"] == "extra_forbidden" else "bad_setting"
    return Explanation(problem, {"setting": str(first["loc"][0])})


def start_problem(settings: Settings, players: int) -> PlayerCount | RulesUnplayable | None:
    """Why the game could not start with these rules and players, if it could not."""
    try:
        settings.resolve(players)
    except SettingsError as error:
        low, high = player_range(settings)
        if low <= high and not low <= players <= high:
            return PlayerCount(low=low, high=high, players=players)
        return RulesUnplayable(explained(error))
    return None


def waiting_for(game: Game) -> tuple[int, ...]:
    """The seats the game waits for: all who have not bid in simultaneous bidding, else one
    (a player who may still change their bid is not waited for)."""
    to_act = game.to_act
    if game.phase is Phase.BIDDING and game.rules.bidding in ("hook", "open"):
        return to_act[:1]
    return to_act


def computer_to_move(document: TableDocument, game: Game) -> int | None:
    if game.phase is Phase.GAME_OVER:
        return None
    for seat in waiting_for(game):
        if document.seats[seat].is_computer:
            return seat
    return None


def forced_card_waiting(document: TableDocument, game: Game) -> bool:
    if game.phase is not Phase.PLAYING:
        return False
    seat = game.to_act[0]
    person = document.seats[seat]
    return not person.is_computer and person.auto_play and len(game.legal_actions(seat)) == 1


def play_forced_cards(document: TableDocument, game: Game) -> list[Event]:
    """004's "Auto Play One": a person with auto-play on whose only legal move is one card plays
    it at once, in the same commit as the move that made it forced (so no one is ever shown a
    turn that is already decided)."""
    events: list[Event] = []
    while game.phase is Phase.PLAYING:
        seat = game.to_act[0]
        if document.seats[seat].is_computer or not document.seats[seat].auto_play:
            break
        legal = game.legal_actions(seat)
        if len(legal) != 1:
            break
        events += game.apply(seat, legal[0])
    return events


async def run_in_thread(function: Callable[..., Any], *args: Any) -> Any:
    return await asyncio.to_thread(function, *args)


Decider = Callable[[str, int, str, int], Action]
"""(game JSON, seat, level, seed) -> the computer's action. Runs outside the event loop."""
