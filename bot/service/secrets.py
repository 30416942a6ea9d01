"""The key that signs the web pages' links: WEB_SECRET when the operator set one, or else one
made once and kept in the database, so that every bot process signs and checks alike and a
restart does not break the links already given out."""

from __future__ import annotations

import secrets

from bot import storage
from bot.config import BotSettings

LINK_KEY = "web links"
"""The kept secret's name."""


class LinkKeys:
    def __init__(self, secrets_kept: storage.Secrets, settings: BotSettings | None) -> None:
        self._kept = secrets_kept
        self._settings = settings

    async def link_key(self) -> bytes:
        configured = self._settings.web_secret if self._settings is not None else None
        if configured is not None:
            return configured.get_secret_value().encode()
        made = await self._kept.kept(LINK_KEY, lambda: secrets.token_urlsafe(32))
        return made.encode()
