"""SQLite storage: the source of truth for every table, its event log and the leaderboard.

One row per table holds the indexable facts (guild, channel, status, host, the table message)
and the service's document for it (seats, settings, the engine's game state) as JSON. Every
change is saved with a version check, so two concurrent clicks cannot both apply: the second
save finds the version moved on and raises `VersionConflict`.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import logging
import time
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import Any

import aiosqlite

log = logging.getLogger(__name__)

# Each entry moves the schema from version i to i + 1. Never edit a released entry: add one.
MIGRATIONS: tuple[str, ...] = (
    """
    CREATE TABLE tables (
        id          INTEGER PRIMARY KEY,
        guild_id    INTEGER NOT NULL,
        channel_id  INTEGER NOT NULL,
        message_id  INTEGER,
        host_id     INTEGER NOT NULL,
        status      TEXT    NOT NULL,
        preset      TEXT    NOT NULL,
        document    TEXT    NOT NULL,
        version     INTEGER NOT NULL DEFAULT 1,
        created_at  REAL    NOT NULL,
        updated_at  REAL    NOT NULL
    );
    CREATE UNIQUE INDEX one_open_table_per_channel
        ON tables (channel_id) WHERE status IN ('lobby', 'playing');
    CREATE INDEX tables_by_status ON tables (status);

    CREATE TABLE events (
        table_id  INTEGER NOT NULL REFERENCES tables (id),
        seq       INTEGER NOT NULL,
        at        REAL    NOT NULL,
        user_id   INTEGER,
        kind      TEXT    NOT NULL,
        payload   TEXT    NOT NULL,
        PRIMARY KEY (table_id, seq)
    );

    CREATE TABLE results (
        table_id     INTEGER NOT NULL REFERENCES tables (id),
        guild_id     INTEGER NOT NULL,
        user_id      INTEGER NOT NULL,
        preset       TEXT    NOT NULL,
        place        INTEGER NOT NULL,
        players      INTEGER NOT NULL,
        points       INTEGER NOT NULL,
        bids_made    INTEGER NOT NULL,
        hands_played INTEGER NOT NULL,
        left_early   INTEGER NOT NULL DEFAULT 0,
        finished_at  REAL    NOT NULL,
        PRIMARY KEY (table_id, user_id)
    );
    CREATE INDEX results_by_guild ON results (guild_id, preset);
    """,
    # Deadlines (turn timers, lobby expiry, abandonment): the scheduler wakes at the earliest.
    # Per-channel defaults for /ohhell start.
    """
    ALTER TABLE tables ADD COLUMN due_at REAL;
    CREATE INDEX tables_by_due ON tables (due_at) WHERE due_at IS NOT NULL;

    CREATE TABLE channel_defaults (
        channel_id  INTEGER PRIMARY KEY,
        guild_id    INTEGER NOT NULL,
        settings    TEXT    NOT NULL,
        set_by      INTEGER NOT NULL,
        updated_at  REAL    NOT NULL
    );
    """,
)


class TableStatus(StrEnum):
    LOBBY = "lobby"
    PLAYING = "playing"
    FINISHED = "finished"
    CANCELLED = "cancelled"
    ABANDONED = "abandoned"

    @property
    def is_open(self) -> bool:
        return self in (TableStatus.LOBBY, TableStatus.PLAYING)


class StorageError(Exception):
    """Base class for storage failures the service turns into messages."""


class VersionConflict(StorageError):
    """The table changed since it was loaded; the caller reloads and tries again (or refuses)."""


class ChannelBusy(StorageError):
    """The channel already has an open table."""

    def __init__(self, table_id: int) -> None:
        super().__init__(f"this channel already has an open table (#{table_id})")
        self.table_id = table_id


class CorruptRow(StorageError):
    """A stored row could not be read back; the table is left untouched."""


@dataclass(frozen=True)
class TableRow:
    id: int
    guild_id: int
    channel_id: int
    message_id: int | None
    host_id: int
    status: TableStatus
    preset: str
    document: dict[str, Any]
    version: int
    created_at: float
    updated_at: float
    due_at: float | None = None
    """When something is next due at this table (a turn deadline, a nudge, expiry)."""


@dataclass(frozen=True)
class ChannelDefaults:
    channel_id: int
    settings: dict[str, Any]
    set_by: int
    updated_at: float


class _Keep:
    """`save_table(due_at=KEEP)`: leave the stored deadline as it is."""


KEEP = _Keep()


@dataclass(frozen=True)
class Event:
    kind: str
    payload: dict[str, Any] = field(default_factory=dict)
    user_id: int | None = None


@dataclass(frozen=True)
class PlayerResult:
    user_id: int
    place: int
    points: int
    bids_made: int
    hands_played: int
    left_early: bool = False


@dataclass(frozen=True)
class LeaderboardRow:
    rank: int
    user_id: int
    games: int
    wins: int
    win_rate: float
    average_place: float
    exact_bid_rate: float


@dataclass(frozen=True)
class Leaderboard:
    top: list[LeaderboardRow]
    caller: LeaderboardRow | None
    """The caller's own row, when they have played but are outside `top`."""


