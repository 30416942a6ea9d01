"""What finished games say when looked at again: the score chart's values, a server's history
entries, a game's record, a player's stats. Values only (no English), and the pure functions
that work them out from stored documents; those run outside the event loop (picklable, for the
worker processes)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.engine import Game
from bot.engine.records import record_from_game
from bot.service.turns import UNREADABLE_GAME
from bot.storage import CorruptRow, LastGame, PlayerGame
from bot.storage.ratings import BASE, PROVISIONAL_SIGMA, finishes_ahead, uncertainty


@dataclass(frozen=True)
class ScoreChart:
    """Each player's running total hand by hand, for the chart at the end of a game."""

    game: int
    """The game's number (its table id)."""
    names: tuple[str, ...]
    hands: tuple[int, ...]
    """The hand numbers along the chart (tie-break deals left out: they add no points)."""
    totals: tuple[tuple[int, ...], ...]
    """Per seat: the running total after each of `hands`."""
    made: tuple[tuple[bool, ...], ...]
    """Per seat: whether the bid was met in each of `hands`."""
    target: int | None
    """The score that ends the game, when it ends on one."""


@dataclass(frozen=True)
class HistoryEntry:
    game: int
    channel_id: int
    preset: str
    finished_at: float
    players: tuple[str, ...]
    winners: tuple[str, ...]


@dataclass(frozen=True)
class HistoryPage:
    page: int
    """1-based."""
    entries: tuple[HistoryEntry, ...]
    has_next: bool


@dataclass(frozen=True)
class GameRecord:
    game: int
    record: dict[str, Any] = field(hash=False)
    """The game's record in docs/records.md's format (``ohhell-record/1``)."""
    channel_id: int = 0
    """The channel it was played in."""
    people: tuple[int | None, ...] = ()
    """Each seat's person, in seat order (None: a computer player's seat, or a former
    player's)."""
    ratings: tuple[tuple[int, int, bool] | None, ...] = ()
    """Each seat's rating after the game, its change and whether it is still provisional, in
    seat order (None: the seat was not rated in it); as the final standings show them."""


@dataclass(frozen=True)
class LevelResult:
    """A player's games at tables with a computer player of one level, and their wins."""

    level: str
    games: int
    wins: int


@dataclass(frozen=True)
class GameDetail:
    """What only the stored games themselves tell about a player (their newest games)."""

    games: int
    """How many games this covers."""
    hands: int
    """Hands the player bid in."""
    bid_error: float | None
    """Average of bid − tricks taken (positive: bids too high)."""
    bid_miss: float | None
    """Average of |bid − tricks taken|."""


@dataclass(frozen=True)
class PlayerStats:
    user_id: int
    games: int
    wins: int
    places: tuple[tuple[int, int], ...]
    """(place, games finished there), best place first."""
    left_early: int
    exact_bid_rate: float | None
    points_per_hand: float | None
    best_game: tuple[int, int] | None
    """(game number, points)."""
    favourite_preset: tuple[str, int] | None
    """(preset, games)."""
    detail: GameDetail
    detail_limit: int
    """At most this many of the newest games are read for `detail`."""
    computers: tuple[LevelResult, ...] = ()
    """Games at tables with each computer level, and wins there (every stored game)."""
    rating: float | None = None
    """The player's overall rating here (None before their first rated game)."""
    rating_provisional: bool = False
    """It is still provisional (shown with `?`, not ranked)."""
    rating_uncertainty: int = 0
    """How far off it may still be, in points (one standard deviation)."""
    rating_change: float | None = None
    """The change of their last rated game."""
    rating_change_game: int | None = None
    """That game's number."""
    unrated_game: int | None = None
    """Their last game, when it did not rate them."""
    unrated_reason: str | None = None
    """Why (`UNRATED_REASONS`), or None when no reason is known."""
    rating_rank: int | None = None
    """Their place on the server's leaderboard by rating (None: not ranked yet)."""
    rating_ranked: int = 0
    """How many players that leaderboard ranks."""
    preset_ratings: tuple[tuple[str, int, bool], ...] = ()
    """(preset, rating, provisional) for each preset they have played, most played first."""
    rating_history: tuple[tuple[int, float], ...] = ()
    """(game number, rating after it), oldest first: the rating chart's points."""
    rating_history_provisional: tuple[bool, ...] = ()
    """Whether each of those ratings was provisional."""


