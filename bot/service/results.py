"""What a committed change records and tells: stored events, channel notices, results."""

from __future__ import annotations

from typing import Any, assert_never

from bot.engine import (
    BidChanged,
    BidMade,
    BidsRevealed,
    CardPlayed,
    Event,
    Game,
    GameOver,
    HandDealt,
    HandLog,
    HandScored,
    TrickWon,
    TrumpChosen,
)
from bot.service.document import Seat, TableDocument
from bot.service.notices import FinalStandings, HandScore, Notice, TrickPlays
from bot.service.summaries import score_chart
from bot.storage import COMPUTER_IDS, PlayerResult


def event_name(event: Event) -> str:
    """The name an engine event is stored under in the event log: fixed, whatever the class is
    called (stored logs and bot/service/review.py read it)."""
    match event:
        case HandDealt():
            return "HandDealt"
        case BidMade():
            return "BidMade"
        case BidChanged():
            return "BidChanged"
        case BidsRevealed():
            return "BidsRevealed"
        case TrumpChosen():
            return "TrumpChosen"
        case CardPlayed():
            return "CardPlayed"
        case TrickWon():
            return "TrickWon"
        case HandScored():
            return "HandScored"
        case GameOver():
            return "GameOver"
        case _:
            assert_never(event)


def event_payload(event: Event) -> dict[str, Any]:
    payload: dict[str, Any] = {}
    for name in getattr(event, "__slots__", ()):
        value = getattr(event, name)
        payload[name] = value if isinstance(value, (int, str, bool, type(None))) else str(value)
    return payload


def announce(
    game: Game, event: Event, number: int = 0, rated: tuple[int, ...] = ()
) -> list[Notice]:
    """The channel notices of an engine event at game `number` (its table id). `rated`: by
    seat, the identity each seat is rated as (`rated_as`); the final standings name them in
    their order, for the ratings after the game (filled in once stored: `Session._rated`)."""
    names = game.names
    if isinstance(event, HandScored):
        log = next(h for h in reversed(game.finished_hands) if h.number == event.hand)
        return [hand_score(game, log)]
    if isinstance(event, GameOver):
        order = sorted(range(len(names)), key=lambda s: (event.placing[s], s))
        standings = tuple((event.placing[s], names[s], event.totals[s]) for s in order)
        return [
            FinalStandings(
                standings=standings,
                game=number,
                chart=score_chart(game, number),
                rated_as=tuple(rated[s] for s in order) if rated else (),
            )
        ]
    return []


def hand_score(game: Game, log: HandLog) -> HandScore:
    """A scored hand's scores and tricks, as its post in the channel says them."""
    names = game.names
    points = log.points
    assert points is not None, "a finished hand is scored"
    rows = tuple(
        (names[s], bid, log.won[s], points[s], log.totals[s])
        for s, bid in enumerate(log.bids)
        if bid >= 0
    )
    tricks = tuple(trick_plays(game, log.seats, t) for t in log.tricks)
    return HandScore(hand=log.number, rows=rows, tricks=tricks, tiebreak=log.kind == "tiebreak")


def last_scored(game: Game) -> HandScore | None:
    """The newest hand the game scored, as its post said it, rebuilt from the game as stored:
    the post itself is handed only to the process that stored the move which scored it."""
    done = game.finished_hands
    return hand_score(game, done[-1]) if done else None


def trick_plays(game: Game, seats: tuple[int, ...], trick: Any) -> TrickPlays:
    """A finished trick as ((name, card) in play order, the winner's name or None)."""
    start = seats.index(trick.leader)
    order = seats[start:] + seats[:start]
    plays = tuple(
        (game.names[seat], game.pack.cards[card])
        for seat, card in zip(order, trick.cards, strict=False)
    )
    return plays, (game.names[trick.winner] if trick.winner >= 0 else None)


NOBODY = 0
"""What a former player's seat is rated as: nobody (`rated_as`)."""


def is_former(seat: Seat) -> bool:
    """A former player's seat: its person erased themselves during the game, and a computer
    played it on from there (bot/service/forgetting.py)."""
    return seat.user_id is None and seat.left


def rated_as(seat: Seat) -> int:
    """The identity a seat's result is stored and rated as: the person, for a computer
    player its level's reserved id (docs/ratings.md), for a former player's seat `NOBODY`."""
    if seat.user_id is not None:
        return seat.user_id
    if is_former(seat):
        return NOBODY
    return COMPUTER_IDS[seat.level or "normal"]


def results_of(document: TableDocument, game: Game) -> list[PlayerResult]:
    """Every seat's result, in seat order (computer players too), but a former player's: that
    seat is nobody's game (not the person's, who is erased, nor the computer's, which did not
    play it from the start), so it has no result, rating or totals, and the other seats are
    rated among themselves in the places they finished (as when the host removes a player)."""
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
            user_id=rated_as(seat),
            place=placing[index],
            points=game.totals[index],
            bids_made=made[index],
            hands_played=played[index],
            left_early=seat.left,
            removed=seat.away == "kicked",
        )
        for index, seat in enumerate(document.seats)
        if not is_former(seat)
    ]
