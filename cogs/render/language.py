"""The language a message is written in: its catalog (cogs/locales), its plurals and numbers
(CLDR, through Babel) and its card names.

Render functions write `_("…")` and read the language being spoken, which whoever sends the
message chooses around the render with `speaking(language)` (the person's for a private reply or
a hand DM, the channel's for a table message or a post). English, the source, is spoken
otherwise."""

from __future__ import annotations

import gettext
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from decimal import ROUND_HALF_EVEN, Decimal
from functools import cache
from pathlib import Path

from babel import Locale
from babel.numbers import format_decimal, format_percent

CATALOGS = Path(__file__).resolve().parent.parent / "locales"
DOMAIN = "ohhell"

LANGUAGES: dict[str, str] = {
    "en": "English",
    "nl": "Nederlands",
    "de": "Deutsch",
    "fr": "Français",
    "es": "Español",
    "pt_BR": "Português do Brasil",
    "ro": "Română",
}
"""The languages the bot speaks, by catalog name, each named in itself."""

DISCORD_LOCALES: dict[str, str] = {
    "en-US": "en",
    "en-GB": "en",
    "nl": "nl",
    "de": "de",
    "fr": "fr",
    "es-ES": "es",
    "es-419": "es",
    "pt-BR": "pt_BR",
    "ro": "ro",
}
"""Discord's locale codes for which a catalog exists; any other locale reads English."""


def NP_(context: str, message: str) -> str:
    """Marks `message` in `context` for the catalog; `pgettext` translates it where shown."""
    return message


FACES = (
    NP_("card rank", "J"),
    NP_("card rank", "Q"),
    NP_("card rank", "K"),
    NP_("card rank", "A"),
)
"""The ranks a language may write otherwise: Jack, Queen, King, Ace."""


class Language:
    """One catalog, the CLDR locale its numbers follow, and the card ranks its players write."""

    __slots__ = ("_catalog", "_forms", "_locale", "_ranks", "code")

    def __init__(self, code: str, catalog: gettext.NullTranslations, locale: Locale) -> None:
        self.code = code
        self._catalog = catalog
        self._locale = locale
        self._ranks: dict[str, str] = {}
        self._forms: dict[str, int] = {}

    def __repr__(self) -> str:
        return f"Language({self.code!r})"

    def gettext(self, message: str) -> str:
        return self._catalog.gettext(message)

    def ngettext(
        self, singular: str, plural: str, count: float | Decimal, decimals: int = 0
    ) -> str:
        """The form for `count` as `number(count, decimals)` writes it, by CLDR's plural rules:
        `1.5` is singular in French and Brazilian Portuguese, plural in English, "few" in
        Romanian, and `1.0` plural in English. A catalog chooses its forms for whole numbers, so
        a fraction takes the form of the first whole number of the same CLDR category."""
        if not decimals and isinstance(count, int):
            return self._catalog.ngettext(singular, plural, count)
        # As Babel rounds it for `number`: the float's shortest text, half to even.
        exact = Decimal(str(count)) if isinstance(count, float) else Decimal(count)
        shown = exact.quantize(Decimal(1).scaleb(-decimals), rounding=ROUND_HALF_EVEN)
        whole = self._whole(self._locale.plural_form(shown))
        return self._catalog.ngettext(singular, plural, whole)

    def _whole(self, category: str) -> int:
        """The first whole number CLDR puts in `category` in this language (`other`'s for a
        category only fractions take)."""
        whole = self._forms.get(category)
        if whole is None:
            wholes = (*range(1000), 1_000_000)
            whole = next((n for n in wholes if self._locale.plural_form(n) == category), None)
            if whole is None:
                whole = self._whole("other")
            self._forms[category] = whole
        return whole

    def pgettext(self, context: str, message: str) -> str:
        return self._catalog.pgettext(context, message)

    def number(self, value: float, decimals: int = 0) -> str:
        """`1,412` in English, `1.412` in Dutch; `decimals` places, no more, no fewer."""
        if not decimals and isinstance(value, int) and -1000 < value < 1000:
            return str(value)  # as every locale writes it, at a hundredth of Babel's cost
        pattern = "#,##0" + ("." + "0" * decimals if decimals else "")
        return format_decimal(value, format=pattern, locale=self._locale)

    def signed(self, value: float, decimals: int = 0) -> str:
        """A change with its sign: `+18`, `-4`, `+0`."""
        text = self.number(abs(value), decimals)
        return ("-" if value < 0 else "+") + text

    def percent(self, rate: float) -> str:
        """A share as this language writes a percentage: `64%`, `64 %`."""
        return format_percent(rate, locale=self._locale)

    def rank(self, rank: str) -> str:
        """A card's rank as this language's players write it (`Q` is `V` in Dutch; numbers
        stay)."""
        named = self._ranks.get(rank)
        if named is None:
            named = self.pgettext("card rank", rank) if rank in FACES else rank
            self._ranks[rank] = named
        return named


