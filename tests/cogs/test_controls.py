"""A table's controls: every custom_id the renderers put on a message belongs to exactly one
family and reaches a method of the table controller with its values read; a forged one matches no
family, or its family refuses it, before anything is called."""

from __future__ import annotations

import dataclasses
import re
from typing import Any

import discord
import pytest

from bot.engine import Bid, Card, ChooseTrump, Play
from bot.engine.cards import HIDDEN
from bot.service import Refused, TableService, TableStatus
from cogs import render
from cogs.clicks import TableController
from cogs.items import FAMILIES, BoardButton, CardChoice, HistoryPageButton, claimed, family_of
from cogs.items.table import Control, MoveButton
from tests.cogs.test_hand_controls import _joker_hand, _state
from tests.databases import sqlite_only

ANN, BOB, CAT = 101, 102, 103
EVERY_FAMILY = (*FAMILIES, HistoryPageButton, BoardButton)
KINDS = re.compile(r"\(\?P<kind>([a-z|]+)\)")


class Recorder:
    """In the table controller's place: each method a control calls is recorded with the values
    it passes. Only the controller's own methods can be called."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, tuple[Any, ...]]] = []

    def __getattr__(self, name: str) -> Any:
        if not callable(getattr(TableController, name, None)):
            raise AttributeError(name)

        async def record(interaction: object, *values: Any) -> None:
            self.calls.append((name, values))

        return record


database_url = sqlite_only


async def rendered_views(service: TableService) -> list[discord.ui.View]:
    """Every message with controls, from a table's lobby to its end: the table message, the
    lobby's and the host's private answers, hand messages of every kind."""
    opened = await service.lobby.open_table(
        guild_id=1, channel_id=10, user_id=ANN, name="Ann", settings={"preset": "classic"}
    )
    t = opened.table.table_id
    await service.lobby.join(t, BOB, "Bob")
    lobby = await service.lookups.table_view(t)
    rules = await service.lookups.rules(t)
    # With the Activity on: Play at the table beside Watch (a link, no control).
    activity = render.TablePages(watch="https://ohhell.example.org/t/x", activity=True)
    views = [
        render.table_message(lobby).view,
        render.table_message(lobby, activity).view,
        *(render.rules_editor(t, rules, page).view for page in range(len(render.RULE_PAGES))),
        render.computer_level_picker(t).view,
        render.host_panel(lobby).view,
        render.leave_confirm(lobby).view,
        render.cancel_confirm(t).view,
    ]
    await service.lobby.join(t, CAT, "Cat")
    await service.lobby.start_game(t, ANN)
    playing = await service.lookups.table_view(t)
    views += [render.table_message(playing).view, render.host_panel(playing).view]
    paused = (await service.host.set_paused(t, ANN, True)).table
    views.append(render.host_panel(paused).view)
    away = (await service.lobby.leave(t, BOB)).table
    views.append(render.table_message(away).view)
    finished = dataclasses.replace(away, status=TableStatus.FINISHED)
    views.append(render.table_message(finished).view)
    hands = [
        await service.lookups.hand_state(t, ANN),
        await service.lookups.hand_state(t, BOB),  # away: I'm back
        _state(bids=8),
        _state(bids=27),
        _state(cards=13),
        _state(cards=30),
        _state(cards=3, trump_options=("C", "H")),
        _state(cards=2, blind_cards=(("Bob", Card("2", "C")),)),
        _joker_hand(3, trump=None, joker_suits=("C", "D", "H", "S")),
    ]
    views += [render.hand_message(state, playing, "#cards").view for state in hands]
    return [view for view in views if view is not None]


def components(view: discord.ui.View) -> list[dict[str, Any]]:
    return [c for row in view.to_components() for c in row["components"]]


def as_clicked(component: dict[str, Any]) -> discord.ui.Button[Any] | discord.ui.Select[Any]:
    """The component as discord.py rebuilds it from a clicked message; a select with its first
    option chosen, recorded as discord.py records a click's values (`_refresh_state`)."""
    if component["type"] == 2:
        return discord.ui.Button(label=component["label"], custom_id=component["custom_id"])
    options = [
        discord.SelectOption(label=o["label"], value=o["value"]) for o in component["options"]
    ]
    select: discord.ui.Select[Any] = discord.ui.Select(
        custom_id=component["custom_id"], options=options
    )
    select._refresh_state(None, {"values": [options[0].value]})  # type: ignore[arg-type]
    return select


