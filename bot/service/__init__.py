"""The service layer: tables, turns and results, with no Discord in sight."""

from bot.service.document import (
    COMPUTER_LEVELS,
    ClosedReason,
    DmRef,
    RulesSource,
    Seat,
    TableDocument,
)
from bot.service.players import player_range
from bot.service.service import Decider, Refused, TableGone, TableService
from bot.service.views import (
    BidOption,
    CardOption,
    ChannelDefaults,
    HandState,
    Notice,
    Outcome,
    PublicGame,
    Reason,
    SeatView,
    TableView,
)
from bot.storage import CorruptRow, Leaderboard, LeaderboardRow, TableStatus

__all__ = [
    "COMPUTER_LEVELS",
    "BidOption",
    "CardOption",
    "ChannelDefaults",
    "ClosedReason",
    "CorruptRow",
    "Decider",
    "DmRef",
    "HandState",
    "Leaderboard",
    "LeaderboardRow",
    "Notice",
    "Outcome",
    "PublicGame",
    "Reason",
    "Refused",
    "RulesSource",
    "Seat",
    "SeatView",
    "TableDocument",
    "TableGone",
    "TableService",
    "TableStatus",
    "TableView",
    "player_range",
]
