"""Leases: something one process at a time may do for a while (a person's review), held in the
database so that every process sharing it sees the holder. A lease runs out by itself when its
holder stops renewing it (the process died), so nothing stays held for good."""

from __future__ import annotations

from bot.storage.store import Repository


class Leases(Repository):
    async def take_lease(self, kind: str, key: int, holder: str, seconds: float) -> bool:
        """Take (kind, key) for `seconds` unless another holder has it: whether it was taken.
        The holder taking it again renews it."""
        now = self._clock()
        async with self._transaction() as db:
            row = await db.fetchone(
                "INSERT INTO leases (kind, key, holder, until) VALUES (?, ?, ?, ?)"
                " ON CONFLICT (kind, key) DO UPDATE SET holder = excluded.holder,"
                " until = excluded.until WHERE leases.until < ? OR leases.holder = excluded.holder"
                " RETURNING holder",
                (kind, key, holder, now + seconds, now),
            )
        return row is not None

    async def renew_lease(self, kind: str, key: int, holder: str, seconds: float) -> bool:
        """Hold (kind, key) `seconds` longer if `holder` still has it: whether it does. A lease
        that is gone (an erasure deleted it, or it ran out and was dropped) is not taken again,
        so a renewal never stores a row that something else deleted."""
        async with self._transaction() as db:
            row = await db.fetchone(
                "UPDATE leases SET until = ? WHERE kind = ? AND key = ? AND holder = ?"
                " RETURNING holder",
                (self._clock() + seconds, kind, key, holder),
            )
        return row is not None

    async def end_lease(self, kind: str, key: int, holder: str) -> None:
        """Let (kind, key) go, if `holder` still has it."""
        async with self._transaction() as db:
            await db.execute(
                "DELETE FROM leases WHERE kind = ? AND key = ? AND holder = ?", (kind, key, holder)
            )

    async def drop_expired_leases(self, before: float) -> int:
        """Leases that ran out before `before` (one that ran out is no one's: `take_lease`
        takes it as if it were not there), so none stays stored for good: how many."""
        async with self._transaction() as db:
            return await db.execute("DELETE FROM leases WHERE until < ?", (before,))
