"""Keys the bot keeps for itself, by name: made once by whichever process asks first and the
same for every process sharing the database (the key that signs the web pages' links)."""

from __future__ import annotations

from collections.abc import Callable

from bot.storage.store import Repository


class Secrets(Repository):
    async def kept(self, name: str, make: Callable[[], str]) -> str:
        """The secret stored as `name`; the first call stores `make()` (two processes asking at
        once both get the one stored first)."""
        row = await self._db.fetchone("SELECT value FROM secrets WHERE name = ?", (name,))
        if row is not None:
            return str(row[0])
        async with self._transaction() as db:
            await db.execute(
                "INSERT INTO secrets (name, value, created_at) VALUES (?, ?, ?)"
                " ON CONFLICT (name) DO NOTHING",
                (name, make(), self._clock()),
            )
            row = await db.fetchone("SELECT value FROM secrets WHERE name = ?", (name,))
        assert row is not None
        return str(row[0])
