"""The service layer: tables, turns and results, with no Discord in sight."""

from bot.service.document import COMPUTER_LEVELS, DmRef, Seat, TableDocument
from bot.service.service import Decider, Refused, TableGone, TableService
from bot.service.views import (
    BidOption,
    CardOption,
    HandState,
    Outcome,
    PublicGame,
    SeatView,
    TableView,
)

__all__ = [
    "COMPUTER_LEVELS",
    "BidOption",
    "CardOption",
    "Decider",
    "DmRef",
    "HandState",
    "Outcome",
    "PublicGame",
    "Refused",
    "Seat",
    "SeatView",
    "TableDocument",
    "TableGone",
    "TableService",
    "TableView",
]
