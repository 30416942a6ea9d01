"""The slash commands in each person's language: discord.py asks `CatalogTranslator` for every
description and choice name in every Discord locale when it syncs, and Discord shows each person
those of their client's language.

Command and option names stay English in every language: help texts, the bot's own messages and
the people of a mixed-language server all name `/ohhell start` and `game:` the same way."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

import discord
from discord import app_commands
from discord.app_commands import TranslationContextLocation, TranslationContextTypes, locale_str

from cogs.render.common import fit, timer_text
from cogs.render.language import Language, language_of, speaking

log = logging.getLogger(__name__)

TEXT_MAX = 100
"""Characters Discord allows in a description or a choice's name, in every language."""

UNTRANSLATED = frozenset(
    {
        TranslationContextLocation.command_name,
        TranslationContextLocation.group_name,
        TranslationContextLocation.parameter_name,
    }
)


def wording(string: locale_str, language: Language) -> str:
    """`string` as `language` words it. A choice may say how in its extras: `context` (the
    catalog's context of its msgid), `timer` (the seconds a timer choice stands for)."""
    extras = string.extras
    if "timer" in extras:
        with speaking(language):
            return timer_text(int(extras["timer"]))
    if "context" in extras:
        return language.pgettext(str(extras["context"]), string.message)
    return language.gettext(string.message)


class CatalogTranslator(app_commands.Translator):
    """Descriptions and choice names from the bot's catalogs (`languages`: the language of a
    Discord locale); None (Discord shows the English) for names, for English, and for what the
    catalog does not translate."""

    def __init__(self, languages: Callable[[discord.Locale], Language] = language_of) -> None:
        self.languages = languages

    async def translate(
        self, string: locale_str, locale: discord.Locale, context: TranslationContextTypes
    ) -> str | None:
        if context.location in UNTRANSLATED:
            return None
        language = self.languages(locale)
        if language.code == "en":
            return None
        text = wording(string, language)
        if text == string.message:
            return None
        if len(text) > TEXT_MAX:
            # Discord would refuse the whole sync: cut it, and say so.
            log.warning("%s's %r is over %d characters", language.code, text, TEXT_MAX)
            return fit(text, TEXT_MAX)
        return text


async def commands_payload(
    tree: app_commands.CommandTree[Any], guild: discord.abc.Snowflake | None = None
) -> list[dict[str, Any]]:
    """What `tree.sync(guild=guild)` sends Discord: the commands with their translations when
    the tree has a translator."""
    commands = tree.get_commands(guild=guild)
    translator = tree.translator
    if translator is None:
        return [command.to_dict(tree) for command in commands]
    return [await command.get_translated_payload(tree, translator) for command in commands]
