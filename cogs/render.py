"""Service views → Discord messages. Pure functions: no I/O, no state."""

from __future__ import annotations

import typing
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import discord

from bot.engine import PRESETS, Action, Bid, Card, ChooseTrump, Phase, Settings
from bot.service import (
    HandState,
    Leaderboard,
    Notice,
    Reason,
    Refused,
    TableStatus,
    TableView,
)
from bot.service.document import TURN_TIMERS
from bot.service.rules_text import SUIT_SYMBOLS
from bot.service.service import timer_text
from cogs.items import TableButton, TableSelect, custom_id, select_id

COLOUR = discord.Colour.dark_green()
MESSAGE_LIMIT = 2000  # Discord: characters in a message's content
FIELD_LIMIT = 1024  # Discord: characters in an embed field's value
NOT_FOR_YOU = "That button is not for you."
NOT_OFFERED = "That choice was not on the menu, so nothing was changed."
SERVER_ONLY = (
    "Oh Hell is played in a server: use this command in a server channel where I am a member."
)
CORRUPT_TABLE = (
    "This table's stored state could not be read, so nothing was changed. "
    "Ask the host to cancel it with /ohhell cancel."
)
UNEXPECTED = "Something went wrong — nothing was changed. (reference `{reference}`)"
MAX_BUTTON_CARDS = 20
MAX_BID_BUTTONS = 21  # bids 0..20
MAX_TRICK_LINES = 12
SUIT_NAMES = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}


@dataclass(frozen=True)
class Rendered:
    content: str | None
    embed: discord.Embed | None
    view: discord.ui.View | None

    def kwargs(self) -> dict[str, Any]:
        """For an edit: every part, an empty one cleared."""
        out: dict[str, Any] = {"content": self.content, "embed": self.embed}
        out["view"] = self.view if self.view is not None else discord.ui.View()
        return out

    def send_kwargs(self) -> dict[str, Any]:
        """For a new message: the parts there are."""
        out: dict[str, Any] = {}
        if self.content is not None:
            out["content"] = self.content
        if self.embed is not None:
            out["embed"] = self.embed
        if self.view is not None:
            out["view"] = self.view
        return out

    def signature(self) -> str:
        """What the message would show, to tell whether an edit would change anything."""
        embed = self.embed.to_dict() if self.embed is not None else None
        view = self.view.to_components() if self.view is not None else None
        return repr((self.content, embed, view))


def fit(text: str, limit: int) -> str:
    """`text` cut to one of Discord's length limits, with an ellipsis when cut."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def refusal(error: Refused) -> str:
    """What a person is told when the service refuses their action: a sentence."""
    text = reason_text(error.reason)
    return text[:1].upper() + text[1:]


def card_text(card: Card) -> str:
    if card.suit is None:
        return "🃏" if card.rank == "JOKER" else "🂠"
    return f"{card.rank}{SUIT_SYMBOLS[card.suit]}"


def trump_text(trump: str | None, decided: bool) -> str:
    if not decided:
        return "to be chosen by the highest bidder"
    return "no trumps" if trump is None else f"{SUIT_SYMBOLS[trump]} {SUIT_NAMES[trump]}"


def relative_time(moment: float) -> str:
    """A Discord timestamp that counts down (or up) in every reader's client, without edits."""
    return f"<t:{int(moment)}:R>"


def jump_url(guild_id: int, channel_id: int, message_id: int | None) -> str:
    tail = f"/{message_id}" if message_id else ""
    return f"https://discord.com/channels/{guild_id}/{channel_id}{tail}"


def _button(
    label: str,
    cid: str,
    style: discord.ButtonStyle = discord.ButtonStyle.secondary,
    *,
    disabled: bool = False,
    row: int | None = None,
) -> TableButton:
    return TableButton(
        discord.ui.Button(label=label[:80], custom_id=cid, style=style, disabled=disabled, row=row)
    )


# -- the table message ----------------------------------------------------------------------


