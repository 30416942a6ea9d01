"""Deadlines: each open table's next due moment, which the scheduler wakes for."""

from __future__ import annotations

from bot.storage.base import Store


class Deadlines(Store):
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
