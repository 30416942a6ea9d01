"""The catalogs (cogs/locales): `make catalogs` runs Babel's extract, update and compile, as
`pybabel` would with the arguments below; the checks read the template as the code gives it now;
and the pseudo-language, every message wrapped and accented, shows any text a person reads
that did not come through a catalog.

    python -m tools.catalogs            extract, update and compile
"""

from __future__ import annotations

import gettext
import io
import re
import sys
import tempfile
from pathlib import Path

from babel import Locale
from babel.messages.catalog import Catalog
from babel.messages.frontend import CommandLineInterface
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from cogs.render.language import CATALOGS, DOMAIN, LANGUAGES, Language, add_language

ROOT = CATALOGS.parent.parent
TEMPLATE = CATALOGS / f"{DOMAIN}.pot"
KEYWORDS = ("N_", "NP_:1c,2", "locale_str")
"""Beyond Babel's own (`_`, `gettext`, `ngettext`, `pgettext`…): the marks cogs/render uses
for constants and the slash commands' texts."""
PSEUDO = "en_XA"
"""The pseudo-language's catalog name; a person or guild whose locale is `en-XA` (the
stand-in's `PSEUDO_LOCALE`) reads it."""


def extract_arguments(output: Path) -> list[str]:
    keywords = [part for keyword in KEYWORDS for part in ("-k", keyword)]
    return [
        "extract",
        "-F",
        str(CATALOGS / "babel.cfg"),
        *keywords,
        "-c",
        "Translators:",
        "--add-location=file",
        "--sort-by-file",
        "--no-wrap",
        "--project=ohhell-discord",
        "--copyright-holder=the Oh Hell for Discord authors",
        "-o",
        str(output),
        "cogs",
    ]


def pybabel(arguments: list[str]) -> None:
    """Run one `pybabel` command from the repository's root."""
    CommandLineInterface().run(["pybabel", "-q", *arguments])


def extracted() -> Catalog:
    """The template as the code marks its messages now (nothing in the tree written)."""
    with tempfile.TemporaryDirectory() as folder:
        output = Path(folder) / f"{DOMAIN}.pot"
        pybabel(extract_arguments(output))
        with output.open("rb") as file:
            return read_po(file)


def catalog(code: str) -> Catalog:
    """A language's catalog as its translators left it."""
    with (CATALOGS / code / "LC_MESSAGES" / f"{DOMAIN}.po").open("rb") as file:
        return read_po(file, locale=code)


def translated_languages() -> list[str]:
    """Every language but English, the source: the ones with a catalog."""
    return [code for code in LANGUAGES if code != "en"]


def main() -> int:
    pybabel(extract_arguments(TEMPLATE))
    for code in translated_languages():
        po = CATALOGS / code / "LC_MESSAGES" / f"{DOMAIN}.po"
        command = "update" if po.is_file() else "init"
        arguments = [command, "-i", str(TEMPLATE), "-d", str(CATALOGS), "-D", DOMAIN, "-l", code]
        if command == "update":
            arguments += ["--no-wrap", "--no-fuzzy-matching", "--ignore-obsolete"]
        pybabel(arguments)
    pybabel(["compile", "-d", str(CATALOGS), "-D", DOMAIN, "--statistics"])
    return 0


# The pseudo-language

_ACCENTED = str.maketrans(
    "AaCcDdEeGgHhIiJjKkLlNnOoRrSsTtUuWwYyZz",
    "ÅåÇçĐđÉéĜĝĤĥÎîĴĵĶķĹĺÑñÖöŘřŠšŢţÛûŴŵÝýŽž",
)
_KEPT = re.compile(r"(\{[^{}]*\}|<[^<>]*>|`[^`]*`|https?://\S+|\*\*|-#)")
"""What a translation keeps as it is: placeholders, mentions and timestamps, commands in
backticks, links, Markdown."""
OPEN, CLOSE = "⟦", "⟧"


def pseudo_text(message: str) -> str:
    """`message` accented and wrapped: `⟦Ĥåñđ {hand}⟧`."""
    parts = _KEPT.split(message)
    return (
        OPEN + "".join(p if _KEPT.fullmatch(p) else p.translate(_ACCENTED) for p in parts) + CLOSE
    )


_ENGLISH_WORD = re.compile(r"[A-Za-z]{2,}")
_WRITTEN = frozenset("AaCcDdEeGgHhIiJjKkLlNnOoRrSsTtUuWwYyZz")
"""The letters the pseudo-language accents: a word it gave has none of them."""


def english_words(text: str) -> list[str]:
    """The words of `text` that the pseudo-language did not give, inside its wrapped parts or
    outside them (a value filled into a placeholder in English among them), but for what a
    translation keeps as it is (commands in backticks, mentions, links)."""
    kept = _KEPT.sub(" ", text)
    return [word for word in _ENGLISH_WORD.findall(kept) if _WRITTEN.intersection(word)]


def pseudo_language(template: Catalog | None = None) -> Language:
    """Every message of the template (the committed one unless given) in the pseudo-language,
    compiled as a catalog is; its numbers written as in German (`1.412`)."""
    if template is None:
        with TEMPLATE.open("rb") as file:
            template = read_po(file)
    pseudo = Catalog(locale="de", domain=DOMAIN)
    for message in template:
        if not message.id:
            continue
        if isinstance(message.id, str):
            string: str | tuple[str, ...] = pseudo_text(message.id)
        else:
            string = tuple(pseudo_text(form) for form in message.id)
        pseudo.add(message.id, string, context=message.context)
    compiled = io.BytesIO()
    write_mo(compiled, pseudo)
    compiled.seek(0)
    return Language(PSEUDO, gettext.GNUTranslations(compiled), Locale("de"))


def install_pseudo_language() -> Language:
    """Make the pseudo-language one the bot speaks (a person or server whose locale is
    `en-XA` reads it)."""
    spoken = pseudo_language()
    add_language(spoken)
    return spoken


if __name__ == "__main__":
    sys.exit(main())
