"""A person erased from everything stored, in one transaction (`/ohhell forget-me`).

Which tables name them is found first by reads that take no lock (`Privacy.where_person_is`);
the transaction then reads again, locked, those tables and every table that could have gained
them since (the ones open then, or newer), so nothing stored meanwhile is missed. What a
document, an event's payload or a post holds is the service's to rewrite (`Forgetting`):
storage hands each over and stores what comes back.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from bot.storage.connection import Connection, Row
from bot.storage.privacy import (
    ERASED,
    FORGET_ME,
    PERSON_LEASES,
    RATING_TABLES,
    Found,
    Privacy,
    erased_key,
    events_naming,
    id_pattern,
    in_chunks,
    marks,
    posts_at,
)
from bot.storage.rows import TABLE_COLUMNS, CorruptRow, TableRow, dumps, row_to_table
from bot.storage.store import Repository, Store
from bot.storage.tables import TABLES_CHANGED, changed_payload


class Forgetting(Protocol):
    """How a person is taken out of what the service stores (bot/service/forgetting.py). It
    is shown every document before any post: a post may name them at a table that no longer
    seats them, by a name one of their seats elsewhere had."""

    def document(self, row: TableRow) -> dict[str, Any] | None:
        """The row's document without the person; None when it does not name them."""
        ...

    def event(self, payload: dict[str, Any]) -> dict[str, Any]:
        """An event's payload without the person's id."""
        ...

    def post(self, table_id: int, payload: str, document: dict[str, Any]) -> str | None:
        """A waiting post's payload without the person's id or names, at a table whose
        document (the person taken out) is `document`; None when it does not name them."""
        ...


@dataclass(frozen=True)
class Erased:
    """What an erasure changed."""

    tables: tuple[int, ...]
    """The tables whose document, host or event log named the person."""
    open_tables: tuple[int, ...]
    """Of those, the ones still open (their message shows the seat's new name)."""
    rows: int
    """Rows of `RATING_TABLES` deleted."""
    unreadable: tuple[int, ...] = ()
    """Tables whose document is not JSON, left as they are."""


async def settle_erased(db: Connection) -> None:
    """After an erasure, on SQLite: the write-ahead log still holds every page as it was before
    (names and ids), so it is copied into the file (where `secure_delete` zeroed what went) and
    emptied. PostgreSQL recycles its own log."""
    if not db.dialect.is_postgres:
        await db.execute("PRAGMA wal_checkpoint(TRUNCATE)")


