"""A person taken out of what the service stores, for `Erasure.erase_person`: each seat of
theirs becomes a former player with no id (named by the Discord layer: "Former player 1"), in
the seats and in the engine's game alike, so the game replays and scores as it did; their id
leaves the hand messages, who set the rules, the event payloads and the waiting posts, and
their names leave the posts (where no seat at the table has that name: there it cannot be told
whose it is)."""

from __future__ import annotations

import contextlib
import copy
import json
from collections.abc import Callable, Collection, Mapping
from typing import Any

from bot.engine import EngineError
from bot.engine.codec import renamed
from bot.storage import TableRow, TableStatus

PERSON_KEYS = ("user", "user_id")
"""Event payload keys that hold a person's id."""
VALUE_TAGS = frozenset({"card", "bid", "trump", "play", "closed"})
"""Tagged values of a post's parameters (bot/service/posts.py) that hold no name."""


def former_label(taken: Collection[str], former: Callable[[int], str]) -> str:
    """The first former player's name (`former(1)`, `former(2)`, …) no seat has."""
    number = 1
    while former(number) in taken:
        number += 1
    return former(number)


def seat_names(document: Mapping[str, Any]) -> list[str]:
    seats = document.get("seats")
    if not isinstance(seats, list):
        return []
    return [str(seat.get("name")) for seat in seats if isinstance(seat, dict)]


class PersonForgotten:
    """`bot.storage.Forgetting` for one person: rewrites of stored JSON. It gathers the names
    their seats had, for the posts (`names`: the ones they go by now, from Discord)."""

    def __init__(
        self, user_id: int, former: Callable[[int], str], names: Collection[str] = ()
    ) -> None:
        self.user_id = user_id
        self.former = former
        """A former player's name from their number at the table."""
        self.names = {name for name in names if name}
        self.labels: dict[int, str] = {}
        """By table: the name their seat there has now."""

    def document(self, row: TableRow) -> dict[str, Any] | None:
        document = copy.deepcopy(row.document)
        changed = False
        seats = document.get("seats")
        seats = seats if isinstance(seats, list) else []
        taken = set(seat_names(document))
        renamed_seats: dict[int, str] = {}
        kept: list[Any] = []
        for index, seat in enumerate(seats):
            if not isinstance(seat, dict) or seat.get("user_id") != self.user_id:
                kept.append(seat)
                continue
            changed = True
            if isinstance(seat.get("name"), str):
                self.names.add(seat["name"])
            if row.status is TableStatus.LOBBY:
                continue  # no game yet: the seat goes, as when they leave
            label = former_label(taken, self.former)
            taken.add(label)
            seat.update(user_id=None, name=label, pending=False)
            if row.status is TableStatus.PLAYING and not seat.get("left"):
                # Taken off the game as if they left: a computer plays the seat on.
                seat.update(left=True, away="left", level=seat.get("level") or "normal", missed=0)
            renamed_seats[index] = label
            self.labels[row.id] = label
            kept.append(seat)
        if seats:
            document["seats"] = kept
        dms = document.get("dms")
        if isinstance(dms, dict) and str(self.user_id) in dms:
            del dms[str(self.user_id)]
            changed = True
        closed = document.get("dms_closed")
        if isinstance(closed, list) and self.user_id in closed:
            document["dms_closed"] = [user for user in closed if user != self.user_id]
            changed = True
        source = document.get("rules_source")
        if isinstance(source, dict) and source.get("set_by") == self.user_id:
            document["rules_source"] = {**source, "set_by": None}
            changed = True
        game = document.get("game")
        if renamed_seats and isinstance(game, str):
            # A game that does not load keeps its text: its seats are renamed all the same.
            with contextlib.suppress(EngineError):
                document["game"] = renamed(game, renamed_seats)
        return document if changed else None

    def event(self, payload: dict[str, Any]) -> dict[str, Any]:
        return {
            key: None if key in PERSON_KEYS and value == self.user_id else value
            for key, value in payload.items()
        }

    def post(self, table_id: int, payload: str, document: dict[str, Any]) -> str | None:
        try:
            stored = json.loads(payload)
        except ValueError:
            return None
        if not isinstance(stored, dict):
            return None
        seated = seat_names(document)
        label = self.labels.get(table_id) or former_label(seated, self.former)
        names = {name: label for name in self.names if name not in seated}
        new = {
            **stored,
            "mention": [user for user in stored.get("mention", []) if user != self.user_id],
            "params": self._params(stored.get("params"), names),
        }
        return None if new == stored else json.dumps(new, separators=(",", ":"))

    def _params(self, value: Any, names: Mapping[str, str]) -> Any:
        """Encoded notice parameters (a one-key object for each value of a kind JSON lacks)
        with the person's id gone from the id parameters and their names replaced."""
        if isinstance(value, str):
            return names.get(value, value)
        if isinstance(value, list):
            return [self._params(item, names) for item in value]
        if not isinstance(value, dict) or len(value) != 1:
            return value
        ((tag, inner),) = value.items()
        if tag in VALUE_TAGS or not isinstance(inner, dict):
            return value
        if tag == "chart":
            return {tag: self._params(inner, names)}
        return {tag: {key: self._param(key, item, names) for key, item in inner.items()}}

    def _param(self, key: str, value: Any, names: Mapping[str, str]) -> Any:
        if key == "user_id":
            return None if value == self.user_id else value
        if key == "user_ids" and isinstance(value, list):
            return [user for user in value if user != self.user_id]
        if key == "rated_as" and isinstance(value, list):
            return [0 if user == self.user_id else user for user in value]
        return self._params(value, names)
