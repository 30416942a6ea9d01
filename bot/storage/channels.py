"""Per-channel defaults for /ohhell start."""

from __future__ import annotations

import json
from typing import Any

from bot.storage.rows import ChannelDefaults, CorruptRow, dumps
from bot.storage.store import Repository


class Channels(Repository):
    async def defaults(self, channel_id: int) -> ChannelDefaults | None:
        row = await self._db.fetchone(
            "SELECT settings, set_by, updated_at FROM channel_defaults WHERE channel_id = ?",
            (channel_id,),
        )
        if row is None:
            return None
        try:
            settings = json.loads(row[0])
        except ValueError as error:
            raise CorruptRow(f"the defaults of channel {channel_id} could not be read") from error
        if not isinstance(settings, dict):
            raise CorruptRow(f"the defaults of channel {channel_id} are not an object")
        return ChannelDefaults(channel_id, settings, int(row[1]), float(row[2]))

    async def set_defaults(
        self, *, guild_id: int, channel_id: int, settings: dict[str, Any] | None, set_by: int
    ) -> None:
        """Store (or, with None, remove) the defaults /ohhell start uses in a channel."""
        async with self._transaction() as db:
            if settings is None:
                await db.execute("DELETE FROM channel_defaults WHERE channel_id = ?", (channel_id,))
                return
            await db.execute(
                "INSERT INTO channel_defaults (channel_id, guild_id, settings, set_by, updated_at)"
                " VALUES (?, ?, ?, ?, ?) ON CONFLICT (channel_id) DO UPDATE SET"
                " guild_id = excluded.guild_id, settings = excluded.settings,"
                " set_by = excluded.set_by, updated_at = excluded.updated_at",
                (channel_id, guild_id, dumps(settings), set_by, self._clock()),
            )
