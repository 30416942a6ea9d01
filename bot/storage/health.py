"""What an operator watches in the database: whether it answers, and the open tables."""

from __future__ import annotations

from bot.storage.base import Store

PHASES = ("lobby", "playing", "paused")


class Health(Store):
    async def answer(self) -> None:
        """One trivial query: raises if the database does not answer."""
        await self._db.fetchone("SELECT 1")

    async def open_tables(self) -> dict[str, int]:
        """Open tables by phase: lobby, playing, or paused (a game the host paused). One
        query over the open tables' rows."""
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
