"""Persistent buttons and selects. A custom_id carries ids only — never a card someone else
could learn from — and every custom_id is untrusted: it is parsed strictly here and every id
in it is checked again by the service."""

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


_WHOLE_NUMBER = re.compile("[0-9]{1,20}")  # a snowflake has up to 20 digits


def whole_number(text: str | None) -> int | None:
    """A number a custom_id or a select value carries, or None if `text` is not plain ASCII
    digits (``int()`` would accept "²", "٣" or " 7")."""
    if text is None or _WHOLE_NUMBER.fullmatch(text) is None:
        return None
    return int(text)


def on_message(message: discord.Message | None, custom_id: str) -> bool:
    """Whether `custom_id` is a component of `message`. discord.py drops a click whose custom_id
    is not on the message without a word, so a forged one must be answered separately."""
    if message is None:
        return False
    for row in message.components:
        for child in getattr(row, "children", [row]):
            if getattr(child, "custom_id", None) == custom_id:
                return True
    return False


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


# -- pages of lists ---------------------------------------------------------------------------
# Two page-button families, because they carry different state: a list with nothing but its page
# (/ohhell history: ohp:<list>:<page>), and the leaderboard, whose order and preset ride along
# (lb:<prev|next>:<by>:<preset or "all">:<page>). Either way the server is the clicking
# interaction's, never the custom_id's, and every part is untrusted.

PAGE_ID = re.compile(r"ohp:(?P<list>[a-z]{2,12}):(?P<page>[0-9]{1,6})")
PAGE_LISTS = frozenset({"history"})


def page_id(list_name: str, page: int) -> str:
    return f"ohp:{list_name}:{page}"


def parse_page(text: str) -> tuple[str, int] | None:
    """(list, page) of a page button's custom_id, or None for anything else (a page below 1
    included)."""
    match = PAGE_ID.fullmatch(text)
    if match is None or match["list"] not in PAGE_LISTS:
        return None
    page = whole_number(match["page"])
    return None if page is None or page < 1 else (match["list"], page)


class PageHandler(Protocol):
    """What a list's page click is handed to (the client's community commands)."""

    async def on_page(self, interaction: discord.Interaction[Any], custom_id: str) -> None: ...


class HistoryPageButton(ButtonFamily, template=PAGE_ID.pattern):
    """Previous / Next on a page of a list, rebuilt from its custom_id after a restart."""

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        handler: PageHandler = interaction.client.community
        await handler.on_page(interaction, self.item.custom_id or "")


# The leaderboard's family takes any "lb:" id, so a forged one reaches `parse_board` and gets
# "no such page" rather than silence.
BOARD_ID = re.compile(r"lb:[!-~]{1,97}")
_BOARD_PARTS = re.compile(
    r"lb:(?P<dir>prev|next):(?P<by>[a-z_]{1,12}):(?P<preset>[a-z0-9-]{1,24}):(?P<page>[^:]{1,24})"
)
ALL_PRESETS = "all"


@dataclass(frozen=True)
class BoardPage:
    """A parsed leaderboard page button."""

    by: str
    preset: str | None
    page: int


def board_id(direction: str, by: str, preset: str | None, page: int) -> str:
    return f"lb:{direction}:{by}:{preset or ALL_PRESETS}:{page}"


def parse_board(text: str, orders: tuple[str, ...], presets: tuple[str, ...]) -> BoardPage | None:
    """The page a leaderboard button asks for, or None when any part of it is not one the bot
    makes (an unknown order or preset, a page that is not a plain number from 1 to 9999)."""
    match = _BOARD_PARTS.fullmatch(text)
    if match is None or match["by"] not in orders:
        return None
    preset = None if match["preset"] == ALL_PRESETS else match["preset"]
    if preset is not None and preset not in presets:
        return None
    page = whole_number(match["page"])
    if page is None or not 1 <= page <= 9999:
        return None
    return BoardPage(match["by"], preset, page)


class BoardHandler(Protocol):
    """What a leaderboard page click is handed to (the commands cog)."""

    async def on_board_page(
        self, interaction: discord.Interaction[Any], custom_id: str
    ) -> None: ...


class BoardButton(ButtonFamily, template=BOARD_ID.pattern):
    """The leaderboard's Previous and Next buttons, rebuilt from their custom_ids."""

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        handler: BoardHandler = interaction.client.boards
        await handler.on_board_page(interaction, self.item.custom_id or "")


def claimed(text: str) -> bool:
    """Whether a component's custom_id has one of this bot's formats (a table's control, a
    list's page, a leaderboard page)."""
    return (
        parse(text) is not None
        or parse_page(text) is not None
        or BOARD_ID.fullmatch(text) is not None
    )
