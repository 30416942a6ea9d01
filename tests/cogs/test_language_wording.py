"""How the render words its messages, read from its code and the template, so that every
language can say them right: a number a message counts chooses its form (`ngettext`); a
message is one whole sentence, never two translated texts glued together; a rule's value is a
placeholder filled with the rules editor's label, never English written into the msgid."""

from __future__ import annotations

import ast
import re

from babel.messages.pofile import read_po

from bot.engine import PRESETS
from cogs.render.lobby import RULE_CHOICES, RULE_NAMES, RULE_VALUES
from tests.cogs.wording import Filled, filled, glued
from tools.catalogs import TEMPLATE

LABELS = frozenset(
    {
        # Numbers that name one of many: hand 3, trick 2, page 2, game #7, seat 4, round 2,
        # place #1, rank #3, Computer 2, Former player 1.
        "hand",
        "trick",
        "page",
        "game",
        "table",
        "seat",
        "round",
        "place",
        "rank",
        "number",
        # Figures on a score sheet, read as labels: a bid, tricks taken, a score and its
        # change, a target, a rating and where ratings start.
        "bid",
        "took",
        "taken",
        "won",
        "total",
        "change",
        "target",
        "rating",
        "start",
        # A range of bids on a menu ("Bid 0–24"), averages ("+0.40 a hand, off by 0.85"),
        # units written short ("30 s", "2 min").
        "low",
        "high",
        "lean",
        "miss",
        "seconds",
        "minutes",
    }
)
"""Placeholders whose number no word of the message agrees with. Any other number a message
with one form is given is a count, and its message must choose its form by it."""


def counts_with_one_form(found: list[Filled]) -> list[str]:
    return sorted(
        f"{f.where}: {f.message.msgid!r} counts {sorted(f.numbers - LABELS)}"
        for f in found
        if not f.message.plural and f.numbers - LABELS
    )


def test_every_message_that_counts_chooses_its_form_by_the_count() -> None:
    found = filled()
    assert len(found) > 200  # the scan finds the render's messages
    assert sum(bool(f.numbers) for f in found) > 80
    assert counts_with_one_form(found) == []


def test_the_count_check_finds_a_count_with_one_form() -> None:
    code = ast.parse(
        "def bidding(done, seats, hand):\n"
        "    seats = number(seats)\n"
        '    text = _("{done} of {seats} have bid")\n'
        '    title = _("Hand {hand}").format(hand=number(hand))\n'
        "    return text.format(done=number(done) if done else '—', seats=seats)\n"
    )
    assert counts_with_one_form(filled({"table.py": code})) == [
        "table.py:5: '{done} of {seats} have bid' counts ['done', 'seats']"
    ]


def test_no_two_translated_texts_are_glued_together_for_display() -> None:
    assert [str(g) for g in glued()] == []


def test_the_glue_check_finds_texts_glued_together() -> None:
    code = ast.parse(
        "def note(bid, reason):\n"
        '    return _("{bid} is not allowed: {reason}").format(bid=bid, reason=reason)\n'
        "def footer(turn, bid, reason):\n"
        '    verb = _("Your bid") if turn else _("Change your bid?")\n'
        "    return verb + note(bid, reason)\n"
        "def header(trump, card):\n"
        '    text = trump_text(trump) + "\\n" + _("Blind hand")\n'
        '    text += " " + _("(turned {card})").format(card=card)\n'
        '    return f"{text} · {name_text(card)}"\n'
        "def trump_text(trump):\n"
        '    return _("no trumps")\n'
    )
    assert [(g.where, g.between) for g in glued({"hand.py": code})] == [
        ("hand.py:5", ("",)),
        ("hand.py:8", (" ",)),
    ]


# --- rule values in the English text ------------------------------------------------------

QUOTED = re.compile(r"'([^'\n]+?)'|\"([^\"\n]+?)\"|«\s*([^»\n]+?)\s*»|“([^”\n]+?)”|`([^`\n]+?)`")
"""A quoted word or phrase, however it is quoted."""


def _word(text: str) -> str:
    return rf"(?<![\w{{-]){re.escape(text)}(?![\w}}-])"


def rule_values_written(msgid: str) -> list[str]:
    """The rule values `msgid` writes in English: quoted, after their rule's name ("pack
    104"), or a preset's name anywhere."""
    values = set(RULE_VALUES) | {v for choices in RULE_CHOICES.values() for v in choices}
    found = [
        quoted
        for match in QUOTED.finditer(msgid)
        if (quoted := next(g for g in match.groups() if g is not None).strip()) in values
    ]
    for field, choices in RULE_CHOICES.items():
        for name in {field, field.replace("_", " "), RULE_NAMES.get(field, field)}:
            found += [
                f"{name} {value}"
                for value in choices
                if re.search(_word(name) + r"\s+'?" + re.escape(value) + r"'?(?![\w}-])", msgid)
            ]
    found += [preset for preset in PRESETS if re.search(_word(preset), msgid)]
    return found


def test_no_message_writes_a_rule_value_in_english() -> None:
    with TEMPLATE.open("rb") as file:
        template = read_po(file)
    written = {
        form: found
        for message in template
        if message.id and message.context != "rule value"
        for form in ([message.id] if isinstance(message.id, str) else message.id)
        if (found := rule_values_written(form))
    }
    assert len(template) > 300
    assert written == {}


def test_the_rule_value_check_finds_values_written_in_english() -> None:
    written = "choose blind 'all' or 'none', or end 'sequence'; choose pack 104; the classic preset"
    assert sorted(rule_values_written(written)) == [
        "all",
        "blind all",
        "classic",
        "end sequence",
        "none",
        "pack 104",
        "sequence",
    ]
    assert rule_values_written("choose {end} '{sequence}': the {preset} preset") == []
    assert rule_values_written("the dealer's left; a sequence that reaches one card") == []