def table_message(table: TableView) -> Rendered:
    embed = discord.Embed(title=f"Oh Hell — {table.preset}", colour=COLOUR)
    game = table.game
    names = [seat.name for seat in table.seats]
    if table.status is TableStatus.LOBBY:
        low, high = table.player_range
        seats = (
            "\n".join(f"{i + 1}. {_seat_label(table, i)}" for i in range(len(table.seats))) or "—"
        )
        embed.description = (
            f"Waiting for players ({len(table.seats)} seated; these rules take {low}–{high}). "
            f"Host: <@{table.host_id}>"
        )
        if table.expires is not None:
            embed.description += f"\nCloses {relative_time(table.expires)} unless it starts."
        embed.add_field(name="Seats", value=seats[:1024], inline=False)
        rules = "\n".join(table.rules_summary)
        rules += f"\nTurn timer: {timer_text(table.turn_timer)}"
        if table.rules_source:
            rules += f"\n*Rules from {table.rules_source}.*"
        embed.add_field(name="Rules", value=rules[:1024], inline=False)
        if table.start_problem:
            embed.set_footer(text=fit(f"Start: {reason_text(table.start_problem)}", 2048))
        view = discord.ui.View(timeout=None)
        t = table.table_id
        view.add_item(_button("Join", custom_id("join", t), discord.ButtonStyle.success))
        view.add_item(_button("Leave", custom_id("leave", t)))
        view.add_item(_button("Add computer player", custom_id("addcpu", t)))
        view.add_item(_button("Rules", custom_id("rules", t), row=1))
        view.add_item(
            _button(
                "Start",
                custom_id("start", t),
                discord.ButtonStyle.primary,
                disabled=table.start_problem is not None,
                row=1,
            )
        )
        view.add_item(_button("Cancel", custom_id("cancel", t), discord.ButtonStyle.danger, row=1))
        view.add_item(_button("Host", custom_id("hostctl", t), row=1))
        return Rendered(None, embed, view)

    if game is None:
        embed.description = f"This table is {table.status.value}."
        if table.closed_reason:
            embed.description += f": {table.closed_reason}."
        return Rendered(None, embed, None)

    header = (
        f"Hand {game.hand_number} · {game.cards_each} card{'s' if game.cards_each != 1 else ''}"
        f" each · dealer {names[game.dealer]} · trump: {trump_text(game.trump, game.trump_decided)}"
    )
    if game.turned is not None:
        header += f" (turned {card_text(game.turned)})"
    if game.blind:
        header += "\nBlind hand: everyone sees the others' cards in their DM, not their own."
    lines = []
    for seat in range(len(table.seats)):
        if seat not in game.seats_in_hand:
            lines.append(f"{_seat_label(table, seat)} — sits out · total {game.totals[seat]}")
            continue
        bid = game.bids[seat]
        if bid is not None:
            bid_text = f"bid {bid}"
        elif game.has_bid[seat]:
            bid_text = "has bid"
        else:
            bid_text = "bidding…" if game.phase is Phase.BIDDING else "—"
        marker = "▶ " if seat in game.to_act and game.phase is not Phase.GAME_OVER else ""
        lines.append(
            f"{marker}{_seat_label(table, seat)} — {bid_text} · took {game.tricks_won[seat]}"
            f" · total {game.totals[seat]}"
        )
    embed.description = header
    embed.add_field(name="Players", value="\n".join(lines)[:1024], inline=False)
    if game.phase is Phase.BIDDING and any(b is None for b in game.bids):
        done = sum(game.has_bid[s] for s in game.seats_in_hand)
        embed.add_field(
            name="Bidding",
            value=f"{done} of {len(game.seats_in_hand)} have bid"
            + (f" (round {game.bid_round})" if game.bid_round > 1 else ""),
            inline=False,
        )
    if game.trick:
        trick = " · ".join(f"{names[s]} {card_text(c)}" for s, c in game.trick)
        embed.add_field(name="On the table", value=trick[:1024], inline=False)
    if game.tricks:
        done_lines = []
        for number, trick_view in enumerate(game.tricks, start=1):
            cards = " ".join(card_text(c) for c in trick_view.cards)
            winner = names[trick_view.winner] if trick_view.winner is not None else "nobody"
            worth = " (×2)" if trick_view.value > 1 else ""
            done_lines.append(f"{number}. {cards} → **{winner}**{worth}")
        shown = done_lines[-MAX_TRICK_LINES:]
        hidden = len(done_lines) - len(shown)
        text = "\n".join(([f"({hidden} earlier tricks)"] if hidden else []) + shown)
        embed.add_field(name="Tricks this hand", value=text[:1024], inline=False)
    if game.phase is Phase.GAME_OVER and game.placing is not None:
        embed.add_field(name="Final standings", value=_standings(table)[:1024], inline=False)
    elif table.paused:
        embed.add_field(name="Paused", value="⏸ The host paused the game.", inline=False)
    elif game.to_act:
        waiting = ", ".join(_mention(table, s) for s in game.to_act)
        if table.deadline is not None:
            waiting += f" — time runs out {relative_time(table.deadline)}"
        embed.add_field(name="Waiting for", value=waiting[:1024], inline=False)
    if table.status in (TableStatus.CANCELLED, TableStatus.ABANDONED):
        embed.add_field(
            name="Closed",
            value=f"This game was {table.status.value}"
            + (f": {table.closed_reason}." if table.closed_reason else "."),
            inline=False,
        )
    if table.dms_closed:
        closed = " ".join(f"<@{u}>" for u in table.dms_closed)
        embed.add_field(
            name="Can't DM",
            value=f"{closed}: your DMs are closed — press **My hand** to play here."[:1024],
            inline=False,
        )
    t = table.table_id
    if table.status is TableStatus.FINISHED:
        view = discord.ui.View(timeout=None)
        view.add_item(_button("Rematch", custom_id("rematch", t), discord.ButtonStyle.success))
        return Rendered(None, embed, view)
    if table.status is not TableStatus.PLAYING:
        return Rendered(None, embed, None)
    view = discord.ui.View(timeout=None)
    view.add_item(_button("My hand", custom_id("hand", t), discord.ButtonStyle.primary))
    view.add_item(_button("Scores", custom_id("scores", t)))
    if any(s.left and s.away != "kicked" and s.user_id is not None for s in table.seats):
        view.add_item(_button("I'm back", custom_id("back", t), discord.ButtonStyle.success))
    view.add_item(_button("Host", custom_id("hostctl", t)))
    return Rendered(None, embed, view)


