"""Refusals: why the service refused an action, each a value of its own with the values its
words name (cogs/render/reasons.py words them; `code` names it in metrics and logs)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import ClassVar, Literal

from bot.storage import TableStatus

SettingsProblem = Literal["bad_setting", "no_such_setting", "bad_settings"]
"""What is wrong with rules that are not valid: a setting's value, a setting's name, or the
rules as a whole (bot/service/turns.py `settings_problem`): an `Explanation`'s code."""

HostDoing = Literal["rules", "start", "cancel", "remove", "host", "pause", "timer", ""]
"""What only a table's host may do, as a refusal names it ("": anything else)."""


@dataclass(frozen=True)
class Explanation:
    """Why the rules refused, as the engine says it: its code (`EngineError.code`, or a
    settings problem's: `settings_problem`) and the values it names (cogs/render/explanations.py
    words them)."""

    code: str
    params: Mapping[str, object] = field(default_factory=dict)


@dataclass(frozen=True)
class NotForYou:
    """A control sent to someone else."""

    code: ClassVar[str] = "not_for_you"


@dataclass(frozen=True)
class NotOffered:
    """A choice the message did not offer (a forged or stale control)."""

    code: ClassVar[str] = "not_offered"


@dataclass(frozen=True)
class NoSuchTable:
    """The table does not exist."""

    code: ClassVar[str] = "table_gone"


@dataclass(frozen=True)
class TableClosed:
    """The table is no longer open."""

    code: ClassVar[str] = "table_closed"
    status: TableStatus


@dataclass(frozen=True)
class NotSeated:
    """The person is not seated at the table."""

    code: ClassVar[str] = "not_seated"


@dataclass(frozen=True)
class NotStarted:
    """The table's game has not started."""

    code: ClassVar[str] = "not_started"


@dataclass(frozen=True)
class RulesInvalid:
    """Rules that are not valid."""

    code: ClassVar[str] = "rules_invalid"
    problem: Explanation


@dataclass(frozen=True)
class ChannelHasTable:
    """The channel has an open table already."""

    code: ClassVar[str] = "channel_busy"
    table_id: int
    url: str | None = None


@dataclass(frozen=True)
class NoTableHere:
    """The channel has no open table."""

    code: ClassVar[str] = "no_table_here"


@dataclass(frozen=True)
class ActivitiesOff:
    """Discord refused to open the application's Activity (its Activities are not enabled)."""

    code: ClassVar[str] = "activities_off"


@dataclass(frozen=True)
class UnknownChannel:
    """A channel the bot does not see in the server named (or a server it is not in)."""

    code: ClassVar[str] = "unknown_channel"


@dataclass(frozen=True)
class SlowDown:
    """More requests from one person's page than a person makes (a flood)."""

    code: ClassVar[str] = "slow_down"


@dataclass(frozen=True)
class MissingPermissions:
    """The bot lacks channel permissions (discord.py's attribute names)."""

    code: ClassVar[str] = "missing_permissions"
    names: tuple[str, ...]


@dataclass(frozen=True)
class AlreadySeated:
    code: ClassVar[str] = "already_seated"


@dataclass(frozen=True)
class JoinFirst:
    """Only seated players may add a computer player."""

    code: ClassVar[str] = "join_first"


@dataclass(frozen=True)
class NoLevel:
    """No computer level of that name."""

    code: ClassVar[str] = "no_level"
    level: str


@dataclass(frozen=True)
class NoRule:
    """No rule of that name."""

    code: ClassVar[str] = "no_rule"
    field: str


@dataclass(frozen=True)
class RuleInvalid:
    """A rule's value that is not valid."""

    code: ClassVar[str] = "rule_invalid"
    field: str
    value: object
    problem: Explanation


@dataclass(frozen=True)
class PlayerCount:
    """The rules need another number of players."""

    code: ClassVar[str] = "player_count"
    low: int
    high: int
    players: int


@dataclass(frozen=True)
class RulesUnplayable:
    """Rules the engine cannot play with these players."""

    code: ClassVar[str] = "rules_unplayable"
    problem: Explanation


@dataclass(frozen=True)
class NoCard:
    """No such card in this game's pack."""

    code: ClassVar[str] = "no_card"


@dataclass(frozen=True)
class ComputerHasSeat:
    """A computer plays the person's seat."""

    code: ClassVar[str] = "computer_has_seat"


@dataclass(frozen=True)
class RemovedByHost:
    """The host removed the person."""

    code: ClassVar[str] = "removed"


@dataclass(frozen=True)
class GamePaused:
    """The game is paused."""

    code: ClassVar[str] = "paused"


@dataclass(frozen=True)
class EarlierHand:
    """A control from an earlier hand's message."""

    code: ClassVar[str] = "earlier_hand"


@dataclass(frozen=True)
class Illegal:
    """A move the engine refused."""

    code: ClassVar[str] = "illegal"
    problem: Explanation


@dataclass(frozen=True)
class AlreadyPlaying:
    code: ClassVar[str] = "already_playing"


@dataclass(frozen=True)
class NotSeatedOther:
    """The person named is not seated."""

    code: ClassVar[str] = "not_seated_other"


