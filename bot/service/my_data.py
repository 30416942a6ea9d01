"""`/ohhell my-data`: everything stored about a person, as one JSON document
(`ohhell-my-data/1`, docs/my-data.md). Worked out from the rows storage reads
(`storage.Privacy.person_rows`) by a pure, picklable function: it decodes the person's games, so it
runs outside the event loop.

Nothing in it is another person's hidden information: a finished game comes as its record (every
card of it was played, or seen at the end); a game that is not finished (open, cancelled,
abandoned) gives only the person's own bids, trump choices and cards played."""

from __future__ import annotations

import json
from collections.abc import Collection
from dataclasses import dataclass
from typing import Any

from bot.engine import Game
from bot.engine.records import record_from_game
from bot.service.summaries import UNREADABLE, record_of
from bot.storage import CorruptRow, PersonRows, TableRow, TableStatus
from bot.storage.privacy import StoredEvent

MY_DATA_FORMAT = "ohhell-my-data/1"
ID_PARAMS = ("user_id", "user_ids", "rated_as")
"""Notice parameters that hold people's ids (bot/service/posts.py): left out of a copy, which
shows other people as the channel did, by name."""


@dataclass(frozen=True)
class DataExport:
    """A person's data: the JSON document's bytes, and what it holds in numbers."""

    data: bytes
    games: int
    """Tables the person sat at, hosted or acted at."""
    servers: int
    """Servers any of it is from."""


def _text_ids(row: dict[str, Any]) -> dict[str, Any]:
    """A stored row with its ids as text (a snowflake does not fit the numbers of every JSON
    reader)."""
    return {
        key: str(value) if (key == "id" or key.endswith("_id")) and value is not None else value
        for key, value in row.items()
    }


def _seats_of(row: TableRow) -> list[dict[str, Any]]:
    seats = row.document.get("seats")
    return [seat for seat in seats if isinstance(seat, dict)] if isinstance(seats, list) else []


def _game_text(row: TableRow) -> str | None:
    game = row.document.get("game")
    return game if isinstance(game, str) else None


def _own_moves(game_json: str, seat: int) -> list[dict[str, Any]] | None:
    """The bids, trump choices and plays of one seat, hand by hand, with nobody's cards."""
    try:
        game = Game.from_json(game_json)
    except UNREADABLE:
        return None
    hands = record_from_game(game)["hands"]
    return [
        {
            "hand": number,
            "actions": [
                {key: value for key, value in action.items() if key != "seat"}
                for action in hand["actions"]
                if action["seat"] == seat
            ],
        }
        for number, hand in enumerate(hands, start=1)
    ]


def _record(row: TableRow) -> dict[str, Any] | None:
    game = _game_text(row)
    if row.status is not TableStatus.FINISHED or game is None:
        return None
    try:
        return record_of(game, [str(seat.get("name", "")) for seat in _seats_of(row)])
    except CorruptRow:
        return None


def _event(event: StoredEvent, user_id: int, names: dict[int, str]) -> dict[str, Any]:
    """An event as the person may see it: another person's id in it as their name at the
    table (as the channel showed them), or nothing when the table no longer seats them."""
    payload = {
        key: (names.get(value) if value != user_id else str(value))
        if key in ("user", "user_id") and isinstance(value, int)
        else value
        for key, value in event.payload.items()
    }
    return {
        "at": event.at,
        "kind": event.kind,
        "by_you": event.user_id == user_id,
        "payload": payload,
    }


def _shown_params(params: Any) -> Any:
    """A waiting post's encoded parameters without anyone's id."""
    if not isinstance(params, dict) or not isinstance(params.get("map"), dict):
        return params
    return {"map": {k: v for k, v in params["map"].items() if k not in ID_PARAMS}}


def _names_post(payload: Any, user_id: int, names: Collection[str]) -> bool:
    """Whether a waiting post mentions the person or holds one of their names."""
    if not isinstance(payload, dict):
        return False
    text = json.dumps(payload.get("params"))
    return (
        user_id in payload.get("mention", [])
        or str(user_id) in text
        or any(json.dumps(name) in text for name in names)
    )


