"""Table rows: open a lobby, load a table, save it with the version check, its event log, the
open tables by phase."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from typing import Any

from bot.storage.connection import Connection, UniqueViolation
from bot.storage.outbox import NewPost, Outbox
from bot.storage.results import Results
from bot.storage.rows import (
    KEEP,
    TABLE_COLUMNS,
    ChannelBusy,
    Event,
    Keep,
    PlayerResult,
    TableRow,
    TableStatus,
    VersionConflict,
    dumps,
    possible_table_id,
    row_to_table,
)
from bot.storage.store import Repository, Store

PHASES = ("lobby", "playing", "paused")
"""An open table's phases (`Tables.open_by_phase`): paused is a game the host paused."""

TABLES_CHANGED = "ohhell_tables"
"""The channel on which a PostgreSQL database tells every bot process of each stored change."""


def changed_payload(
    table_id: int, version: int, due_at: float | None, *, closed: bool = False
) -> str:
    """What NOTIFY carries: "table version [deadline|-] [closed]" (as short as it can be, so
    that a bot before the closed word reads an open table's change as it did)."""
    parts = [str(table_id), str(version)]
    if due_at is not None or closed:
        parts.append("-" if due_at is None else repr(due_at))
    if closed:
        parts.append("closed")
    return " ".join(parts)


def read_changed(payload: str) -> TableChange | None:
    """(table, version, deadline, closed) from a notification; None for one that is not ours.
    A payload without the closed word (written by a bot before it) is an open table's."""
    parts = payload.split()
    try:
        due = None if parts[2:3] in ([], ["-"]) else float(parts[2])
        return TableChange(int(parts[0]), int(parts[1]), due, closed=parts[3:4] == ["closed"])
    except (ValueError, IndexError):
        return None


@dataclasses.dataclass(frozen=True)
class TableChange:
    """A change another process (or this one) stored: the table, its new version, when
    something is next due there, and whether the change closed it."""

    table_id: int
    version: int
    due_at: float | None
    closed: bool = False


@dataclasses.dataclass(frozen=True)
class UnreadableClosed:
    """A table whose document could not be read, cancelled from its columns alone: where its
    table message is."""

    table_id: int
    channel_id: int
    message_id: int | None


def hand_key(table_id: int, user_id: int) -> int:
    """One advisory-lock key for a person's hand message at a table (two pairs may share one:
    then they only wait for each other)."""
    return (table_id * 1_000_003) ^ user_id