AWAY_LABELS = {
    "left": "left; a computer plays",
    "timeout": "away; a computer plays until they're back",
    "kicked": "removed; a computer plays",
}


def _seat_label(table: TableView, seat: int) -> str:
    s = table.seats[seat]
    if s.pending:
        return f"{s.name} (seat kept: press Join to confirm)"
    if s.left:
        return f"{s.name} ({AWAY_LABELS.get(s.away or 'left', AWAY_LABELS['left'])})"
    return s.name


def _mention(table: TableView, seat: int) -> str:
    s = table.seats[seat]
    return s.name if s.user_id is None or s.left else f"<@{s.user_id}>"


def _standings(table: TableView) -> str:
    game = table.game
    assert game is not None and game.placing is not None
    placing = game.placing
    order = sorted(range(len(table.seats)), key=lambda s: (placing[s], s))
    return "\n".join(f"{placing[s]}. {table.seats[s].name} — {game.totals[s]}" for s in order)


def scores_text(table: TableView) -> str:
    game = table.game
    if game is None:
        return "The game has not started yet."
    lines = [
        f"**Scores after {game.hand_number - 1} hand(s)**"
        if game.phase is not Phase.GAME_OVER
        else "**Final scores**"
    ]
    order = sorted(
        range(len(table.seats)),
        key=lambda s: (game.totals[s] if game.lowest_wins else -game.totals[s], s),
    )
    lines += [f"{table.seats[s].name}: {game.totals[s]}" for s in order]
    return "\n".join(lines)