def _table(row: TableRow, user_id: int, events: list[StoredEvent]) -> dict[str, Any] | None:
    """One table as the person's data shows it; None when it does not name them (its text only
    held their id's digits)."""
    seats = _seats_of(row)
    seat = next((i for i, s in enumerate(seats) if s.get("user_id") == user_id), None)
    dms = row.document.get("dms")
    hand_message = dms.get(str(user_id)) if isinstance(dms, dict) else None
    closed = row.document.get("dms_closed")
    source = row.document.get("rules_source")
    set_rules = isinstance(source, dict) and source.get("set_by") == user_id
    host = row.host_id == user_id
    if seat is None and hand_message is None and not host and not set_rules and not events:
        return None
    names = {
        int(s["user_id"]): str(s.get("name", ""))
        for s in seats
        if isinstance(s.get("user_id"), int)
    }
    game = _game_text(row)
    record = _record(row)
    return {
        "game": row.id,
        "server_id": str(row.guild_id),
        "channel_id": str(row.channel_id),
        "status": row.status.value,
        "opened_at": row.created_at,
        "changed_at": row.updated_at,
        "host": host,
        "seat": seat,
        "name": None if seat is None else seats[seat].get("name"),
        "away": None if seat is None else seats[seat].get("away"),
        "set_the_rules": set_rules,
        "hand_message": _text_ids(hand_message) if isinstance(hand_message, dict) else None,
        "hand_messages_closed": isinstance(closed, list) and user_id in closed,
        "record": record,
        "your_moves": (
            _own_moves(game, seat)
            if record is None and game is not None and seat is not None
            else None
        ),
        "events": [_event(event, user_id, names) for event in events],
    }


def export_of(rows: PersonRows, now: float, names: Collection[str] = ()) -> DataExport:
    """The person's data as `ohhell-my-data/1` JSON. `names`: the ones they go by now (a
    waiting post may name them at a table that no longer seats them)."""
    user_id = rows.user_id
    by_table: dict[int, list[StoredEvent]] = {}
    for event in rows.events:
        if event.user_id == user_id or any(
            event.payload.get(key) == user_id for key in ("user", "user_id")
        ):
            by_table.setdefault(event.table_id, []).append(event)
    tables = []
    known = {name for name in names if name}
    for row in rows.tables:
        shown = _table(row, user_id, by_table.get(row.id, []))
        if shown is not None:
            tables.append(shown)
            if shown["name"]:
                known.add(shown["name"])
    posts = []
    games = {table["game"] for table in tables}
    for post in rows.posts:
        try:
            payload = json.loads(post.payload)
        except ValueError:
            continue
        if post.table_id in games and _names_post(payload, user_id, known):
            posts.append(
                {
                    "game": post.table_id,
                    "kind": post.kind,
                    "stored_at": post.created_at,
                    "params": _shown_params(payload.get("params")),
                }
            )
    defaults = []
    for channel in rows.channel_defaults:
        try:
            settings: Any = json.loads(channel.settings)
        except ValueError:
            settings = None
        defaults.append(
            {
                "server_id": str(channel.guild_id),
                "channel_id": str(channel.channel_id),
                "settings": settings,
                "updated_at": channel.updated_at,
            }
        )
    rating_rows = {
        table: [_text_ids(row) for row in found] for table, found in rows.rating_rows.items()
    }
    servers = {table["server_id"] for table in tables}
    servers |= {row["guild_id"] for found in rating_rows.values() for row in found}
    servers |= {channel["server_id"] for channel in defaults}
    document = {
        "format": MY_DATA_FORMAT,
        "user_id": str(user_id),
        "exported_at": now,
        "results": rating_rows.get("results", []),
        "ratings": rating_rows.get("ratings", []),
        "rating_history": rating_rows.get("rating_history", []),
        "games": tables,
        "channel_defaults": defaults,
        "language": rows.locale,
        "waiting_posts": posts,
        "limits": [{"kind": kind, "until": until} for kind, until in rows.leases],
        "unreadable_games": list(rows.unreadable),
    }
    data = json.dumps(document, indent=1, ensure_ascii=False).encode()
    return DataExport(data=data, games=len(tables), servers=len(servers))
