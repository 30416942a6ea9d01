"""Every kind of message the bot sends (tests/cogs/longest.py), rendered with the longest inputs
in every language the bot speaks and in the pseudo-language, keeps within Discord's limits as
the stand-in checks them (standin/limits.py): whatever the catalogs say today, and as their
translations arrive.

The render cuts some texts to their limits (`fit`, `[:1024]`, a label's `[:80]`): a catalog
whose every translation is far too long shows what it promises, and where it does not cut."""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache
from typing import Any, get_args

import discord
import pytest
from babel import Locale

from bot.service.answers import Answer
from bot.service.notices import Notice
from bot.service.refusals import Refusal
from cogs import render
from cogs.render.explanations import EXPLANATIONS
from cogs.render.language import LANGUAGES, Language, language, speaking
from standin.limits import check_limits
from tests.catalogs import Rewriting
from tests.cogs.longest import Message, messages, notices, reasons
from tools.catalogs import PSEUDO, pseudo_language

ROUTE = "/channels/{channel_id}/messages"
Found = tuple[str, str, str]
"""A message's kind, the field Discord would refuse, and why."""


def payload(message: Message) -> dict[str, Any]:
    """The body of a message as discord.py sends it: its content, embed and components."""
    if isinstance(message, str):
        return {"content": message}
    if isinstance(message, discord.Embed):
        return {"embeds": [message.to_dict()]}
    body: dict[str, Any] = {}
    if message.content is not None:
        body["content"] = message.content
    if message.embed is not None:
        body["embeds"] = [message.embed.to_dict()]
    if message.view is not None:
        body["components"] = message.view.to_components()
    return body


def violations(rendered: Iterable[tuple[str, Message]]) -> list[Found]:
    return [
        (kind, violation.field, violation.message)
        for kind, message in rendered
        for violation in check_limits("POST", ROUTE, payload(message))
    ]


def report(code: str, found: list[Found]) -> str:
    return "\n".join(f"{code}: {kind}: {field}: {why}" for kind, field, why in found)


@cache
def spoken(code: str) -> Language:
    return pseudo_language() if code == PSEUDO else language(code)


@pytest.mark.parametrize("code", [*LANGUAGES, PSEUDO])
def test_every_message_keeps_within_discords_limits(code: str) -> None:
    with speaking(spoken(code)):
        rendered = list(messages())
        found = violations(rendered)
    assert len(rendered) > 500
    assert not found, report(code, found)


def test_every_notice_refusal_answer_and_explanation_is_rendered() -> None:
    assert {type(notice) for notice in notices()} == set(get_args(Notice))
    kinds = {kind for kind, _reason in reasons()}
    assert {type(reason) for _kind, reason in reasons()} == {*get_args(Refusal), *get_args(Answer)}
    assert {f"illegal ({code})" for code in EXPLANATIONS} <= kinds


# --- a catalog whose translations are far too long -------------------------------------------

TOO_LONG = 300
"""Longer than a button's label (80), a menu's option (100) or placeholder (150), a title or a
field's name (256)."""


def stretched(message: str) -> str:
    """`message` as the too-long catalog gives it: run on to TOO_LONG characters."""
    return message + " " + "~" * max(TOO_LONG - len(message) - 1, 0)


STRETCHING = Language("xx", Rewriting(stretched), Locale("en"))


@cache
def stretched_violations() -> list[Found]:
    with speaking(STRETCHING):
        return violations(messages())


def test_what_the_render_cuts_keeps_within_the_limits_whatever_its_translation() -> None:
    """Every button's label, menu's placeholder and option; every post; every embed's
    description."""
    cut = [
        (kind, field, why)
        for kind, field, why in stretched_violations()
        if field.startswith("components")
        or kind.startswith(("notice:", "catch-up post"))
        or field.endswith("description")
    ]
    assert cut == []


def test_too_long_a_translation_is_caught_where_the_render_does_not_cut() -> None:
    found = stretched_violations()
    fields = {(kind, field) for kind, field, _why in found}
    assert ("table message: playing", "embeds[0].title") in fields
    assert ("hand message: 20 cards", "embeds[0].fields[0].name") in fields


def test_the_check_finds_a_label_that_is_not_cut() -> None:
    view = discord.ui.View()
    view.add_item(discord.ui.Button(label=stretched("Join"), custom_id="x"))
    found = violations([("join", render.Rendered(None, None, view))])
    assert found == [
        ("join", "components[0].components[0].label", "300 characters; Discord allows at most 80")
    ]
