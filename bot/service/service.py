"""The one place that turns "person U did X at table T" into load → engine → save → what to show.

Every change runs under the table's lock, against the state loaded from the database, and is
committed (with a version check) before its effects are returned. Refusals raise `Refused` with
a code and its parameters, and change nothing. The jobs are small objects of their own, each
given the one `Session` they share (its caches and its unit of work); `TableService` builds
them and is the one object the Discord layer talks to.
"""

from __future__ import annotations

import asyncio
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
    """Tables in channels: lobby, play, host controls, deadlines, finished games looked at
    again, tables whose channel is gone, what several processes share, a person's data and
    its erasure, servers the bot left. Knows nothing of
    Discord. Each job is an attribute (`service.lobby`, `service.playing`, …); the calls the
    Discord layer makes are named here too, each the job's own method."""

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
        self.sharing = Sharing(session, database.budget)
        self.privacy = Privacy(session, self.lobby, database.privacy, database.erasure)
        self.retention = Retention(session, database.retention, database.leases)
        self.languages = Languages(session, database.languages)

        self.open_table = self.lobby.open_table
        self.set_message = self.lobby.set_message
        self.join = self.lobby.join
        self.add_computer = self.lobby.add_computer
        self.leave = self.lobby.leave
        self.set_rule = self.lobby.set_rule
        self.start_game = self.lobby.start_game
        self.cancel = self.lobby.cancel
        self.cancel_unreadable = self.lobby.cancel_unreadable
        self.rematch = self.lobby.rematch
        self.channel_defaults = self.lobby.channel_defaults
        self.set_channel_defaults = self.lobby.set_channel_defaults

        self.act = self.playing.act
        self.set_auto_play = self.playing.set_auto_play
        self.record_dm = self.playing.record_dm
        self.dm_ref = self.playing.dm_ref
        self.dm_refs = self.playing.dm_refs
        self.step = self.playing.step

        self.come_back = self.host.come_back
        self.kick = self.host.kick
        self.hand_over = self.host.hand_over
        self.set_paused = self.host.set_paused
        self.set_turn_timer = self.host.set_turn_timer

        self.next_due = self.deadlines.next_due
        self.claim = self.deadlines.claim
        self.postpone = self.deadlines.postpone
        self.allow_grace = self.deadlines.allow_grace
        self.tick = self.deadlines.tick

        self.history = self.finished_games.history
        self.game_record = self.finished_games.game_record
        self.player_stats = self.finished_games.player_stats

        self.channel_gone = self.places.channel_gone
        self.channels_with_tables = self.places.channels_with_tables

        self.newest = self.lookups.newest
        self.table_view = self.lookups.table_view
        self.hand_state = self.lookups.hand_state
        self.rules = self.lookups.rules
        self.table_in_channel = self.lookups.table_in_channel
        self.open_table_ids = self.lookups.open_table_ids
        self.closed_since = self.lookups.closed_since
        self.leaderboard = self.lookups.leaderboard

        self.my_data = self.privacy.my_data
        self.offer_erasure = self.privacy.offer_erasure
        self.forget = self.privacy.forget

        self.server_left = self.retention.server_left
        self.server_back = self.retention.server_back
        self.servers_present = self.retention.servers_present
        self.sweep_left_servers = self.retention.sweep

        self.showing = self.sharing.showing
        self.watch_changes = self.sharing.watch_changes
        self.take_rest_calls = self.sharing.take_rest_calls

    @property
    def shared_database(self) -> bool:
        """Whether other bot processes share the database (`Session.shared_database`)."""
        return self.session.shared_database

    @property
    def due_changed(self) -> asyncio.Event:
        """Set when a table's deadline may now come before `watching` (the scheduler's)."""
        return self.session.due_changed

    @property
    def watching(self) -> float:
        """The deadline the scheduler sleeps until (infinity: it is looking)."""
        return self.session.watching

    @watching.setter
    def watching(self, due: float) -> None:
        self.session.watching = due

    def cached_tables(self) -> set[int]:
        """The tables this service holds anything in memory for (tests check it empties)."""
        return self.session.cached_tables()
