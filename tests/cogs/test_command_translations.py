"""The slash commands as discord.py syncs them, in every Discord locale: within Discord's rules
whatever the catalogs say, every description and choice name reaching the catalogs (and
marked for extraction), names never translated."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import discord
import pytest
from babel import Locale
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.frontend import parse_keywords
from discord import app_commands
from discord.app_commands import TranslationContext, TranslationContextLocation, locale_str

from bot.app import build
from bot.config import BotSettings
from bot.engine import PRESETS, Settings
from bot.service.document import TURN_TIMERS
from cogs import render
from cogs.render.language import (
    DISCORD_LOCALES,
    Language,
    language,
    language_of,
    pgettext,
    speaking,
)
from cogs.render.lobby import value_text
from cogs.translator import TEXT_MAX, CatalogTranslator, commands_payload
from standin.command_limits import check_commands
from tests.catalogs import Rewriting, is_english, wrapped, wrapping_everywhere
from tests.cogs.renders import a_table
from tools.catalogs import KEYWORDS, translated_languages

ROOT = Path(__file__).resolve().parents[2]
ROUTE = "PUT /applications/{application_id}/commands"
TRANSLATED = [locale.value for locale in discord.Locale if not is_english(locale)]


@pytest.fixture
async def tree(tmp_path: Path) -> AsyncIterator[app_commands.CommandTree[Any]]:
    """The bot's commands with its translator, as it syncs them (not logged in)."""
    settings = BotSettings(
        discord_token="test",
        database_url=f"sqlite:///{tmp_path / 'ohhell.sqlite3'}",
        _env_file=None,
        dev_guild_id=None,
    )
    bot, database, _ = await build(settings, workers=0)
    try:
        async with bot:
            await bot.add_commands()
            yield bot.tree
    finally:
        await database.close()


