"""A player's private hand message: cards, bids, trump choice and their controls."""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot.engine import SUITS, Phase
from bot.service import (
    CardOption,
    HandState,
    TableView,
)
from cogs.items import custom_id, play_arg, select_id
from cogs.render.common import (
    COLOUR,
    FIELD_LIMIT,
    MAX_BID_BUTTONS,
    MAX_BUTTON_CARDS,
    SUIT_NAMES,
    SUIT_SYMBOLS,
    Controls,
    Rendered,
    card_text,
    fit,
    jump_url,
    relative_time,
    trump_text,
)
from cogs.render.reasons import (
    reason_text,
)
from cogs.render.rules import closed_text

PLAYED_OUT = "Nothing more to do this hand: your next hand comes when this one ends."


def hand_over_text(hand: int | None) -> str:
    """What a finished hand's DM says once its controls are taken off."""
    which = "This hand" if hand is None else f"Hand {hand}"
    return f"{which} is over — your next hand is in a new message."


def game_closed_text(table: TableView) -> str:
    """What every hand DM of a game that ended early says (cancelled, abandoned)."""
    reason = f": {closed_text(table.closed_reason)}." if table.closed_reason else "."
    return f"This game was {table.status.value}{reason}"


def where_text(channel_id: int, channel_name: str | None, guild_name: str | None) -> str:
    """Where a table is, for a hand DM: the channel and server by name when the bot knows
    them, else a channel mention."""
    if channel_name is None or guild_name is None:
        return f"<#{channel_id}>"
    return f"#{channel_name} on {guild_name}"


def where_of(table: TableView) -> str:
    """Where a table is, as every process names it: by the names kept with the table."""
    place = table.place
    if place is None:
        return where_text(table.channel_id, None, None)
    return where_text(table.channel_id, place.channel, place.guild)


def hand_message(state: HandState, table: TableView, where: str) -> Rendered:
    """The private hand message (a DM, or an ephemeral reply when DMs are closed)."""
    url = jump_url(table.guild_id, table.channel_id, table.message_id)
    embed = discord.Embed(
        title=f"Your hand — hand {state.hand_number}",
        description=f"Table in {where} · [go to the table]({url})",
        colour=COLOUR,
    )
    if state.game_over:
        embed.description = f"The game is over. [See the table]({url})"
        return Rendered(None, embed, None)
    if state.played_out:
        return _played_out(embed, state)
    if state.away is not None:
        embed.add_field(
            name="A computer is playing your seat",
            value="The host removed you from this game."
            if state.away == "kicked"
            else "Your seat, cards and score stay yours: press **I'm back** to play again.",
            inline=False,
        )
    if state.blind_cards:
        others = ", ".join(f"{name}: {card_text(card)}" for name, card in state.blind_cards)
        embed.add_field(
            name="Blind hand",
            value=f"You can't see your own card. The others hold: {others}",
            inline=False,
        )
    elif state.cards:
        embed.add_field(
            name="Cards", value=" ".join(card_text(o.card) for o in state.cards), inline=False
        )
    trump = trump_text(state.trump, state.trump_decided)
    if state.turned is not None:
        trump += f" (turned {card_text(state.turned)})"
    embed.add_field(name="Trump", value=trump, inline=True)
    bid = "—" if state.bid is None else str(state.bid)
    embed.add_field(name="Your bid", value=f"{bid} · took {state.tricks_won}", inline=True)
    now = _now_text(state)
    if now:
        embed.add_field(name="Now", value=fit(now, FIELD_LIMIT), inline=False)

    view = Controls()
    t, h = state.table_id, state.hand_number
    if state.deadline is not None:
        embed.add_field(name="Time", value=f"Runs out {relative_time(state.deadline)}", inline=True)
    if state.away is not None:
        if state.away != "kicked":
            view.button("I'm back", custom_id("back", t), discord.ButtonStyle.success)
        return Rendered(None, embed, view)
    if state.bid_options:
        verb = "Your bid" if state.my_turn else "Change your bid?"
        embed.set_footer(text=verb + _hook_note(state))
        _bid_controls(view, state, t, h)
    elif state.trump_options:
        embed.set_footer(text="You bid highest: choose trump")
        for suit in state.trump_options:
            view.button(
                f"{SUIT_SYMBOLS[suit]} {SUIT_NAMES[suit]}",
                custom_id("trump", t, h, suit),
                discord.ButtonStyle.primary,
            )
    elif state.phase is Phase.PLAYING:
        embed.set_footer(text="Your turn: play a card" if state.my_turn else "Waiting for others")
        _card_controls(view, state, t, h)
    else:
        embed.set_footer(text="Waiting for others")
    return Rendered("▶ Your turn" if state.my_turn else None, embed, view)