async def clicked(family: type[Control[Any]], item: discord.ui.Item[Any]) -> Control[Any]:
    match = family.pattern().fullmatch(item.custom_id)  # type: ignore[attr-defined]
    assert match is not None
    return await family.from_custom_id(None, item, match)  # type: ignore[arg-type]


async def test_every_control_rendered_belongs_to_one_family_and_reaches_its_method(
    service: TableService,
) -> None:
    seen: set[tuple[type[Control[Any]], str]] = set()
    for view in await rendered_views(service):
        for component in components(view):
            if component.get("style") == discord.ButtonStyle.link.value:
                continue  # a page's link: no control
            text = component["custom_id"]
            families = [
                f for f in EVERY_FAMILY if f.__discord_ui_compiled_template__.fullmatch(text)
            ]
            assert len(families) == 1, (text, families)
            family = families[0]
            assert family in FAMILIES, text
            control = await clicked(family, as_clicked(component))
            recorder = Recorder()
            await control.handle(recorder, None)  # type: ignore[arg-type]
            [(method, values)] = recorder.calls
            table_id, *rest = values
            assert isinstance(table_id, int) and table_id > 0, (text, values)
            if method == "act":
                hand, move = rest
                assert isinstance(hand, int) and isinstance(
                    move, (Bid, ChooseTrump, Play, CardChoice)
                )
            seen.add((family, control.kind))
    declared = {
        (family, kind)
        for family in FAMILIES
        for group in KINDS.findall(family.pattern().pattern)
        for kind in group.split("|")
    }
    assert seen == declared  # every kind rendered is declared, and every declared one rendered
    # Each kind is one family's.
    kinds = [kind for _, kind in declared]
    assert len(kinds) == len(set(kinds))


def read(text: str, values: tuple[str, ...] = ()) -> Control[Any]:
    """The control a click on `text` rebuilds; a select offering `values`, the first chosen."""
    family = family_of(text)
    assert family is not None, text
    match = family.pattern().fullmatch(text)
    assert match is not None
    if not values:
        return family.read(discord.ui.Button(custom_id=text), match)
    component = {
        "type": 3,
        "custom_id": text,
        "options": [{"label": value, "value": value} for value in values],
    }
    return family.read(as_clicked(component), match)


@pytest.mark.parametrize(
    ("text", "method", "values"),
    [
        ("oh:join:7", "join", (7,)),
        ("oh:leaveok:7", "confirm_leave", (7,)),
        ("oh:rulepg:7:0:3", "rules_page", (7, 3)),
        ("oh:back:7", "come_back", (7,)),
        ("oh:auto:7:0:1", "set_auto_play", (7, True)),
        ("oh:auto:7:0:0", "set_auto_play", (7, False)),
        ("oh:bid:7:3:12", "act", (7, 3, Bid(12))),
        ("oh:play:7:3:17", "act", (7, 3, CardChoice(17))),
        ("oh:play:7:3:52-2", "act", (7, 3, CardChoice(52, 2))),
        ("oh:play:7:3:hidden", "act", (7, 3, Play(HIDDEN))),
        ("oh:trump:7:3:S", "act", (7, 3, ChooseTrump("S"))),
    ],
)
async def test_a_button_hands_its_values_read(
    text: str, method: str, values: tuple[Any, ...]
) -> None:
    recorder = Recorder()
    await read(text).handle(recorder, None)  # type: ignore[arg-type]
    assert recorder.calls == [(method, values)]


