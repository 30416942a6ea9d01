"""The stored form of one table: seats, rules, the engine's game, and where its DMs are."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

ComputerLevel = Literal["easy", "normal", "hard"]
COMPUTER_LEVELS: tuple[ComputerLevel, ...] = ("easy", "normal", "hard")
MAX_SEATS = 10


class Seat(BaseModel):
    """One seat: a person (``user_id``) or a computer player (``level``)."""

    model_config = ConfigDict(extra="forbid")

    user_id: int | None = None
    name: str
    level: ComputerLevel | None = None
    auto_play: bool = True
    """Play a forced single card automatically (004's "Auto Play One")."""
    left: bool = False
    """The person left during the game: a computer (``level``) plays the seat for them."""

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

    def seat_of(self, user_id: int) -> int | None:
        for index, seat in enumerate(self.seats):
            if seat.user_id == user_id:
                return index
        return None

    def humans(self) -> list[tuple[int, Seat]]:
        return [(i, s) for i, s in enumerate(self.seats) if not s.is_computer]
