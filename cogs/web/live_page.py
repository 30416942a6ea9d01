"""The live table's page (`/t/<link>`): the felt with its seats around it, the trump and the
trick in the middle, the last trick on demand and the scores, every word in the language being
spoken. The page is a frame: its script (static/table.js) fills it from the pushes at the
page's events address, the first of which comes at once, and puts every value in as text."""

from __future__ import annotations

import json
from html import escape

from bot.service import TableView
from cogs.render.language import FACES, _, pgettext, spoken
from cogs.web.assets import asset_url
from cogs.web.live import plain, title_text


def _attribute(value: object) -> str:
    return escape(json.dumps(value, ensure_ascii=False, separators=(",", ":")))


def seat_words() -> dict[str, str]:
    """The words of a person's own seat at the page (the rest come with their hand)."""
    return {
        "leave": pgettext("button", "Leave"),
        "leave_question": plain(
            _(
                "Leave the game? A computer player takes your seat, cards and score, and the "
                "game counts for you as left unless you come back with **I'm back**."
            )
        ),
        "yes_leave": pgettext("button", "Yes, leave"),
        # Translators: the table page: the button that closes the question "Leave the game?".
        "stay": pgettext("button", "No, stay"),
        "back": pgettext("button", "I'm back"),
        "bid": _("Your bid"),
        "trump": _("You bid highest: choose trump"),
        "cards": _("Cards"),
    }


def live_page(
    table: TableView,
    events: str,
    *,
    seat: str | None = None,
    login: str | None = None,
    discord: bool = False,
    application_id: int = 0,
) -> str:
    """The page's HTML, in the language being spoken; `events` is its pushes' address. With
    sign-in on: `seat` is the address of a signed-in person's own stream (its moves go to its
    sibling `act`), `login` the plain browser's "Log in with Discord" link, and `discord` says
    the page is inside Discord's client (the Activity), which loads Discord's SDK."""
    title = title_text(table)
    ranks = {face: spoken().rank(face) for face in FACES}
    words = {
        # Translators: the live page: the chip beside the dealer's name.
        "dealer": pgettext("table page", "Dealer"),
        # Translators: the live page, read out beside the player whose turn it is.
        "turn": pgettext("table page", "Their turn"),
        # Translators: the live page: the turn timer's label, read out.
        "time": _("Time left"),
    }
    # Translators: the live page, while its connection to the bot is lost and being made again.
    reconnecting = _("Reconnecting…")
    # Translators: the live page: the button that shows the trick before the one being played.
    last = pgettext("button", "Last trick")
    signing = ""
    scripts = f'<script src="{asset_url("table.js")}"></script>'
    joining = ""
    if seat is not None:
        act = seat.removesuffix("/seat") + "/act"
        signing = (
            f' data-seat="{escape(seat)}" data-act="{escape(act)}"'
            f' data-seat-words="{_attribute(seat_words())}"'
            f' data-client-id="{application_id}"'
            f' data-signed-in="{escape(_("Signed in as {name}."))}"'
        )
        sdk = f'<script src="{asset_url("discord-sdk.js")}"></script>' if discord else ""
        scripts = (
            f'{sdk}<script src="{asset_url("session.js")}"></script>'
            f'<script src="{asset_url("seat.js")}"></script>{scripts}'
        )
        joining = '<p id="session-status" class="session" role="status"></p>'
        if login is not None:
            # Translators: the table page: a link for a person at a plain browser.
            link = escape(_("Log in with Discord to play"))
            joining += f'<p id="login" class="login"><a href="{escape(login)}">{link}</a></p>'
    return (
        f'<!DOCTYPE html><html lang="{spoken().code.replace("_", "-")}"><head>'
        '<meta charset="utf-8"><meta name="viewport" content="width=device-width, '
        'initial-scale=1"><meta name="referrer" content="no-referrer">'
        f"<title>{escape(title)}</title>"
        '<link rel="icon" href="data:,">'
        f'<link rel="stylesheet" href="{asset_url("cards.css")}">'
        f'<link rel="stylesheet" href="{asset_url("table.css")}"></head>'
        f'<body data-events="{escape(events)}" data-ranks="{_attribute(ranks)}" '
        f'data-words="{_attribute(words)}"{signing}>'
        f'<header><h1 id="title">{escape(title)}</h1><p id="heading"></p>'
        f'<p id="connection" class="connection" hidden>{escape(reconnecting)}</p>{joining}'
        '</header><main><ul id="notes" class="notes"></ul>'
        '<div id="lobby-controls" hidden></div>'
        f'<section id="felt" class="felt" aria-label="{escape(_("On the table"))}">'
        '<ol id="seats" class="seats"></ol>'
        '<div id="centre" class="centre"><div id="trump" class="trump"></div>'
        '<div id="middle" class="middle"></div><p id="taken" class="taken"></p></div>'
        "</section>"
        '<section id="my-seat" class="my-seat" aria-labelledby="my-seat-title" hidden>'
        '<h2 id="my-seat-title"></h2><p id="seat-prompt" class="prompt"></p>'
        '<p id="seat-now" class="seat-line"></p><p id="seat-line" class="seat-line"></p>'
        '<p id="seat-error" class="seat-error" role="alert"></p>'
        '<div id="my-bids" class="choices" role="group"></div>'
        '<div id="my-trumps" class="choices" role="group"></div>'
        '<div id="my-cards" class="my-cards" role="group"></div>'
        '<div id="my-jokers" class="choices" role="group"></div>'
        '<div id="seat-why" hidden></div>'
        '<div id="seat-tools" class="seat-tools"></div></section>'
        '<div class="tools"><button id="last-button" type="button" aria-expanded="false" '
        f'aria-controls="last-trick" disabled>{escape(last)}</button></div>'
        '<section id="last-trick" class="panel" aria-labelledby="last-title" hidden>'
        '<h2 id="last-title"></h2><div class="middle flat"></div><p class="taken"></p></section>'
        '<div class="below"><section id="done" class="panel" aria-labelledby="done-title" hidden>'
        '<h2 id="done-title"></h2><ol id="done-tricks" class="done-tricks"></ol></section>'
        '<section id="scores" class="panel" aria-labelledby="scores-title" hidden>'
        '<h2 id="scores-title"></h2><ol id="score-rows" class="score-rows"></ol>'
        '<p class="replay"><a id="replay" hidden></a></p></section></div>'
        '<section id="rules" class="panel" aria-labelledby="rules-title" hidden>'
        f'<h2 id="rules-title">{escape(_("Rules"))}</h2><ul id="rule-lines"></ul></section>'
        '<p id="news" class="visually-hidden" aria-live="polite"></p></main>'
        f"{scripts}"
        f'<script src="{asset_url("lobby.js")}" data-session="{asset_url("session.js")}" '
        f'data-sheet="{asset_url("lobby.css")}"></script>'
        "</body></html>"
    )