class Tables(Repository):
    """The tables: each save stores its posts in `outbox` and a finished game's results (and
    their ratings) in `results`, in its own transaction."""

    def __init__(self, store: Store, outbox: Outbox, results: Results) -> None:
        super().__init__(store)
        self._outbox = outbox
        self._results = results
        self.loads = 0
        """`load` calls since opening (`make bench-bot` reads it)."""
        self.saves = 0
        """`save` calls that wrote, since opening."""

    async def create(
        self,
        *,
        guild_id: int,
        channel_id: int,
        host_id: int,
        preset: str,
        document: dict[str, Any],
        event: Event | None = None,
        due_at: float | None = None,
        posts: Sequence[NewPost] = (),
    ) -> TableRow:
        """Open a lobby in a channel, with the posts its opening requires; `ChannelBusy` if the
        channel has an open table."""
        now = self._clock()
        try:
            async with self._transaction() as db:
                existing = await self._open_table_id(channel_id, db)
                if existing is not None:
                    raise ChannelBusy(existing)
                row = await db.fetchone(
                    "INSERT INTO tables (guild_id, channel_id, host_id, status, preset, document,"
                    " created_at, updated_at, due_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
                    " RETURNING id",
                    (
                        guild_id,
                        channel_id,
                        host_id,
                        TableStatus.LOBBY,
                        preset,
                        dumps(document),
                        now,
                        now,
                        due_at,
                    ),
                )
                assert row is not None
                table_id = int(row[0])
                if event is not None:
                    await self._append_events(db, table_id, [event], now)
                if posts:
                    await self._outbox.add(db, table_id, guild_id, 1, posts, now)
                await db.notify(TABLES_CHANGED, changed_payload(table_id, 1, due_at))
        except UniqueViolation:
            # Another process opened a table in this channel since the check above.
            existing = await self._open_table_id(channel_id, self._db)
            if existing is None:
                raise
            raise ChannelBusy(existing) from None
        return await self.load(table_id)

    async def _open_table_id(self, channel_id: int, db: Connection) -> int | None:
        row = await db.fetchone(
            "SELECT id FROM tables WHERE channel_id = ? AND status IN ('lobby', 'playing')",
            (channel_id,),
        )
        return int(row[0]) if row else None

    async def load(self, table_id: int, known: TableRow | None = None) -> TableRow:
        """The table's row. With `known`, a row of this table read or written before: when it
        is still the stored version, it is what comes back, and the document (the largest
        column, decoded from JSON) is neither read nor decoded again. Every save moves the
        version on, so an equal version is an equal row, but for the deadline: claiming and
        postponing one (`Deadlines`) moves `due_at` alone, so it is read with the version.
        No table (KeyError) for an id no table can have (`possible_table_id`)."""
        if not possible_table_id(table_id):
            raise KeyError(table_id)
        self.loads += 1
        if known is not None:
            current = await self._db.fetchone(
                "SELECT version, due_at FROM tables WHERE id = ?", (table_id,)
            )
            if current is None:
                raise KeyError(table_id)
            if current[0] == known.version and known.id == table_id:
                if current[1] == known.due_at:
                    return known
                return dataclasses.replace(known, due_at=current[1])
        row = await self._db.fetchone(
            f"SELECT {TABLE_COLUMNS} FROM tables WHERE id = ?", (table_id,)
        )
        if row is None:
            raise KeyError(table_id)
        return row_to_table(row)

    async def open_in_channel(self, channel_id: int) -> TableRow | None:
        table_id = await self._open_table_id(channel_id, self._db)
        return None if table_id is None else await self.load(table_id)

    async def open_channels(self, guild_id: int) -> list[int]:
        """The channels (and threads) of a guild that have an open table."""
        rows = await self._db.fetchall(
            "SELECT channel_id FROM tables WHERE guild_id = ? AND status IN ('lobby', 'playing')"
            " ORDER BY id",
            (guild_id,),
        )
        return [int(row[0]) for row in rows]

    async def close_unreadable(
        self, channel_id: int, user_id: int, *, can_manage: bool
    ) -> UnreadableClosed | None:
        """Cancel the channel's open table without reading its document (one that could not
        be read: `CorruptRow`), from its columns alone, when `user_id` hosts it or
        `can_manage`. None: no open table in the channel (or it closed meanwhile), or not
        theirs to cancel."""
        async with self._transaction() as db:
            row = await db.fetchone(
                "SELECT id, host_id, message_id FROM tables"
                " WHERE channel_id = ? AND status IN ('lobby', 'playing')",
                (channel_id,),
            )
            if row is None or (row[1] != user_id and not can_manage):
                return None
            now = self._clock()
            # Still open: on PostgreSQL another process may have closed it (finished the game,
            # with its results) since the read above, which does not lock the row.
            changed = await db.fetchone(
                "UPDATE tables SET status = 'cancelled', version = version + 1, updated_at = ?,"
                " due_at = NULL WHERE id = ? AND status IN ('lobby', 'playing') RETURNING version",
                (now, row[0]),
            )
            if changed is None:
                return None
            await db.notify(TABLES_CHANGED, changed_payload(row[0], changed[0], None, closed=True))
            await self._append_events(
                db, row[0], [Event("cancelled", {"unreadable": True}, user_id)], now
            )
        self.saves += 1
        return UnreadableClosed(table_id=row[0], channel_id=channel_id, message_id=row[2])

    @asynccontextmanager
    async def showing(self, table_id: int, user_id: int | None = None) -> AsyncIterator[int | None]:
        """Hold one of the table's messages while it is written (answered or edited): the
        table message, or with `user_id` that person's hand message; and give the table's
        newest version, so the writer shows no older state than another process did before it.
        With one process (SQLite) it holds nothing and gives None: that process knows every
        version."""
        held = (
            ("showing", table_id)
            if user_id is None
            else ("showing-hand", hand_key(table_id, user_id))
        )
        async with self._db.hold(*held) as db:
            if db is None:
                yield None
                return
            row = await db.fetchone("SELECT version FROM tables WHERE id = ?", (table_id,))
            yield None if row is None else int(row[0])

    async def watch(self, callback: Callable[[TableChange], None]) -> None:
        """Call `callback` for every table change stored by any process sharing the database
        (PostgreSQL; SQLite has no notifications, and this does nothing there)."""

        def received(payload: str) -> None:
            change = read_changed(payload)
            if change is not None:
                callback(change)

        await self._db.listen(TABLES_CHANGED, received)

    async def closed_since(self, moment: float) -> list[int]:
        """Tables closed (finished, cancelled, abandoned) at or after `moment`."""
        rows = await self._db.fetchall(
            "SELECT id FROM tables WHERE status NOT IN ('lobby', 'playing') AND updated_at >= ?"
            " ORDER BY id",
            (moment,),
        )
        return [int(row[0]) for row in rows]

    async def open_ids(self) -> list[int]:
        rows = await self._db.fetchall(
            "SELECT id FROM tables WHERE status IN ('lobby', 'playing') ORDER BY id"
        )
        return [int(row[0]) for row in rows]

    async def open_by_phase(self) -> dict[str, int]:
        """Open tables by phase (`PHASES`), one query over the open tables' rows (metrics)."""
        paused = self._db.dialect.json_text("document", "paused")
        rows = await self._db.fetchall(
            f"SELECT status, {paused}, COUNT(*) FROM tables"
            " WHERE status IN ('lobby', 'playing') GROUP BY 1, 2"
        )
        counts = dict.fromkeys(PHASES, 0)
        for status, is_paused, count in rows:
            phase = "paused" if status == "playing" and is_paused in (1, "true") else status
            counts[phase] += int(count)
        return counts

    async def save(
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
        due_at: float | Keep | None = KEEP,
        posts: Sequence[NewPost] = (),
    ) -> TableRow:
        """Save a new document for `table`, which must still be at `table.version`.

        Events are appended, results recorded (one a seat, in seat order) and rated, and the
        channel posts the change requires put in the outbox, in the same transaction, so what a
        player is shown as done is either wholly stored or not at all.
        """
        now = self._clock()
        new_status = status or table.status
        # KEEP leaves the stored deadline alone: claiming or postponing one moves it without a
        # new version, so `table.due_at` may be older than what is stored.
        keep = isinstance(due_at, Keep) and new_status.is_open
        due = None if isinstance(due_at, Keep) or not new_status.is_open else due_at
        async with self._transaction() as db:
            changed = await db.fetchone(
                "UPDATE tables SET document = ?, status = ?, host_id = ?, message_id = ?,"
                " preset = ?, version = version + 1, updated_at = ?,"
                f" due_at = {'due_at' if keep else '?'}"
                " WHERE id = ? AND version = ? RETURNING version, due_at",
                (
                    dumps(document),
                    new_status,
                    table.host_id if host_id is None else host_id,
                    table.message_id if message_id is None else message_id,
                    table.preset if preset is None else preset,
                    now,
                    *(() if keep else (due,)),
                    table.id,
                    table.version,
                ),
            )
            if changed is None:
                raise VersionConflict(
                    f"table #{table.id} changed since version {table.version} was loaded"
                )
            due = changed[1]
            await db.notify(
                TABLES_CHANGED,
                changed_payload(table.id, table.version + 1, due, closed=not new_status.is_open),
            )
            await self._append_events(db, table.id, events, now)
            if posts:
                await self._outbox.add(db, table.id, table.guild_id, table.version + 1, posts, now)
            if results:
                await self._results.record(
                    db, table, results, table.preset if preset is None else preset, now
                )
        self.saves += 1
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

    async def _append_events(
        self, db: Connection, table_id: int, events: Sequence[Event], now: float
    ) -> None:
        if not events:
            return
        # Each row numbered after the last one stored (the rows before it in this statement
        # included): no query of its own for the last number.
        await db.executemany(
            "INSERT INTO events (table_id, seq, at, user_id, kind, payload) VALUES (?,"
            " (SELECT COALESCE(MAX(seq), 0) + 1 FROM events WHERE table_id = ?), ?, ?, ?, ?)",
            [
                (table_id, table_id, now, event.user_id, event.kind, dumps(event.payload))
                for event in events
            ],
        )

    async def events(self, table_id: int) -> list[Event]:
        rows = await self._db.fetchall(
            "SELECT kind, payload, user_id FROM events WHERE table_id = ? ORDER BY seq",
            (table_id,),
        )
        return [Event(row[0], json.loads(row[1]), row[2]) for row in rows]
