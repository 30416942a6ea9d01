"""What a person reads about their data: the copy `/ohhell my-data` sends, the confirmation of
`/ohhell forget-me` and its answer, and the name a former player's seat takes."""

from __future__ import annotations

import discord

from bot.service.my_data import DataExport
from bot.service.privacy import ErasureOffer, Forgotten
from cogs.items import EraseButton, erase_id
from cogs.render.common import Rendered, name_text, relative_time
from cogs.render.language import _, ngettext, number

MY_DATA_FILE = "ohhell-my-data.json"
MY_DATA_ZIP = "ohhell-my-data.zip"


def former_player(number: int) -> str:
    """The name a seat takes once its person is erased: "Former player 1"."""
    return f"Former player {number}"


def my_data_text(export: DataExport, *, zipped: bool) -> str:
    games = ngettext("{count} game", "{count} games", export.games)
    servers = ngettext("{count} server", "{count} servers", export.servers)
    # Translators: {games} is a number of games, e.g. "3 games"; {servers} a number of
    # servers, e.g. "1 server".
    text = _(
        "Everything this bot stores about you ({games}, {servers}), as JSON: your results, "
        "ratings and their history, the games you played (a finished game as its record, one "
        "still open as your own moves only), the channel defaults you set."
    ).format(
        games=games.format(count=number(export.games)),
        servers=servers.format(count=number(export.servers)),
    )
    sentences = [text]
    if zipped:
        sentences.append(_("It is zipped to fit Discord's file size."))
    sentences.append(_("/ohhell forget-me erases all of it."))
    return " ".join(sentences)


def erasure_confirm(offer: ErasureOffer) -> Rendered:
    view = discord.ui.View(timeout=None)
    view.add_item(
        EraseButton(
            discord.ui.Button(
                # Translators: a button label (at most 80 characters).
                label=_("Erase everything about me")[:80],
                custom_id=erase_id(offer.token),
                style=discord.ButtonStyle.danger,
            )
        )
    )
    # Translators: {example} is the name an erased player's seat takes, e.g. "Former player 1".
    seat = _(
        'In the games you played, your seat becomes a former player ("{example}") with no '
        "link to you, so the others' games, records and scores stay as they were. Their "
        "ratings are not worked out again."
    )
    # Translators: {time} counts down to the moment the button stops working, e.g. "in 10
    # minutes" (Discord writes it in the reader's language).
    last = _(
        "**This cannot be undone.** For a copy first, use /ohhell my-data. The button stops "
        "working {time}; dismiss this message to keep everything."
    )
    points = [
        _("Your results, ratings and rating history go; leaderboards and stats stop showing you."),
        seat.format(example=name_text(former_player(1))),
        _("At a table still open you leave first, and a computer player takes your seat."),
        _("Messages already posted in channels stay as Discord keeps them."),
        _(
            "Your sign-ins at the bot's web pages (the Activity, or a browser logged in with "
            "Discord) end at once: a page you have open stops playing for you."
        ),
    ]
    lines = [
        _("**Erase everything this bot stores about you, in every server?**"),
        *(f"- {point}" for point in points),
        last.format(time=relative_time(offer.until)),
    ]
    return Rendered("\n".join(lines), None, view)


def forgotten_text(forgotten: Forgotten) -> str:
    tables = ngettext(
        "{count} table no longer names you",
        "{count} tables no longer name you",
        forgotten.tables,
    )
    rows = ngettext(
        "{count} row of results and ratings deleted",
        "{count} rows of results and ratings deleted",
        forgotten.rows,
    )
    # Translators: {tables} is e.g. "2 tables no longer name you"; {rows} e.g. "14 rows of
    # results and ratings deleted".
    text = _(
        "Done: everything this bot stored about you is erased ({tables}; {rows}). If you play "
        "again, that is stored anew."
    )
    return text.format(
        tables=tables.format(count=number(forgotten.tables)),
        rows=rows.format(count=number(forgotten.rows)),
    )