# -- a player's hand --------------------------------------------------------------------------


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

    view = discord.ui.View(timeout=None)
    t, h = state.table_id, state.hand_number
    if state.deadline is not None:
        embed.add_field(name="Time", value=f"Runs out {relative_time(state.deadline)}", inline=True)
    if state.away is not None:
        if state.away != "kicked":
            view.add_item(_button("I'm back", custom_id("back", t), discord.ButtonStyle.success))
        return Rendered(None, embed, view)
    if state.bid_options:
        verb = "Your bid" if state.my_turn else "Change your bid?"
        embed.set_footer(text=verb + _hook_note(state))
        _bid_controls(view, state, t, h)
    elif state.trump_options:
        embed.set_footer(text="You bid highest: choose trump")
        for suit in state.trump_options:
            view.add_item(
                _button(
                    f"{SUIT_SYMBOLS[suit]} {SUIT_NAMES[suit]}",
                    custom_id("trump", t, h, suit),
                    discord.ButtonStyle.primary,
                )
            )
    elif state.phase is Phase.PLAYING:
        embed.set_footer(text="Your turn: play a card" if state.my_turn else "Waiting for others")
        _card_controls(view, state, t, h)
    else:
        embed.set_footer(text="Waiting for others")
    return Rendered("▶ Your turn" if state.my_turn else None, embed, view)


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


def _bid_controls(view: discord.ui.View, state: HandState, t: int, h: int) -> None:
    options = state.bid_options
    if len(options) <= MAX_BID_BUTTONS:
        for o in options:
            view.add_item(
                _button(
                    str(o.n),
                    custom_id("bid", t, h, o.n),
                    discord.ButtonStyle.success
                    if o.n == state.bid
                    else discord.ButtonStyle.primary,
                    disabled=not o.allowed,
                    row=o.n // 5,
                )
            )
        return
    for part in range(0, len(options), 25):
        chunk = [o for o in options[part : part + 25] if o.allowed]
        if not chunk:
            continue
        view.add_item(
            TableSelect(
                discord.ui.Select(
                    custom_id=select_id("bidsel", t, h, part),
                    placeholder=f"Bid {chunk[0].n}–{chunk[-1].n}",
                    options=[discord.SelectOption(label=str(o.n), value=str(o.n)) for o in chunk],
                )
            )
        )


def _card_controls(view: discord.ui.View, state: HandState, t: int, h: int) -> None:
    if state.blind_cards and state.my_turn:
        view.add_item(
            _button(
                "Play your card", custom_id("play", t, h, "hidden"), discord.ButtonStyle.primary
            )
        )
        return
    cards = state.cards
    if len(cards) <= MAX_BUTTON_CARDS:
        for i, o in enumerate(cards):
            view.add_item(
                _button(
                    card_text(o.card),
                    custom_id("play", t, h, o.card_id),
                    discord.ButtonStyle.primary if o.allowed else discord.ButtonStyle.secondary,
                    disabled=not (o.allowed and state.my_turn),
                    row=i // 5,
                )
            )
        view.add_item(_auto_button(state, t, row=4))
        return
    # More than 20 cards: one select per suit, listing each face once.
    by_suit: dict[str, list[Any]] = {}
    for o in cards:
        by_suit.setdefault(o.card.suit or "J", []).append(o)
    for suit, group in list(by_suit.items())[:4]:
        faces: dict[str, Any] = {}
        for o in group:
            faces.setdefault(card_text(o.card), o)
        playable = [o for o in faces.values() if o.allowed and state.my_turn]
        options = playable or list(faces.values())
        view.add_item(
            TableSelect(
                discord.ui.Select(
                    custom_id=select_id("playsel", t, h, suit),
                    placeholder=" ".join(faces)[:150],
                    options=[
                        discord.SelectOption(label=card_text(o.card), value=str(o.card_id))
                        for o in options[:25]
                    ],
                    disabled=not playable,
                )
            )
        )
    view.add_item(_auto_button(state, t, row=4))


def _auto_button(state: HandState, t: int, row: int) -> TableButton:
    label = "Auto-play forced card: on" if state.auto_play else "Auto-play forced card: off"
    return _button(label, custom_id("auto", t, None, 0 if state.auto_play else 1), row=row)


