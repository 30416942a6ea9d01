"""The live table's page (`/t/<link>`): the page itself, and the state of the table each push
sends it, built from the same `TableView` the table message shows, so it shows nothing the
channel does not: the cards on the table and this hand's tricks, each hand as a count of card
backs, a secret bid as "has bid" until all are revealed. Every word is in the language being
spoken; the page's script puts each value in with `textContent`, so a name is text."""

from __future__ import annotations

import json
from html import escape
from typing import Any

from bot.engine import Card, Phase
from bot.service import TableStatus, TableView
from cogs.render.common import name_text, trump_text
from cogs.render.language import FACES, _, language, number, speaking, spoken
from cogs.render.lobby import value_text
from cogs.render.table import hand_heading
from cogs.web.assets import asset_url


def card_code(card: Card) -> str:
    """A card as the page's script draws it: "QS", "10H", "JOKER"."""
    return str(card)


def cards_left(table: TableView, seat: int) -> int:
    """How many cards `seat` holds now: what everyone can count from the table."""
    game = table.game
    if game is None or seat not in game.seats_in_hand:
        return 0
    played = sum(seat in trick.seats for trick in game.tricks)
    played += any(s == seat for s, _card in game.trick)
    return max(0, game.cards_each - played)


def live_state(table: TableView) -> dict[str, Any]:
    """What one push sends: the table as the channel sees it now, every word already in the
    language being spoken."""
    game = table.game
    names = [name_text(seat.name) for seat in table.seats]
    state: dict[str, Any] = {
        "version": table.version,
        "status": str(table.status),
        "title": _("Oh Hell — {preset}").format(preset=value_text(table.preset)),
        "seats": [],
        "trick": [],
        "tricks": [],
        "deadline": table.deadline,
        "committed": table.committed,
    }
    if game is None:
        state["seats"] = [{"name": name} for name in names]
        return state
    state["heading"] = hand_heading(
        game.hand_number,
        game.cards_each,
        names[game.dealer],
        trump_text(game.trump, game.trump_decided, game.turned),
    )
    state["turned"] = card_code(game.turned) if game.turned is not None else None
    for seat, name in enumerate(names):
        bid = game.bids[seat]
        if bid is not None:
            bid_text = _("bid {bid}").format(bid=number(bid))
        elif game.has_bid[seat]:
            bid_text = _("has bid")
        else:
            bid_text = _("bidding…") if game.phase is Phase.BIDDING else "—"
        state["seats"].append(
            {
                "name": name,
                "bid": bid_text,
                "took": number(game.tricks_won[seat]),
                "total": number(game.totals[seat]),
                "cards": cards_left(table, seat),
                "turn": seat in game.to_act and table.status is TableStatus.PLAYING,
                "dealer": seat == game.dealer,
            }
        )
    state["trick"] = [{"seat": s, "card": card_code(c)} for s, c in game.trick]
    state["tricks"] = [
        {
            "seats": list(t.seats),
            "cards": [card_code(c) for c in t.cards],
            "winner": t.winner,
        }
        for t in game.tricks
    ]
    return state


def live_frame(table: TableView, code: str) -> bytes:
    """One Server-Sent Event carrying `live_state`, in the language of catalog name `code`."""
    with speaking(language(code)):
        data = json.dumps(live_state(table), ensure_ascii=False, separators=(",", ":"))
    return f"id: {table.version}\nevent: table\ndata: {data}\n\n".encode()


def live_page(table: TableView, events: str) -> str:
    """The page's HTML, in the language being spoken: a frame the script fills from the pushes
    at `events` (the first comes at once)."""
    title = _("Oh Hell — {preset}").format(preset=value_text(table.preset))
    ranks = {face: spoken().rank(face) for face in FACES}
    return (
        f'<!DOCTYPE html><html lang="{spoken().code.replace("_", "-")}"><head>'
        '<meta charset="utf-8"><meta name="viewport" content="width=device-width, '
        'initial-scale=1"><meta name="referrer" content="no-referrer">'
        f"<title>{escape(title)}</title>"
        f'<link rel="stylesheet" href="{asset_url("table.css")}"></head>'
        f'<body data-events="{escape(events)}" data-ranks="{escape(json.dumps(ranks))}">'
        f'<header><h1 id="title">{escape(title)}</h1><p id="heading"></p></header>'
        '<main><section id="felt" aria-live="polite"><div id="seats"></div>'
        '<div id="trick" class="trick"></div></section></main>'
        f'<script src="{asset_url("table.js")}"></script></body></html>'
    )
