"""The live table's state (`/t/<link>`): what each push sends the page, built from the same
`TableView` the table message shows, so it shows nothing the channel does not: the cards on
the table and this hand's tricks, each hand as a count of card backs, a secret bid as "has
bid" until all are revealed, and the last trick of a hand from the hand's scores the channel
was sent. Every word is in the language being spoken; the page's script puts each value in
with `textContent`, so a name is text."""

from __future__ import annotations

import json
import time
from typing import Any

from bot.engine import Card, Phase, TrickView
from bot.service import TableStatus, TableView
from bot.service.notices import HandScore
from cogs.render.common import name_text, timer_text, trump_text
from cogs.render.hand import game_closed_text
from cogs.render.language import _, language, ngettext, number, pgettext, speaking
from cogs.render.lobby import value_text
from cogs.render.rules import rules_summary
from cogs.render.table import closed_table_text, hand_heading, seat_label

State = dict[str, Any]

RETRY_MS = 1000
"""How soon a page whose stream broke connects again (EventSource does it by itself)."""


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


def plain(line: str) -> str:
    """A line written for Discord without its markdown (the page shows it as text)."""
    return line.replace("**", "").replace("`", "")


def title_text(table: TableView) -> str:
    return _("Oh Hell — {preset}").format(preset=value_text(table.preset))


def taken_text(winner: str | None) -> str:
    if winner is None:
        # Translators: the live page: every card of the trick was cancelled.
        return _("Nobody took the trick.")
    # Translators: the live page, under a finished trick; {name} is a player's name.
    return _("{name} took the trick.").format(name=winner)


def trick_state(names: list[str], trick: TrickView, caption: str) -> State:
    winner = None if trick.winner is None else names[trick.winner]
    return {
        "caption": caption,
        "plays": [
            {"seat": s, "name": names[s], "card": card_code(c)}
            for s, c in zip(trick.seats, trick.cards, strict=True)
        ],
        "winner": trick.winner,
        "taken": taken_text(winner),
    }


def scored_tricks(table: TableView, scored: HandScore) -> list[State]:
    """A scored hand's tricks, as the channel's post of its scores shows them (names by
    seat: the post names players as their seats are named)."""
    seats = {seat.name: s for s, seat in enumerate(table.seats)}
    return [
        {
            "caption": trick_caption(place),
            "plays": [
                {"seat": seats.get(name, -1), "name": name_text(name), "card": card_code(card)}
                for name, card in plays
            ],
            "winner": None if winner is None else seats.get(winner),
            "taken": taken_text(None if winner is None else name_text(winner)),
        }
        for place, (plays, winner) in enumerate(scored.tricks, start=1)
    ]


def trick_caption(place: int) -> str:
    # Translators: the live page: a trick of a hand; {number} counts them.
    return _("Trick {number}").format(number=number(place))


def bid_text(table: TableView, seat: int) -> str:
    game = table.game
    assert game is not None
    bid = game.bids[seat]
    if bid is not None:
        return _("bid {bid}").format(bid=number(bid))
    if game.has_bid[seat]:
        return _("has bid")
    return _("bidding…") if game.phase is Phase.BIDDING else "—"


def seat_state(table: TableView, seat: int) -> State:
    game = table.game
    state: State = {"name": seat_label(table, seat)}
    if game is None:
        return state
    count = cards_left(table, seat)
    # Translators: the live page, the total score beside a player's name.
    state["total"] = _("total {total}").format(total=number(game.totals[seat]))
    state["dealer"] = seat == game.dealer
    if seat not in game.seats_in_hand:
        # Translators: the live page: a player who is dealt no cards this hand.
        state["out"] = _("sits out")
        return state
    state["bid"] = bid_text(table, seat)
    # Translators: the live page, the tricks a player has taken this hand.
    state["took"] = _("took {took}").format(took=number(game.tricks_won[seat]))
    state["cards"] = count
    # Translators: the live page, read out for a player's face-down cards.
    state["held"] = ngettext("{count} card in hand", "{count} cards in hand", count).format(
        count=number(count)
    )
    state["turn"] = (
        seat in game.to_act and game.phase is not Phase.GAME_OVER and table.status.is_open
    )
    return state


def scores_state(table: TableView) -> State:
    game = table.game
    assert game is not None
    if game.placing is not None:
        placing = game.placing
        order = sorted(range(len(table.seats)), key=lambda s: (placing[s], s))
        title = _("Final standings")
        places = [placing[s] for s in order]
    else:
        played = game.hand_number - 1
        order = sorted(
            range(len(table.seats)),
            key=lambda s: (game.totals[s] if game.lowest_wins else -game.totals[s], s),
        )
        title = ngettext("Scores after {count} hand", "Scores after {count} hands", played).format(
            count=number(played)
        )
        places = [order.index(s) + 1 for s in order]
    return {
        "title": title,
        "rows": [
            {
                "place": number(place),
                "name": name_text(table.seats[s].name),
                "total": number(game.totals[s]),
            }
            for place, s in zip(places, order, strict=True)
        ],
    }