# -- lobby editors ------------------------------------------------------------------------------


def _choices_of(field: str) -> tuple[str, ...]:
    """The values the engine's Settings allow for a field with a fixed set of choices."""
    values: list[str] = []
    for part in typing.get_args(Settings.model_fields[field].annotation):
        if part is bool:
            values += ["true", "false"]
        elif typing.get_origin(part) is typing.Literal:
            values += [str(v) for v in typing.get_args(part)]
    return tuple(values)


# Numbers get a menu of sensible values; every other setting lists what the engine allows.
RULE_CHOICES: dict[str, tuple[str, ...]] = {
    field: _choices_of(field)
    for field in Settings.model_fields
    if field not in ("max_cards", "target")
}
RULE_CHOICES["preset"] = PRESETS
RULE_CHOICES["max_cards"] = ("pack", *(str(n) for n in range(1, 21)))
RULE_CHOICES["target"] = ("50", "75", "101", "150", "200", "250", "300", "500")
RULE_PAGES: tuple[tuple[str, ...], ...] = (
    ("preset", "sequence", "max_cards", "bidding"),
    ("scoring", "trump", "first_lead", "end"),
    ("target", "ties", "pack", "exhausted_trump"),
    ("ace_no_trumps", "bid_changes", "spades_double", "blind"),
    ("duplicates", "all_cancelled"),
)
PRESET_DEFAULT = "(preset's choice)"


def rules_editor(table_id: int, settings: Settings, page: int) -> Rendered:
    page = max(0, min(page, len(RULE_PAGES) - 1))
    view = discord.ui.View(timeout=None)
    current = settings.overrides()
    for field in RULE_PAGES[page]:
        chosen = current.get(field)
        chosen_text = None if chosen is None else str(chosen).lower()
        options = []
        if field != "preset":
            options.append(
                discord.SelectOption(label=PRESET_DEFAULT, value="-", default=chosen is None)
            )
        for value in RULE_CHOICES[field]:
            options.append(
                discord.SelectOption(
                    label=value,
                    value=value,
                    default=(chosen_text == value)
                    or (field == "preset" and settings.preset == value),
                )
            )
        view.add_item(
            TableSelect(
                discord.ui.Select(
                    custom_id=select_id("rule", table_id, None, field),
                    placeholder=f"{field.replace('_', ' ')}: {_or_preset(chosen)}",
                    options=options[:25],
                )
            )
        )
    for p in range(len(RULE_PAGES)):
        view.add_item(
            _button(
                f"Page {p + 1}",
                custom_id("rulepg", table_id, None, p),
                discord.ButtonStyle.primary if p == page else discord.ButtonStyle.secondary,
                disabled=p == page,
                row=4,
            )
        )
    text = (
        f"**Rules editor** (page {page + 1} of {len(RULE_PAGES)}) — each menu shows the current "
        "choice. Changes apply to the lobby at once."
    )
    return Rendered(text, None, view)


def _or_preset(value: object) -> str:
    return "preset's choice" if value is None else str(value)


def computer_level_picker(table_id: int) -> Rendered:
    view = discord.ui.View(timeout=None)
    view.add_item(
        TableSelect(
            discord.ui.Select(
                custom_id=select_id("cpulevel", table_id),
                placeholder="Choose a level",
                options=[
                    discord.SelectOption(
                        label="Easy", value="easy", description="Simple, quick; good for beginners"
                    ),
                    discord.SelectOption(
                        label="Normal", value="normal", description="Counts cards, bids carefully"
                    ),
                    discord.SelectOption(
                        label="Hard",
                        value="hard",
                        description="Searches possible deals; thinks up to 1 s",
                    ),
                ],
            )
        )
    )
    return Rendered("Add which computer player?", None, view)


