"""The event log stores each engine event under a fixed name, whatever its class is called:
stored logs (and the review, which reads them) keep their meaning when the code is renamed."""

from __future__ import annotations

from pathlib import Path
from typing import get_args

from bot.engine import BidMade, Card, CardPlayed, Event, GameOver
from bot.service.results import event_name
from bot.service.review import ACTION_EVENTS
from bot.storage import Database
from tests.played import service_on
from tests.service.test_service import play_a_game

STORED_NAMES = {
    "HandDealt",
    "BidMade",
    "BidChanged",
    "BidsRevealed",
    "TrumpChosen",
    "CardPlayed",
    "TrickWon",
    "HandScored",
    "GameOver",
}
"""The names stored logs hold: a name changed here needs a migration of the events table."""


def an_event(kind: type[Event]) -> Event:
    """A value of `kind`, whatever its fields (`event_name` looks at its type alone)."""
    event: Event = object.__new__(kind)
    return event


def test_every_kind_of_event_has_its_own_name_and_keeps_it() -> None:
    names = [event_name(an_event(kind)) for kind in get_args(Event)]
    assert len(names) == len(set(names))
    assert set(names) == STORED_NAMES
    assert ACTION_EVENTS <= STORED_NAMES


def test_a_renamed_class_is_stored_under_the_same_name() -> None:
    renamed = type("BidPlaced", (BidMade,), {"__slots__": ()})
    assert event_name(renamed(0, 1)) == "BidMade"
    assert event_name(CardPlayed(0, Card("10", "H"))) == "CardPlayed"
    assert event_name(GameOver((1,), (10,))) == "GameOver"


async def test_a_game_stores_its_events_under_those_names(tmp_path: Path) -> None:
    database = await Database.open(f"sqlite:///{tmp_path / 'ohhell.sqlite3'}")
    try:
        table_id = await play_a_game(service_on(database), preset="classic", max_cards=2)
        kinds = {event.kind for event in await database.tables.events(table_id)}
    finally:
        await database.close()
    assert {"HandDealt", "BidMade", "CardPlayed", "TrickWon", "HandScored", "GameOver"} <= kinds