_ADDED: dict[str, Language] = {}


def add_language(spoken: Language) -> None:
    """A language from elsewhere than cogs/locales, spoken from now on by this process (the
    pseudo-language tools/catalogs.py builds to find text no catalog gave)."""
    _ADDED[spoken.code] = spoken


def language(code: str) -> Language:
    """The language of a catalog name (`nl`, `pt_BR`); English for a name with no catalog."""
    return _ADDED.get(code) or _from_catalog(code)


@cache
def _from_catalog(code: str) -> Language:
    folder = CATALOGS / code / "LC_MESSAGES"
    if code == "en":
        return Language("en", gettext.NullTranslations(), Locale("en"))
    if not (folder / f"{DOMAIN}.mo").is_file():
        return _from_catalog("en")
    with (folder / f"{DOMAIN}.mo").open("rb") as file:
        catalog = gettext.GNUTranslations(file)
    return Language(code, catalog, Locale.parse(code))


def language_of(locale: object) -> Language:
    """The language for a Discord locale (`interaction.locale`, `guild.preferred_locale`, or
    its stored text): English when there is no catalog for it."""
    text = str(getattr(locale, "value", locale or ""))
    code = DISCORD_LOCALES.get(text) or (text.replace("-", "_") if text else "en")
    return language(code)


ENGLISH = language("en")
_speaking: ContextVar[Language] = ContextVar("speaking", default=ENGLISH)


@contextmanager
def speaking(spoken: Language) -> Iterator[Language]:
    """Render in `spoken` inside the block."""
    token = _speaking.set(spoken)
    try:
        yield spoken
    finally:
        _speaking.reset(token)


def speak(spoken: Language) -> None:
    """Speak `spoken` from now on in this task (an interaction's handler: its person's
    language; whatever renders for others chooses theirs with `speaking`)."""
    _speaking.set(spoken)


def spoken() -> Language:
    return _speaking.get()


def _(message: str) -> str:
    """`message` in the language being spoken."""
    return _speaking.get().gettext(message)


def N_(message: str) -> str:
    """Marks `message` for the catalog where it is defined; `_` translates it where it is
    shown."""
    return message


def ngettext(singular: str, plural: str, count: float | Decimal, decimals: int = 0) -> str:
    """The plural form CLDR gives `count`, written with `decimals` places as `number` writes
    it, in the language being spoken."""
    return _speaking.get().ngettext(singular, plural, count, decimals)


def pgettext(context: str, message: str) -> str:
    """`message` in the sense `context` names (the same English word may read two ways)."""
    return _speaking.get().pgettext(context, message)


def number(value: float, decimals: int = 0) -> str:
    return _speaking.get().number(value, decimals)


def signed(value: float, decimals: int = 0) -> str:
    return _speaking.get().signed(value, decimals)


def percent(rate: float) -> str:
    return _speaking.get().percent(rate)
