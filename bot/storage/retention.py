"""Servers the bot left: when it left each (`servers_left`), and the erasure of everything a
server has once the bot has been gone long enough. A server the bot is added back to before
then is unmarked and keeps everything."""

from __future__ import annotations

from bot.storage.catalog import read_tables
from bot.storage.connection import quoted
from bot.storage.erasure import settle_erased
from bot.storage.store import Repository


class Retention(Repository):
    async def mark_left(self, guild_id: int, at: float) -> None:
        """The bot left the server at `at` (a server marked already keeps its first time)."""
        async with self._transaction() as db:
            await db.execute(
                "INSERT INTO servers_left (guild_id, left_at) VALUES (?, ?)"
                " ON CONFLICT (guild_id) DO NOTHING",
                (guild_id, at),
            )

    async def mark_back(self, guild_id: int) -> bool:
        """The bot is in the server (again): whether it had been marked as left."""
        async with self._transaction() as db:
            return bool(
                await db.execute("DELETE FROM servers_left WHERE guild_id = ?", (guild_id,))
            )

    async def servers_left(self, before: float | None = None) -> dict[int, float]:
        """The servers marked as left (at or before `before`, when given): when each was."""
        rows = await self._db.fetchall(
            "SELECT guild_id, left_at FROM servers_left"
            + ("" if before is None else " WHERE left_at <= ?")
            + " ORDER BY guild_id",
            () if before is None else (before,),
        )
        return {int(guild): float(at) for guild, at in rows}

    async def servers_with_data(self) -> set[int]:
        """Every server something is stored for (any table with a `guild_id` column)."""
        found: set[int] = set()
        for shape in await read_tables(self._db):
            if "guild_id" in shape.columns and shape.name != "servers_left":
                rows = await self._db.fetchall(
                    f"SELECT DISTINCT guild_id FROM {quoted(shape.name)}"
                )
                found.update(int(row[0]) for row in rows)
        return found

    async def erase_server(self, guild_id: int, left_before: float) -> int | None:
        """Everything stored for a server the bot left at or before `left_before`, in one
        transaction: every row of a table with a `guild_id` column, and every row of a table
        with a `table_id` column that belongs to one of its tables (their event logs) — read
        from the live schema, so a table a later migration adds goes too. How many rows went;
        None, changing nothing, when the server is not (or no longer) marked that long."""
        async with self._transaction() as db:
            marked = await db.fetchone(
                "DELETE FROM servers_left WHERE guild_id = ? AND left_at <= ? RETURNING guild_id",
                (guild_id, left_before),
            )
            if marked is None:
                return None
            shapes = await read_tables(db)
            erased = 0
            # A table's event log (and any row known by its table alone) before the tables
            # that name the server, `tables` itself last: what points at a table goes first.
            for shape in shapes:
                if "table_id" in shape.columns and "guild_id" not in shape.columns:
                    erased += await db.execute(
                        f"DELETE FROM {quoted(shape.name)} WHERE table_id IN"
                        " (SELECT id FROM tables WHERE guild_id = ?)",
                        (guild_id,),
                    )
            for shape in sorted(shapes, key=lambda shape: shape.name == "tables"):
                if "guild_id" in shape.columns:
                    erased += await db.execute(
                        f"DELETE FROM {quoted(shape.name)} WHERE guild_id = ?", (guild_id,)
                    )
        await settle_erased(self._db)
        return erased