def host_panel(table: TableView) -> Rendered:
    """The host's controls (an ephemeral message): remove a player, hand over the host role,
    the turn timer, pause or resume, cancel."""
    view = discord.ui.View(timeout=None)
    t = table.table_id
    people = [s for s in table.seats if s.user_id is not None and s.user_id != table.host_id]
    for kind, placeholder, choices in (
        ("kick", "Remove a player…", [s for s in people if s.away != "kicked"]),
        ("hostto", "Hand the host role to…", [s for s in people if not s.left and not s.pending]),
    ):
        if not choices:
            continue
        view.add_item(
            TableSelect(
                discord.ui.Select(
                    custom_id=select_id(kind, t),
                    placeholder=placeholder,
                    options=[
                        discord.SelectOption(label=s.name[:100], value=str(s.user_id))
                        for s in choices[:25]
                    ],
                )
            )
        )
    view.add_item(
        TableSelect(
            discord.ui.Select(
                custom_id=select_id("timer", t),
                placeholder=f"Turn timer: {timer_text(table.turn_timer)}",
                options=[
                    discord.SelectOption(
                        label=f"Turn timer: {timer_text(seconds)}",
                        value=str(seconds),
                        default=seconds == table.turn_timer,
                    )
                    for seconds in TURN_TIMERS
                ],
            )
        )
    )
    if table.status is TableStatus.PLAYING:
        if table.paused:
            view.add_item(
                _button("Resume", custom_id("resume", t), discord.ButtonStyle.success, row=3)
            )
        else:
            view.add_item(_button("Pause", custom_id("pause", t), row=3))
    view.add_item(
        _button("Cancel the table", custom_id("cancel", t), discord.ButtonStyle.danger, row=3)
    )
    text = (
        "**Host controls** — a removed player's seat goes to a computer player in a game; "
        "pausing stops play and the turn timer."
    )
    return Rendered(text, None, view)


def leave_confirm(table: TableView) -> Rendered:
    view = discord.ui.View(timeout=None)
    view.add_item(
        _button("Yes, leave", custom_id("leaveok", table.table_id), discord.ButtonStyle.danger)
    )
    if table.status is TableStatus.PLAYING:
        text = (
            "Leave the game? A computer player takes your seat, cards and score, and the game "
            "counts for you as left unless you come back with **I'm back**."
        )
    else:
        text = "Leave this table?"
    return Rendered(text, None, view)


def cancel_confirm(table_id: int) -> Rendered:
    view = discord.ui.View(timeout=None)
    view.add_item(
        _button(
            "Yes, cancel the table", custom_id("cancelok", table_id), discord.ButtonStyle.danger
        )
    )
    return Rendered("Cancel this table for everyone? The game is kept but not scored.", None, view)


def leaderboard_embed(board: Leaderboard, guild_name: str, preset: str | None) -> discord.Embed:
    title = f"Leaderboard — {guild_name}" + (f" ({preset})" if preset else "")
    embed = discord.Embed(title=title[:256], colour=COLOUR)
    if not board.top:
        embed.description = "No finished games yet. Start one with `/ohhell start`."
        return embed
    rows = [_board_row(row) for row in board.top]
    if board.caller is not None:
        rows.append("…")
        rows.append(_board_row(board.caller))
    embed.description = "\n".join(rows)[:4096]
    embed.set_footer(text="Ranked by wins, then win rate · avg place · exact bids")
    return embed


def _board_row(row: Any) -> str:
    return (
        f"**{row.rank}.** <@{row.user_id}> — {row.wins} win{'s' if row.wins != 1 else ''} "
        f"in {row.games} ({row.win_rate:.0%}) · avg place {row.average_place:.2f} · "
        f"exact {row.exact_bid_rate:.0%}"
    )


# -- notices in the channel -------------------------------------------------------------------


def action_text(action: Action) -> str:
    """A move as people say it: "bid 2", "chose ♥ hearts as trump", "played Q♠"."""
    if isinstance(action, Bid):
        return f"bid {action.n}"
    if isinstance(action, ChooseTrump):
        return f"chose {SUIT_SYMBOLS[action.suit]} {SUIT_NAMES[action.suit]} as trump"
    return f"played {card_text(action.card)}"


