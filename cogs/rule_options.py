"""The rule options that /ohhell start and /ohhell settings share, declared once: a command
decorated with `rule_options` offers them as slash options and receives them as one
`RuleOptions`."""

from __future__ import annotations

import dataclasses
import functools
import inspect
import typing
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from typing import Any, TypeVar

from discord import app_commands
from discord.app_commands import locale_str

from bot.service import TURN_TIMERS
from cogs import render


@dataclass(frozen=True)
class RuleOptions:
    """What a command was given of the rule options; None where an option was left out."""

    preset: str | None = None
    max_cards: app_commands.Range[int, 1, 26] | None = None
    sequence: str | None = None
    bidding: str | None = None
    scoring: str | None = None
    trump: str | None = None
    first_lead: str | None = None
    timer: int | None = None

    def rules(self) -> dict[str, object]:
        """The rule settings given (every option but the turn timer)."""
        given = dataclasses.asdict(self)
        del given["timer"]
        return {name: value for name, value in given.items() if value is not None}

    @property
    def empty(self) -> bool:
        return all(value is None for value in dataclasses.asdict(self).values())


HELP = {
    "preset": locale_str("The rule system"),
    "max_cards": locale_str(
        "The most cards dealt in a hand (a smaller number makes a shorter game)"
    ),
    "sequence": locale_str("The order of hand sizes"),
    "bidding": locale_str("How bids are made"),
    "scoring": locale_str("How points are scored"),
    "trump": locale_str("How trump is decided"),
    # Translators: a trick is the game's term (one card from each player, won by one).
    "first_lead": locale_str("Who leads the first trick"),
    "timer": locale_str("Time each player has for a decision (2 min by default)"),
}
"""The rule options' descriptions."""


def choices(field: str) -> list[app_commands.Choice[str]]:
    """A slash option's choices: the values the engine allows for a setting, each named as the
    catalogs word a rule's value, a preset's name among them (cogs/translator.py)."""
    return [
        app_commands.Choice(name=locale_str(v, context="rule value"), value=v)
        for v in render.RULE_CHOICES[field]
    ]


CHOICES: dict[str, list[app_commands.Choice[Any]]] = {
    "preset": choices("preset"),
    **{
        field: choices(field) for field in ("sequence", "bidding", "scoring", "trump", "first_lead")
    },
    "timer": [
        app_commands.Choice(name=locale_str(render.timer_text(t), timer=t), value=t)
        for t in TURN_TIMERS
    ],
}

_FIELDS = typing.get_type_hints(RuleOptions, globals(), {"app_commands": app_commands})
_OPTIONS = [
    inspect.Parameter(field.name, inspect.Parameter.KEYWORD_ONLY, default=None, annotation=kind)
    for field in dataclasses.fields(RuleOptions)
    for kind in [_FIELDS[field.name]]
]
_NAMES = frozenset(option.name for option in _OPTIONS)

Command = TypeVar("Command", bound=Callable[..., Coroutine[Any, Any, None]])


def rule_options(command: Command) -> Command:
    """Give a slash command `(self, interaction, options: RuleOptions, **more)` the rule options
    as slash options, with their help and choices, in front of its own `more`."""
    signature = inspect.signature(command)
    hints = typing.get_type_hints(command)
    own = list(signature.parameters.values())
    first, rest = own[:2], own[3:]  # self and the interaction; after them, `options`
    more = [p.replace(annotation=hints[p.name], kind=inspect.Parameter.KEYWORD_ONLY) for p in rest]

    @functools.wraps(command)
    async def with_options(self: object, interaction: object, **given: Any) -> None:
        options = RuleOptions(**{k: v for k, v in given.items() if k in _NAMES})
        own = {k: v for k, v in given.items() if k not in _NAMES}
        await command(self, interaction, options, **own)

    with_options.__signature__ = signature.replace(  # type: ignore[attr-defined]
        parameters=[*first, *_OPTIONS, *more]
    )
    described = app_commands.describe(**HELP)(with_options)
    return app_commands.choices(**CHOICES)(described)  # type: ignore[return-value]