def _played_out(embed: discord.Embed, state: HandState) -> Rendered:
    """Nothing left to do this hand: no controls, so the next hand need not close it."""
    if state.cards:
        last = card_text(state.cards[0].card)
        embed.add_field(name="Last card", value=f"{last}: auto-play plays it", inline=False)
    embed.add_field(name="Trump", value=trump_text(state.trump, state.trump_decided), inline=True)
    embed.add_field(name="Your bid", value="—" if state.bid is None else str(state.bid))
    embed.set_footer(text=PLAYED_OUT)
    return Rendered(None, embed, None)


def _now_text(state: HandState) -> str | None:
    if state.bids_so_far is not None:
        parts = [f"{name} {bid}" for name, bid in state.bids_so_far]
        return "Bids so far: " + (", ".join(parts) if parts else "none")
    if state.on_table is not None:
        if not state.on_table:
            return "You lead."
        return "On the table: " + ", ".join(f"{n} {card_text(c)}" for n, c in state.on_table)
    return None


def _hook_note(state: HandState) -> str:
    reasons = [
        f" · {o.n} is not allowed: {reason_text(o.reason)}" for o in state.bid_options if o.reason
    ]
    return "".join(reasons)


def _bid_controls(view: Controls, state: HandState, t: int, h: int) -> None:
    options = state.bid_options
    if len(options) <= MAX_BID_BUTTONS:
        for o in options:
            view.button(
                str(o.n),
                custom_id("bid", t, h, o.n),
                discord.ButtonStyle.success if o.n == state.bid else discord.ButtonStyle.primary,
                disabled=not o.allowed,
                row=o.n // 5,
            )
        return
    for part in range(0, len(options), 25):
        chunk = [o for o in options[part : part + 25] if o.allowed]
        if not chunk:
            continue
        view.select(
            select_id("bidsel", t, h, part),
            f"Bid {chunk[0].n}–{chunk[-1].n}",
            [(str(o.n), str(o.n)) for o in chunk],
        )


def _card_controls(view: Controls, state: HandState, t: int, h: int) -> None:
    if state.blind_cards and state.my_turn:
        view.button(
            "Play your card", custom_id("play", t, h, "hidden"), discord.ButtonStyle.primary
        )
        return
    cards = state.cards
    joker = next((o for o in cards if o.card.suit is None), None)
    naming = joker is not None and bool(state.joker_suits)
    if len(cards) <= MAX_BUTTON_CARDS and not naming:
        _card_buttons(view, state, cards, t, h)
        _auto_button(view, state, t)
        return
    # The joker has the last row, beside auto-play (one button a suit it may be named as, when
    # it is led in no trumps); the other cards fill the four rows above: as buttons, or, above
    # 20 cards, one select a suit (four at most), listing each face once.
    others = [o for o in cards if o is not joker]
    if len(cards) <= MAX_BUTTON_CARDS:
        _card_buttons(view, state, others, t, h)
    else:
        _suit_selects(view, state, others, t, h)
    if joker is not None and naming:
        for suit in state.joker_suits:
            view.button(
                f"{card_text(joker.card)} as {SUIT_SYMBOLS[suit]}",
                custom_id("play", t, h, play_arg(joker.card_id, SUITS.index(suit))),
                discord.ButtonStyle.primary,
                row=4,
            )
    elif joker is not None:
        _card_buttons(view, state, [joker], t, h, row=4)
    _auto_button(view, state, t)


def _card_buttons(
    view: Controls,
    state: HandState,
    cards: Sequence[CardOption],
    t: int,
    h: int,
    row: int | None = None,
) -> None:
    """A button a card, five a row (or all in `row`)."""
    for i, o in enumerate(cards):
        view.button(
            card_text(o.card),
            custom_id("play", t, h, play_arg(o.card_id)),
            discord.ButtonStyle.primary if o.allowed else discord.ButtonStyle.secondary,
            disabled=not (o.allowed and state.my_turn),
            row=i // 5 if row is None else row,
        )


def _suit_selects(
    view: Controls, state: HandState, cards: list[CardOption], t: int, h: int
) -> None:
    """One select a suit (at most four: the joker is not among `cards`)."""
    by_suit: dict[str, list[CardOption]] = {}
    for o in cards:
        by_suit.setdefault(o.card.suit or "", []).append(o)
    for suit, group in by_suit.items():
        faces: dict[str, CardOption] = {}
        for o in group:
            faces.setdefault(card_text(o.card), o)
        playable = [o for o in faces.values() if o.allowed and state.my_turn]
        options = playable or list(faces.values())
        view.select(
            select_id("playsel", t, h, suit),
            " ".join(faces),
            [(card_text(o.card), str(o.card_id)) for o in options],
            disabled=not playable,
        )


def _auto_button(view: Controls, state: HandState, t: int) -> None:
    label = "Auto-play forced card: on" if state.auto_play else "Auto-play forced card: off"
    view.button(label, custom_id("auto", t, None, 0 if state.auto_play else 1), row=4)
