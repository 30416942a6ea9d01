"""The catalogs: the template is what the code marks, every language has every message with
the same placeholders and nothing fuzzy or empty, each compiled catalog is its .po's, and each
language keeps a glossary."""

from __future__ import annotations

import gettext
import re

import pytest
from babel.messages.catalog import Catalog, Message
from babel.messages.pofile import read_po

from cogs.render.language import CATALOGS, DOMAIN, LANGUAGES, language, speaking
from cogs.render.review import points_text as review_points
from cogs.render.rules import duration_text
from tools.catalogs import TEMPLATE, catalog, extracted, translated_languages

PLACEHOLDER = re.compile(r"\{[^{}]*\}|<[@#t][^<>]*>|https?://\S+")
"""What a translation must keep exactly: `{name}` placeholders, mentions and links."""


def keys(found: Catalog) -> set[tuple[str, str | None]]:
    return {(_singular(m), m.context) for m in found if m.id}


def _singular(message: Message) -> str:
    return message.id if isinstance(message.id, str) else message.id[0]


def _forms(value: str | tuple[str, ...] | list[str] | None) -> list[str]:
    if value is None:
        return []
    return [value] if isinstance(value, str) else list(value)


def test_the_template_is_what_the_code_marks() -> None:
    """`make catalogs` was run after the last change to a marked text."""
    with TEMPLATE.open("rb") as file:
        committed = read_po(file)
    now = extracted()
    missing = keys(now) - keys(committed)
    stale = keys(committed) - keys(now)
    assert not missing, f"marked in the code, not in {TEMPLATE.name}: run `make catalogs`"
    assert not stale, f"in {TEMPLATE.name}, no longer in the code: run `make catalogs`"
    assert len(keys(now)) > 300  # the extraction finds the messages at all


@pytest.mark.parametrize("code", translated_languages())
def test_every_message_is_translated_with_the_same_placeholders(code: str) -> None:
    with TEMPLATE.open("rb") as file:
        template = read_po(file)
    translated = catalog(code)
    problems: list[str] = []
    for source in template:
        if not source.id:
            continue
        found = translated.get(source.id, context=source.context)
        name = (
            f"{_singular(source)!r} ({source.context})"
            if source.context
            else repr(_singular(source))
        )
        if found is None:
            problems.append(f"missing: {name}")
            continue
        if found.fuzzy:
            problems.append(f"fuzzy: {name}")
        strings = _forms(found.string)
        if not strings or any(not s.strip() for s in strings):
            problems.append(f"empty: {name}")
            continue
        if not isinstance(source.id, str) and len(strings) != translated.num_plurals:
            problems.append(f"{len(strings)} plural forms, {translated.num_plurals} wanted: {name}")
        wanted = sorted(PLACEHOLDER.findall(_singular(source)))
        plural = (
            sorted(PLACEHOLDER.findall(source.id[1])) if not isinstance(source.id, str) else wanted
        )
        for form in strings:
            have = sorted(PLACEHOLDER.findall(form))
            # A plural form may leave out the count (Romanian "un" for one): never add one.
            if have != wanted and have != plural and not set(have) < set(wanted) | set(plural):
                problems.append(f"placeholders {have} for {wanted}: {name}")
    assert not problems, "\n".join(problems[:40])


@pytest.mark.parametrize("code", translated_languages())
def test_the_compiled_catalog_is_the_po_file(code: str) -> None:
    """The .mo the bot reads was compiled from the .po as it is (`make catalogs`)."""
    with (CATALOGS / code / "LC_MESSAGES" / f"{DOMAIN}.mo").open("rb") as file:
        compiled = gettext.GNUTranslations(file)
    differ = []
    for message in catalog(code):
        if not message.id or message.fuzzy:
            continue
        if isinstance(message.id, str):
            if message.context:
                shown = compiled.pgettext(message.context, message.id)
            else:
                shown = compiled.gettext(message.id)
            if shown != message.string:
                differ.append(message.id)
        else:
            forms = _forms(message.string)
            shown_forms = [compiled.ngettext(message.id[0], message.id[1], n) for n in (1, 2, 5)]
            if any(form not in forms for form in shown_forms):
                differ.append(message.id[0])
    assert not differ, f"{code}: the .mo is older than the .po for {differ[:5]}: make catalogs"


@pytest.mark.parametrize("code", translated_languages())
def test_each_language_keeps_a_glossary_and_is_spoken(code: str) -> None:
    glossary = CATALOGS / code / "GLOSSARY.md"
    assert glossary.is_file()
    assert len(glossary.read_text().splitlines()) >= 8
    spoken = language(code)
    assert spoken.code == code
    assert LANGUAGES[code]


def test_numbers_follow_each_language() -> None:
    assert language("en").number(1412) == "1,412"
    assert language("nl").number(1412) == "1.412"
    assert language("de").number(1412) == "1.412"
    assert language("de").signed(-18) == "-18"


@pytest.mark.parametrize(
    ("code", "shown"),
    [
        ("en", ["1 minute", "1.5 minutes", "2 minutes", "≈1.0 pts", "≈1.5 pts"]),
        ("nl", ["1 minuut", "1,5 minuten", "2 minuten", "≈1,0 pt", "≈1,5 pt"]),
        ("de", ["1 Minute", "1,5 Minuten", "2 Minuten", "≈1,0 Pkt.", "≈1,5 Pkt."]),
        ("fr", ["1 minute", "1,5 minute", "2 minutes", "≈1,0 pt", "≈1,5 pt"]),
        ("es", ["1 minuto", "1,5 minutos", "2 minutos", "≈1,0 pto", "≈1,5 ptos"]),
        ("pt_BR", ["1 minuto", "1,5 minuto", "2 minutos", "≈1,0 pt", "≈1,5 pt"]),
        ("ro", ["1 minut", "1,5 minute", "2 minute", "≈1,0 pct", "≈1,5 pct"]),
    ],
)
def test_a_fraction_takes_the_form_cldr_gives_it(code: str, shown: list[str]) -> None:
    """French and Brazilian Portuguese put 1.5 in the singular, English and German in the
    plural; `1.0` is plural in English and singular in Spanish: the form is the number's as
    it is written."""
    with speaking(language(code)):
        said = [duration_text(seconds) for seconds in (60, 90, 120)]
        said += [review_points(cost) for cost in (1.0, 1.5)]
    assert said == shown
