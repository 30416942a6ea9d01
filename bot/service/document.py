"""The stored form of one table: seats, rules, the engine's game, and where its DMs are."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

ComputerLevel = Literal["easy", "normal", "hard"]
COMPUTER_LEVELS: tuple[ComputerLevel, ...] = ("easy", "normal", "hard")
MAX_SEATS = 10

TURN_TIMERS: tuple[int, ...] = (0, 30, 60, 120, 300, 900)
"""The host's choices for the turn timer, in seconds (0: off)."""
DEFAULT_TURN_TIMER = 120

AwayReason = Literal["left", "timeout", "kicked"]


class Seat(BaseModel):
    """One seat: a person (``user_id``) or a computer player (``level``)."""

    model_config = ConfigDict(extra="forbid")

    user_id: int | None = None
    name: str
    level: ComputerLevel | None = None
    auto_play: bool = True
    """Play a forced single card automatically (004's "Auto Play One")."""
    left: bool = False
    """The person is away from the game: a computer (``level``) plays the seat for them."""
    away: AwayReason | None = None
    """Why: they left, missed two turn deadlines in a row, or the host removed them (the one
    case they cannot come back from)."""
    missed: int = 0
    """Turn deadlines missed in a row."""
    pending: bool = False
    """A rematch seat kept for this person until they confirm it."""

    @property
    def is_computer(self) -> bool:
        """Whether a computer decides for this seat (a computer player, or for someone who
        left)."""
        return self.user_id is None or self.left


class DmRef(BaseModel):
    """The DM message that holds one player's hand for one hand of the game."""

    model_config = ConfigDict(extra="forbid")

    channel_id: int
    message_id: int
    hand: int


class TurnClock(BaseModel):
    """The running turn timer: who it waits for and when their time runs out."""

    model_config = ConfigDict(extra="forbid")

    key: str
    """Which turn this is (hand, phase, cards played): a new key starts a new timer."""
    waiting: list[int]
    """The seats it waits for. In simultaneous bidding the set shrinks as people bid, and the
    timer goes on; any other change starts a new one."""
    deadline: float | None
    """None: no turn timer (the person is only nudged)."""
    nudge_at: float
    nudged: bool = False
    paused_at: float | None = None
    """While the game is paused: since when (resuming moves the times on by the pause)."""


class RulesSource(BaseModel):
    """Where a table's rules came from: a preset, the channel's defaults (with the host's
    changes or not), or the game a rematch follows."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    kind: Literal["preset", "channel", "rematch"]
    preset: str | None = None
    set_by: int | None = None
    """The channel's defaults: who set them."""
    changed: bool = False
    """The channel's defaults, with the host's changes."""
    table: int | None = None
    """A rematch: of which table."""


class ClosedReason(BaseModel):
    """Why a table closed without its host: nobody started it, or nobody played, for `after`
    seconds; or its channel was deleted, or the bot was removed from its server."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    kind: Literal["expired", "abandoned", "channel_deleted", "bot_removed"]
    after: float = 0.0


class Place(BaseModel):
    """Where a table is, by name, as it was when the table opened: every process names it the
    same way in hand DMs, whether or not it knows that server."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    guild: str
    channel: str


class TableDocument(BaseModel):
    model_config = ConfigDict(extra="forbid")

    settings: dict[str, object] = Field(default_factory=dict)
    """`bot.engine.Settings` overrides, exactly as a game record's "rules" object."""
    seats: list[Seat] = Field(default_factory=list)
    seed: int = 0
    game: str | None = None
    """The engine's JSON form of the game, once started."""
    dms: dict[str, DmRef] = Field(default_factory=dict)
    """By user id (as a string: JSON object keys)."""
    dms_closed: list[int] = Field(default_factory=list)
    turn_timer: int = DEFAULT_TURN_TIMER
    """Seconds a person has for each decision (0: no timer)."""
    turn: TurnClock | None = None
    paused: bool = False
    last_activity: float = 0.0
    """When a person last did something here (lobby expiry, abandonment)."""
    grace_until: float = 0.0
    """After a restart: nothing falls due before this (nobody loses a turn to downtime)."""
    rules_source: RulesSource | str = ""
    """Where the rules came from (tables saved before this was a value hold its words)."""
    closed_reason: ClosedReason | str | None = None
    """Why the table closed by itself (older tables: the words)."""
    rematch_of: int | None = None
    place: Place | None = None
    """The server's and channel's names (tables opened before they were kept have none)."""

    def seat_of(self, user_id: int) -> int | None:
        for index, seat in enumerate(self.seats):
            if seat.user_id == user_id:
                return index
        return None

    def people_playing(self) -> list[tuple[int, Seat]]:
        """People playing their own seat (not away)."""
        return [(i, s) for i, s in enumerate(self.seats) if not s.is_computer]

    def people_seated(self) -> list[tuple[int, Seat]]:
        """Every seat that belongs to a person, away or not."""
        return [(i, s) for i, s in enumerate(self.seats) if s.user_id is not None]