def _trick_line(number: int, trick: Any) -> str:
    plays, winner = trick
    cards = " · ".join(f"{name} {card_text(card)}" for name, card in plays)
    return f"{number}. {cards} → {winner if winner is not None else 'nobody (all cancelled)'}"


def _hand_scored(p: Mapping[str, Any]) -> str:
    title = "Tie-break deal" if p["tiebreak"] else f"Hand {p['hand']}"
    rows = [
        f"{name}: bid {bid}, took {took}, {points:+d} → {total}"
        for name, bid, took, points, total in p["rows"]
    ]
    text = f"**{title} scored**\n" + "\n".join(rows)
    if p["tricks"]:
        tricks = [_trick_line(i, t) for i, t in enumerate(p["tricks"], start=1)]
        text += "\n**Tricks**\n" + "\n".join(tricks)
    return text


def _game_over(p: Mapping[str, Any]) -> str:
    standings = p["standings"]
    winners = [name for place, name, _ in standings if place == 1]
    head = " and ".join(winners) + (" win!" if len(winners) > 1 else " wins!")
    lines = [f"{place}. {name} — {total}" for place, name, total in standings]
    return f"**Game over — {head}**\n" + "\n".join(lines)


def _timed_out(p: Mapping[str, Any]) -> str:
    action = p["action"]
    done = "a computer bid for them" if action is None else f"a computer {action_text(action)}"
    return f"⏰ {p['name']} ran out of time: {done} for them."


NOTICES: dict[str, Callable[[Mapping[str, Any]], str]] = {
    "hand_scored": _hand_scored,
    "game_over": _game_over,
    "timed_out": _timed_out,
    "computer_plays_for": lambda p: (
        f"{p['name']} missed two turns in a row: a computer plays their seat "
        "until they press **I'm back**."
    ),
    "started_without": lambda p: (
        "Started without " + ", ".join(p["names"]) + " (seat not confirmed)."
    ),
    "closed": lambda p: f"This table is closed: {p['reason']}. Start a new one any time.",
    "removed": lambda p: (
        f"{p['name']} was removed from the table"
        + (": a computer player takes the seat." if p["in_game"] else ".")
    ),
    "new_host": lambda p: f"<@{p['user_id']}> is the host of this table now.",
    "paused": lambda p: "⏸ The host paused the game.",
    "resumed": lambda p: "▶ The game goes on.",
    "rematch": lambda p: (
        "Rematch! "
        + " ".join(f"<@{u}>" for u in p["user_ids"])
        + " — press **Join** on the new table to keep your seat."
    ),
}


def notice_text(notice: Notice) -> str:
    return fit(NOTICES[notice.code](notice.params), MESSAGE_LIMIT)


def catch_up_posts(texts: list[str]) -> list[str]:
    """What the channel missed while the bot could not send there, in as few posts as fit."""
    posts: list[str] = []
    current = "**Missed while I could not post here:**"
    for text in texts:
        if len(current) + 2 + len(text) > MESSAGE_LIMIT and current:
            posts.append(current)
            current = ""
        current = f"{current}\n\n{text}" if current else text
    posts.append(fit(current, MESSAGE_LIMIT))
    return posts


# -- refusals and answers -----------------------------------------------------------------------

HOST_DOINGS = {
    "rules": "change the rules",
    "start": "start the game",
    "cancel": "cancel the table",
    "remove": "remove players",
    "host": "hand over the host role",
    "pause": "pause or resume the game",
    "timer": "change the turn timer",
}

