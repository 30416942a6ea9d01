"""The one place that turns "person U did X at table T" into load → engine → save → what to show.

Every change runs under the table's lock, against the state loaded from the database, and is
committed (with a version check) before its effects are returned. Refusals raise `Refused` with
a code and its parameters, and change nothing. The jobs live in their own modules; this class
is all of them.
"""

from __future__ import annotations

from bot.service.deadlines import Deadlines
from bot.service.errors import Refused, TableGone
from bot.service.history import History
from bot.service.host import HostControls
from bot.service.lobby import Lobby
from bot.service.places import Places
from bot.service.playing import Playing
from bot.service.turns import TIMER_FIELD, Decider

__all__ = [
    "TIMER_FIELD",
    "Decider",
    "Refused",
    "TableGone",
    "TableService",
]


class TableService(Lobby, Playing, HostControls, Deadlines, History, Places):
    """Tables in channels: lobby, play, host controls, deadlines, finished games looked at
    again, tables whose channel is gone. Knows nothing of Discord."""
