"""Persistent buttons and selects, the one place that knows the custom_id formats. A custom_id
carries ids only — never a card someone else could learn from — and every custom_id is
untrusted: it is read strictly here and every id in it is checked again by the service. A
table's controls (cogs/items/table.py), the page buttons of lists (cogs/items/pages.py), and
the confirmation of an erasure (cogs/items/erasure.py)."""

from __future__ import annotations

import discord

from cogs.items.erasure import EraseButton, erase_id, parse_erase
from cogs.items.erasure import claimed as erasure_claimed
from cogs.items.numbers import whole_number
from cogs.items.pages import (
    BOARD_ID,
    BoardButton,
    BoardPage,
    HistoryPageButton,
    board_id,
    page_id,
    parse_board,
    parse_page,
)
from cogs.items.table import (
    FAMILIES,
    CardChoice,
    Control,
    Controller,
    Move,
    card_choice,
    control,
    custom_id,
    family_of,
    play_arg,
    select_id,
)

__all__ = [
    "FAMILIES",
    "BoardButton",
    "BoardPage",
    "CardChoice",
    "Control",
    "Controller",
    "EraseButton",
    "HistoryPageButton",
    "Move",
    "board_id",
    "card_choice",
    "claimed",
    "control",
    "custom_id",
    "erase_id",
    "family_of",
    "on_message",
    "page_id",
    "parse_board",
    "parse_erase",
    "parse_page",
    "play_arg",
    "select_id",
    "whole_number",
]


def claimed(text: str) -> bool:
    """Whether a component's custom_id is one of this bot's families' (a table's control, a
    list's page, a leaderboard page, an erasure's confirmation), which answers it; any other the
    client answers."""
    return (
        family_of(text) is not None
        or parse_page(text) is not None
        or BOARD_ID.fullmatch(text) is not None
        or erasure_claimed(text)
    )


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