REASONS: dict[str, Callable[[Mapping[str, Any]], str]] = {
    # refusals
    "not_for_you": lambda p: NOT_FOR_YOU,
    "not_offered": lambda p: NOT_OFFERED,
    "table_gone": lambda p: "that table no longer exists",
    "table_closed": lambda p: f"that table is {p['status']}",
    "not_seated": lambda p: "you are not seated at this table",
    "not_started": lambda p: "the game has not started yet",
    "rules_invalid": lambda p: f"those rules are not valid: {p['problem']}",
    "channel_busy": lambda p: f"this channel already has an open table (#{p['table_id']})",
    "already_seated": lambda p: "you are already seated at this table",
    "join_first": lambda p: "only seated players can add a computer player: join first",
    "no_level": lambda p: f"there is no computer level {p['level']!r}",
    "no_rule": lambda p: f"there is no rule called {p['field']!r}",
    "rule_invalid": lambda p: f"{p['field']} can't be {p['value']!r}: {p['problem']}",
    "player_count": lambda p: (
        f"these rules need {p['low']} to {p['high']} players; {p['players']} seated"
    ),
    "rules_unplayable": lambda p: str(p["explanation"]),
    "no_card": lambda p: "there is no such card in this game",
    "computer_has_seat": lambda p: (
        "a computer player has your seat: press **I'm back** to take it back"
    ),
    "removed": lambda p: "the host removed you from this game",
    "paused": lambda p: "the game is paused: the host can resume it",
    "earlier_hand": lambda p: "that button is from an earlier hand: use your newest hand message",
    "illegal": lambda p: str(p["explanation"]),
    "already_playing": lambda p: "you are already playing your seat",
    "not_seated_other": lambda p: "that person is not seated at this table",
    "remove_self": lambda p: "you can't remove yourself: use Leave",
    "already_removed": lambda p: f"{p['name']} was already removed",
    "host_must_play": lambda p: "the new host must be a person playing at this table",
    "already_host": lambda p: "they are the host already",
    "already_paused": lambda p: "the game is paused already",
    "already_running": lambda p: "the game is running already",
    "rematch_not_over": lambda p: "a rematch can start once the game is over",
    "rematch_players_only": lambda p: "only the players of this game can start a rematch",
    "manage_channels": lambda p: (
        "only someone with Manage Channels can set this channel's defaults"
    ),
    "already_started": lambda p: "the game has already started",
    "table_full": lambda p: f"the table is full ({p['seats']} seats)",
    "too_many": lambda p: f"these rules take at most {p['high']} players",
    "host_only": lambda p: (
        "only the host (or someone with Manage Channels) can "
        + HOST_DOINGS.get(str(p["doing"]), "do that")
    ),
    "conflict": lambda p: "the table changed at the same moment: look again and retry",
    "timer_choices": lambda p: (
        "the turn timer can be " + ", ".join(timer_text(t) for t in p["timers"])
    ),
    "hook": lambda p: f"the hook: the bids would add up to {p['total']}",
    # answers to whoever acted
    "opened": lambda p: "Table opened.",
    "confirmed": lambda p: "Your seat is confirmed.",
    "joined": lambda p: "You joined the table.",
    "computer_added": lambda p: f"{p['name']} takes a seat.",
    "left_game": lambda p: (
        "You left the game; a computer player takes your seat. "
        "Press **I'm back** on the table message to take it back."
    ),
    "left_closed": lambda p: "You left; the table is closed.",
    "left": lambda p: "You left the table.",
    "rule_set": lambda p: f"{p['field']} set.",
    "begins": lambda p: "The game begins.",
    "cancelled": lambda p: "The table is cancelled.",
    "auto_play": lambda p: f"Auto-play of a forced card is {'on' if p['on'] else 'off'}.",
    "back": lambda p: "Welcome back: your seat is yours again.",
    "removed_player": lambda p: f"{p['name']} is removed from the table.",
    "new_host": lambda p: f"{p['name']} is the host now.",
    "paused_now": lambda p: "Paused.",
    "resumed_now": lambda p: "Resumed.",
    "timer_set": lambda p: f"Turn timer: {timer_text(int(p['seconds']))}.",
    "rematch_opened": lambda p: "Rematch table opened.",
}


def reason_text(reason: Reason) -> str:
    """A refusal's or an answer's words (refusals start lower case: see `refusal`)."""
    wording = REASONS.get(reason.code)
    return wording(reason.params) if wording is not None else reason.code


def answer(reason: Reason | None, default: str = "Done.") -> str:
    """The private answer to whoever acted."""
    return default if reason is None else reason_text(reason)
