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
from bot.service.refusals import Hook
from cogs.items import custom_id, play_arg, select_id
from cogs.render.common import (
    COLOUR,
    FIELD_LIMIT,
    MAX_BID_BUTTONS,
    MAX_BUTTON_CARDS,
    SUIT_SYMBOLS,
    Controls,
    Rendered,
    card_text,
    fit,
    jump_url,
    name_text,
    relative_time,
    suit_text,
    trump_text,
)
from cogs.render.language import N_, _, ngettext, number, pgettext
from cogs.render.reasons import (
    reason_text,
)
from cogs.render.rules import closed_text

PLAYED_OUT = N_("Nothing more to do this hand: your next hand comes when this one ends.")

# A game that ended early, by TableStatus value: without and with the reason the bot closed it.
_GAME_CLOSED = {
    "cancelled": (N_("This game was cancelled."), N_("This game was cancelled: {reason}.")),
    "abandoned": (N_("This game was abandoned."), N_("This game was abandoned: {reason}.")),
}


def hand_over_text(hand: int | None) -> str:
    """What a finished hand's DM says once its controls are taken off."""
    if hand is None:
        return _("This hand is over — your next hand is in a new message.")
    return _("Hand {hand} is over — your next hand is in a new message.").format(hand=number(hand))


def game_closed_text(table: TableView) -> str:
    """What every hand DM of a game that ended early says (cancelled, abandoned), and the
    table message's "Closed" field."""
    plain, reasoned = _GAME_CLOSED.get(table.status.value, _GAME_CLOSED["cancelled"])
    if table.closed_reason:
        # Translators: {reason} says why, as "nobody played for 2 days".
        return _(reasoned).format(reason=closed_text(table.closed_reason))
    return _(plain)


def where_text(channel_id: int, channel_name: str | None, guild_name: str | None) -> str:
    """Where a table is, for a hand DM: the channel and server by name when the bot knows
    them, else a channel mention."""
    if channel_name is None or guild_name is None:
        return f"<#{channel_id}>"
    # Translators: where a table is: {channel} is a channel's name, {server} a server's.
    return _("#{channel} on {server}").format(channel=channel_name, server=guild_name)


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
        title=_("Your hand — hand {hand}").format(hand=number(state.hand_number)),
        # Translators: {where} is "#channel on Server"; keep the link's brackets: [text]({url}).
        description=_("Table in {where} · [go to the table]({url})").format(where=where, url=url),
        colour=COLOUR,
    )
    if state.game_over:
        # Translators: keep the link's brackets: [text]({url}).
        embed.description = _("The game is over. [See the table]({url})").format(url=url)
        return Rendered(None, embed, None)
    if state.played_out:
        return _played_out(embed, state)
    if state.away is not None:
        embed.add_field(
            name=_("A computer is playing your seat"),
            value=_("The host removed you from this game.")
            if state.away == "kicked"
            else _("Your seat, cards and score stay yours: press **I'm back** to play again."),
            inline=False,
        )
    if state.blind_cards:
        others = ", ".join(
            f"{name_text(name)}: {card_text(card)}" for name, card in state.blind_cards
        )
        embed.add_field(
            name=_("Blind hand"),
            # Translators: {cards} lists the others' names and cards: "Ann: 7♥, Bob: Q♠".
            value=_("You can't see your own card. The others hold: {cards}").format(cards=others),
            inline=False,
        )
    elif state.cards:
        embed.add_field(
            name=_("Cards"), value=" ".join(card_text(o.card) for o in state.cards), inline=False
        )
    trump = trump_text(state.trump, state.trump_decided, state.turned)
    embed.add_field(name=pgettext("heading", "Trump"), value=trump, inline=True)
    bid = "—" if state.bid is None else number(state.bid)
    embed.add_field(
        name=_("Your bid"),
        # Translators: {bid} is the player's bid (or —), {took} the tricks they took.
        value=_("{bid} · took {took}").format(bid=bid, took=number(state.tricks_won)),
        inline=True,
    )
    now = _now_text(state)
    if now:
        embed.add_field(name=_("Now"), value=fit(now, FIELD_LIMIT), inline=False)

    view = Controls()
    t, h = state.table_id, state.hand_number
    if state.deadline is not None:
        embed.add_field(
            name=_("Time"),
            # Translators: {when} is a moment Discord shows as "in 2 minutes".
            value=_("Runs out {when}").format(when=relative_time(state.deadline)),
            inline=True,
        )
    if state.away is not None:
        if state.away != "kicked":
            view.button(
                pgettext("button", "I'm back"), custom_id("back", t), discord.ButtonStyle.success
            )
        return Rendered(None, embed, view)
    if state.bid_options:
        embed.set_footer(text=_bid_footer(state))
        _bid_controls(view, state, t, h)
    elif state.trump_options:
        embed.set_footer(text=_("You bid highest: choose trump"))
        for suit in state.trump_options:
            view.button(
                suit_text(suit), custom_id("trump", t, h, suit), discord.ButtonStyle.primary
            )
    elif state.phase is Phase.PLAYING:
        waiting = _("Waiting for others")
        embed.set_footer(text=_("Your turn: play a card") if state.my_turn else waiting)
        _card_controls(view, state, t, h)
    else:
        embed.set_footer(text=_("Waiting for others"))
    return Rendered("▶ " + _("Your turn") if state.my_turn else None, embed, view)


