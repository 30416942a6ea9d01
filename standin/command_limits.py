"""What Discord checks of the application commands a bot registers, checked always (the OpenAPI
description has the lengths but not the naming rule, the lower case, or which locales exist):
names, descriptions and choice names, each with its localizations."""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from standin.violations import Violation, subfield
from standin.world import LOCALES

NAME_MAX = 32
TEXT_MAX = 100
"""A description's or a choice's name's characters, and a string choice's value's."""
OPTIONS_MAX = 25
CHOICES_MAX = 25

COMMAND_SIZE_MAX = 8000
"""Characters of a command's names, descriptions and values, its options' and choices'
included, each field counted in its longest localization (or its default, if longer)."""

_CHAT_INPUT = 1
_SUBCOMMAND_TYPES = (1, 2)
_SCRIPTS = ("DEVANAGARI", "THAI")
"""Scripts whose every character a name may hold (their vowel signs are marks, not letters)."""


def name_problem(name: object, *, chat_input: bool = True) -> str | None:
    """Why Discord refuses `name` as a command's or an option's name, or None: 1-32 of
    `^[-_'\\p{L}\\p{N}\\p{sc=Deva}\\p{sc=Thai}]$`, and lower case where a letter has a lower
    case (a user or message command's name may be any 1-32 characters)."""
    if not isinstance(name, str) or not 1 <= len(name) <= NAME_MAX:
        return f"{len(name) if isinstance(name, str) else 'no'} characters; Discord wants 1-32"
    if not chat_input:
        return None
    for char in name:
        if not (char in "-_'" or char.isalnum() or _in_script(char)):
            return f"{name!r} holds {char!r}; a name is letters, numbers, - _ and ' only"
        if char.lower() != char:
            return f"{name!r} is not lower case"
    return None


def _size(item: Mapping[str, Any]) -> int:
    """What a command, option or choice counts toward `COMMAND_SIZE_MAX`."""
    total = 0
    for key in ("name", "description"):
        localized = item.get(f"{key}_localizations")
        texts = [item.get(key), *(localized.values() if isinstance(localized, Mapping) else ())]
        total += max(len(text) if isinstance(text, str) else 0 for text in texts)
    value = item.get("value")
    total += len(value) if isinstance(value, str) else 0
    for key in ("options", "choices"):
        inner = item.get(key)
        if isinstance(inner, list):
            total += sum(_size(i) for i in inner if isinstance(i, Mapping))
    return total


def _in_script(char: str) -> bool:
    return unicodedata.name(char, "").startswith(_SCRIPTS)


class _CommandChecker:
    def __init__(self, route: str) -> None:
        self.route = route
        self.found: list[Violation] = []

    def add(self, field: str, message: str) -> None:
        self.found.append(Violation(self.route, field, message))

    def command(self, command: Mapping[str, Any], at: str) -> None:
        chat_input = command.get("type", _CHAT_INPUT) in (None, _CHAT_INPUT)
        self.name(command, at, chat_input=chat_input)
        if chat_input:
            self.description(command, at)
        elif command.get("description"):
            self.add(subfield(at, "description"), "a user or message command has none")
        self.options(command.get("options"), at)
        total = _size(command)
        if total > COMMAND_SIZE_MAX:
            self.add(
                at,
                f"{total} characters of names, descriptions and values (each field's longest "
                f"localization); Discord allows at most {COMMAND_SIZE_MAX} a command",
            )

    def options(self, options: object, at: str) -> None:
        for option_at, option in self.listed(options, subfield(at, "options"), OPTIONS_MAX):
            self.name(option, option_at)
            self.description(option, option_at)
            self.choices(option.get("choices"), option_at)
            if option.get("type") in _SUBCOMMAND_TYPES:
                self.options(option.get("options"), option_at)

    def choices(self, choices: object, at: str) -> None:
        for choice_at, choice in self.listed(choices, subfield(at, "choices"), CHOICES_MAX):
            self.text(subfield(choice_at, "name"), choice.get("name"))
            self.localizations(choice, "name_localizations", choice_at, self.text)
            value = choice.get("value")
            if isinstance(value, str) and len(value) > TEXT_MAX:
                self.add(subfield(choice_at, "value"), f"{len(value)} characters; at most 100")

    def listed(self, items: object, at: str, most: int) -> Iterator[tuple[str, Mapping[str, Any]]]:
        """The objects of a list of at most `most` (options, choices), with their fields."""
        if not isinstance(items, list):
            return
        if len(items) > most:
            self.add(at, f"{len(items)} of them; Discord allows at most {most}")
        for i, item in enumerate(items):
            if isinstance(item, Mapping):
                yield subfield(at, i), item

    def name(self, item: Mapping[str, Any], at: str, *, chat_input: bool = True) -> None:
        def check(field: str, name: object) -> None:
            problem = name_problem(name, chat_input=chat_input)
            if problem is not None:
                self.add(field, problem)

        check(subfield(at, "name"), item.get("name"))
        self.localizations(item, "name_localizations", at, check)

    def description(self, item: Mapping[str, Any], at: str) -> None:
        self.text(subfield(at, "description"), item.get("description"))
        self.localizations(item, "description_localizations", at, self.text)

    def text(self, field: str, text: object) -> None:
        if not isinstance(text, str) or not 1 <= len(text) <= TEXT_MAX:
            size = len(text) if isinstance(text, str) else "no"
            self.add(field, f"{size} characters; Discord wants 1-{TEXT_MAX}")

    def localizations(
        self, item: Mapping[str, Any], key: str, at: str, check: Callable[[str, object], None]
    ) -> None:
        localized = item.get(key)
        if not isinstance(localized, Mapping):
            return
        at = subfield(at, key)
        for locale, text in localized.items():
            if locale not in LOCALES:
                self.add(subfield(at, str(locale)), f"{locale!r} is not one of Discord's locales")
            else:
                check(subfield(at, str(locale)), text)


def check_commands(route: str, body: object) -> list[Violation]:
    """The commands of a bulk overwrite (a list) or of one create or edit (an object)."""
    checker = _CommandChecker(route)
    if isinstance(body, list):
        for i, command in enumerate(body):
            if isinstance(command, Mapping):
                checker.command(command, subfield("", i))
    elif isinstance(body, Mapping):
        checker.command(body, "")
    return checker.found
