"""What is stored about one person, read for them (`/ohhell my-data`, and before their
erasure: bot/storage/erasure.py), and the leases that pace both.

A person's id is in the rating tables (`results`, `ratings`, `rating_history`: their own rows),
in the tables' columns and JSON (a seat, the host, a hand message, who set the rules), in the
event logs, in the outbox's posts, in the channel defaults they set and in the leases keyed by
them. These reads take no lock and read lists in SQLite's reading thread: a scan of every
document must not stop the event loop. Which documents and events truly name the person is
the service's to read (their text holding the id's digits is what is found here).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bot.storage.catalog import read_tables
from bot.storage.connection import Connection, Row, quoted
from bot.storage.rows import TABLE_COLUMNS, CorruptRow, TableRow, row_to_table
from bot.storage.store import Repository

MY_DATA = "my-data"
"""The lease that keeps a person from asking for their data again too soon."""
FORGET_ME = "forget-me"
"""The lease that holds a person's offered erasure until they confirm it (its holder: the
confirmation's token)."""
ERASED = "erased"
"""The note that a person was erased, kept by their erasure while a sign-in at the web pages
from before it could still be good (its `until`: the service's, from the time of the erasure),
so that every process refuses such a sign-in. Its key is a digest of their id
(`erased_key`), not the id: the database lists no erased person."""
PERSON_LEASES = ("review", MY_DATA, FORGET_ME)
"""The kinds of lease keyed by a person's id."""

RATING_TABLES = ("results", "ratings", "rating_history")
"""The tables whose rows are a person's own (by `user_id`): exported whole, erased whole."""

CHUNK = 500
"""Ids a query names at most (both databases limit a statement's parameters)."""


@dataclass(frozen=True)
class StoredEvent:
    """An event log row that names a person (as who acted, or in its payload)."""

    table_id: int
    seq: int
    at: float
    user_id: int | None
    kind: str
    payload: dict[str, Any]


@dataclass(frozen=True)
class ChannelDefaultsRow:
    guild_id: int
    channel_id: int
    settings: str
    """As stored (JSON text)."""
    updated_at: float


@dataclass(frozen=True)
class PostRow:
    """A post waiting in the outbox at one of the person's tables."""

    table_id: int
    version: int
    index: int
    kind: str
    payload: str
    created_at: float


@dataclass(frozen=True)
class PersonRows:
    """Every row that may hold a person's id or name. `tables` and `events` are a superset
    (their id's digits appear somewhere in them): the service reads which truly name them."""

    user_id: int
    rating_rows: Mapping[str, tuple[dict[str, Any], ...]]
    """By table (`RATING_TABLES`): their rows, each by column name."""
    tables: tuple[TableRow, ...]
    events: tuple[StoredEvent, ...]
    posts: tuple[PostRow, ...]
    channel_defaults: tuple[ChannelDefaultsRow, ...]
    leases: tuple[tuple[str, float], ...]
    """(kind, until) of the leases keyed by them, and of their erasure note (`ERASED`)."""
    unreadable: tuple[int, ...] = ()
    """Tables that may name them whose document is not JSON."""
    locale: str | None = None
    """Their Discord client language, as last seen (bot/storage/languages.py)."""


@dataclass(frozen=True)
class Found:
    """Where a person may be, as the reads before an erasure found it."""

    tables: frozenset[int]
    open_then: frozenset[int]
    last_table: int
    guilds: frozenset[int]


def in_chunks(ids: Iterable[int]) -> Iterable[list[int]]:
    ordered = sorted(set(ids))
    for start in range(0, len(ordered), CHUNK):
        yield ordered[start : start + CHUNK]


def marks(count: int) -> str:
    return ", ".join("?" * count)


def erased_key(user_id: int) -> int:
    """The key of the person's erasure note (`ERASED`): 63 bits of a SHA-256 digest of their
    id, so that the note is found from the id but the id is not stored."""
    digest = hashlib.sha256(b"ohhell erased %d" % user_id).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def id_pattern(user_id: int) -> str:
    """A LIKE pattern for any text holding the id."""
    return f"%{int(user_id)}%"