_TABLE_COLUMNS = (
    "id, guild_id, channel_id, message_id, host_id, status, preset, document, version,"
    " created_at, updated_at, due_at"
)


def _row_to_table(row: Sequence[Any]) -> TableRow:
    try:
        document = json.loads(row[7])
        status = TableStatus(row[5])
    except (ValueError, TypeError) as error:
        raise CorruptRow(f"table #{row[0]} could not be read: {error}") from error
    if not isinstance(document, dict):
        raise CorruptRow(f"table #{row[0]} could not be read: its document is not an object")
    return TableRow(
        id=row[0],
        guild_id=row[1],
        channel_id=row[2],
        message_id=row[3],
        host_id=row[4],
        status=status,
        preset=row[6],
        document=document,
        version=row[8],
        created_at=row[9],
        updated_at=row[10],
        due_at=row[11],
    )


def _dumps(value: object) -> str:
    return json.dumps(value, separators=(",", ":"), sort_keys=True)


class Database:
    """An open SQLite database. Writes are serialised; each is one transaction."""

    def __init__(self, connection: aiosqlite.Connection, clock: Any = time.time) -> None:
        self._db = connection
        self._write_lock = asyncio.Lock()
        self._clock = clock
        self.table_loads = 0
        """`load_table` calls since opening (logged on close; `make bench-bot` reads it)."""
        self.table_saves = 0
        """`save_table` calls that wrote, since opening."""

    @classmethod
    async def open(cls, path: Path | str, clock: Any = time.time) -> Database:
        path = Path(path)
        if str(path) != ":memory:":
            path.parent.mkdir(parents=True, exist_ok=True)
        connection = await aiosqlite.connect(path, isolation_level=None)
        # WAL keeps readers off the writer's back; synchronous=NORMAL in WAL mode still survives
        # a killed process (only an OS crash or power loss can lose the last commits).
        await connection.execute("PRAGMA journal_mode=WAL")
        await connection.execute("PRAGMA synchronous=NORMAL")
        await connection.execute("PRAGMA foreign_keys=ON")
        await connection.execute("PRAGMA busy_timeout=5000")
        database = cls(connection, clock)
        try:
            await database.migrate()
        except BaseException:
            await connection.close()
            raise
        return database

    async def close(self) -> None:
        """Close the connection and log how many table loads and saves it served."""
        log.info("storage: %d table loads, %d saves", self.table_loads, self.table_saves)
        await self._db.close()

    async def schema_version(self) -> int:
        async with self._db.execute("PRAGMA user_version") as cursor:
            row = await cursor.fetchone()
        return int(row[0]) if row else 0

    async def migrate(self) -> None:
        current = await self.schema_version()
        if current > len(MIGRATIONS):
            raise StorageError(
                f"the database is at schema version {current}, newer than this bot knows "
                f"({len(MIGRATIONS)}): update the bot"
            )
        for number, script in enumerate(MIGRATIONS[current:], start=current + 1):
            async with self._transaction():
                for statement in script.split(";"):
                    if statement.strip():
                        await self._db.execute(statement)
                await self._db.execute(f"PRAGMA user_version = {number}")

    @asynccontextmanager
    async def _transaction(self) -> AsyncIterator[None]:
        async with self._write_lock:
            await self._db.execute("BEGIN IMMEDIATE")
            try:
                yield
            except BaseException:
                await self._db.execute("ROLLBACK")
                raise
            await self._db.execute("COMMIT")

    # -- tables -------------------------------------------------------------------------------

    async def create_table(
        self,
        *,
        guild_id: int,
        channel_id: int,
        host_id: int,
        preset: str,
        document: dict[str, Any],
        event: Event | None = None,
        due_at: float | None = None,
    ) -> TableRow:
        """Open a lobby in a channel; `ChannelBusy` if the channel has an open table."""
        now = self._clock()
        async with self._transaction():
            existing = await self._open_table_id(channel_id)
            if existing is not None:
                raise ChannelBusy(existing)
            cursor = await self._db.execute(
                "INSERT INTO tables (guild_id, channel_id, host_id, status, preset, document,"
                " created_at, updated_at, due_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    guild_id,
                    channel_id,
                    host_id,
                    TableStatus.LOBBY,
                    preset,
                    _dumps(document),
                    now,
                    now,
                    due_at,
                ),
            )
            table_id = cursor.lastrowid
            assert table_id is not None
            if event is not None:
                await self._append_events(table_id, [event], now)
        return await self.load_table(table_id)

    async def _open_table_id(self, channel_id: int) -> int | None:
        async with self._db.execute(
            "SELECT id FROM tables WHERE channel_id = ? AND status IN ('lobby', 'playing')",
            (channel_id,),
        ) as cursor:
            row = await cursor.fetchone()
        return int(row[0]) if row else None

    async def load_table(self, table_id: int) -> TableRow:
        self.table_loads += 1
        async with self._db.execute(
            f"SELECT {_TABLE_COLUMNS} FROM tables WHERE id = ?", (table_id,)
        ) as cursor:
            row = await cursor.fetchone()
        if row is None:
            raise KeyError(table_id)
        return _row_to_table(row)

    async def open_table_in_channel(self, channel_id: int) -> TableRow | None:
        table_id = await self._open_table_id(channel_id)
        return None if table_id is None else await self.load_table(table_id)

    async def open_table_ids(self) -> list[int]:
        async with self._db.execute(
            "SELECT id FROM tables WHERE status IN ('lobby', 'playing') ORDER BY id"
        ) as cursor:
            return [int(row[0]) async for row in cursor]

    async def save_table(
        self,
        table: TableRow,
        *,
        document: dict[str, Any],
        status: TableStatus | None = None,
        host_id: int | None = None,
        message_id: int | None = None,
        preset: str | None = None,
        events: Sequence[Event] = (),
        results: Sequence[PlayerResult] = (),
        due_at: float | _Keep | None = KEEP,
    ) -> TableRow:
        """Save a new document for `table`, which must still be at `table.version`.

        Events are appended and results recorded in the same transaction, so what a player is
        shown as done is either wholly stored or not at all.
        """
        now = self._clock()
        new_status = status or table.status
        due = table.due_at if isinstance(due_at, _Keep) else due_at
        if not new_status.is_open:
            due = None
        async with self._transaction():
            cursor = await self._db.execute(
                "UPDATE tables SET document = ?, status = ?, host_id = ?, message_id = ?,"
                " preset = ?, version = version + 1, updated_at = ?, due_at = ?"
                " WHERE id = ? AND version = ?",
                (
                    _dumps(document),
                    new_status,
                    table.host_id if host_id is None else host_id,
                    table.message_id if message_id is None else message_id,
                    table.preset if preset is None else preset,
                    now,
                    due,
                    table.id,
                    table.version,
                ),
            )
            if cursor.rowcount != 1:
                raise VersionConflict(
                    f"table #{table.id} changed since version {table.version} was loaded"
                )
            await self._append_events(table.id, events, now)
            for result in results:
                await self._db.execute(
                    "INSERT OR REPLACE INTO results (table_id, guild_id, user_id, preset, place,"
                    " players, points, bids_made, hands_played, left_early, finished_at)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (
                        table.id,
                        table.guild_id,
                        result.user_id,
                        table.preset if preset is None else preset,
                        result.place,
                        len(results),
                        result.points,
                        result.bids_made,
                        result.hands_played,
                        int(result.left_early),
                        now,
                    ),
                )
        self.table_saves += 1
        # What was just written, without reading it back.
        return dataclasses.replace(
            table,
            document=document,
            status=new_status,
            host_id=table.host_id if host_id is None else host_id,
            message_id=table.message_id if message_id is None else message_id,
            preset=table.preset if preset is None else preset,
            version=table.version + 1,
            updated_at=now,
            due_at=due,
        )

    async def next_due(self) -> tuple[int, float] | None:
        """The open table with the earliest deadline, and that deadline."""
        async with self._db.execute(
            "SELECT id, due_at FROM tables WHERE due_at IS NOT NULL"
            " AND status IN ('lobby', 'playing') ORDER BY due_at, id LIMIT 1"
        ) as cursor:
            row = await cursor.fetchone()
        return None if row is None else (int(row[0]), float(row[1]))

    async def postpone(self, table_id: int, due_at: float) -> None:
        """Move a table's deadline without touching its document (a table whose deadline could
        not be handled must not hold up the others)."""
        async with self._transaction():
            await self._db.execute("UPDATE tables SET due_at = ? WHERE id = ?", (due_at, table_id))

    async def due_before(self, moment: float) -> list[tuple[int, float]]:
        """Open tables whose deadline is before `moment`, earliest first."""
        async with self._db.execute(
            "SELECT id, due_at FROM tables WHERE due_at < ?"
            " AND status IN ('lobby', 'playing') ORDER BY due_at, id",
            (moment,),
        ) as cursor:
            return [(int(row[0]), float(row[1])) async for row in cursor]

    # -- channel defaults ---------------------------------------------------------------------

    async def channel_defaults(self, channel_id: int) -> ChannelDefaults | None:
        async with self._db.execute(
            "SELECT settings, set_by, updated_at FROM channel_defaults WHERE channel_id = ?",
            (channel_id,),
        ) as cursor:
            row = await cursor.fetchone()
        if row is None:
            return None
        try:
            settings = json.loads(row[0])
        except ValueError as error:
            raise CorruptRow(f"the defaults of channel {channel_id} could not be read") from error
        if not isinstance(settings, dict):
            raise CorruptRow(f"the defaults of channel {channel_id} are not an object")
        return ChannelDefaults(channel_id, settings, int(row[1]), float(row[2]))

    async def set_channel_defaults(
        self, *, guild_id: int, channel_id: int, settings: dict[str, Any] | None, set_by: int
    ) -> None:
        """Store (or, with None, remove) the defaults /ohhell start uses in a channel."""
        async with self._transaction():
            if settings is None:
                await self._db.execute(
                    "DELETE FROM channel_defaults WHERE channel_id = ?", (channel_id,)
                )
                return
            await self._db.execute(
                "INSERT OR REPLACE INTO channel_defaults"
                " (channel_id, guild_id, settings, set_by, updated_at) VALUES (?, ?, ?, ?, ?)",
                (channel_id, guild_id, _dumps(settings), set_by, self._clock()),
            )

    async def _append_events(self, table_id: int, events: Sequence[Event], now: float) -> None:
        if not events:
            return
        async with self._db.execute(
            "SELECT COALESCE(MAX(seq), 0) FROM events WHERE table_id = ?", (table_id,)
        ) as cursor:
            row = await cursor.fetchone()
        seq = int(row[0]) if row else 0
        await self._db.executemany(
            "INSERT INTO events (table_id, seq, at, user_id, kind, payload)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            [
                (table_id, seq + i, now, event.user_id, event.kind, _dumps(event.payload))
                for i, event in enumerate(events, start=1)
            ],
        )

    async def events(self, table_id: int) -> list[Event]:
        async with self._db.execute(
            "SELECT kind, payload, user_id FROM events WHERE table_id = ? ORDER BY seq",
            (table_id,),
        ) as cursor:
            return [Event(row[0], json.loads(row[1]), row[2]) async for row in cursor]

    # -- leaderboard --------------------------------------------------------------------------

    async def leaderboard(
        self,
        guild_id: int,
        *,
        preset: str | None = None,
        caller_id: int | None = None,
        limit: int = 10,
    ) -> Leaderboard:
        """Players ranked by wins, then win rate, then average place (games left early count
        as played and not won)."""
        query = (
            "SELECT user_id, COUNT(*) AS games, SUM(place = 1 AND NOT left_early) AS wins,"
            " AVG(place) AS average_place, SUM(bids_made) AS bids_made,"
            " SUM(hands_played) AS hands FROM results WHERE guild_id = ?"
        )
        parameters: list[Any] = [guild_id]
        if preset is not None:
            query += " AND preset = ?"
            parameters.append(preset)
        query += " GROUP BY user_id"
        async with self._db.execute(query, parameters) as cursor:
            raw = [tuple(row) async for row in cursor]
        rows = sorted(
            raw,
            key=lambda r: (-r[2], -(r[2] / r[1]), r[3], r[0]),
        )
        ranked = [
            LeaderboardRow(
                rank=position,
                user_id=r[0],
                games=r[1],
                wins=r[2],
                win_rate=r[2] / r[1],
                average_place=float(r[3]),
                exact_bid_rate=(r[4] / r[5]) if r[5] else 0.0,
            )
            for position, r in enumerate(rows, start=1)
        ]
        top = ranked[:limit]
        caller = next((row for row in ranked[limit:] if row.user_id == caller_id), None)
        return Leaderboard(top=top, caller=caller)
