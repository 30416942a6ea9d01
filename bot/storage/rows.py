"""What storage hands out and takes in: rows, results and its errors, as small frozen values."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any


class TableStatus(StrEnum):
    LOBBY = "lobby"
    PLAYING = "playing"
    FINISHED = "finished"
    CANCELLED = "cancelled"
    ABANDONED = "abandoned"

    @property
    def is_open(self) -> bool:
        return self in (TableStatus.LOBBY, TableStatus.PLAYING)


class StorageError(Exception):
    """Base class for storage failures the service turns into messages."""


class DatabaseUnavailable(StorageError):
    """The database could not be opened or brought up to date: where it is (without any
    password) and why."""

    def __init__(self, where: str, reason: str) -> None:
        super().__init__(f"{where}: {reason}")
        self.where = where
        self.reason = reason


class VersionConflict(StorageError):
    """The table changed since it was loaded; the caller reloads and tries again (or refuses)."""


class ChannelBusy(StorageError):
    """The channel already has an open table."""

    def __init__(self, table_id: int) -> None:
        super().__init__(f"this channel already has an open table (#{table_id})")
        self.table_id = table_id


class CorruptRow(StorageError):
    """A stored row could not be read back; the table is left untouched. `closed`: a finished
    (or cancelled, abandoned) table's, which nobody needs to cancel."""

    def __init__(self, message: str, *, closed: bool = False) -> None:
        super().__init__(message)
        self.closed = closed


@dataclass(frozen=True)
class TableRow:
    id: int
    guild_id: int
    channel_id: int
    message_id: int | None
    host_id: int
    status: TableStatus
    preset: str
    document: dict[str, Any]
    version: int
    created_at: float
    updated_at: float
    due_at: float | None = None
    """When something is next due at this table (a turn deadline, a nudge, expiry)."""


@dataclass(frozen=True)
class ChannelDefaults:
    channel_id: int
    settings: dict[str, Any]
    set_by: int
    updated_at: float


class Keep:
    """`Tables.save(due_at=KEEP)`: leave the stored deadline as it is."""


KEEP = Keep()


@dataclass(frozen=True)
class Event:
    kind: str
    payload: dict[str, Any] = field(default_factory=dict)
    user_id: int | None = None


@dataclass(frozen=True)
class PlayerResult:
    user_id: int
    place: int
    points: int
    bids_made: int
    hands_played: int
    left_early: bool = False
    """The person left the game or timed out (a computer finished their seat)."""
    removed: bool = False
    """The host removed the person from the game (not rated: docs/ratings.md)."""


@dataclass(frozen=True)
class RatingPoint:
    """A player's shown rating after one rated game, and how much that game moved it."""

    game: int
    """The game's number (its table id)."""
    rating: int
    change: int
    provisional: bool = False
    """The rating was still provisional after that game (shown with `?`)."""


@dataclass(frozen=True)
class PlayerRating:
    """A player's current rating in one scope, and their place on that leaderboard."""

    rating: int
    games: int
    rank: int | None
    """Their rank by rating among the settled ratings (None: theirs is provisional)."""
    ranked: int
    """How many players are ranked in this scope."""
    provisional: bool = False
    uncertainty: int = 0
    """How far off the rating may still be, in points (one standard deviation)."""


@dataclass(frozen=True)
class LastGame:
    """A player's last game in their server's rating order, and whether it moved their
    overall rating."""

    game: int
    """Its number (table id)."""
    change: int | None
    """Its change of their overall rating; None when it did not rate them."""
    removed: bool
    """The host removed them from it."""
    rated_seats: int
    """Seats of the game that were rated (not removed)."""
    stayed_seats: int
    """Of those, the seats that stayed to the end."""


BOARD_ORDERS = ("rating", "wins", "win_rate", "exact_bids", "points")
"""What /leaderboard can rank by: the shown rating, wins, win rate, the share of hands bid
exactly, average points a hand."""
COUNT_ORDERS = ("wins",)
"""The orders that are counts: they rank every player, a provisional rating or not. The others
(a rating, rates over games) rank settled ratings only, and list the provisional ones below,
unranked: a rate over a few games says little, as a provisional rating does."""


@dataclass(frozen=True)
class LeaderboardRow:
    rank: int | None
    """None: not ranked (a provisional rating, in an order that ranks settled ones only)."""
    user_id: int
    """A person, or a computer level's identity (negative: `computer_level`)."""
    rating: int
    games: int
    wins: int
    win_rate: float
    exact_bid_rate: float
    points_per_hand: float
    provisional: bool = False
    """Their rating is provisional (shown with `?`)."""


@dataclass(frozen=True)
class Leaderboard:
    rows: list[LeaderboardRow]
    """The page's rows: the ranked players best first, then the unranked ones."""
    caller: LeaderboardRow | None
    """The caller's own row, when they have one but not on this page."""
    by: str = "rating"
    preset: str | None = None
    page: int = 1
    pages: int = 1
    ranked: int = 0
    """How many are ranked (settled ratings; everyone in a count order)."""
    unranked: int = 0
    """How many are listed below them, unranked (provisional ratings)."""

    @property
    def ranks_everyone(self) -> bool:
        """The order is a count (`COUNT_ORDERS`): a provisional rating is ranked too."""
        return self.by in COUNT_ORDERS


MAX_ID = 2**63 - 1
"""The largest integer an id column holds (SQLite's INTEGER, PostgreSQL's BIGINT): a larger one
as a query's parameter raises OverflowError, from sqlite3 and asyncpg alike."""


def possible_table_id(number: int) -> bool:
    """Whether a table could have this id: tables are numbered from 1, up to `MAX_ID`. Any
    other number a person gives is no table, known without a query."""
    return 1 <= number <= MAX_ID


TABLE_COLUMNS = (
    "id, guild_id, channel_id, message_id, host_id, status, preset, document, version,"
    " created_at, updated_at, due_at"
)


def _unreadable(row: Sequence[Any], why: str) -> CorruptRow:
    return CorruptRow(
        f"table #{row[0]} could not be read: {why}", closed=row[5] not in ("lobby", "playing")
    )


def row_to_table(row: Sequence[Any]) -> TableRow:
    try:
        document = json.loads(row[7])
        status = TableStatus(row[5])
    except (ValueError, TypeError) as error:
        raise _unreadable(row, str(error)) from error
    if not isinstance(document, dict):
        raise _unreadable(row, "its document is not an object")
    return TableRow(
        id=row[0],
        guild_id=row[1],
        channel_id=row[2],
        message_id=row[3],
        host_id=row[4],
        status=status,
        preset=row[6],
        document=document,
        version=row[8],
        created_at=row[9],
        updated_at=row[10],
        due_at=row[11],
    )


def dumps(value: object) -> str:
    """JSON as stored: compact, keys sorted."""
    return json.dumps(value, separators=(",", ":"), sort_keys=True)
