"""Storage: the source of truth for every table, its event log, results and the leaderboard.

One row per table holds the indexable facts (guild, channel, status, host, the table message)
and the service's document for it (seats, settings, the engine's game state) as JSON. Every
change is saved with a version check, so two concurrent clicks cannot both apply: the second
save finds the version moved on and raises `VersionConflict`.

- `schema`: the numbered migrations.
- `rows`: the values storage hands out and takes in, and its errors.
- `base`: the connection, migrating, one transaction a write.
- `tables`, `deadlines`, `channels`, `results`, `history`: the queries, one file each.
- `ratings`: openskill ratings, updated with every stored result (docs/ratings.md).
- `replay`: stored results rated again from scratch, in each server's rating order.
- `privacy`, `erasure`: everything stored about one person, read for them, or erased in one
  transaction; `retention`: the servers the bot left, erased once it has been gone long enough.
- `budget`: Discord's global REST limit shared by several bot processes (PostgreSQL).
- `command_syncs`: the slash commands last synced, so a start with the same ones skips it.
- `health`: whether the database answers, and the open tables by phase (metrics).
- `connection`, `sqlite`, `postgres`, `backends`: one interface, two databases.
- `copy` (`python -m bot.storage.copy FROM_URL TO_URL`): every table the live schema has
  (`catalog`) copied from one database to another, checked before it commits; `backup`
  (`python -m bot.storage.backup PATH`): the SQLite database while the bot runs.
"""

from __future__ import annotations

from bot.storage.budget import RestBudget
from bot.storage.channels import Channels
from bot.storage.command_syncs import CommandSyncs
from bot.storage.deadlines import Deadlines
from bot.storage.erasure import Erased, Erasure, Forgetting
from bot.storage.health import Health
from bot.storage.history import FinishedGame, History, PlayerGame, ResultGroup
from bot.storage.languages import Languages
from bot.storage.leases import Leases
from bot.storage.outbox import NewPost, StoredPost
from bot.storage.privacy import FORGET_ME, MY_DATA, PersonRows
from bot.storage.ratings import (
    COMPUTER_IDS,
    OVERALL,
    computer_level,
    finishes_ahead,
    shown_rating,
)
from bot.storage.results import PAGE_SIZE, Results
from bot.storage.retention import Retention
from bot.storage.rows import (
    BOARD_ORDERS,
    KEEP,
    ChannelBusy,
    ChannelDefaults,
    CorruptRow,
    DatabaseUnavailable,
    Event,
    LastGame,
    Leaderboard,
    LeaderboardRow,
    PlayerRating,
    PlayerResult,
    RatingPoint,
    StorageError,
    TableRow,
    TableStatus,
    VersionConflict,
)
from bot.storage.schema import MIGRATIONS
from bot.storage.tables import TableChange, Tables, UnreadableClosed


class Database(
    Tables,
    Deadlines,
    Channels,
    Languages,
    Results,
    History,
    RestBudget,
    Leases,
    CommandSyncs,
    Health,
    Erasure,
    Retention,
):
    """An open database: every query storage has, on one connection."""


__all__ = [
    "BOARD_ORDERS",
    "COMPUTER_IDS",
    "FORGET_ME",
    "KEEP",
    "MIGRATIONS",
    "MY_DATA",
    "OVERALL",
    "PAGE_SIZE",
    "ChannelBusy",
    "ChannelDefaults",
    "CorruptRow",
    "Database",
    "DatabaseUnavailable",
    "Erased",
    "Event",
    "FinishedGame",
    "Forgetting",
    "LastGame",
    "Leaderboard",
    "LeaderboardRow",
    "NewPost",
    "PersonRows",
    "PlayerGame",
    "PlayerRating",
    "PlayerResult",
    "RatingPoint",
    "ResultGroup",
    "StorageError",
    "StoredPost",
    "TableChange",
    "TableRow",
    "TableStatus",
    "UnreadableClosed",
    "VersionConflict",
    "computer_level",
    "finishes_ahead",
    "shown_rating",
]