class Erasure(Repository):
    """The erasure of a person, which finds where they are as `privacy` reads it."""

    def __init__(self, store: Store, privacy: Privacy) -> None:
        super().__init__(store)
        self._privacy = privacy

    async def erase_person(
        self, user_id: int, token: str, now: float, forgetting: Forgetting, noted_until: float
    ) -> Erased | None:
        """Take the person out of everything stored, in one transaction: their seats (the
        service's rewrite of each document), the host column, the event logs, the waiting
        posts, who set a channel's defaults; their rating rows and leases go, and the note
        that they were erased (`ERASED`, keyed by a digest of their id) is kept until
        `noted_until`. The offered erasure
        (`offer_erasure`) is used up by it: None, changing nothing, when `token` is not the
        one offered or its time ran out (a confirmation clicked twice, or forged)."""
        found = await self._privacy.where_person_is(user_id)
        async with self._transaction() as db:
            used = await db.fetchone(
                "DELETE FROM leases WHERE kind = ? AND key = ? AND holder = ? AND until >= ?"
                " RETURNING key",
                (FORGET_ME, user_id, token, now),
            )
            if used is None:
                return None
            rows = await self._tables_to_look_at(db, user_id, found)
            erased = await self._forget_at_tables(db, user_id, rows, forgetting)
            guilds = found.guilds | {int(row[1]) for row in rows}
            deleted = 0
            for guild_id in sorted(guilds):
                for table in RATING_TABLES:
                    deleted += await db.execute(
                        f"DELETE FROM {table} WHERE guild_id = ? AND user_id = ?",
                        (guild_id, user_id),
                    )
            await db.execute("UPDATE channel_defaults SET set_by = 0 WHERE set_by = ?", (user_id,))
            await db.execute("DELETE FROM person_locales WHERE user_id = ?", (user_id,))
            await db.execute(
                f"DELETE FROM leases WHERE key = ? AND kind IN ({marks(len(PERSON_LEASES))})",
                (user_id, *PERSON_LEASES),
            )
            await db.execute(
                "INSERT INTO leases (kind, key, holder, until) VALUES (?, ?, '', ?)"
                " ON CONFLICT (kind, key) DO UPDATE SET until = excluded.until",
                (ERASED, erased_key(user_id), noted_until),
            )
        await settle_erased(self._db)
        return Erased(erased.tables, erased.open_tables, deleted, erased.unreadable)

    @staticmethod
    async def _tables_to_look_at(db: Connection, user_id: int, found: Found) -> list[Row]:
        """Inside the transaction, locked (PostgreSQL; SQLite lets one writer in at a time):
        every table found before it, open then, newer, or open now that may name the person."""
        lock = " FOR UPDATE" if db.dialect.is_postgres else ""
        rows = await db.fetchall(
            f"SELECT {TABLE_COLUMNS} FROM tables WHERE (id > ? OR status IN ('lobby', 'playing'))"
            f" AND (host_id = ? OR document LIKE ?) ORDER BY id{lock}",
            (found.last_table, user_id, id_pattern(user_id)),
        )
        for chunk in in_chunks(found.tables | found.open_then):
            rows += await db.fetchall(
                f"SELECT {TABLE_COLUMNS} FROM tables WHERE id IN ({marks(len(chunk))})"
                f" ORDER BY id{lock}",
                chunk,
            )
        return list({int(row[0]): row for row in rows}.values())

    async def _forget_at_tables(
        self, db: Connection, user_id: int, rows: Sequence[Row], forgetting: Forgetting
    ) -> Erased:
        """Each table that names the person rewritten: its document, its events, then (every
        document seen) its waiting posts."""
        changed: set[int] = set()
        still_open: set[int] = set()
        unreadable: set[int] = set()
        documents: dict[int, dict[str, Any]] = {}
        for raw in sorted(rows, key=lambda row: int(row[0])):
            try:
                row = row_to_table(raw)
            except CorruptRow:
                unreadable.add(int(raw[0]))
                continue
            document = forgetting.document(row)
            if document is not None or row.host_id == user_id:
                await self._store_forgotten(db, row, document or row.document, user_id)
                changed.add(row.id)
                if row.status.is_open:
                    still_open.add(row.id)
            documents[row.id] = document or row.document
        for chunk in in_chunks(documents):
            for event in await events_naming(db, user_id, chunk):
                payload = forgetting.event(event.payload)
                if payload == event.payload and event.user_id != user_id:
                    continue  # its text held the id's digits, not the person
                await db.execute(
                    "UPDATE events SET payload = ?,"
                    " user_id = CASE WHEN user_id = ? THEN NULL ELSE user_id END"
                    " WHERE table_id = ? AND seq = ?",
                    (dumps(payload), user_id, event.table_id, event.seq),
                )
                changed.add(event.table_id)
            for post in await posts_at(db, chunk):
                text = forgetting.post(int(post[0]), str(post[4]), documents[int(post[0])])
                if text is not None:
                    await db.execute(
                        "UPDATE outbox SET payload = ? WHERE table_id = ? AND version = ?"
                        " AND idx = ?",
                        (text, post[0], post[1], post[2]),
                    )
        return Erased(tuple(sorted(changed)), tuple(sorted(still_open)), 0, tuple(unreadable))

    @staticmethod
    async def _store_forgotten(
        db: Connection, row: TableRow, document: dict[str, Any], user_id: int
    ) -> None:
        """A table's document without the person, as a new version (so every process that
        holds the table reads it again); its host column no longer them. When the table
        changed (`updated_at`: when a finished game ended) stays as it was."""
        version = await db.fetchone(
            "UPDATE tables SET document = ?, version = version + 1,"
            " host_id = CASE WHEN host_id = ? THEN 0 ELSE host_id END"
            " WHERE id = ? RETURNING version, due_at",
            (dumps(document), user_id, row.id),
        )
        assert version is not None
        if row.status.is_open:
            await db.notify(TABLES_CHANGED, changed_payload(row.id, version[0], version[1]))
