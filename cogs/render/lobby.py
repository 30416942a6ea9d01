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
    name_text,
    timer_text,
)
from cogs.render.language import N_, NP_, _, ngettext, number, pgettext


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
PRESET_DEFAULT = N_("(preset's choice)")
"""The option that leaves a rule to the preset (shown as `_(PRESET_DEFAULT)`)."""

RULE_NAMES = {
    "preset": NP_("rule", "preset"),
    "sequence": NP_("rule", "sequence"),
    "max_cards": NP_("rule", "max cards"),
    "bidding": NP_("rule", "bidding"),
    "scoring": NP_("rule", "scoring"),
    "trump": NP_("rule", "trump"),
    "first_lead": NP_("rule", "first lead"),
    "end": NP_("rule", "end"),
    "target": NP_("rule", "target"),
    "ties": NP_("rule", "ties"),
    "pack": NP_("rule", "pack"),
    "exhausted_trump": NP_("rule", "exhausted trump"),
    "ace_no_trumps": NP_("rule", "ace no trumps"),
    "bid_changes": NP_("rule", "bid changes"),
    "spades_double": NP_("rule", "spades double"),
    "blind": NP_("rule", "blind"),
    "duplicates": NP_("rule", "duplicates"),
    "all_cancelled": NP_("rule", "all cancelled"),
}
"""The rules editor's name of each rule, in English (`rule_text` gives it in the language)."""

# Every value RULE_CHOICES holds that is not a number, as the rules editor's menus name it
# (docs/rules.md says what each one means).
RULE_VALUES = frozenset(
    {
        NP_("rule value", "oh-hell"),
        NP_("rule value", "oh-shit"),
        NP_("rule value", "oh-shit-half"),
        NP_("rule value", "classic"),
        NP_("rule value", "nomination"),
        NP_("rule value", "first-to-101"),
        NP_("rule value", "52+joker"),
        NP_("rule value", "down-up"),
        NP_("rule value", "up-down"),
        NP_("rule value", "down"),
        NP_("rule value", "up"),
        NP_("rule value", "up-up"),
        NP_("rule value", "fixed"),
        # Translators: trump: the suit of the card turned up after the deal.
        NP_("rule value", "turned"),
        NP_("rule value", "spades"),
        NP_("rule value", "rotation"),
        # Translators: trump: chosen by the highest bidder.
        NP_("rule value", "bidder"),
        # Translators: a rule is on.
        NP_("rule value", "true"),
        # Translators: a rule is off.
        NP_("rule value", "false"),
        NP_("rule value", "forbidden"),
        NP_("rule value", "dealer-last"),
        NP_("rule value", "before-deal"),
        # Translators: no such rule: trump may always be led; no hand is played blind.
        NP_("rule value", "none"),
        NP_("rule value", "hook"),
        NP_("rule value", "open"),
        NP_("rule value", "secret"),
        NP_("rule value", "knock"),
        # Translators: who leads the first trick: the dealer.
        NP_("rule value", "dealer"),
        # Translators: who leads the first trick: the player left of the dealer.
        NP_("rule value", "left"),
        NP_("rule value", "exact-tens"),
        NP_("rule value", "tricks-plus-ten"),
        NP_("rule value", "five-and-tens"),
        NP_("rule value", "squares"),
        NP_("rule value", "ten-plus-bid"),
        NP_("rule value", "basic"),
        NP_("rule value", "progressive"),
        NP_("rule value", "negative"),
        NP_("rule value", "adjusted-basic"),
        NP_("rule value", "adjusted-basic-2"),
        # Translators: the game ends when the sequence of hands is played.
        NP_("rule value", "sequence"),
        # Translators: the game ends when someone reaches the target score.
        NP_("rule value", "target"),
        NP_("rule value", "extra-hand"),
        NP_("rule value", "tiebreakers"),
        NP_("rule value", "share"),
        NP_("rule value", "first-wins"),
        NP_("rule value", "later-wins"),
        # Translators: duplicate cards cancel each other.
        NP_("rule value", "cancel"),
        NP_("rule value", "up-the-ante"),
        NP_("rule value", "first-highest"),
        # Translators: blind: the last hand is played blind.
        NP_("rule value", "last"),
        # Translators: blind: every hand is played blind.
        NP_("rule value", "all"),
        # Translators: max cards: as many as the pack deals to each player.
        NP_("rule value", "pack"),
    }
)


def rule_text(field: str) -> str:
    """A rule's name in the language being spoken: "max cards"."""
    name = RULE_NAMES.get(field)
    return field.replace("_", " ") if name is None else pgettext("rule", name)