UNRATED_REASONS = ("removed", "too_few_rated", "nobody_stayed")
"""Why a game did not rate a player: the host removed them; fewer than two of its seats were
rated (everyone else removed); every rated seat left it."""


def unrated_reason(last: LastGame) -> str | None:
    """Why a player's last game did not rate them (`UNRATED_REASONS`)."""
    if last.removed:
        return "removed"
    if last.rated_seats < 2:
        return "too_few_rated"
    if last.stayed_seats == 0:
        return "nobody_stayed"
    return None


@dataclass(frozen=True)
class RatingGuide:
    """What the help tells players about ratings, from the rating's own constants."""

    start: int
    """Everyone's first rating."""
    provisional_points: int
    """A rating is provisional while it may be more than this many points off."""
    ahead: tuple[tuple[int, float], ...]
    """(points, how often a player that far above another finishes ahead of them)."""


RATING_GUIDE = RatingGuide(
    start=BASE,
    provisional_points=uncertainty(PROVISIONAL_SIGMA),
    ahead=tuple((points, finishes_ahead(points)) for points in (100, 200, 400)),
)


def score_chart(game: Game, number: int) -> ScoreChart:
    """The chart's values of a game (finished or not)."""
    logs = [h for h in game.history() if h.complete and h.kind != "tiebreak"]
    players = game.players
    rules = game.rules
    return ScoreChart(
        game=number,
        names=tuple(game.names),
        hands=tuple(h.number for h in logs),
        totals=tuple(tuple(h.totals[s] for h in logs) for s in range(players)),
        made=tuple(
            tuple(s in h.seats and h.bids[s] >= 0 and h.bids[s] == h.won[s] for h in logs)
            for s in range(players)
        ),
        target=rules.target if rules.end == "target" else None,
    )


UNREADABLE = (*UNREADABLE_GAME, AttributeError)
"""What a stored document (JSON of another shape: AttributeError) or game that does not load
raises."""


def _stored_game(game_json: str) -> Game | None:
    """A stored game, or None when it does not load (damaged, or a format this bot cannot
    replay): one such game must not fail a page or a sum over many."""
    try:
        return Game.from_json(game_json)
    except UNREADABLE:
        return None


def names_and_winners(documents: Sequence[str]) -> list[tuple[tuple[str, ...], tuple[str, ...]]]:
    """For each stored document of a finished table: its seats' names and its winners' (none
    for a game that does not load)."""
    out: list[tuple[tuple[str, ...], tuple[str, ...]]] = []
    for text in documents:
        try:
            document = json.loads(text)
            names = tuple(str(seat.get("name", "?")) for seat in document.get("seats", []))
        except UNREADABLE:
            out.append(((), ()))
            continue
        winners: tuple[str, ...] = ()
        game = _stored_game(document["game"]) if document.get("game") else None
        if game is not None:
            placing = game.placing or ()
            seat_names = names if len(names) == game.players else game.names
            winners = tuple(seat_names[s] for s, place in enumerate(placing) if place == 1)
        out.append((names, winners))
    return out


def record_of(game_json: str, names: Sequence[str]) -> dict[str, Any]:
    """A stored game's record, with the seats' names as the table shows them; a game that does
    not load is a corrupt row."""
    game = _stored_game(game_json)
    if game is None:
        raise CorruptRow("a finished game could not be read: its game does not load", closed=True)
    record = record_from_game(game)
    if len(names) == game.players and all(names):
        record["players"] = list(names)
    return record


def game_detail(games: Sequence[PlayerGame], user_id: int) -> GameDetail:
    """Bid errors, from a player's stored games."""
    error = miss = hands = 0
    for played in games:
        try:
            seats = json.loads(played.seats) if played.seats else []
            seat = next((i for i, s in enumerate(seats) if s.get("user_id") == user_id), None)
        except UNREADABLE:
            continue
        game = _stored_game(played.game) if seat is not None and played.game else None
        if game is None:
            continue
        for h in game.history():
            if h.complete and seat in h.seats and h.bids[seat] >= 0:
                difference = h.bids[seat] - h.won[seat]
                error += difference
                miss += abs(difference)
                hands += 1
    return GameDetail(
        games=len(games),
        hands=hands,
        bid_error=error / hands if hands else None,
        bid_miss=miss / hands if hands else None,
    )
