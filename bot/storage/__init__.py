"""Storage: the source of truth for every table, its event log, results and the leaderboard.

One row per table holds the indexable facts (guild, channel, status, host, the table message)
and the service's document for it (seats, settings, the engine's game state) as JSON. Every
change is saved with a version check, so two concurrent clicks cannot both apply: the second
save finds the version moved on and raises `VersionConflict`.

An open `Database` is one `Store` (the connection, migrating, one transaction a write) and the
repositories composed on it, one subject each: `db.tables.load(…)`, `db.results.leaderboard(…)`.
A repository that writes in another's transaction is given it (`tables` stores its posts in
`outbox` and a finished game's results in `results`; `erasure` finds a person as `privacy` reads
them), and each service job is given the repositories it uses.

- `schema`: the numbered migrations.
- `rows`: the values storage hands out and takes in, and its errors.
- `store`: the connection, migrating, one transaction a write; `Repository`, each part's base.
- `tables` (and the open tables by phase), `outbox`, `deadlines`, `channels` (a channel's
  defaults), `languages`, `results`, `history`: the queries, one repository each.
- `ratings`: openskill ratings, updated with every stored result (docs/ratings.md).
- `replay`: stored results rated again from scratch, in each server's rating order.
- `privacy`, `erasure`: everything stored about one person, read for them, or erased in one
  transaction; `retention`: the servers the bot left, erased once it has been gone long enough.
- `leases`: what one process at a time may do for a while (a person's review).
- `budget`: Discord's global REST limit shared by several bot processes (PostgreSQL).
- `pages`: who is at a table's page, told by each bot process to the others (PostgreSQL).
- `command_syncs`: the slash commands last synced, so a start with the same ones skips it.
- `connection`, `sqlite`, `postgres`, `backends`: one interface, two databases.
- `copy` (`python -m bot.storage.copy FROM_URL TO_URL`): every table the live schema has
  (`catalog`) copied from one database to another, checked before it commits; `backup`
  (`python -m bot.storage.backup PATH`): the SQLite database while the bot runs.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from bot.storage.budget import RestBudget
from bot.storage.channels import Channels
from bot.storage.command_syncs import CommandSyncs
from bot.storage.deadlines import Deadlines
from bot.storage.erasure import Erased, Erasure, Forgetting
from bot.storage.history import FinishedGame, History, PlayerGame, ResultGroup
from bot.storage.languages import Languages
from bot.storage.leases import Leases
from bot.storage.outbox import NewPost, Outbox, StoredPost
from bot.storage.pages import Pages, PagesTold
from bot.storage.privacy import FORGET_ME, MY_DATA, PersonRows, Privacy
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
from bot.storage.secrets import Secrets
from bot.storage.store import Store
from bot.storage.tables import PHASES, TableChange, Tables, UnreadableClosed


class Database:
    """An open database: its `store` and a repository for each subject, all on the store's one
    connection."""

    def __init__(self, store: Store, *, post_lease: float = 60.0) -> None:
        self.store = store
        self.outbox = Outbox(store, post_lease=post_lease)
        """Channel posts waiting to be made; `post_lease`: seconds a process holds one."""
        self.results = Results(store)
        self.tables = Tables(store, self.outbox, self.results)
        self.deadlines = Deadlines(store)
        self.channels = Channels(store)
        self.languages = Languages(store)
        self.history = History(store)
        self.leases = Leases(store)
        self.privacy = Privacy(store)
        self.erasure = Erasure(store, self.privacy)
        self.retention = Retention(store)
        self.budget = RestBudget(store)
        self.command_syncs = CommandSyncs(store)
        self.secrets = Secrets(store)
        self.pages = Pages(store)

    @classmethod
    async def open(
        cls,
        where: Path | str,
        clock: Any = time.time,
        *,
        pool_size: int = 10,
        post_lease: float = 60.0,
    ) -> Database:
        """Open (and migrate) a database: a SQLite file's path, `sqlite:///path` or
        `postgresql://…`. `DatabaseUnavailable` says where and why when it cannot be."""
        store = await Store.open(where, clock, pool_size=pool_size)
        return cls(store, post_lease=post_lease)

    async def close(self) -> None:
        await self.store.close()


__all__ = [
    "BOARD_ORDERS",
    "COMPUTER_IDS",
    "FORGET_ME",
    "KEEP",
    "MIGRATIONS",
    "MY_DATA",
    "OVERALL",
    "PAGE_SIZE",
    "PHASES",
    "ChannelBusy",
    "ChannelDefaults",
    "Channels",
    "CommandSyncs",
    "CorruptRow",
    "Database",
    "DatabaseUnavailable",
    "Deadlines",
    "Erased",
    "Erasure",
    "Event",
    "FinishedGame",
    "Forgetting",
    "History",
    "Languages",
    "LastGame",
    "Leaderboard",
    "LeaderboardRow",
    "Leases",
    "NewPost",
    "Outbox",
    "Pages",
    "PagesTold",
    "PersonRows",
    "PlayerGame",
    "PlayerRating",
    "PlayerResult",
    "Privacy",
    "RatingPoint",
    "RestBudget",
    "ResultGroup",
    "Results",
    "Retention",
    "Secrets",
    "StorageError",
    "Store",
    "StoredPost",
    "TableChange",
    "TableRow",
    "TableStatus",
    "Tables",
    "UnreadableClosed",
    "VersionConflict",
    "computer_level",
    "finishes_ahead",
    "shown_rating",
]
