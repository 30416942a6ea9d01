"""Answers: what the service did, told to whoever acted, each a value of its own (cogs/render
words them)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar


@dataclass(frozen=True)
class Opened:
    code: ClassVar[str] = "opened"


@dataclass(frozen=True)
class Confirmed:
    code: ClassVar[str] = "confirmed"


@dataclass(frozen=True)
class Joined:
    code: ClassVar[str] = "joined"


@dataclass(frozen=True)
class ComputerAdded:
    code: ClassVar[str] = "computer_added"
    name: str


@dataclass(frozen=True)
class LeftGame:
    """Left a game in play: a computer player has the seat."""

    code: ClassVar[str] = "left_game"


@dataclass(frozen=True)
class LeftClosed:
    """Left, and the table closed."""

    code: ClassVar[str] = "left_closed"


@dataclass(frozen=True)
class Left:
    """Left the lobby."""

    code: ClassVar[str] = "left"


@dataclass(frozen=True)
class RuleSet:
    code: ClassVar[str] = "rule_set"
    field: str


@dataclass(frozen=True)
class Begins:
    code: ClassVar[str] = "begins"


@dataclass(frozen=True)
class Cancelled:
    code: ClassVar[str] = "cancelled"


@dataclass(frozen=True)
class AutoPlay:
    code: ClassVar[str] = "auto_play"
    on: bool


@dataclass(frozen=True)
class Back:
    code: ClassVar[str] = "back"


@dataclass(frozen=True)
class RemovedPlayer:
    code: ClassVar[str] = "removed_player"
    name: str


@dataclass(frozen=True)
class NewHost:
    code: ClassVar[str] = "new_host"
    name: str


@dataclass(frozen=True)
class PausedNow:
    code: ClassVar[str] = "paused_now"


@dataclass(frozen=True)
class ResumedNow:
    code: ClassVar[str] = "resumed_now"


@dataclass(frozen=True)
class TimerSet:
    code: ClassVar[str] = "timer_set"
    seconds: int


@dataclass(frozen=True)
class RematchOpened:
    code: ClassVar[str] = "rematch_opened"


Answer = (
    Opened
    | Confirmed
    | Joined
    | ComputerAdded
    | LeftGame
    | LeftClosed
    | Left
    | RuleSet
    | Begins
    | Cancelled
    | AutoPlay
    | Back
    | RemovedPlayer
    | NewHost
    | PausedNow
    | ResumedNow
    | TimerSet
    | RematchOpened
)

"""What was done, told to whoever acted."""