@pytest.mark.parametrize(
    ("text", "value", "method", "values"),
    [
        ("os:bidsel:7:3:25", "30", "act", (7, 3, Bid(30))),
        ("os:playsel:7:3:H", "31", "act", (7, 3, CardChoice(31))),
        ("os:kick:7", str(BOB), "kick", (7, BOB)),
        ("os:hostto:7", str(BOB), "hand_over", (7, BOB)),
        ("os:timer:7", "120", "set_turn_timer", (7, 120)),
        ("os:cpulevel:7", "hard", "add_computer", (7, "hard")),
        ("os:rule:7:0:max_cards", "3", "set_rule", (7, "max_cards", "3")),
    ],
)
async def test_a_select_hands_its_values_read(
    text: str, value: str, method: str, values: tuple[Any, ...]
) -> None:
    recorder = Recorder()
    await read(text, (value, "other")).handle(recorder, None)  # type: ignore[arg-type]
    assert recorder.calls == [(method, values)]


# A forged id in each family: a number that is not plain digits or too long, a kind no family
# has, a hand on a control that takes none (or none where one is needed), a part too many.
FORGED = [
    "oh:join:7:3",
    "oh:join:7:0:1",
    "oh:jion:7",
    "oh:join:٣",
    "oh:join:x",
    "oh:join:1234567890123",
    "oh:join:7 ",
    "oh:rulepg:7:1:2",
    "oh:rulepg:7",
    "oh:rulepg:7:0:x",
    "oh:rulepg:7:0:²",
    "oh:back:7:3",
    "oh:back:7:0:1",
    "oh:back:x",
    "oh:auto:7:3:1",
    "oh:auto:7:0:2",
    "oh:auto:7",
    "oh:bid:7:1",
    "oh:bid:7",
    "oh:bid:7:x:1",
    "oh:bid:7:٣:1",
    "oh:bod:7:1:1",
    "oh:play:7:1:1:2",
    "os:bidsel:7:0",
    "os:bidsel:7",
    "os:playsel:7:1:X",
    "os:bid:7:1:0",
    "oh:bidsel:7:1:0",
    "os:kick:7:1",
    "os:kick:7:0:1",
    "os:kik:7",
    "os:timer:x",
    "os:cpulevel:7:0:hard",
    "os:cpulevel:٧",
    "os:rule:7:1:preset",
    "os:rule:7",
    "os:rule:7:0:Preset",
    "os:rule:7:0:pre set",
    "oh:drop:7",
    "garbage",
]


@pytest.mark.parametrize("forged", FORGED)
def test_a_forged_id_is_no_familys(forged: str) -> None:
    """The client answers it (not for you), and nothing is called."""
    assert family_of(forged) is None and not claimed(forged)


@pytest.mark.parametrize(
    "forged",
    [
        "oh:bid:7:1:x",
        "oh:bid:7:1:C",
        "oh:trump:7:1:9",
        "oh:trump:7:1:c",
        "oh:play:7:1:52-4",
        "oh:play:7:1:52-",
        "oh:play:7:1:x",
    ],
)
async def test_a_move_of_another_kinds_arg_is_refused(forged: str) -> None:
    control = read(forged)
    assert isinstance(control, MoveButton) and claimed(forged)
    recorder = Recorder()
    with pytest.raises(Refused, match="not_for_you"):
        await control.handle(recorder, None)  # type: ignore[arg-type]
    assert recorder.calls == []


@pytest.mark.parametrize(
    ("text", "offered", "chosen", "code"),
    [
        ("os:kick:7", ("²", "5"), ["²"], "not_for_you"),
        ("os:timer:7", ("٣",), ["٣"], "not_for_you"),
        ("os:bidsel:7:3:0", ("x",), ["x"], "not_for_you"),
        ("os:playsel:7:3:H", ("52-2",), ["52-2"], "not_for_you"),
        ("os:kick:7", ("5",), ["6"], "not_offered"),
        ("os:cpulevel:7", ("easy", "hard"), [], "not_offered"),
        ("os:cpulevel:7", ("easy", "hard"), ["easy", "hard"], "not_offered"),
        ("os:rule:7:0:preset", ("classic",), ["oh-hell"], "not_offered"),
    ],
)
async def test_a_select_value_not_offered_or_not_its_kinds_is_refused(
    text: str, offered: tuple[str, ...], chosen: list[str], code: str
) -> None:
    control = read(text, offered)
    control._refresh_state(None, {"values": chosen})  # type: ignore[arg-type]
    recorder = Recorder()
    with pytest.raises(Refused, match=code):
        await control.handle(recorder, None)  # type: ignore[arg-type]
    assert recorder.calls == []
