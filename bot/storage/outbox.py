"""The outbox: every channel post an outcome requires, stored in the transaction that stores the
outcome and deleted once it is posted.

A post is known by the table, the version its change stored and its place among that change's
posts: never reused, so it can name the message it becomes (the nonce Discord checks) and a
post sent twice is shown once. The change that stores a post leases it to its own process for
`post_lease` seconds; a post still here after that (its process died, or Discord did not answer) is
taken by whichever process looks next (`claim`). A post the channel refused (the bot may
not send there) is kept, set aside, until the channel takes messages again (`claim_refused`);
one whose channel is gone goes with it (`drop`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from bot.storage.connection import Connection
from bot.storage.store import Repository, Store


@dataclass(frozen=True)
class NewPost:
    """A post for `Tables.save` to store with its change: where, and what (a notice's code and
    its parameters as JSON text, which the service writes and reads)."""

    channel_id: int
    kind: str
    payload: str


@dataclass(frozen=True)
class StoredPost:
    """A post waiting in the outbox."""

    table_id: int
    version: int
    index: int
    guild_id: int
    channel_id: int
    kind: str
    payload: str
    created_at: float

    @property
    def key(self) -> tuple[int, int, int]:
        return (self.table_id, self.version, self.index)


_COLUMNS = "table_id, version, idx, guild_id, channel_id, kind, payload, created_at"


def _post(row: Sequence[Any]) -> StoredPost:
    table_id, version, index, guild_id, channel_id, kind, payload, created_at = row
    return StoredPost(
        int(table_id),
        int(version),
        int(index),
        int(guild_id),
        int(channel_id),
        str(kind),
        str(payload),
        float(created_at),
    )


class Outbox(Repository):
    def __init__(self, store: Store, *, post_lease: float = 60.0) -> None:
        super().__init__(store)
        self.post_lease = post_lease
        """Seconds a process holds a post it is making."""

    async def add(
        self,
        db: Connection,
        table_id: int,
        guild_id: int,
        version: int,
        posts: Sequence[NewPost],
        now: float,
    ) -> None:
        """Inside a save's transaction (`Tables.save`): its posts, leased to this process."""
        await db.executemany(
            f"INSERT INTO outbox ({_COLUMNS}, claimed_until) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [
                (
                    table_id,
                    version,
                    i,
                    guild_id,
                    p.channel_id,
                    p.kind,
                    p.payload,
                    now,
                    now + self.post_lease,
                )
                for i, p in enumerate(posts)
            ],
        )

    async def claim(self, limit: int = 100) -> list[StoredPost]:
        """Take the posts nobody is sending (their lease ran out), oldest first, each table's
        in order, for `post_lease` seconds. Two processes never take the same post: the update
        takes only posts whose lease is still out when it runs."""
        now = self._clock()
        async with self._transaction() as db:
            rows = await db.fetchall(
                f"UPDATE outbox SET claimed_until = ? WHERE (table_id, version, idx) IN ("
                f" SELECT table_id, version, idx FROM outbox WHERE refused = 0"
                f" AND claimed_until < ? ORDER BY created_at, table_id, version, idx LIMIT ?)"
                f" AND claimed_until < ? RETURNING {_COLUMNS}",
                (now + self.post_lease, now, limit, now),
            )
        return sorted((_post(row) for row in rows), key=lambda p: (p.created_at, p.key))

    async def claim_refused(self, channel_id: int) -> list[StoredPost]:
        """Take the posts a channel refused, to try them again (its permissions changed)."""
        now = self._clock()
        async with self._transaction() as db:
            rows = await db.fetchall(
                f"UPDATE outbox SET refused = 0, claimed_until = ? WHERE channel_id = ?"
                f" AND refused = 1 RETURNING {_COLUMNS}",
                (now + self.post_lease, channel_id),
            )
        return sorted((_post(row) for row in rows), key=lambda p: (p.created_at, p.key))

    async def has_refused(self, table_id: int) -> bool:
        row = await self._db.fetchone(
            "SELECT 1 FROM outbox WHERE table_id = ? AND refused = 1 LIMIT 1", (table_id,)
        )
        return row is not None

    async def refused_channels(self) -> list[int]:
        """Channels with posts set aside because they refused them."""
        rows = await self._db.fetchall(
            "SELECT DISTINCT channel_id FROM outbox WHERE refused = 1 ORDER BY channel_id"
        )
        return [int(row[0]) for row in rows]

    async def done(self, keys: Iterable[tuple[int, int, int]]) -> None:
        """Posts that are posted: they go."""
        async with self._transaction() as db:
            await db.executemany(
                "DELETE FROM outbox WHERE table_id = ? AND version = ? AND idx = ?", list(keys)
            )

    async def refused(self, keys: Iterable[tuple[int, int, int]]) -> None:
        """Posts their channel refused: kept aside until it takes messages again."""
        async with self._transaction() as db:
            await db.executemany(
                "UPDATE outbox SET refused = 1 WHERE table_id = ? AND version = ? AND idx = ?",
                list(keys),
            )

    async def drop(self, channel_ids: Iterable[int], *, guild_id: int | None = None) -> int:
        """The posts of channels that are gone, and with `guild_id` all of a server's (the bot
        left it): how many."""
        dropped = 0
        async with self._transaction() as db:
            for channel_id in sorted(set(channel_ids)):
                dropped += await db.execute(
                    "DELETE FROM outbox WHERE channel_id = ?", (channel_id,)
                )
            if guild_id is not None:
                dropped += await db.execute("DELETE FROM outbox WHERE guild_id = ?", (guild_id,))
        return dropped

    async def waiting(self) -> tuple[int, float | None]:
        """How many posts wait, and when the oldest was stored (None: none wait)."""
        row = await self._db.fetchone("SELECT COUNT(*), MIN(created_at) FROM outbox")
        assert row is not None
        return int(row[0]), None if row[1] is None else float(row[1])