def described(items: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    """Every command, subcommand and option of `items`, depth first."""
    for item in items:
        yield item
        yield from described(item.get("options") or [])


def choices(payload: list[dict[str, Any]]) -> Iterator[tuple[dict[str, Any], dict[str, Any]]]:
    """Every (option, choice)."""
    for option in described(payload):
        for choice in option.get("choices") or []:
            yield option, choice


async def test_every_locale_is_within_discords_rules_with_the_bots_catalogs(
    tree: app_commands.CommandTree[Any], caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.WARNING, logger="cogs.translator"):
        payload = await commands_payload(tree)
    # Names lower case of letters, numbers, - and _; descriptions and choice names 1-100
    # characters; each localization likewise, keyed by one of Discord's locales.
    assert check_commands(ROUTE, payload) == []
    assert not caplog.records, "a catalog's translation had to be cut to Discord's limit"
    for item in described(payload):
        assert not item.get("name_localizations"), item["name"]
        for locale in item.get("description_localizations") or {}:
            assert language_of(locale).code != "en", (item["name"], locale)


async def test_a_catalog_that_translates_everything_localises_every_description_and_choice(
    tree: app_commands.CommandTree[Any],
) -> None:
    await tree.set_translator(CatalogTranslator(wrapping_everywhere))
    payload = await commands_payload(tree)
    assert check_commands(ROUTE, payload) == []
    items = list(described(payload))
    assert len(items) > 30
    for item in items:
        assert not item.get("name_localizations"), f"{item['name']}: names stay English"
        expected = {locale: wrapped(item["description"]) for locale in TRANSLATED}
        assert item.get("description_localizations") == expected, item["name"]
    offered = [(option, choice) for option, choice in choices(payload) if option["name"] != "timer"]
    assert {option["name"] for option, _ in offered} >= {"preset", "bidding", "trump", "by"}
    for option, choice in offered:
        expected = {locale: wrapped(choice["name"]) for locale in TRANSLATED}
        assert choice.get("name_localizations") == expected, (option["name"], choice["name"])


async def test_timer_choices_are_worded_in_the_language(
    tree: app_commands.CommandTree[Any],
) -> None:
    await tree.set_translator(CatalogTranslator(wrapping_everywhere))
    payload = await commands_payload(tree)
    timers = [choice for option, choice in choices(payload) if option["name"] == "timer"]
    assert [choice["value"] for choice in timers] == list(TURN_TIMERS) * 2  # start, settings
    for choice in timers:
        assert set(choice.get("name_localizations") or {}) == set(TRANSLATED), choice["name"]


def extracted() -> set[tuple[str | None, str]]:
    """(context, msgid) of every message `make catalogs` extracts from cogs/, with the keywords
    tools/catalogs.py gives pybabel."""
    assert "locale_str" in KEYWORDS
    keywords = {**DEFAULT_KEYWORDS, **parse_keywords(list(KEYWORDS))}
    found = extract_from_dir(ROOT / "cogs", keywords=keywords)
    return {(context, message) for _, _, message, _, context in found if isinstance(message, str)}


async def test_every_description_is_marked_for_the_catalogs(
    tree: app_commands.CommandTree[Any],
) -> None:
    messages = extracted()
    missing = [
        item["description"]
        for item in described(await commands_payload(tree))
        if (None, item["description"]) not in messages
    ]
    assert missing == []


def where(location: TranslationContextLocation) -> Any:
    """A translation context at `location` (discord.py's overloads want its data typed)."""
    return TranslationContext(location, None)  # type: ignore[call-overload]


async def test_a_translation_past_discords_limit_is_cut_and_logged(
    caplog: pytest.LogCaptureFixture,
) -> None:
    def verbose_words(message: str) -> str:
        return message + " (in other words, " + message + ")" * 3

    verbose = Language("verbose", Rewriting(verbose_words), Locale("de"))
    translator = CatalogTranslator(lambda locale: verbose)
    context = where(TranslationContextLocation.parameter_description)
    text = "Time each player has for a decision (2 min by default)"
    with caplog.at_level(logging.WARNING, logger="cogs.translator"):
        cut = await translator.translate(locale_str(text), discord.Locale.german, context)
    assert cut is not None and len(cut) == TEXT_MAX and cut.endswith("…")
    assert cut.startswith(text + " (in other words")
    assert "over 100 characters" in caplog.text


async def test_english_names_and_untranslated_texts_are_left_to_discord() -> None:
    translator = CatalogTranslator(wrapping_everywhere)
    name = where(TranslationContextLocation.command_name)
    description = where(TranslationContextLocation.command_description)
    start = locale_str("start")
    assert await translator.translate(start, discord.Locale.dutch, name) is None
    assert await translator.translate(start, discord.Locale.american_english, description) is None
    assert await translator.translate(start, discord.Locale.dutch, description) == "«start»"
    # The real catalogs: a text no catalog holds reads English in every locale.
    for locale in discord.Locale:
        unknown = locale_str("no catalog holds this text")
        assert await CatalogTranslator().translate(unknown, locale, description) is None


GAME_NAMES = frozenset({"oh-hell", "oh-shit"})
"""Presets named after the game itself, written in every language as the bot's name is. Every
other preset's name is a word, translated (each catalog's GLOSSARY.md says so)."""
SAME_WORD = frozenset({("fr", "nomination"), ("nl", "oh-shit-half")})
"""A preset's name that a language writes as English does."""


async def test_a_presets_name_is_one_translated_word_wherever_it_is_shown(
    tree: app_commands.CommandTree[Any],
) -> None:
    """The table's title, /ohhell rules and /ohhell start's choices name a preset alike, in the
    language's word for it; the Host button is translated too."""
    payload = await commands_payload(tree)
    start = next(item for item in described(payload) if item["name"] == "start")
    offered = next(option for option in start["options"] if option["name"] == "preset")
    assert [choice["value"] for choice in offered["choices"]] == list(PRESETS)
    for choice in offered["choices"]:
        preset = choice["value"]
        localized = choice.get("name_localizations") or {}
        for code in translated_languages():
            with speaking(language(code)):
                name = value_text(preset)
                table = a_table(preset=preset, settings=Settings(preset=preset))
                title = render.table_message(table).embed
                rules = render.rules_reply(table)
                host = pgettext("button", "Host")
            assert title is not None and name in str(title.title), (code, preset)
            assert f"**{name}**" in rules, (code, preset)
            assert host != "Host", code
            locales = [locale for locale, spoken in DISCORD_LOCALES.items() if spoken == code]
            if preset in GAME_NAMES or (code, preset) in SAME_WORD:
                assert name == preset and not set(locales) & set(localized), (code, preset)
            else:
                assert name != preset, f"{code} leaves the preset {preset} in English"
                assert {localized[locale] for locale in locales} == {name}, (code, preset)
