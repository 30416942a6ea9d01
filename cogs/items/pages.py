"""Page buttons of lists, in two families because they carry different state: a list with
nothing but its page (/ohhell history: ohp:<list>:<page>), and the leaderboard, whose order and
preset ride along (lb:<prev|next>:<by>:<preset or "all">:<page>). Either way the server is the
clicking interaction's, never the custom_id's, and every part is untrusted."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Protocol, Self

import discord

from cogs.interaction import Interaction, of_the_bot
from cogs.items.numbers import whole_number


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

    async def on_page(self, interaction: Interaction, custom_id: str) -> None: ...


class HistoryPageButton(ButtonFamily, template=PAGE_ID.pattern):
    """Previous / Next on a page of a list, rebuilt from its custom_id after a restart."""

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        ours = of_the_bot(interaction)
        handler: PageHandler = ours.client.community
        await handler.on_page(ours, self.item.custom_id or "")


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

    async def on_board_page(self, interaction: Interaction, custom_id: str) -> None: ...


class BoardButton(ButtonFamily, template=BOARD_ID.pattern):
    """The leaderboard's Previous and Next buttons, rebuilt from their custom_ids."""

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        ours = of_the_bot(interaction)
        handler: BoardHandler = ours.client.boards
        await handler.on_board_page(ours, self.item.custom_id or "")