@dataclass(frozen=True)
class RemoveSelf:
    code: ClassVar[str] = "remove_self"


@dataclass(frozen=True)
class AlreadyRemoved:
    code: ClassVar[str] = "already_removed"
    name: str


@dataclass(frozen=True)
class HostMustPlay:
    code: ClassVar[str] = "host_must_play"


@dataclass(frozen=True)
class AlreadyHost:
    code: ClassVar[str] = "already_host"


@dataclass(frozen=True)
class AlreadyPaused:
    code: ClassVar[str] = "already_paused"


@dataclass(frozen=True)
class AlreadyRunning:
    code: ClassVar[str] = "already_running"


@dataclass(frozen=True)
class RematchNotOver:
    code: ClassVar[str] = "rematch_not_over"


@dataclass(frozen=True)
class RematchPlayersOnly:
    code: ClassVar[str] = "rematch_players_only"


@dataclass(frozen=True)
class ManageChannels:
    """Only someone with Manage Channels may set the channel's defaults."""

    code: ClassVar[str] = "manage_channels"


@dataclass(frozen=True)
class AlreadyStarted:
    code: ClassVar[str] = "already_started"


@dataclass(frozen=True)
class TableFull:
    code: ClassVar[str] = "table_full"
    seats: int


@dataclass(frozen=True)
class TooMany:
    """More players than the rules take."""

    code: ClassVar[str] = "too_many"
    high: int


@dataclass(frozen=True)
class HostOnly:
    """Something only the host (or Manage Channels) may do."""

    code: ClassVar[str] = "host_only"
    doing: HostDoing


@dataclass(frozen=True)
class Conflict:
    """Another change to the table won, each time it was tried."""

    code: ClassVar[str] = "conflict"


@dataclass(frozen=True)
class TimerChoices:
    """A turn timer that is not one of `timers` (seconds)."""

    code: ClassVar[str] = "timer_choices"
    timers: tuple[int, ...]


@dataclass(frozen=True)
class NoSuchPage:
    """A leaderboard page that does not exist (`pages`: how many there are)."""

    code: ClassVar[str] = "no_such_page"
    page: int | None = None
    pages: int | None = None


@dataclass(frozen=True)
class NoSuchOrder:
    """A leaderboard order that does not exist."""

    code: ClassVar[str] = "no_such_order"
    by: str


@dataclass(frozen=True)
class Hook:
    """The dealer's bid that would make the bids add up to `total` (the hook)."""

    code: ClassVar[str] = "hook"
    total: int


@dataclass(frozen=True)
class ReviewNoGames:
    code: ClassVar[str] = "review_no_games"


@dataclass(frozen=True)
class ReviewNoGame:
    code: ClassVar[str] = "review_no_game"
    game: int


@dataclass(frozen=True)
class ReviewNotFinished:
    code: ClassVar[str] = "review_not_finished"
    game: int
    status: TableStatus


@dataclass(frozen=True)
class ReviewNotPlayer:
    code: ClassVar[str] = "review_not_player"
    game: int


@dataclass(frozen=True)
class ReviewRunning:
    code: ClassVar[str] = "review_running"


@dataclass(frozen=True)
class MyDataWait:
    """Data asked for too soon: free again `until` (epoch seconds)."""

    code: ClassVar[str] = "my_data_wait"
    until: float


@dataclass(frozen=True)
class ErasureNotOffered:
    """An erasure confirmation used up or too old."""

    code: ClassVar[str] = "erasure_not_offered"


@dataclass(frozen=True)
class NoPage:
    """A page of games that does not exist."""

    code: ClassVar[str] = "no_page"
    page: int


@dataclass(frozen=True)
class NoGames:
    code: ClassVar[str] = "no_games"


@dataclass(frozen=True)
class NoGame:
    code: ClassVar[str] = "no_game"
    game: int


Refusal = (
    NotForYou
    | NotOffered
    | NoSuchTable
    | TableClosed
    | NotSeated
    | NotStarted
    | RulesInvalid
    | ChannelHasTable
    | NoTableHere
    | MissingPermissions
    | ActivitiesOff
    | UnknownChannel
    | SlowDown
    | AlreadySeated
    | JoinFirst
    | NoLevel
    | NoRule
    | RuleInvalid
    | PlayerCount
    | RulesUnplayable
    | NoCard
    | ComputerHasSeat
    | RemovedByHost
    | GamePaused
    | EarlierHand
    | Illegal
    | AlreadyPlaying
    | NotSeatedOther
    | RemoveSelf
    | AlreadyRemoved
    | HostMustPlay
    | AlreadyHost
    | AlreadyPaused
    | AlreadyRunning
    | RematchNotOver
    | RematchPlayersOnly
    | ManageChannels
    | AlreadyStarted
    | TableFull
    | TooMany
    | HostOnly
    | Conflict
    | TimerChoices
    | NoSuchPage
    | NoSuchOrder
    | Hook
    | ReviewNoGames
    | ReviewNoGame
    | ReviewNotFinished
    | ReviewNotPlayer
    | ReviewRunning
    | MyDataWait
    | ErasureNotOffered
    | NoPage
    | NoGames
    | NoGame
)
"""Why an action was refused."""
