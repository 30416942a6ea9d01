"""What every message is made of: limits, a rendered message, card and trump names, links, the
sentences every part uses."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import discord

from bot.engine import Card
from cogs.items import Control, control
from cogs.render.language import N_, NP_, _, number, pgettext, spoken

SUIT_SYMBOLS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
COLOUR = discord.Colour.dark_green()
MESSAGE_LIMIT = 2000  # Discord: characters in a message's content
FIELD_LIMIT = 1024  # Discord: characters in an embed field's value
# Sentences shown as they are: whoever shows one writes `_(render.NOT_FOR_YOU)`.
NOT_FOR_YOU = N_("That button is not for you.")
NOT_OFFERED = N_("That choice was not on the menu, so nothing was changed.")
WELCOME_BACK = N_("Welcome back.")
REMATCH_OPENED = N_("Rematch table opened below: the others confirm with Join.")
SERVER_ONLY = N_(
    "Oh Hell is played in a server: use this command in a server channel where I am a member."
)
CORRUPT_TABLE = N_(
    "This table's stored state could not be read, so nothing was changed. "
    "Ask the host to cancel it with /ohhell cancel."
)
CORRUPT_GAME = N_("This game's stored record could not be read, so it cannot be shown.")
UNREADABLE_CANCELLED = N_(
    "This channel's table could not be read, so it was cancelled: /ohhell start opens a new one."
)
UNREADABLE_TABLE_CLOSED = N_("This table was cancelled: its stored state could not be read.")
# Translators: {reference} is a short code that is also written in the bot's log.
SAVED_NOT_SHOWN = N_(
    "Done: that is saved, but this message could not be updated. (reference `{reference}`)"
)
# Translators: {reference} is a short code that is also written in the bot's log.
UNEXPECTED = N_("Something went wrong — nothing was changed. (reference `{reference}`)")
MAX_BUTTON_CARDS = 20
MAX_BID_BUTTONS = 21  # bids 0..20
MAX_TRICK_LINES = 12
SUIT_NAMES = {
    "C": NP_("suit", "clubs"),
    "D": NP_("suit", "diamonds"),
    "H": NP_("suit", "hearts"),
    "S": NP_("suit", "spades"),
}
"""The suits' names in English: `suit_name` gives them in the language being spoken."""

LEVEL_NAMES = {
    "random": NP_("computer level", "random"),
    "easy": NP_("computer level", "easy"),
    "normal": NP_("computer level", "normal"),
    "hard": NP_("computer level", "hard"),
}
"""The computer levels' names (bot.ai LEVELS) in English, as stored in a computer's name."""

# The names the service and the privacy render store for seats that are no person's:
# "Computer (hard)", "Computer 2 (easy)", "Former player 1".
_STORED_NAME = re.compile(
    r"Computer(?: (?P<nth>\d+))? \((?P<level>" + "|".join(LEVEL_NAMES) + r")\)"
    r"|Former player (?P<former>\d+)"
)


@dataclass(frozen=True)
class Rendered:
    content: str | None
    embed: discord.Embed | None
    view: discord.ui.View | None

    def kwargs(self) -> dict[str, Any]:
        """For an edit: every part, an empty one cleared."""
        out: dict[str, Any] = {"content": self.content, "embed": self.embed}
        out["view"] = self.view if self.view is not None else discord.ui.View()
        return out

    def send_kwargs(self) -> dict[str, Any]:
        """For a new message: the parts there are."""
        out: dict[str, Any] = {}
        if self.content is not None:
            out["content"] = self.content
        if self.embed is not None:
            out["embed"] = self.embed
        if self.view is not None:
            out["view"] = self.view
        return out


def fit(text: str, limit: int) -> str:
    """`text` cut to one of Discord's length limits, with an ellipsis when cut."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def suit_name(suit: str) -> str:
    """A suit's name in the language being spoken: "hearts"."""
    return pgettext("suit", SUIT_NAMES[suit])


def suit_text(suit: str) -> str:
    """A suit as people read it: "♥ hearts"."""
    return f"{SUIT_SYMBOLS[suit]} {suit_name(suit)}"


def card_text(card: Card) -> str:
    if card.suit is None:
        return "🃏" if card.rank == "JOKER" else "🂠"
    return f"{spoken().rank(card.rank)}{SUIT_SYMBOLS[card.suit]}"


def trump_text(trump: str | None, decided: bool, turned: Card | None = None) -> str:
    """A hand's trump, with the card turned up to choose it when there is one."""
    if not decided:
        # Translators: what trump is while the bids decide it ("trump: to be chosen by …").
        return _("to be chosen by the highest bidder")
    text = _("no trumps") if trump is None else suit_text(trump)
    if turned is None:
        return text
    # Translators: a trump and the card turned up to choose it: "♥ hearts (turned 7♥)".
    return _("{trump} (turned {card})").format(trump=text, card=card_text(turned))


