"""The one place that turns "person U did X at table T" into load → engine → save → what to show.

Every change runs under the table's lock, against the state loaded from the database, and is
committed (with a version check) before its effects are returned. Refusals raise `Refused` with
a code and its parameters, and change nothing. The jobs are small objects of their own, each
given the one `Session` they share (its caches and its unit of work); `TableService` builds
them, and the Discord layer calls each job by its name: `service.lobby.open_table(…)`,
`service.playing.act(…)`.
"""

from __future__ import annotations

import random
import time
from collections.abc import Awaitable, Callable
from typing import Any

from bot.config import BotSettings
from bot.service.deadlines import Deadlines
from bot.service.errors import Refused, TableGone
from bot.service.history import History
from bot.service.host import HostControls
from bot.service.languages import Languages
from bot.service.lobby import Lobby
from bot.service.lookups import Lookups
from bot.service.outbox import PostOffice
from bot.service.places import Places
from bot.service.playing import Playing
from bot.service.privacy import Privacy
from bot.service.retention import Retention
from bot.service.secrets import LinkKeys
from bot.service.session import Session
from bot.service.sharing import Sharing
from bot.service.turns import TIMER_FIELD, Decider
from bot.storage import Database

__all__ = [
    "TIMER_FIELD",
    "Decider",
    "Refused",
    "TableGone",
    "TableService",
]


class TableService:
    """Tables in channels, as jobs on one `Session`: `lobby`, `playing`, `host`, `deadlines`,
    `lookups`, `finished_games`, `places`, `sharing`, `privacy`, `retention`, `languages`,
    `keys` (the web links' key) and `posts` (the outbox, as the Discord layer takes its posts).
    Knows nothing of Discord. The Discord layer calls the job that does the work
    (`service.playing.act`), and nothing here repeats a job's methods: a call names where its
    code is, and a job's new method needs no second name. `session` and `db`, the shared unit
    of work and the database, are for tests and tools."""

    def __init__(
        self,
        database: Database,
        *,
        decide: Decider,
        run_blocking: Callable[..., Awaitable[Any]] | None = None,
        rng: random.Random | None = None,
        clock: Callable[[], float] = time.time,
        settings: BotSettings | None = None,
    ) -> None:
        session = Session(
            database.tables,
            PostOffice(database.outbox, database.results),
            postgres=database.store.dialect_name == "postgres",
            decide=decide,
            run_blocking=run_blocking,
            rng=rng,
            clock=clock,
            settings=settings,
        )
        self.session = session
        self.db = database
        self.posts = session.posts
        self.lobby = Lobby(session, database.channels)
        self.playing = Playing(session)
        self.host = HostControls(session)
        self.deadlines = Deadlines(session, database.deadlines)
        self.finished_games = History(session, database.history, database.results)
        self.places = Places(session, database.channels, database.languages)
        self.lookups = Lookups(session, database.results)
        self.sharing = Sharing(session, database.budget, database.pages)
        self.privacy = Privacy(session, self.lobby, database.privacy, database.erasure)
        self.retention = Retention(session, database.retention, database.leases)
        self.languages = Languages(session, database.languages)
        self.keys = LinkKeys(database.secrets, settings)
