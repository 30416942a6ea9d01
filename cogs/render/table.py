"""The table message and the score sheet."""

from __future__ import annotations

from dataclasses import dataclass

import discord

from bot.engine import Phase
from bot.service import (
    TableStatus,
    TableView,
)
from cogs.items import custom_id
from cogs.render.common import (
    COLOUR,
    FIELD_LIMIT,
    MAX_TRICK_LINES,
    Rendered,
    button,
    card_text,
    fit,
    link_button,
    name_text,
    relative_time,
    timer_text,
    trump_text,
)
from cogs.render.hand import game_closed_text
from cogs.render.language import N_, _, ngettext, number, pgettext
from cogs.render.lobby import value_text
from cogs.render.reasons import (
    reason_text,
)
from cogs.render.rules import closed_text, rules_source_text, rules_summary

# A table closed before its game began, by TableStatus value.
_TABLE_IS = {
    "cancelled": (N_("This table is cancelled."), N_("This table is cancelled: {reason}.")),
    "abandoned": (N_("This table is abandoned."), N_("This table is abandoned: {reason}.")),
    "finished": (N_("This table is finished."), N_("This table is finished: {reason}.")),
}


@dataclass(frozen=True)
class TablePages:
    """The web pages a table message links to (none when the bot serves no pages): the live
    table while it is open, the replay once its game is finished."""

    watch: str | None = None
    replay: str | None = None
    activity: bool = False
    """Whether the bot's Activity is on (sign-in set up): the open table's message then offers
    Play at the table beside Watch."""


NO_PAGES = TablePages()


def hand_heading(hand: int, cards: int, dealer: str, trump: str) -> str:
    """A hand's first line: "Hand 3 · 5 cards each · dealer Ann · trump: ♥ hearts"."""
    # Translators: the table message's first line; {trump} is "♥ hearts", "no trumps"…
    return ngettext(
        "Hand {hand} · {cards} card each · dealer {dealer} · trump: {trump}",
        "Hand {hand} · {cards} cards each · dealer {dealer} · trump: {trump}",
        cards,
    ).format(hand=number(hand), cards=number(cards), dealer=dealer, trump=trump)


def table_message(table: TableView, pages: TablePages = NO_PAGES) -> Rendered:
    # Translators: the table message's title; {preset} is the rules' preset: "oh-hell".
    title = _("Oh Hell — {preset}").format(preset=value_text(table.preset))
    embed = discord.Embed(title=title, colour=COLOUR)
    game = table.game
    if table.status is TableStatus.LOBBY:
        return _lobby(table, embed, pages)
    if game is None:
        embed.description = closed_table_text(table)
        return Rendered(None, embed, None)

    names = [name_text(seat.name) for seat in table.seats]
    cards = game.cards_each
    header = hand_heading(
        game.hand_number,
        cards,
        names[game.dealer],
        trump_text(game.trump, game.trump_decided, game.turned),
    )
    if game.blind:
        header += "\n" + _(
            "Blind hand: everyone sees the others' cards in their DM, not their own."
        )
    lines = []
    for seat in range(len(table.seats)):
        total = number(game.totals[seat])
        if seat not in game.seats_in_hand:
            # Translators: {seat} is a player's name (and how they play); {total} their score.
            lines.append(
                _("{seat} — sits out · total {total}").format(
                    seat=seat_label(table, seat), total=total
                )
            )
            continue
        bid = game.bids[seat]
        if bid is not None:
            # Translators: a player's bid on the table message: "bid 2".
            bid_text = _("bid {bid}").format(bid=number(bid))
        elif game.has_bid[seat]:
            # Translators: a player has bid, their bid is hidden until all have bid.
            bid_text = _("has bid")
        else:
            bid_text = _("bidding…") if game.phase is Phase.BIDDING else "—"
        marker = "▶ " if seat in game.to_act and game.phase is not Phase.GAME_OVER else ""
        # Translators: a player's line; {bid} is "bid 2", "has bid", "bidding…" or "—".
        line = _("{seat} — {bid} · took {took} · total {total}").format(
            seat=seat_label(table, seat),
            bid=bid_text,
            took=number(game.tricks_won[seat]),
            total=total,
        )
        lines.append(marker + line)
    embed.description = header
    embed.add_field(name=_("Players"), value="\n".join(lines)[:1024], inline=False)
    if game.phase is Phase.BIDDING and any(b is None for b in game.bids):
        embed.add_field(name=_("Bidding"), value=_bidding(table), inline=False)
    if game.trick:
        trick = " · ".join(f"{names[s]} {card_text(c)}" for s, c in game.trick)
        embed.add_field(name=_("On the table"), value=trick[:1024], inline=False)
    if game.tricks:
        done_lines = []
        for place, trick_view in enumerate(game.tricks, start=1):
            played = " ".join(card_text(c) for c in trick_view.cards)
            # Translators: who won a trick whose every card was cancelled.
            winner = names[trick_view.winner] if trick_view.winner is not None else _("nobody")
            worth = " (×2)" if trick_view.value > 1 else ""
            done_lines.append(f"{number(place)}. {played} → **{winner}**{worth}")
        embed.add_field(name=_("Tricks this hand"), value=_newest_tricks(done_lines), inline=False)
    if game.phase is Phase.GAME_OVER and game.placing is not None:
        embed.add_field(name=_("Final standings"), value=_standings(table)[:1024], inline=False)
    elif table.paused:
        embed.add_field(
            name=pgettext("game state", "Paused"),
            value="⏸ " + _("The host paused the game."),
            inline=False,
        )
    elif game.to_act:
        waiting = ", ".join(_mention(table, s) for s in game.to_act)
        if table.deadline is not None:
            # Translators: {waiting} names whoever must act; {when} is shown as "in 2 minutes".
            waiting = _("{waiting} — time runs out {when}").format(
                waiting=waiting, when=relative_time(table.deadline)
            )
        embed.add_field(name=_("Waiting for"), value=waiting[:1024], inline=False)
    if table.status in (TableStatus.CANCELLED, TableStatus.ABANDONED):
        embed.add_field(name=_("Closed"), value=game_closed_text(table), inline=False)
    if table.dms_closed:
        closed = " ".join(f"<@{u}>" for u in table.dms_closed)
        embed.add_field(
            # Translators: a heading: the bot cannot send these players a direct message.
            name=_("Can't DM"),
            # Translators: {mentions} mentions players; **My hand** is the button's label.
            value=_("{mentions}: your DMs are closed — press **My hand** to play here.").format(
                mentions=closed
            )[:1024],
            inline=False,
        )
    t = table.table_id
    if table.status is TableStatus.FINISHED:
        view = discord.ui.View(timeout=None)
        view.add_item(
            button(
                pgettext("button", "Rematch"),
                custom_id("rematch", t),
                discord.ButtonStyle.success,
            )
        )
        if pages.replay is not None:
            # Translators: a button that opens the finished game's replay on a web page.
            view.add_item(link_button(pgettext("button", "Replay"), pages.replay))
        return Rendered(None, embed, view)
    if table.status is not TableStatus.PLAYING:
        return Rendered(None, embed, None)
    view = discord.ui.View(timeout=None)
    view.add_item(
        button(pgettext("button", "My hand"), custom_id("hand", t), discord.ButtonStyle.primary)
    )
    view.add_item(button(pgettext("button", "Scores"), custom_id("scores", t)))
    if any(s.left and s.away != "kicked" and s.user_id is not None for s in table.seats):
        view.add_item(
            button(
                pgettext("button", "I'm back"), custom_id("back", t), discord.ButtonStyle.success
            )
        )
    view.add_item(button(pgettext("button", "Host"), custom_id("hostctl", t)))
    _add_watch(view, pages, t)
    return Rendered(None, embed, view)