async def events_naming(
    db: Connection, user_id: int, table_ids: Sequence[int]
) -> list[StoredEvent]:
    rows = await db.fetchall(
        "SELECT table_id, seq, at, user_id, kind, payload FROM events"
        f" WHERE table_id IN ({marks(len(table_ids))}) AND (user_id = ? OR payload LIKE ?)"
        " ORDER BY table_id, seq",
        (*table_ids, user_id, id_pattern(user_id)),
    )
    events = []
    for table_id, seq, at, user, kind, payload in rows:
        try:
            parsed = json.loads(payload)
        except ValueError:
            parsed = None
        events.append(
            StoredEvent(
                int(table_id),
                int(seq),
                float(at),
                None if user is None else int(user),
                str(kind),
                parsed if isinstance(parsed, dict) else {},
            )
        )
    return events


async def posts_at(db: Connection, table_ids: Sequence[int]) -> list[Row]:
    return await db.fetchall(
        "SELECT table_id, version, idx, kind, payload, created_at FROM outbox"
        f" WHERE table_id IN ({marks(len(table_ids))}) ORDER BY table_id, version, idx",
        table_ids,
    )


class Privacy(Repository):
    # -- reads ---------------------------------------------------------------------------------

    async def where_person_is(self, user_id: int) -> Found:
        """The tables that name the person (or may: their id's digits), the open tables and
        the newest table's id before those reads, and the servers of their rating rows."""
        open_rows = await self._db.fetchall(
            "SELECT id FROM tables WHERE status IN ('lobby', 'playing')"
        )
        last = await self._db.fetchone("SELECT COALESCE(MAX(id), 0) FROM tables")
        assert last is not None
        digits = id_pattern(user_id)
        named = await self._db.fetchall(
            "SELECT id FROM tables WHERE host_id = ? OR document LIKE ?", (user_id, digits)
        )
        logged = await self._db.fetchall(
            "SELECT DISTINCT table_id FROM events WHERE user_id = ? OR payload LIKE ?",
            (user_id, digits),
        )
        guilds: set[int] = set()
        for table in RATING_TABLES:
            rows = await self._db.fetchall(
                f"SELECT DISTINCT guild_id FROM {table} WHERE user_id = ?", (user_id,)
            )
            guilds.update(int(row[0]) for row in rows)
        return Found(
            tables=frozenset(int(row[0]) for row in named + logged),
            open_then=frozenset(int(row[0]) for row in open_rows),
            last_table=int(last[0]),
            guilds=frozenset(guilds),
        )

    async def person_rows(self, user_id: int) -> PersonRows:
        """Everything stored that may name the person, read without a lock (a moment's
        changes elsewhere may fall between two reads)."""
        found = await self.where_person_is(user_id)
        shapes = {shape.name: shape for shape in await read_tables(self._db)}
        rating_rows: dict[str, tuple[dict[str, Any], ...]] = {}
        for table in RATING_TABLES:
            columns = shapes[table].columns
            names = ", ".join(quoted(column) for column in columns)
            rows = await self._db.fetchall(
                f"SELECT {names} FROM {table} WHERE user_id = ?"
                f" ORDER BY {', '.join(quoted(c) for c in shapes[table].key)}",
                (user_id,),
            )
            rating_rows[table] = tuple(dict(zip(columns, row, strict=True)) for row in rows)
        tables: list[TableRow] = []
        unreadable: list[int] = []
        events: list[StoredEvent] = []
        posts: list[PostRow] = []
        for chunk in in_chunks(found.tables):
            given = marks(len(chunk))
            for row in await self._db.fetchall(
                f"SELECT {TABLE_COLUMNS} FROM tables WHERE id IN ({given}) ORDER BY id", chunk
            ):
                try:
                    tables.append(row_to_table(row))
                except CorruptRow:
                    unreadable.append(int(row[0]))
            events += await events_naming(self._db, user_id, chunk)
            posts += [_post_row(row) for row in await posts_at(self._db, chunk)]
        defaults = await self._db.fetchall(
            "SELECT guild_id, channel_id, settings, updated_at FROM channel_defaults"
            " WHERE set_by = ? ORDER BY channel_id",
            (user_id,),
        )
        locale = await self._db.fetchone(
            "SELECT locale FROM person_locales WHERE user_id = ?", (user_id,)
        )
        leases = await self._db.fetchall(
            f"SELECT kind, until FROM leases WHERE key = ? AND kind IN"
            f" ({marks(len(PERSON_LEASES))}) OR kind = ? AND key = ? ORDER BY kind",
            (user_id, *PERSON_LEASES, ERASED, erased_key(user_id)),
        )
        return PersonRows(
            user_id=user_id,
            rating_rows=rating_rows,
            tables=tuple(tables),
            events=tuple(events),
            posts=tuple(posts),
            channel_defaults=tuple(
                ChannelDefaultsRow(int(r[0]), int(r[1]), str(r[2]), float(r[3])) for r in defaults
            ),
            leases=tuple((str(kind), float(until)) for kind, until in leases),
            unreadable=tuple(unreadable),
            locale=None if locale is None else str(locale[0]),
        )

    async def open_tables_naming(self, user_id: int) -> list[int]:
        """Open tables whose document holds the person's id's digits (a seat of theirs, most
        likely: the service reads which)."""
        rows = await self._db.fetchall(
            "SELECT id FROM tables WHERE status IN ('lobby', 'playing') AND document LIKE ?"
            " ORDER BY id",
            (id_pattern(user_id),),
        )
        return [int(row[0]) for row in rows]

    # -- the limits on asking ------------------------------------------------------------------

    async def take_turn(self, kind: str, key: int, now: float, seconds: float) -> float | None:
        """Take (kind, key) until `now + seconds`, unless it is held past `now`: None when it
        was taken, else when it is free again. One process at a time (the upsert decides)."""
        async with self._transaction() as db:
            row = await db.fetchone(
                "INSERT INTO leases (kind, key, holder, until) VALUES (?, ?, '', ?)"
                " ON CONFLICT (kind, key) DO UPDATE SET holder = excluded.holder,"
                " until = excluded.until WHERE leases.until <= ? RETURNING until",
                (kind, key, now + seconds, now),
            )
            if row is not None:
                return None
            held = await db.fetchone(
                "SELECT until FROM leases WHERE kind = ? AND key = ?", (kind, key)
            )
        return now if held is None else float(held[0])

    async def give_back_turn(self, kind: str, key: int) -> None:
        async with self._transaction() as db:
            await db.execute("DELETE FROM leases WHERE kind = ? AND key = ?", (kind, key))

    async def offer_erasure(self, user_id: int, token: str, until: float) -> None:
        """Hold an erasure for the person to confirm with `token` until `until`; an earlier
        offer's token no longer confirms anything."""
        async with self._transaction() as db:
            await db.execute(
                "INSERT INTO leases (kind, key, holder, until) VALUES (?, ?, ?, ?)"
                " ON CONFLICT (kind, key) DO UPDATE SET holder = excluded.holder,"
                " until = excluded.until",
                (FORGET_ME, user_id, token, until),
            )

    async def erased_note(self, user_id: int) -> float | None:
        """The `until` of the person's erasure note (`ERASED`), if there is one: one read by
        primary key."""
        row = await self._db.fetchone(
            "SELECT until FROM leases WHERE kind = ? AND key = ?", (ERASED, erased_key(user_id))
        )
        return None if row is None else float(row[0])

    async def erasure_offered(self, user_id: int, token: str, now: float) -> bool:
        row = await self._db.fetchone(
            "SELECT 1 FROM leases WHERE kind = ? AND key = ? AND holder = ? AND until >= ?",
            (FORGET_ME, user_id, token, now),
        )
        return row is not None


def _post_row(row: Sequence[Any]) -> PostRow:
    table_id, version, index, kind, payload, created_at = row
    return PostRow(
        int(table_id), int(version), int(index), str(kind), str(payload), float(created_at)
    )
