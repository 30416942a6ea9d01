"""The lobby's private editors: rules, computer level, host controls, confirmations."""

from __future__ import annotations

import typing

import discord

from bot.engine import PRESETS, Settings
from bot.service import (
    TableStatus,
    TableView,
)
from bot.service.document import TURN_TIMERS
from cogs.items import control, custom_id, select_id
from cogs.render.common import (
    Rendered,
    button,
    timer_text,
)


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
            control(
                discord.ui.Select(
                    custom_id=select_id("rule", table_id, None, field),
                    placeholder=f"{field.replace('_', ' ')}: {_or_preset(chosen)}",
                    options=options[:25],
                )
            )
        )
    for p in range(len(RULE_PAGES)):
        view.add_item(
            button(
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
        control(
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
            control(
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
        control(
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
                button("Resume", custom_id("resume", t), discord.ButtonStyle.success, row=3)
            )
        else:
            view.add_item(button("Pause", custom_id("pause", t), row=3))
    view.add_item(
        button("Cancel the table", custom_id("cancel", t), discord.ButtonStyle.danger, row=3)
    )
    text = (
        "**Host controls** — a removed player's seat goes to a computer player in a game; "
        "pausing stops play and the turn timer."
    )
    return Rendered(text, None, view)


def leave_confirm(table: TableView) -> Rendered:
    view = discord.ui.View(timeout=None)
    view.add_item(
        button("Yes, leave", custom_id("leaveok", table.table_id), discord.ButtonStyle.danger)
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
        button("Yes, cancel the table", custom_id("cancelok", table_id), discord.ButtonStyle.danger)
    )
    return Rendered("Cancel this table for everyone? The game is kept but not scored.", None, view)