def _add_watch(
    view: discord.ui.View, pages: TablePages, table_id: int, row: int | None = None
) -> None:
    """Play at the table (with the Activity on) and Watch (with the pages)."""
    if pages.activity and pages.watch is not None:
        # Translators: a button that opens the table inside Discord, to play it by clicking
        # cards (Discord's Activity).
        label = pgettext("button", "Play at the table")
        view.add_item(button(label, custom_id("activity", table_id), row=row))
    url = pages.watch
    if url is not None:
        # Translators: a button that opens the table, live, on a web page.
        view.add_item(link_button(pgettext("button", "Watch"), url, row=row))


def _lobby(table: TableView, embed: discord.Embed, pages: TablePages) -> Rendered:
    """The table message while players gather: seats, rules, and the lobby's buttons."""
    low, high = table.player_range
    seats = "\n".join(f"{i + 1}. {seat_label(table, i)}" for i in range(len(table.seats))) or "—"
    seated = len(table.seats)
    # Translators: {low}–{high} is how many players the rules allow; {host} mentions the host.
    embed.description = ngettext(
        "Waiting for players ({seated} seated; these rules take {low}–{high}). Host: {host}",
        "Waiting for players ({seated} seated; these rules take {low}–{high}). Host: {host}",
        seated,
    ).format(seated=number(seated), low=number(low), high=number(high), host=f"<@{table.host_id}>")
    if table.expires is not None:
        # Translators: {when} is a moment Discord shows as "in 10 minutes".
        embed.description += "\n" + _("Closes {when} unless it starts.").format(
            when=relative_time(table.expires)
        )
    embed.add_field(name=_("Seats"), value=seats[:1024], inline=False)
    rules = "\n".join(rules_summary(table))
    # Translators: {timer} is "off", "30 s", "2 min"…
    rules += "\n" + _("Turn timer: {timer}").format(timer=timer_text(table.turn_timer))
    if table.rules_source:
        # Translators: where the rules come from: "this channel's defaults"…
        source = _("Rules from {source}.").format(source=rules_source_text(table.rules_source))
        rules += f"\n*{source}*"
    embed.add_field(name=_("Rules"), value=rules[:1024], inline=False)
    if table.start_problem:
        # Translators: a footer: why the game cannot start yet.
        problem = _("Start: {problem}").format(problem=reason_text(table.start_problem))
        embed.set_footer(text=fit(problem, 2048))
    view = discord.ui.View(timeout=None)
    t = table.table_id
    view.add_item(
        button(pgettext("button", "Join"), custom_id("join", t), discord.ButtonStyle.success)
    )
    view.add_item(button(pgettext("button", "Leave"), custom_id("leave", t)))
    view.add_item(button(pgettext("button", "Add computer player"), custom_id("addcpu", t)))
    _add_watch(view, pages, t, row=0)
    view.add_item(button(pgettext("button", "Rules"), custom_id("rules", t), row=1))
    view.add_item(
        button(
            pgettext("button", "Start"),
            custom_id("start", t),
            discord.ButtonStyle.primary,
            disabled=table.start_problem is not None,
            row=1,
        )
    )
    view.add_item(
        button(
            pgettext("button", "Cancel"),
            custom_id("cancel", t),
            discord.ButtonStyle.danger,
            row=1,
        )
    )
    view.add_item(button(pgettext("button", "Host"), custom_id("hostctl", t), row=1))
    return Rendered(None, embed, view)


