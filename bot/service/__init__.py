"""The service layer: tables, turns and results, with no Discord in sight."""

from bot.service.document import (
    COMPUTER_LEVELS,
    TURN_TIMERS,
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
from bot.service.privacy import Forgotten
from bot.service.review import ReviewService
from bot.service.service import Decider, Refused, TableGone, TableService
from bot.service.summaries import RATING_GUIDE
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
    PagesTold,
    TableChange,
    TableStatus,
    UnreadableClosed,
    computer_level,
)

__all__ = [
    "BOARD_ORDERS",
    "COMPUTER_LEVELS",
    "PAGE_SIZE",
    "RATING_GUIDE",
    "TURN_TIMERS",
    "BidOption",
    "CardOption",
    "ChannelDefaults",
    "ClosedReason",
    "CorruptRow",
    "Decider",
    "DmRef",
    "Forgotten",
    "Gone",
    "HandState",
    "Leaderboard",
    "LeaderboardRow",
    "Notice",
    "Outcome",
    "PagesTold",
    "Place",
    "Post",
    "PostOffice",
    "PublicGame",
    "Reason",
    "Refused",
    "ReviewService",
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
