"""What a committed change records and tells: stored events, channel notices, results."""

from __future__ import annotations

from typing import Any

from bot.engine import Event, Game, GameOver, HandScored
from bot.service.document import TableDocument
from bot.service.summaries import score_chart
from bot.service.views import Notice
from bot.storage import PlayerResult


def event_payload(event: Event) -> dict[str, Any]:
    payload: dict[str, Any] = {}
    for name in getattr(event, "__slots__", ()):
        value = getattr(event, name)
        payload[name] = value if isinstance(value, (int, str, bool, type(None))) else str(value)
    return payload


def announce(game: Game, event: Event, number: int = 0) -> list[Notice]:
    """The channel notices of an engine event at game `number` (its table id)."""
    names = game.names
    if isinstance(event, HandScored):
        rows = tuple(
            (names[s], event.bids[s], event.tricks[s], event.points[s], event.totals[s])
            for s in range(len(names))
            if event.bids[s] is not None
        )
        log = next((h for h in reversed(game.history()) if h.number == event.hand), None)
        tricks = () if log is None else tuple(trick_plays(game, log.seats, t) for t in log.tricks)
        return [
            Notice(
                "hand_scored",
                {"hand": event.hand, "tiebreak": event.tiebreak, "rows": rows, "tricks": tricks},
            )
        ]
    if isinstance(event, GameOver):
        order = sorted(range(len(names)), key=lambda s: (event.placing[s], s))
        standings = tuple((event.placing[s], names[s], event.totals[s]) for s in order)
        params = {"standings": standings, "game": number, "chart": score_chart(game, number)}
        return [Notice("game_over", params)]
    return []


def trick_plays(
    game: Game, seats: tuple[int, ...], trick: Any
) -> tuple[tuple[tuple[str, Any], ...], str | None]:
    """A finished trick as ((name, card) in play order, the winner's name or None)."""
    start = seats.index(trick.leader)
    order = seats[start:] + seats[:start]
    plays = tuple(
        (game.names[seat], game.pack.cards[card])
        for seat, card in zip(order, trick.cards, strict=False)
    )
    return plays, (game.names[trick.winner] if trick.winner >= 0 else None)


def results_of(document: TableDocument, game: Game) -> list[PlayerResult]:
    placing = game.placing or tuple(1 for _ in document.seats)
    made = [0] * len(document.seats)
    played = [0] * len(document.seats)
    for log in game.history():
        if not log.complete:
            continue
        for seat in log.seats:
            played[seat] += 1
            if log.won[seat] == log.bids[seat]:
                made[seat] += 1
    return [
        PlayerResult(
            user_id=seat.user_id,
            place=placing[index],
            points=game.totals[index],
            bids_made=made[index],
            hands_played=played[index],
            left_early=seat.left,
        )
        for index, seat in enumerate(document.seats)
        if seat.user_id is not None
    ]