def level_text(level: str) -> str:
    """A computer level's name in the language being spoken: "hard"."""
    return pgettext("computer level", LEVEL_NAMES.get(level, level))


def name_text(name: str) -> str:
    """A seat's stored name as people read it: a computer's or a former player's in the
    language being spoken, a person's as it is."""
    if not name.startswith(("Computer", "Former player")):
        return name
    found = _STORED_NAME.fullmatch(name)
    if found is None:
        return name
    if found["former"] is not None:
        # Translators: the name of a seat whose person had their data erased.
        return _("Former player {number}").format(number=number(int(found["former"])))
    level = level_text(found["level"])
    if found["nth"] is None:
        # Translators: a computer player's name; {level} is easy, normal or hard.
        return _("Computer ({level})").format(level=level)
    # Translators: the name of a second (third…) computer player of the same level.
    return _("Computer {number} ({level})").format(number=number(int(found["nth"])), level=level)


def relative_time(moment: float) -> str:
    """A Discord timestamp that counts down (or up) in every reader's client, without edits."""
    return f"<t:{int(moment)}:R>"


def jump_url(guild_id: int, channel_id: int, message_id: int | None) -> str:
    tail = f"/{message_id}" if message_id else ""
    return f"https://discord.com/channels/{guild_id}/{channel_id}{tail}"


def button(
    label: str,
    cid: str,
    style: discord.ButtonStyle = discord.ButtonStyle.secondary,
    *,
    disabled: bool = False,
    row: int | None = None,
) -> Control[Any]:
    return control(
        discord.ui.Button(label=label[:80], custom_id=cid, style=style, disabled=disabled, row=row)
    )


def link_button(label: str, url: str, *, row: int | None = None) -> discord.ui.Button[Any]:
    """A button that opens a web page: it carries no custom_id, and a click reaches no bot."""
    return discord.ui.Button(label=label[:80], url=url, style=discord.ButtonStyle.link, row=row)


def link_view(label: str, url: str | None) -> discord.ui.View | None:
    """A message's one link button, or no view without a link."""
    if url is None:
        return None
    view = discord.ui.View(timeout=None)
    view.add_item(link_button(label, url))
    return view


class Controls(discord.ui.View):
    """A message's buttons and selects as Discord's component rows, built directly.

    For the hand message, rendered at every turn: building a discord.py item for each card
    cost more than the rest of the render. The custom_ids are the same as the items' (clicks
    reach the same `DynamicItem`s), and the view is never stored for dispatch."""

    ROWS = 5
    WIDTH = 5

    def __init__(self) -> None:
        super().__init__(timeout=None)
        self._rows: list[list[dict[str, Any]]] = [[] for _ in range(self.ROWS)]

    def button(
        self,
        label: str,
        cid: str,
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        *,
        disabled: bool = False,
        row: int | None = None,
    ) -> None:
        component = {
            "type": 2,
            "style": style.value,
            "label": label[:80],
            "custom_id": cid,
            "disabled": disabled,
        }
        self._place(component, 1, row)

    def select(
        self, cid: str, placeholder: str, options: list[tuple[str, str]], *, disabled: bool = False
    ) -> None:
        """A string select of (label, value) options; it takes a row of its own."""
        component = {
            "type": 3,
            "custom_id": cid,
            "placeholder": placeholder[:150],
            "options": [{"label": label[:100], "value": value} for label, value in options[:25]],
            "min_values": 1,
            "max_values": 1,
            "disabled": disabled,
        }
        self._place(component, self.WIDTH, None)

    def _place(self, component: dict[str, Any], width: int, row: int | None) -> None:
        rows = self._rows if row is None else [self._rows[row]]
        for candidate in rows:
            used = sum(self.WIDTH if c["type"] == 3 else 1 for c in candidate)
            if used + width <= self.WIDTH:
                candidate.append(component)
                return
        raise ValueError(f"no room for {component.get('custom_id')!r} in row {row}")

    def to_components(self) -> list[dict[str, Any]]:
        return [{"type": 1, "components": row} for row in self._rows if row]

    def is_dispatchable(self) -> bool:
        return False


def timer_text(seconds: int) -> str:
    """A turn timer as people say it: off, 30 s, 2 min."""
    if seconds <= 0:
        return pgettext("turn timer", "off")
    if seconds < 60:
        # Translators: a turn timer in seconds.
        return _("{seconds} s").format(seconds=number(seconds))
    # Translators: a turn timer in minutes.
    return _("{minutes} min").format(minutes=number(seconds // 60))
