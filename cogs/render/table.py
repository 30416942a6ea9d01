"""The table message and the score sheet."""

from __future__ import annotations

import discord

from bot.engine import Phase
from bot.service import (
    TableStatus,
    TableView,
)
from cogs.items import custom_id
from cogs.render.common import (
    COLOUR,
    MAX_TRICK_LINES,
    Rendered,
    button,
    card_text,
    fit,
    relative_time,
    timer_text,
    trump_text,
)
from cogs.render.reasons import (
    reason_text,
)
from cogs.render.rules import closed_text, rules_source_text, rules_summary


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
        rules = "\n".join(rules_summary(table))
        rules += f"\nTurn timer: {timer_text(table.turn_timer)}"
        if table.rules_source:
            rules += f"\n*Rules from {rules_source_text(table.rules_source)}.*"
        embed.add_field(name="Rules", value=rules[:1024], inline=False)
        if table.start_problem:
            embed.set_footer(text=fit(f"Start: {reason_text(table.start_problem)}", 2048))
        view = discord.ui.View(timeout=None)
        t = table.table_id
        view.add_item(button("Join", custom_id("join", t), discord.ButtonStyle.success))
        view.add_item(button("Leave", custom_id("leave", t)))
        view.add_item(button("Add computer player", custom_id("addcpu", t)))
        view.add_item(button("Rules", custom_id("rules", t), row=1))
        view.add_item(
            button(
                "Start",
                custom_id("start", t),
                discord.ButtonStyle.primary,
                disabled=table.start_problem is not None,
                row=1,
            )
        )
        view.add_item(button("Cancel", custom_id("cancel", t), discord.ButtonStyle.danger, row=1))
        view.add_item(button("Host", custom_id("hostctl", t), row=1))
        return Rendered(None, embed, view)

    if game is None:
        embed.description = f"This table is {table.status.value}."
        if table.closed_reason:
            embed.description += f": {closed_text(table.closed_reason)}."
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
            + (f": {closed_text(table.closed_reason)}." if table.closed_reason else "."),
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
        view.add_item(button("Rematch", custom_id("rematch", t), discord.ButtonStyle.success))
        return Rendered(None, embed, view)
    if table.status is not TableStatus.PLAYING:
        return Rendered(None, embed, None)
    view = discord.ui.View(timeout=None)
    view.add_item(button("My hand", custom_id("hand", t), discord.ButtonStyle.primary))
    view.add_item(button("Scores", custom_id("scores", t)))
    if any(s.left and s.away != "kicked" and s.user_id is not None for s in table.seats):
        view.add_item(button("I'm back", custom_id("back", t), discord.ButtonStyle.success))
    view.add_item(button("Host", custom_id("hostctl", t)))
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
