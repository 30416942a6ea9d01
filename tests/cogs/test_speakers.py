"""Which language a person and a channel read, as a process remembers them."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import discord
import pytest

from bot.service import Refused, TableService
from cogs import speakers
from cogs.render.language import ENGLISH, language
from cogs.speakers import Speakers
from tests.databases import sqlite_only

database_url = sqlite_only


async def test_a_person_reads_the_locale_stored_for_them_and_others_english(
    service: TableService,
) -> None:
    await service.languages.remember_locale(7, "nl")
    await service.languages.remember_locale(8, "zh-CN")  # no catalog: English
    heard = Speakers(discord.Client(intents=discord.Intents.none()), service)
    assert await heard.person(7) is language("nl")
    assert await heard.person(8) is ENGLISH
    assert await heard.person(9) is ENGLISH


async def test_a_process_keeps_a_bounded_number_of_people(
    service: TableService, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(speakers, "PEOPLE_KEPT", 3)
    heard = Speakers(discord.Client(intents=discord.Intents.none()), service)
    for user in range(1, 6):
        await service.languages.remember_locale(user, "de")
        await heard.person(user)
    assert list(heard._people) == [3, 4, 5]
    assert await heard.person(1) is language("de")  # read again from the database


async def test_a_channel_reads_its_setting_until_cleared_and_only_a_manager_sets_it(
    service: TableService,
) -> None:
    heard = Speakers(discord.Client(intents=discord.Intents.none()), service)
    assert await heard.channel(1, 20) is ENGLISH  # no setting, no server known
    with pytest.raises(Refused):
        await heard.set_channel(guild_id=1, channel_id=20, code="fr", can_manage=False)
    await heard.set_channel(guild_id=1, channel_id=20, code="fr", can_manage=True)
    assert await heard.channel(1, 20) is language("fr")
    assert await service.languages.channel_language(20) == "fr"
    await heard.set_channel(guild_id=1, channel_id=20, code=None, can_manage=True)
    heard.forget_channel(20)
    assert await heard.channel(1, 20) is ENGLISH


async def test_a_person_s_language_is_stored_by_an_action_not_by_being_heard(
    service: TableService,
) -> None:
    heard = Speakers(discord.Client(intents=discord.Intents.none()), service)
    interaction: Any = SimpleNamespace(locale=discord.Locale.german, user=SimpleNamespace(id=7))
    assert await heard.hear(interaction) is language("de")
    assert await service.languages.person_locale(7) is None  # read-only, or refused
    await heard.acted(interaction)
    assert await service.languages.person_locale(7) == "de"
    assert await heard.person(7) is language("de")
    await service.db.store.backend.execute("DELETE FROM person_locales")  # as an erasure does
    heard.forget(7)
    assert await heard.person(7) is ENGLISH
    await heard.acted(interaction)  # a new person's first action
    assert await service.languages.person_locale(7) == "de"