def closed_table_text(table: TableView) -> str:
    """A table that closed with no game: its state, and why when the bot closed it."""
    plain, reasoned = _TABLE_IS.get(
        table.status.value, (N_("This table is closed."), N_("This table is closed: {reason}."))
    )
    if table.closed_reason:
        return _(reasoned).format(reason=closed_text(table.closed_reason))
    return _(plain)


def _bidding(table: TableView) -> str:
    """How far the bidding is: "1 of 4 has bid", "(round 2)" when bids go round again."""
    game = table.game
    assert game is not None
    done = sum(game.has_bid[s] for s in game.seats_in_hand)
    if game.bid_round > 1:
        # Translators: {done} of the {seats} players have bid; {round} counts the rounds of
        # bidding (when players may change bids).
        text = ngettext(
            "{done} of {seats} has bid (round {round})",
            "{done} of {seats} have bid (round {round})",
            done,
        )
    else:
        # Translators: {done} of the {seats} players have bid.
        text = ngettext("{done} of {seats} has bid", "{done} of {seats} have bid", done)
    return text.format(
        done=number(done), seats=number(len(game.seats_in_hand)), round=number(game.bid_round)
    )


AWAY_LABELS = {
    "left": N_("left; a computer plays"),
    "timeout": N_("away; a computer plays until they're back"),
    "kicked": N_("removed; a computer plays"),
}
"""Why a computer plays a person's seat, shown beside their name."""


def seat_label(table: TableView, seat: int) -> str:
    s = table.seats[seat]
    name = name_text(s.name)
    if s.pending:
        # Translators: a seat kept for a player of the last game; Join is the button's label.
        return _("{name} (seat kept: press Join to confirm)").format(name=name)
    if s.left:
        away = _(AWAY_LABELS.get(s.away or "left", AWAY_LABELS["left"]))
        # Translators: {name} is a player's name; {away} why a computer plays their seat.
        return _("{name} ({away})").format(name=name, away=away)
    return name


def _mention(table: TableView, seat: int) -> str:
    s = table.seats[seat]
    return name_text(s.name) if s.user_id is None or s.left else f"<@{s.user_id}>"


def _standings(table: TableView) -> str:
    game = table.game
    assert game is not None and game.placing is not None
    placing = game.placing
    order = sorted(range(len(table.seats)), key=lambda s: (placing[s], s))
    return "\n".join(
        f"{number(placing[s])}. {name_text(table.seats[s].name)} — {number(game.totals[s])}"
        for s in order
    )


def _newest_tricks(lines: list[str]) -> str:
    """The newest tricks' lines that fit a field (at most `MAX_TRICK_LINES`), after a line
    counting the earlier ones: whole lines, the newest kept."""
    kept = min(len(lines), MAX_TRICK_LINES)
    while True:
        hidden = len(lines) - kept
        earlier = ngettext("({count} earlier trick)", "({count} earlier tricks)", hidden)
        head = [earlier.format(count=number(hidden))] if hidden else []
        text = "\n".join(head + lines[len(lines) - kept :])
        if len(text) <= FIELD_LIMIT or kept <= 1:
            return fit(text, FIELD_LIMIT)
        kept -= 1


def scores_text(table: TableView) -> str:
    game = table.game
    if game is None:
        return _("The game has not started yet.")
    played = game.hand_number - 1
    title = (
        ngettext("Scores after {count} hand", "Scores after {count} hands", played).format(
            count=number(played)
        )
        if game.phase is not Phase.GAME_OVER
        else _("Final scores")
    )
    order = sorted(
        range(len(table.seats)),
        key=lambda s: (game.totals[s] if game.lowest_wins else -game.totals[s], s),
    )
    lines = [f"**{title}**"]
    lines += [f"{name_text(table.seats[s].name)}: {number(game.totals[s])}" for s in order]
    return "\n".join(lines)