def value_text(value: str) -> str:
    """A rule's value (a preset's name too) in the language being spoken; numbers as they
    are."""
    return pgettext("rule value", value) if value in RULE_VALUES else value


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
                discord.SelectOption(
                    label=_(PRESET_DEFAULT)[:100], value="-", default=chosen is None
                )
            )
        for value in RULE_CHOICES[field]:
            options.append(
                discord.SelectOption(
                    label=value_text(value)[:100],
                    value=value,
                    default=(chosen_text == value)
                    or (field == "preset" and settings.preset == value),
                )
            )
        shown = _("preset's choice") if chosen_text is None else value_text(chosen_text)
        # Translators: a menu's placeholder: "max cards: preset's choice".
        placeholder = _("{rule}: {value}").format(rule=rule_text(field), value=shown)
        view.add_item(
            control(
                discord.ui.Select(
                    custom_id=select_id("rule", table_id, None, field),
                    placeholder=placeholder[:150],
                    options=options[:25],
                )
            )
        )
    for p in range(len(RULE_PAGES)):
        view.add_item(
            button(
                # Translators: a button label: a page of the rules editor.
                _("Page {page}").format(page=number(p + 1)),
                custom_id("rulepg", table_id, None, p),
                discord.ButtonStyle.primary if p == page else discord.ButtonStyle.secondary,
                disabled=p == page,
                row=4,
            )
        )
    text = ngettext(
        "**Rules editor** (page {page} of {pages}) — each menu shows the current "
        "choice. Changes apply to the lobby at once.",
        "**Rules editor** (page {page} of {pages}) — each menu shows the current "
        "choice. Changes apply to the lobby at once.",
        len(RULE_PAGES),
    ).format(page=number(page + 1), pages=number(len(RULE_PAGES)))
    return Rendered(text, None, view)


LEVEL_CHOICES = (
    ("easy", NP_("computer level", "Easy"), N_("Simple, quick; good for beginners")),
    ("normal", NP_("computer level", "Normal"), N_("Counts cards, bids carefully")),
    ("hard", NP_("computer level", "Hard"), N_("Searches possible deals; thinks up to 1 s")),
)
"""The computer levels one may add: value, label, description (option labels ≤ 100, option
descriptions ≤ 100 characters)."""


def computer_level_picker(table_id: int) -> Rendered:
    view = discord.ui.View(timeout=None)
    view.add_item(
        control(
            discord.ui.Select(
                custom_id=select_id("cpulevel", table_id),
                placeholder=_("Choose a level")[:150],
                options=[
                    discord.SelectOption(
                        label=pgettext("computer level", label)[:100],
                        value=value,
                        description=_(description)[:100],
                    )
                    for value, label, description in LEVEL_CHOICES
                ],
            )
        )
    )
    return Rendered(_("Add which computer player?"), None, view)


def host_panel(table: TableView) -> Rendered:
    """The host's controls (an ephemeral message): remove a player, hand over the host role,
    the turn timer, pause or resume, cancel."""
    view = discord.ui.View(timeout=None)
    t = table.table_id
    people = [s for s in table.seats if s.user_id is not None and s.user_id != table.host_id]
    for kind, placeholder, choices in (
        ("kick", _("Remove a player…"), [s for s in people if s.away != "kicked"]),
        (
            "hostto",
            _("Hand the host role to…"),
            [s for s in people if not s.left and not s.pending],
        ),
    ):
        if not choices:
            continue
        view.add_item(
            control(
                discord.ui.Select(
                    custom_id=select_id(kind, t),
                    placeholder=placeholder[:150],
                    options=[
                        discord.SelectOption(label=name_text(s.name)[:100], value=str(s.user_id))
                        for s in choices[:25]
                    ],
                )
            )
        )
    # Translators: {timer} is "off", "30 s", "2 min"…
    timer = _("Turn timer: {timer}")
    view.add_item(
        control(
            discord.ui.Select(
                custom_id=select_id("timer", t),
                placeholder=timer.format(timer=timer_text(table.turn_timer))[:150],
                options=[
                    discord.SelectOption(
                        label=timer.format(timer=timer_text(seconds))[:100],
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
                button(
                    pgettext("button", "Resume"),
                    custom_id("resume", t),
                    discord.ButtonStyle.success,
                    row=3,
                )
            )
        else:
            view.add_item(button(pgettext("button", "Pause"), custom_id("pause", t), row=3))
    view.add_item(
        button(
            pgettext("button", "Cancel the table"),
            custom_id("cancel", t),
            discord.ButtonStyle.danger,
            row=3,
        )
    )
    text = _(
        "**Host controls** — a removed player's seat goes to a computer player in a game; "
        "pausing stops play and the turn timer."
    )
    return Rendered(text, None, view)


def leave_confirm(table: TableView) -> Rendered:
    view = discord.ui.View(timeout=None)
    view.add_item(
        button(
            pgettext("button", "Yes, leave"),
            custom_id("leaveok", table.table_id),
            discord.ButtonStyle.danger,
        )
    )
    if table.status is TableStatus.PLAYING:
        text = _(
            "Leave the game? A computer player takes your seat, cards and score, and the game "
            "counts for you as left unless you come back with **I'm back**."
        )
    else:
        text = _("Leave this table?")
    return Rendered(text, None, view)


def cancel_confirm(table_id: int) -> Rendered:
    view = discord.ui.View(timeout=None)
    view.add_item(
        button(
            pgettext("button", "Yes, cancel the table"),
            custom_id("cancelok", table_id),
            discord.ButtonStyle.danger,
        )
    )
    text = _("Cancel this table for everyone? The game is kept but not scored.")
    return Rendered(text, None, view)
