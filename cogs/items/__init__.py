"""Persistent buttons and selects, the one place that knows the custom_id formats. A custom_id
carries ids only — never a card someone else could learn from — and every custom_id is
untrusted: it is parsed strictly here and every id in it is checked again by the service. A
table's controls (cogs/items/table.py), and the page buttons of lists (cogs/items/pages.py)."""

from __future__ import annotations

import discord

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
    CUSTOM_ID,
    SELECT_ID,
    CardChoice,
    Click,
    NotOffered,
    TableButton,
    TableSelect,
    card_choice,
    custom_id,
    parse,
    play_arg,
    select_id,
)

__all__ = [
    "CUSTOM_ID",
    "SELECT_ID",
    "BoardButton",
    "BoardPage",
    "CardChoice",
    "Click",
    "HistoryPageButton",
    "NotOffered",
    "TableButton",
    "TableSelect",
    "board_id",
    "card_choice",
    "claimed",
    "custom_id",
    "on_message",
    "page_id",
    "parse",
    "parse_board",
    "parse_page",
    "play_arg",
    "select_id",
    "whole_number",
]


def claimed(text: str) -> bool:
    """Whether a component's custom_id has one of this bot's formats (a table's control, a
    list's page, a leaderboard page)."""
    return (
        parse(text) is not None
        or parse_page(text) is not None
        or BOARD_ID.fullmatch(text) is not None
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