def _played_out(embed: discord.Embed, state: HandState) -> Rendered:
    """Nothing left to do this hand: no controls, so the next hand need not close it."""
    if state.cards:
        last = card_text(state.cards[0].card)
        embed.add_field(
            name=_("Last card"),
            # Translators: {card} is the player's last card: "7♥".
            value=_("{card}: auto-play plays it").format(card=last),
            inline=False,
        )
    trump = trump_text(state.trump, state.trump_decided)
    embed.add_field(name=pgettext("heading", "Trump"), value=trump, inline=True)
    embed.add_field(name=_("Your bid"), value="—" if state.bid is None else number(state.bid))
    embed.set_footer(text=_(PLAYED_OUT))
    return Rendered(None, embed, None)


def _now_text(state: HandState) -> str | None:
    if state.bids_so_far is not None:
        if not state.bids_so_far:
            return _("Bids so far: none")
        parts = [f"{name_text(name)} {number(bid)}" for name, bid in state.bids_so_far]
        # Translators: {bids} lists names and bids: "Ann 2, Bob 0".
        return _("Bids so far: {bids}").format(bids=", ".join(parts))
    if state.on_table is not None:
        if not state.on_table:
            return _("You lead.")
        cards = ", ".join(f"{name_text(n)} {card_text(c)}" for n, c in state.on_table)
        # Translators: {cards} lists names and the cards they played: "Ann 7♥, Bob Q♠".
        return _("On the table: {cards}").format(cards=cards)
    return None


def _bid_footer(state: HandState) -> str:
    """What the bid buttons ask, and the bid the hook does not allow (one at most: the bid
    that would make the bids add up to the tricks)."""
    refused = next((o for o in state.bid_options if o.reason is not None), None)
    if refused is None or refused.reason is None:
        return _("Your bid") if state.my_turn else _("Change your bid?")
    if not isinstance(refused.reason, Hook):
        if state.my_turn:
            # Translators: a bid that is not allowed and why.
            text = _("Your bid · {bid} is not allowed: {reason}")
        else:
            # Translators: a bid that is not allowed and why.
            text = _("Change your bid? {bid} is not allowed: {reason}")
        return text.format(bid=number(refused.n), reason=reason_text(refused.reason))
    total = refused.reason.total
    if state.my_turn:
        # Translators: the hook: the dealer may not bid so that the bids add up to the tricks.
        text = ngettext(
            "Your bid · not {bid}, the hook: the bids would add up to {total} trick",
            "Your bid · not {bid}, the hook: the bids would add up to {total} tricks",
            total,
        )
    else:
        # Translators: the hook: the dealer may not bid so that the bids add up to the tricks.
        text = ngettext(
            "Change your bid? Not {bid}, the hook: the bids would add up to {total} trick",
            "Change your bid? Not {bid}, the hook: the bids would add up to {total} tricks",
            total,
        )
    return text.format(bid=number(refused.n), total=number(total))


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
            # Translators: a menu's placeholder: the bids it lists, "Bid 0–24".
            _("Bid {low}–{high}").format(low=number(chunk[0].n), high=number(chunk[-1].n)),
            [(str(o.n), str(o.n)) for o in chunk],
        )


def _card_controls(view: Controls, state: HandState, t: int, h: int) -> None:
    if state.blind_cards and state.my_turn:
        view.button(
            pgettext("button", "Play your card"),
            custom_id("play", t, h, "hidden"),
            discord.ButtonStyle.primary,
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
                # Translators: a button: play the joker as a card of a suit, "🃏 as ♥".
                _("{card} as {suit}").format(card=card_text(joker.card), suit=SUIT_SYMBOLS[suit]),
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
    label = (
        pgettext("button", "Auto-play forced card: on")
        if state.auto_play
        else pgettext("button", "Auto-play forced card: off")
    )
    view.button(label, custom_id("auto", t, None, 0 if state.auto_play else 1), row=4)
