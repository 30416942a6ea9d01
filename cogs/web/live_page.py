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
from cogs.web.live import title_text


def _attribute(value: object) -> str:
    return escape(json.dumps(value, ensure_ascii=False, separators=(",", ":")))


def live_page(table: TableView, events: str) -> str:
    """The page's HTML, in the language being spoken; `events` is its pushes' address."""
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
    return (
        f'<!DOCTYPE html><html lang="{spoken().code.replace("_", "-")}"><head>'
        '<meta charset="utf-8"><meta name="viewport" content="width=device-width, '
        'initial-scale=1"><meta name="referrer" content="no-referrer">'
        f"<title>{escape(title)}</title>"
        '<link rel="icon" href="data:,">'
        f'<link rel="stylesheet" href="{asset_url("table.css")}"></head>'
        f'<body data-events="{escape(events)}" data-ranks="{_attribute(ranks)}" '
        f'data-words="{_attribute(words)}">'
        f'<header><h1 id="title">{escape(title)}</h1><p id="heading"></p>'
        f'<p id="connection" class="connection" hidden>{escape(reconnecting)}</p></header>'
        '<main><ul id="notes" class="notes"></ul><div id="lobby-controls" hidden></div>'
        f'<section id="felt" class="felt" aria-label="{escape(_("On the table"))}">'
        '<ol id="seats" class="seats"></ol>'
        '<div id="centre" class="centre"><div id="trump" class="trump"></div>'
        '<div id="middle" class="middle"></div><p id="taken" class="taken"></p></div>'
        "</section>"
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
        f'<script src="{asset_url("table.js")}"></script>'
        f'<script src="{asset_url("lobby.js")}" data-session="{asset_url("session.js")}" '
        f'data-sheet="{asset_url("lobby.css")}"></script>'
        "</body></html>"
    )
