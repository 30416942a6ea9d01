"""The slash commands last synced with Discord, as a digest of their JSON: syncing is
rate-limited and needed only when the commands changed."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from bot.storage.store import Repository


class CommandSyncs(Repository):
    async def sync_when_changed(
        self,
        application_id: int,
        scope: int,
        digest: str,
        sync: Callable[[], Awaitable[object]],
    ) -> bool:
        """Call `sync` unless `digest` is what was last synced for this application and scope
        (a guild's id, or 0 for global commands), then store it; whether it was called. One
        process at a time: another starting at once waits for the lock, then finds the digest
        stored. A sync that fails stores nothing."""
        async with self._transaction() as db:
            await db.lock("command_syncs", 0)
            row = await db.fetchone(
                "SELECT digest FROM command_syncs WHERE application_id = ? AND scope = ?",
                (application_id, scope),
            )
            if row is not None and row[0] == digest:
                return False
            await sync()
            await db.execute(
                "INSERT INTO command_syncs (application_id, scope, digest, synced_at)"
                " VALUES (?, ?, ?, ?) ON CONFLICT (application_id, scope) DO UPDATE SET"
                " digest = excluded.digest, synced_at = excluded.synced_at",
                (application_id, scope, digest, self._clock()),
            )
        return True

    async def forget(self) -> None:
        """Forget what was synced: the next check syncs whatever the digest."""
        async with self._transaction() as db:
            await db.execute("DELETE FROM command_syncs")
