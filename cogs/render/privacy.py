"""What a person reads about their data: the copy `/ohhell my-data` sends, the confirmation of
`/ohhell forget-me` and its answer, and the name a former player's seat takes."""

from __future__ import annotations

import discord

from bot.service.my_data import DataExport
from bot.service.privacy import ErasureOffer, Forgotten
from cogs.items import EraseButton, erase_id
from cogs.render.common import Rendered, relative_time

MY_DATA_FILE = "ohhell-my-data.json"
MY_DATA_ZIP = "ohhell-my-data.zip"


def former_player(number: int) -> str:
    """The name a seat takes once its person is erased: "Former player 1"."""
    return f"Former player {number}"


def my_data_text(export: DataExport, *, zipped: bool) -> str:
    games = f"{export.games} game{'s' if export.games != 1 else ''}"
    servers = f"{export.servers} server{'s' if export.servers != 1 else ''}"
    text = (
        f"Everything this bot stores about you ({games}, {servers}), as JSON: your results, "
        "ratings and their history, the games you played (a finished game as its record, one "
        "still open as your own moves only), the channel defaults you set."
    )
    if zipped:
        text += " It is zipped to fit Discord's file size."
    return text + " /ohhell forget-me erases all of it."


def erasure_confirm(offer: ErasureOffer) -> Rendered:
    view = discord.ui.View(timeout=None)
    view.add_item(
        EraseButton(
            discord.ui.Button(
                label="Erase everything about me",
                custom_id=erase_id(offer.token),
                style=discord.ButtonStyle.danger,
            )
        )
    )
    text = (
        "**Erase everything this bot stores about you, in every server?**\n"
        "- Your results, ratings and rating history go; leaderboards and stats stop showing you.\n"
        '- In the games you played, your seat becomes a former player ("Former player 1") '
        "with no link to you, so the others' games, records and scores stay as they were. "
        "Their ratings are not worked out again.\n"
        "- At a table still open you leave first, and a computer player takes your seat.\n"
        "- Messages already posted in channels stay as Discord keeps them.\n"
        "**This cannot be undone.** For a copy first, use /ohhell my-data. "
        f"The button works until {relative_time(offer.until)}; dismiss this message to keep "
        "everything."
    )
    return Rendered(text, None, view)


def forgotten_text(forgotten: Forgotten) -> str:
    tables = f"{forgotten.tables} table{'s' if forgotten.tables != 1 else ''}"
    return (
        f"Done: everything this bot stored about you is erased ({tables} no longer name you; "
        f"{forgotten.rows} rows of results and ratings deleted). If you play again, that is "
        "stored anew."
    )
