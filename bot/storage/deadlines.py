"""Deadlines: each open table's next due moment, which the scheduler wakes for."""

from __future__ import annotations

from bot.storage.store import Repository


class Deadlines(Repository):
    async def next_due(self) -> tuple[int, float] | None:
        """The open table with the earliest deadline, and that deadline."""
        row = await self._db.fetchone(
            "SELECT id, due_at FROM tables WHERE due_at IS NOT NULL"
            " AND status IN ('lobby', 'playing') ORDER BY due_at, id LIMIT 1"
        )
        return None if row is None else (int(row[0]), float(row[1]))

    async def postpone(self, table_id: int, claimed: float, due_at: float) -> bool:
        """Move a deadline this process `claimed` (`claim`'s `until`) that it could not
        handle to `due_at`, without touching the document (a table whose deadline could not be
        handled must not hold up the others). Only while the claim stands: a change saved
        meanwhile (a click, in another process) set the deadline that counts, and a closed
        table has none. False: nothing moved."""
        async with self._transaction() as db:
            changed = await db.execute(
                "UPDATE tables SET due_at = ? WHERE id = ? AND due_at = ?"
                " AND status IN ('lobby', 'playing')",
                (due_at, table_id, claimed),
            )
        return changed == 1

    async def claim(self, table_id: int, due_at: float, until: float) -> bool:
        """Take the deadline `due_at` of a table to handle it: it moves to `until`, so no other
        process takes it meanwhile, and falls due again then if this one dies before it is
        handled. False: another process took it first (or the table moved on)."""
        async with self._transaction() as db:
            changed = await db.execute(
                "UPDATE tables SET due_at = ? WHERE id = ? AND due_at = ?",
                (until, table_id, due_at),
            )
        return changed == 1

    async def due_before(self, moment: float) -> list[tuple[int, float]]:
        """Open tables whose deadline is before `moment`, earliest first."""
        rows = await self._db.fetchall(
            "SELECT id, due_at FROM tables WHERE due_at < ?"
            " AND status IN ('lobby', 'playing') ORDER BY due_at, id",
            (moment,),
        )
        return [(int(row[0]), float(row[1])) for row in rows]
