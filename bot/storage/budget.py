"""Discord's global REST limit shared by the bot's processes: one token bucket in the
database, from which each process takes a few calls at a time (PostgreSQL)."""

from __future__ import annotations

from bot.storage.store import Repository

# One statement, so two processes cannot take the same tokens: PostgreSQL re-reads the row
# an UPDATE waited for. SET expressions see the row as it was, so `granted` and `tokens` are
# worked out from the same refill. `now()` is the statement's start: a wait for the row can
# make it older than `at`, hence the GREATEST. A hair under one token counts as one.
_HAVE = "LEAST(?, tokens + GREATEST(0, EXTRACT(EPOCH FROM now()) - at) * ?)"
_GRANTED = f"LEAST(?, FLOOR({_HAVE} + 1e-9))"
_TAKE = (
    f"UPDATE rest_budget SET granted = {_GRANTED}, tokens = {_HAVE} - {_GRANTED},"
    " at = GREATEST(at, EXTRACT(EPOCH FROM now())) WHERE id = 1 RETURNING granted, tokens"
)


class RestBudget(Repository):
    async def take(self, wanted: int, *, rate: float, burst: float) -> tuple[int, float]:
        """Take up to `wanted` calls from the bucket all processes share (`rate` a second, at
        most `burst` saved up): how many were taken, and seconds until the next one is there.
        PostgreSQL only: one process on SQLite keeps its own bucket."""
        async with self._transaction() as db:
            row = await db.fetchone(_TAKE, (wanted, burst, rate, burst, rate, wanted, burst, rate))
        assert row is not None, "the rest_budget row is made by migration 4"
        granted, left = int(row[0]), float(row[1])
        return granted, 0.0 if left >= 1 else max(0.001, (1 - left) / rate)

    async def level(self, *, rate: float, burst: float) -> float:
        """Calls the shared bucket holds now, taking none (metrics). PostgreSQL only."""
        row = await self._db.fetchone(
            f"SELECT {_HAVE} FROM rest_budget WHERE id = 1", (burst, rate)
        )
        assert row is not None, "the rest_budget row is made by migration 4"
        return float(row[0])
