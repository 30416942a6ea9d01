"""The languages the bot remembers: each person's Discord client language (for the DMs it sends
them unasked) and a channel's language when someone set one (`/ohhell settings language:`)."""

from __future__ import annotations

from bot.storage.store import Repository


class Languages(Repository):
    async def person_locale(self, user_id: int) -> str | None:
        """The Discord locale of the person's last interaction, if the bot has seen one."""
        row = await self._db.fetchone(
            "SELECT locale FROM person_locales WHERE user_id = ?", (user_id,)
        )
        return None if row is None else str(row[0])

    async def remember_person_locale(self, user_id: int, locale: str) -> None:
        async with self._transaction() as db:
            await db.execute(
                "INSERT INTO person_locales (user_id, locale, updated_at) VALUES (?, ?, ?)"
                " ON CONFLICT (user_id) DO UPDATE SET locale = excluded.locale,"
                " updated_at = excluded.updated_at",
                (user_id, locale, self._clock()),
            )

    async def channel_language(self, channel_id: int) -> str | None:
        """The language set for a channel's public messages, if one is."""
        row = await self._db.fetchone(
            "SELECT language FROM channel_languages WHERE channel_id = ?", (channel_id,)
        )
        return None if row is None else str(row[0])

    async def set_channel_language(
        self, *, guild_id: int, channel_id: int, language: str | None
    ) -> None:
        """Store (or, with None, remove) the language of a channel's public messages."""
        async with self._transaction() as db:
            if language is None:
                await db.execute(
                    "DELETE FROM channel_languages WHERE channel_id = ?", (channel_id,)
                )
                return
            await db.execute(
                "INSERT INTO channel_languages (channel_id, guild_id, language, updated_at)"
                " VALUES (?, ?, ?, ?) ON CONFLICT (channel_id) DO UPDATE SET"
                " guild_id = excluded.guild_id, language = excluded.language,"
                " updated_at = excluded.updated_at",
                (channel_id, guild_id, language, self._clock()),
            )
