"""What the bot remembers of languages: each person's client language (the DMs it sends them
unasked are written in it) and the language a channel's public messages are set to."""

from __future__ import annotations

from bot import storage
from bot.service.errors import Refused
from bot.service.refusals import ManageChannels
from bot.service.session import Session

LOCALE_LENGTH = 16
"""The longest locale text kept (Discord's are at most 6 characters: `es-419`)."""


class Languages:
    def __init__(self, session: Session, languages: storage.Languages) -> None:
        self.session = session
        self._languages = languages

    async def person_locale(self, user_id: int) -> str | None:
        return await self._languages.person_locale(user_id)

    async def remember_locale(self, user_id: int, locale: str) -> None:
        """The locale of the person's interaction, as Discord gave it (an unknown one is kept
        too: it reads English, and a catalog added later reads it)."""
        await self._languages.remember_person_locale(user_id, locale[:LOCALE_LENGTH])

    async def channel_language(self, channel_id: int) -> str | None:
        return await self._languages.channel_language(channel_id)

    async def set_channel_language(
        self, *, guild_id: int, channel_id: int, language: str | None, can_manage: bool
    ) -> None:
        """Set (None: clear) the language of a channel's public messages. Manage Channels
        only, as the channel's defaults."""
        if not can_manage:
            raise Refused(ManageChannels())
        await self._languages.set_channel_language(
            guild_id=guild_id, channel_id=channel_id, language=language
        )
