"""A table's controls: the custom_id formats of its buttons and selects, their strict parsing,
and the `DynamicItem` button and select that hand their clicks to the table controller."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Protocol, Self

import discord

# Buttons: oh:<kind>:<table>[:<hand>][:<arg>]; selects the same with the prefix "os:".
_TAIL = (
    r":(?P<kind>[a-z]{2,10}):(?P<table>[0-9]{1,12})"
    r"(?::(?P<hand>[0-9]{1,4}))?(?::(?P<arg>[0-9A-Za-z_+-]{1,24}))?"
)
CUSTOM_ID = re.compile("oh" + _TAIL)
SELECT_ID = re.compile("os" + _TAIL)

BUTTON_KINDS = frozenset(
    {
        "join",
        "leave",
        "leaveok",
        "addcpu",
        "rules",
        "start",
        "cancel",
        "cancelok",
        "hand",
        "scores",
        "bid",
        "play",
        "trump",
        "auto",
        "rulepg",
        "back",
        "hostctl",
        "pause",
        "resume",
        "rematch",
    }
)
SELECT_KINDS = frozenset({"cpulevel", "rule", "bidsel", "playsel", "kick", "hostto", "timer"})


@dataclass(frozen=True)
class Click:
    """A parsed custom_id: what was clicked, on which table, for which hand."""

    kind: str
    table_id: int
    hand: int | None
    arg: str | None
    values: tuple[str, ...] = ()
    """A select's chosen values, each one of the options the message offered."""


def custom_id(kind: str, table_id: int, hand: int | None = None, arg: object = None) -> str:
    parts = ["oh", kind, str(table_id)]
    if hand is not None:
        parts.append(str(hand))
    if arg is not None:
        if hand is None:
            parts.append("0")
        parts.append(str(arg))
    return ":".join(parts)


# A play button's arg: the card's id in the game's pack; for a joker led in no trumps, also the
# index of the suit it is named as (0-3: clubs, diamonds, hearts, spades), as <id>-<suit>.
_PLAY_ARG = re.compile(r"(?P<card>[0-9]{1,4})(?:-(?P<suit>[0-3]))?")


@dataclass(frozen=True)
class CardChoice:
    """What a play button stands for: a card by its id, and the suit named for a joker led in
    no trumps (an index into clubs, diamonds, hearts, spades), or None."""

    card_id: int
    suit: int | None = None


def play_arg(card_id: int, suit: int | None = None) -> str:
    """The arg of the play button for the card `card_id` (named as suit index `suit`)."""
    return str(card_id) if suit is None else f"{card_id}-{suit}"


def card_choice(text: str | None) -> CardChoice | None:
    """The card (and named suit) a play button's arg carries, or None for anything else."""
    match = _PLAY_ARG.fullmatch(text) if text is not None else None
    if match is None:
        return None
    suit = match["suit"]
    return CardChoice(int(match["card"]), None if suit is None else int(suit))


class NotOffered(ValueError):
    """A select value the menu never offered (a forged or corrupted click)."""


def parse(
    text: str, values: tuple[str, ...] = (), offered: tuple[str, ...] | None = None
) -> Click | None:
    """The click a custom_id describes, or None for anything that is not one of ours. A
    select's values must be among `offered` (the menu's options), else `NotOffered`."""
    if offered is not None and not set(values) <= set(offered):
        raise NotOffered(values)
    match = CUSTOM_ID.fullmatch(text) or SELECT_ID.fullmatch(text)
    if match is None:
        return None
    kind = match["kind"]
    if kind not in (SELECT_KINDS if text.startswith("os:") else BUTTON_KINDS):
        return None
    hand = int(match["hand"]) if match["hand"] is not None else None
    return Click(kind, int(match["table"]), hand, match["arg"], values)


class ClickHandler(Protocol):
    """What a click is handed to (the client's table controller)."""

    async def on_click(
        self,
        interaction: discord.Interaction[Any],
        custom_id: str,
        values: tuple[str, ...] = (),
        offered: tuple[str, ...] | None = None,
    ) -> None: ...


def _controller(interaction: discord.Interaction[Any]) -> ClickHandler:
    handler: ClickHandler = interaction.client.tables
    return handler


class ButtonFamily(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"(?!)"):
    """A family of buttons rebuilt from the clicked button itself. Never registered: each family
    below names its own template (this one matches nothing)."""

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> Self:
        if not isinstance(item, discord.ui.Button):
            raise TypeError("not a button")
        return cls(item)


class TableButton(ButtonFamily, template=CUSTOM_ID.pattern):
    """Every button of the game, rebuilt from its custom_id after a restart."""

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await _controller(interaction).on_click(interaction, self.item.custom_id or "")


class TableSelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=SELECT_ID.pattern):
    """Every select of the game (rules editor, computer level, big hands)."""

    def __init__(self, select: discord.ui.Select[Any]) -> None:
        super().__init__(select)

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
    ) -> TableSelect:
        if not isinstance(item, discord.ui.Select):
            raise TypeError("not a select")
        return cls(item)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        # discord.py rebuilt this select from the clicked message: its options are what the
        # person was offered.
        offered = tuple(option.value for option in self.item.options)
        await _controller(interaction).on_click(
            interaction, self.item.custom_id or "", tuple(self.item.values), offered
        )


def select_id(kind: str, table_id: int, hand: int | None = None, arg: object = None) -> str:
    return "os" + custom_id(kind, table_id, hand, arg)[2:]
