"""Notices: what the service tells a table's channel, each a value of its own with the values
its words name (cogs/render/notices.py words them). The outbox keeps a notice as its `code` and
its fields by name (bot/service/posts.py)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from bot.engine import Action, Card
from bot.service.document import ClosedReason
from bot.service.summaries import ScoreChart

ScoreRow = tuple[str, int, int, int, int]
"""A player's result in a hand: name, bid, tricks taken, points, total."""

TrickPlays = tuple[tuple[tuple[str, Card], ...], str | None]
"""A finished trick: (name, card) in play order, and the winner's name (None: all cancelled)."""

Standing = tuple[int, str, int]
"""A player's place at the end of a game: place, name, total."""

RatingAfter = tuple[int, int, bool]
"""A player's rating after a game: rating, change, provisional."""


@dataclass(frozen=True)
class HandScore:
    """A hand's scores and its tricks."""

    code: ClassVar[str] = "hand_scored"
    hand: int
    rows: tuple[ScoreRow, ...]
    tricks: tuple[TrickPlays, ...] = ()
    tiebreak: bool = False


@dataclass(frozen=True)
class FinalStandings:
    """The end of a game: its standings in order, its chart, and each player's rating after it
    (`ratings`, by standing; None until read with the game's results: bot/service/outbox.py)."""

    code: ClassVar[str] = "game_over"
    standings: tuple[Standing, ...]
    game: int | None = None
    chart: ScoreChart | None = None
    rated_as: tuple[int, ...] = ()
    """By standing: the identity each player is rated as."""
    ratings: tuple[RatingAfter | None, ...] | None = None


@dataclass(frozen=True)
class TimedOut:
    """A computer moved for a player out of time (`action` None: a secret bid)."""

    code: ClassVar[str] = "timed_out"
    name: str
    action: Action | None


@dataclass(frozen=True)
class ComputerPlaysFor:
    """A player missed two turns in a row: a computer plays their seat."""

    code: ClassVar[str] = "computer_plays_for"
    name: str


@dataclass(frozen=True)
class StartedWithout:
    """The game started without the rematch seats nobody confirmed."""

    code: ClassVar[str] = "started_without"
    names: tuple[str, ...]


@dataclass(frozen=True)
class Closure:
    """The table closed without its host."""

    code: ClassVar[str] = "closed"
    reason: ClosedReason


@dataclass(frozen=True)
class Removal:
    """The host removed a player (`in_game`: a computer player takes the seat)."""

    code: ClassVar[str] = "removed"
    name: str
    in_game: bool


@dataclass(frozen=True)
class HostChange:
    """The table has a new host (`user_id` None: erased since)."""

    code: ClassVar[str] = "new_host"
    user_id: int | None


@dataclass(frozen=True)
class Pause:
    code: ClassVar[str] = "paused"


@dataclass(frozen=True)
class Resumption:
    code: ClassVar[str] = "resumed"


@dataclass(frozen=True)
class Rematch:
    """A rematch table opened for the players of a game that ended."""

    code: ClassVar[str] = "rematch"
    user_ids: tuple[int, ...]


Notice = (
    HandScore
    | FinalStandings
    | TimedOut
    | ComputerPlaysFor
    | StartedWithout
    | Closure
    | Removal
    | HostChange
    | Pause
    | Resumption
    | Rematch
)
"""Something to tell a table's channel."""
