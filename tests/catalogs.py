"""Catalogs that translate every message, for tests that must see which texts reach the
catalogs (the real catalogs may not translate a text yet, or not exist)."""

from __future__ import annotations

import gettext
from collections.abc import Callable

import discord
from babel import Locale

from cogs.render.language import ENGLISH, Language


def wrapped(message: str) -> str:
    """What the wrapping catalog makes of `message`."""
    return f"«{message}»"


class Rewriting(gettext.NullTranslations):
    """A catalog that gives every message as `rewrite` makes it (in the plural form English
    chooses)."""

    def __init__(self, rewrite: Callable[[str], str]) -> None:
        super().__init__()
        self.rewrite = rewrite

    def gettext(self, message: str) -> str:
        return self.rewrite(message)

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        return self.rewrite(msgid1 if n == 1 else msgid2)

    def pgettext(self, context: str, message: str) -> str:
        return self.rewrite(message)

    def npgettext(self, context: str, msgid1: str, msgid2: str, n: int) -> str:
        return self.rewrite(msgid1 if n == 1 else msgid2)


WRAPPING = Language("wrapping", Rewriting(wrapped), Locale("fr"))
"""A language whose catalog translates everything (with French numbers)."""


def wrapping_everywhere(locale: discord.Locale) -> Language:
    """English for Discord's English locales, the wrapping language for every other one."""
    return ENGLISH if is_english(locale) else WRAPPING


def is_english(locale: discord.Locale) -> bool:
    return locale.value.startswith("en-")