def notes(table: TableView) -> list[str]:
    """Lines under the heading: what the table message says beside the seats."""
    game = table.game
    lines = []
    if table.status is TableStatus.LOBBY:
        low, high = table.player_range
        seated = len(table.seats)
        host = next((name_text(s.name) for s in table.seats if s.user_id == table.host_id), "—")
        lines.append(
            ngettext(
                "Waiting for players ({seated} seated; these rules take {low}–{high}). "
                "Host: {host}",
                "Waiting for players ({seated} seated; these rules take {low}–{high}). "
                "Host: {host}",
                seated,
            ).format(seated=number(seated), low=number(low), high=number(high), host=host)
        )
        return lines
    if game is None:
        return [closed_table_text(table)]
    if game.blind:
        lines.append(_("Blind hand: everyone sees the others' cards in their DM, not their own."))
    if table.paused and table.status.is_open:
        lines.append(_("The host paused the game."))
    if table.status in (TableStatus.CANCELLED, TableStatus.ABANDONED):
        lines.append(game_closed_text(table))
    return lines


def live_state(
    table: TableView,
    *,
    now: float | None = None,
    scored: HandScore | None = None,
    replay: str | None = None,
) -> State:
    """What one push sends: the table as the channel sees it now, every word already in the
    language being spoken. `scored` is the newest hand's scores the channel was sent, `replay`
    the finished game's replay link."""
    game = table.game
    state: State = {
        "version": table.version,
        "status": str(table.status),
        "open": table.status.is_open,
        "title": title_text(table),
        "heading": "",
        "notes": notes(table),
        "seats": [seat_state(table, seat) for seat in range(len(table.seats))],
        "now": time.time() if now is None else now,
        "deadline": table.deadline if table.status.is_open and not table.paused else None,
        "committed": table.committed,
        "trick": [],
        "tricks": [],
        "last": None,
    }
    if table.status is TableStatus.LOBBY:
        rules = [*rules_summary(table)]
        rules.append(_("Turn timer: {timer}").format(timer=timer_text(table.turn_timer)))
        state["rules"] = [plain(line) for line in rules]
    if game is None:
        return state
    names = [name_text(seat.name) for seat in table.seats]
    trump = trump_text(game.trump, game.trump_decided, game.turned)
    state["heading"] = hand_heading(game.hand_number, game.cards_each, names[game.dealer], trump)
    state["hand"] = game.hand_number
    state["trump"] = pgettext("heading", "Trump") + ": " + trump
    state["turned"] = card_code(game.turned) if game.turned is not None else None
    state["trick"] = [{"seat": s, "name": names[s], "card": card_code(c)} for s, c in game.trick]
    state["tricks"] = [
        trick_state(names, trick, trick_caption(place))
        for place, trick in enumerate(game.tricks, start=1)
    ]
    # Translators: the live page: the heading above this hand's finished tricks.
    state["tricks_title"] = _("Tricks this hand")
    if state["tricks"]:
        state["last"] = state["tricks"][-1]
    elif (
        scored is not None
        and scored.tricks
        and (scored.hand < game.hand_number or game.phase is Phase.GAME_OVER)
    ):
        # No trick of this hand yet: the hand before's, as its scores showed them (the last
        # cards of a hand are often played by one move, which no view shows).
        earlier = scored_tricks(table, scored)
        # Translators: the live page: the heading above an earlier hand's tricks.
        state["tricks_title"] = _("Tricks of hand {hand}").format(hand=number(scored.hand))
        state["earlier"] = earlier
        # Translators: the live page: the last trick of an earlier hand; {hand} is its number.
        caption = _("Last trick of hand {hand}").format(hand=number(scored.hand))
        state["last"] = earlier[-1] | {"caption": caption}
    state["scores"] = scores_state(table)
    if replay is not None and table.status is TableStatus.FINISHED:
        # Translators: the live page: a link to the finished game's replay.
        state["replay"] = {"text": pgettext("link", "Watch the replay"), "href": replay}
    return state


def live_frame(
    table: TableView,
    code: str,
    scored: HandScore | None = None,
    *,
    replay: str | None = None,
) -> bytes:
    """One Server-Sent Event carrying `live_state`, in the language of catalog name `code`."""
    with speaking(language(code)):
        state = live_state(table, scored=scored, replay=replay)
    return event_bytes("table", state, table.version)


def event_bytes(event: str, state: object, version: int | None = None) -> bytes:
    """One Server-Sent Event named `event` carrying `state` as JSON."""
    data = json.dumps(state, ensure_ascii=False, separators=(",", ":"))
    # JSON keeps a name's line breaks escaped; its markup characters are escaped too, so no
    # byte of a push reads as markup whatever reads it.
    data = data.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    head = "" if version is None else f"id: {version}\n"
    return f"{head}event: {event}\nretry: {RETRY_MS}\ndata: {data}\n\n".encode()
