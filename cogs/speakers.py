"""Who reads which language. A private reply, a hand DM or an ephemeral hand: the person's own
client language (`interaction.locale`; remembered from their last action, for the DMs the bot
sends unasked). A table message and the channel's posts: the channel's language when someone
set one (`/ohhell settings language:`), else the server's (`preferred_locale`), else English."""

from __future__ import annotations

import logging

import discord

from bot.service import TableService
from cogs.interaction import Interaction
from cogs.render.language import ENGLISH, Language, language, language_of, speak

log = logging.getLogger(__name__)

PEOPLE_KEPT = 10_000
"""People whose language this process keeps in memory; the longest unseen is read again from
the database when it is needed."""


class Speakers:
    """The languages this process knows: what each person's client spoke last and each
    channel's setting, read from the database once and kept (a channel's until its table
    closes). Another process's change reaches this one when the person next uses it here, or
    the channel's next table."""

    def __init__(self, bot: discord.Client, service: TableService) -> None:
        self.bot = bot
        self.service = service
        self._people: dict[int, str | None] = {}
        self._channels: dict[int, str | None] = {}

    async def hear(self, interaction: Interaction) -> Language:
        """Speak the person's language for the rest of this interaction's handling. Nothing is
        stored: a refused click, a forged one or a command that only reads stores nothing of
        the person (`acted` does, for an action)."""
        spoken = language_of(str(interaction.locale.value))
        speak(spoken)
        return spoken

    async def acted(self, interaction: Interaction) -> None:
        """The person's interaction changed something stored (a table's click the bot took,
        `/ohhell start`, `/ohhell settings`): remember their client language for the DMs sent
        them later, when it is not the one this process last stored or read for them. A
        database that cannot take it loses nothing the person asked for."""
        locale = str(interaction.locale.value)
        user_id = interaction.user.id
        if self._people.get(user_id) == locale:
            return
        try:
            await self.service.languages.remember_locale(user_id, locale)
            self._keep(user_id, locale)
        except Exception:
            log.warning("could not remember the locale of user %s", user_id, exc_info=True)

    def forget(self, user_id: int) -> None:
        """The person erased themselves: this process keeps nothing of theirs either, so their
        next action stores their language again, as a new person's."""
        self._people.pop(user_id, None)

    async def person(self, user_id: int) -> Language:
        """The language of a DM the bot sends unasked: the person's last client language."""
        if user_id not in self._people:
            self._keep(user_id, await self.service.languages.person_locale(user_id))
        locale = self._people[user_id]
        return ENGLISH if locale is None else language_of(locale)

    def _keep(self, user_id: int, locale: str | None) -> None:
        self._people.pop(user_id, None)  # to the end: the most recently seen
        self._people[user_id] = locale
        if len(self._people) > PEOPLE_KEPT:
            del self._people[next(iter(self._people))]

    async def channel(self, guild_id: int | None, channel_id: int) -> Language:
        """The language of a channel's public messages (`guild_id` None: the channel's server
        as this process knows it)."""
        code = await self.channel_setting(channel_id)
        if code is not None:
            return language(code)
        if guild_id is None:
            channel = self.bot.get_channel(channel_id)
            guild_id = getattr(getattr(channel, "guild", None), "id", None)
        return ENGLISH if guild_id is None else self.server(guild_id)

    async def channel_setting(self, channel_id: int) -> str | None:
        """The language set for the channel (`/ohhell settings language:`), if one is."""
        if channel_id not in self._channels:
            self._channels[channel_id] = await self.service.languages.channel_language(channel_id)
        return self._channels[channel_id]

    def server(self, guild_id: int) -> Language:
        """The server's language (its Community locale), English for one this process does not
        know."""
        guild = self.bot.get_guild(guild_id)
        return ENGLISH if guild is None else language_of(guild.preferred_locale)

    async def set_channel(
        self, *, guild_id: int, channel_id: int, code: str | None, can_manage: bool
    ) -> None:
        await self.service.languages.set_channel_language(
            guild_id=guild_id, channel_id=channel_id, language=code, can_manage=can_manage
        )
        self._channels[channel_id] = code

    def forget_channel(self, channel_id: int) -> None:
        """The channel's table closed: its setting is read again for the next one."""
        self._channels.pop(channel_id, None)
