"""The service layer: tables, turns and results, with no Discord in sight."""

from bot.service.document import (
    COMPUTER_LEVELS,
    ClosedReason,
    DmRef,
    Place,
    RulesSource,
    Seat,
    TableDocument,
)
from bot.service.outbox import PostOffice
from bot.service.places import Gone
from bot.service.players import player_range
from bot.service.service import Decider, Refused, TableGone, TableService
from bot.service.views import (
    BidOption,
    CardOption,
    ChannelDefaults,
    HandState,
    Notice,
    Outcome,
    Post,
    PublicGame,
    Reason,
    SeatView,
    TableView,
)
from bot.storage import (
    BOARD_ORDERS,
    PAGE_SIZE,
    CorruptRow,
    Leaderboard,
    LeaderboardRow,
    TableChange,
    TableStatus,
    UnreadableClosed,
    computer_level,
)

__all__ = [
    "BOARD_ORDERS",
    "COMPUTER_LEVELS",
    "PAGE_SIZE",
    "BidOption",
    "CardOption",
    "ChannelDefaults",
    "ClosedReason",
    "CorruptRow",
    "Decider",
    "DmRef",
    "Gone",
    "HandState",
    "Leaderboard",
    "LeaderboardRow",
    "Notice",
    "Outcome",
    "Place",
    "Post",
    "PostOffice",
    "PublicGame",
    "Reason",
    "Refused",
    "RulesSource",
    "Seat",
    "SeatView",
    "TableChange",
    "TableDocument",
    "TableGone",
    "TableService",
    "TableStatus",
    "TableView",
    "UnreadableClosed",
    "computer_level",
    "player_range",
]
