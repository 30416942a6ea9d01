"""A table's controls: families of `DynamicItem`, one class each, whose template names the
family's kinds and the typed parts its custom_ids carry, so that anything else matches no
template (the client answers those: `cogs.items.claimed`). Buttons are
`oh:<kind>:<table>[:<hand>][:<arg>]` and selects the same with `os:`; a control with an arg and no
hand writes 0 for the hand:

    TableButton      oh:<kind>:<table>              the table message; the lobby's and the
                                                    host's private answers
    RulesPageButton  oh:rulepg:<table>:0:<page>     the rules editor's pages
    ComeBackButton   oh:back:<table>                I'm back (table message, hand message)
    AutoPlayButton   oh:auto:<table>:0:<0|1>        auto-play on or off (hand message)
    MoveButton       oh:<bid|play|trump>:<table>:<hand>:<arg>       (hand message)
    MoveSelect       os:<bidsel|playsel>:<table>:<hand>:<part>      (hand message)
    HostSelect       os:<kick|hostto|timer>:<table>                 the host panel's menus
    LevelSelect      os:cpulevel:<table>            the level of a computer player to add
    RuleSelect       os:rule:<table>:0:<field>      the rules editor's menus

A click rebuilds the family's item with `from_custom_id`, which reads those parts into typed
values kept on the item; its `callback` hands the item to the table controller (`Controller`,
cogs/clicks.py), which answers every failure in one place and calls the one method its kind
names with those values."""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Protocol, Self, TypeVar

import discord

from bot.engine import SUITS, Bid, ChooseTrump, Play
from bot.engine.cards import HIDDEN
from bot.service import Refused
from bot.service.refusals import NotForYou, NotOffered
from cogs.interaction import Interaction, of_the_bot
from cogs.items.numbers import whole_number


def custom_id(kind: str, table_id: int, hand: int | None = None, arg: object = None) -> str:
    parts = ["oh", kind, str(table_id)]
    if hand is not None:
        parts.append(str(hand))
    if arg is not None:
        if hand is None:
            parts.append("0")
        parts.append(str(arg))
    return ":".join(parts)


def select_id(kind: str, table_id: int, hand: int | None = None, arg: object = None) -> str:
    return "os" + custom_id(kind, table_id, hand, arg)[2:]


_HAND = r"(?P<hand>[0-9]{1,4})"


def _template(prefix: str, kinds: Iterable[str], tail: str = "") -> str:
    """A family's template: its prefix, one of its kinds, the table, then its own parts."""
    names = "|".join(re.escape(kind) for kind in kinds)
    return f"{prefix}:(?P<kind>{names}):(?P<table>[0-9]{{1,12}}){tail}"


def _number(text: str) -> int:
    """A number of a custom_id, refused unless plain ASCII digits (which the templates admit
    alone)."""
    number = whole_number(text)
    if number is None:
        raise Refused(NotForYou())
    return number


# A play button's arg: the card's id in the game's pack; for a joker led in no trumps, also the
# index of the suit it is named as (0-3: clubs, diamonds, hearts, spades), as <id>-<suit>.
_PLAY_ARG = re.compile(r"(?P<card>[0-9]{1,4})(?:-(?P<suit>[0-3]))?")


@dataclass(frozen=True)
class CardChoice:
    """What a play button stands for: a card by its id, and the suit named for a joker led in
    no trumps (an index into clubs, diamonds, hearts, spades), or None."""

    card_id: int
    suit: int | None = None


def play_arg(card_id: int, suit: int | None = None) -> str:
    """The arg of the play button for the card `card_id` (named as suit index `suit`)."""
    return str(card_id) if suit is None else f"{card_id}-{suit}"


def card_choice(text: str | None) -> CardChoice | None:
    """The card (and named suit) a play button's arg carries, or None for anything else."""
    match = _PLAY_ARG.fullmatch(text) if text is not None else None
    if match is None:
        return None
    suit = match["suit"]
    return CardChoice(int(match["card"]), None if suit is None else int(suit))


Move = Bid | ChooseTrump | Play | CardChoice
"""What a move control stands for: a card by its id in the pack (`CardChoice`), or a blind
hand's hidden card (`Play(HIDDEN)`)."""


def _bid(text: str) -> Bid | None:
    number = whole_number(text)
    return None if number is None else Bid(number)


def _trump(text: str) -> ChooseTrump | None:
    suit = next((s for s in SUITS if s == text), None)
    return None if suit is None else ChooseTrump(suit)


def _card(text: str) -> Play | CardChoice | None:
    return Play(HIDDEN) if text == "hidden" else card_choice(text)


def _listed_card(text: str) -> CardChoice | None:
    """A card of a menu of one suit's cards: by its id, never named a suit."""
    choice = card_choice(text)
    return choice if choice is not None and choice.suit is None else None


class Controller(Protocol):
    """What the controls hand their clicks to (cogs/clicks.py `TableController`): `on_click`
    takes every click, and calls the method of the control's kind with its values. A select's
    value is one its menu offered (`SelectControl.chosen`)."""

    async def on_click(self, interaction: Interaction, control: Control[Any]) -> None: ...

    # TableButton
    async def join(self, interaction: Interaction, table_id: int) -> None: ...
    async def leave(self, interaction: Interaction, table_id: int) -> None: ...
    async def confirm_leave(self, interaction: Interaction, table_id: int) -> None: ...
    async def offer_computer(self, interaction: Interaction, table_id: int) -> None: ...
    async def open_rules(self, interaction: Interaction, table_id: int) -> None: ...
    async def start(self, interaction: Interaction, table_id: int) -> None: ...
    async def ask_cancel(self, interaction: Interaction, table_id: int) -> None: ...
    async def cancel(self, interaction: Interaction, table_id: int) -> None: ...
    async def send_hand(self, interaction: Interaction, table_id: int) -> None: ...
    async def show_scores(self, interaction: Interaction, table_id: int) -> None: ...
    async def open_host_panel(self, interaction: Interaction, table_id: int) -> None: ...
    async def pause(self, interaction: Interaction, table_id: int) -> None: ...
    async def resume(self, interaction: Interaction, table_id: int) -> None: ...
    async def rematch(self, interaction: Interaction, table_id: int) -> None: ...
    async def play_at_table(self, interaction: Interaction, table_id: int) -> None: ...

    async def rules_page(self, interaction: Interaction, table_id: int, page: int) -> None: ...
    async def come_back(self, interaction: Interaction, table_id: int) -> None: ...
    async def set_auto_play(self, interaction: Interaction, table_id: int, on: bool) -> None: ...
    async def act(self, interaction: Interaction, table_id: int, hand: int, move: Move) -> None: ...

    # HostSelect
    async def kick(self, interaction: Interaction, table_id: int, user_id: int) -> None: ...
    async def hand_over(self, interaction: Interaction, table_id: int, user_id: int) -> None: ...
    async def set_turn_timer(
        self, interaction: Interaction, table_id: int, seconds: int
    ) -> None: ...

    async def add_computer(self, interaction: Interaction, table_id: int, level: str) -> None: ...
    async def set_rule(
        self, interaction: Interaction, table_id: int, field: str, value: str
    ) -> None: ...


ItemT = TypeVar("ItemT", bound=discord.ui.Item[Any])
T = TypeVar("T")


class Control(discord.ui.DynamicItem[ItemT], template=r"(?!)"):
    """A family of a table's controls, rebuilt from the clicked component (after a restart
    too) with the values its custom_id carries. Never registered itself: each family below
    names its own template (this one matches nothing)."""

    in_dm: ClassVar[bool] = False
    """Whether a hand message in a DM carries this family (any other is refused there)."""

    def __init__(self, item: ItemT, match: re.Match[str]) -> None:
        """The control `item`, with the values of `match`, its custom_id read by this family's
        template: the kind, the table and the hand (if the template has one); a family whose
        custom_ids carry more reads the rest."""
        super().__init__(item)
        self.kind: str = match["kind"]
        self.table_id = _number(match["table"])
        hand = match.groupdict().get("hand")
        self.hand = None if hand is None else _number(hand)
        """The hand a hand message's move was sent for; None for any other control."""

    @classmethod
    def pattern(cls) -> re.Pattern[str]:
        return cls.__discord_ui_compiled_template__

    @classmethod
    def read(cls, item: discord.ui.Item[Any], match: re.Match[str]) -> Self:
        return cls(cls.component(item), match)

    @classmethod
    def component(cls, item: discord.ui.Item[Any]) -> ItemT:
        """`item`, if it is the component this family is made of (a button, a select)."""
        raise NotImplementedError

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> Self:
        return cls.read(item, match)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        ours = of_the_bot(interaction)
        controller: Controller = ours.client.tables
        await controller.on_click(ours, self)

    async def handle(self, controller: Controller, interaction: Interaction) -> None:
        """Call the controller's method for this control's kind with its values."""
        raise NotImplementedError


def _made_of(item: discord.ui.Item[Any], made: type[T]) -> T:
    if not isinstance(item, made):
        raise TypeError(f"{item!r} is not a {made.__name__}")
    return item


class ButtonControl(Control[discord.ui.Button[Any]], template=r"(?!)"):
    @classmethod
    def component(cls, item: discord.ui.Item[Any]) -> discord.ui.Button[Any]:
        return _made_of(item, discord.ui.Button)


class SelectControl(Control[discord.ui.Select[Any]], template=r"(?!)"):
    @classmethod
    def component(cls, item: discord.ui.Item[Any]) -> discord.ui.Select[Any]:
        return _made_of(item, discord.ui.Select)

    def chosen(self) -> str:
        """The one value chosen, refused unless the menu offered it: discord.py rebuilt this
        select from the clicked message, so its options are what the person was offered."""
        values = self.item.values
        if len(values) != 1 or values[0] not in {o.value for o in self.item.options}:
            raise Refused(NotOffered())
        return values[0]


TableHandler = Callable[[Interaction, int], Awaitable[None]]

TABLE_BUTTONS: Mapping[str, Callable[[Controller], TableHandler]] = {
    "join": lambda c: c.join,
    "leave": lambda c: c.leave,
    "leaveok": lambda c: c.confirm_leave,
    "addcpu": lambda c: c.offer_computer,
    "rules": lambda c: c.open_rules,
    "start": lambda c: c.start,
    "cancel": lambda c: c.ask_cancel,
    "cancelok": lambda c: c.cancel,
    "hand": lambda c: c.send_hand,
    "scores": lambda c: c.show_scores,
    "hostctl": lambda c: c.open_host_panel,
    "pause": lambda c: c.pause,
    "resume": lambda c: c.resume,
    "rematch": lambda c: c.rematch,
    "activity": lambda c: c.play_at_table,  # Play at the table: opens the Activity
}


class TableButton(ButtonControl, template=_template("oh", TABLE_BUTTONS)):
    """A button of a table in its channel: on the table message, and on the lobby's and the
    host's private answers (confirmations, the host panel)."""

    async def handle(self, controller: Controller, interaction: Interaction) -> None:
        await TABLE_BUTTONS[self.kind](controller)(interaction, self.table_id)


class RulesPageButton(
    ButtonControl, template=_template("oh", ["rulepg"], ":0:(?P<page>[0-9]{1,2})")
):
    """A page of the rules editor."""

    def __init__(self, item: discord.ui.Button[Any], match: re.Match[str]) -> None:
        super().__init__(item, match)
        self.page = _number(match["page"])

    async def handle(self, controller: Controller, interaction: Interaction) -> None:
        await controller.rules_page(interaction, self.table_id, self.page)


class ComeBackButton(ButtonControl, template=_template("oh", ["back"])):
    """I'm back: on the table message, and on the hand message of someone who left."""

    in_dm = True

    async def handle(self, controller: Controller, interaction: Interaction) -> None:
        await controller.come_back(interaction, self.table_id)


class AutoPlayButton(ButtonControl, template=_template("oh", ["auto"], ":0:(?P<on>[01])")):
    """The hand message's auto-play switch, carrying what it turns auto-play to."""

    in_dm = True

    def __init__(self, item: discord.ui.Button[Any], match: re.Match[str]) -> None:
        super().__init__(item, match)
        self.on = match["on"] == "1"

    async def handle(self, controller: Controller, interaction: Interaction) -> None:
        await controller.set_auto_play(interaction, self.table_id, self.on)


async def _move(
    controller: Controller, interaction: Interaction, control: Control[Any], move: Move | None
) -> None:
    """A move's click: refused unless it names a hand and carries a move of its kind."""
    if control.hand is None or move is None:
        raise Refused(NotForYou())
    await controller.act(interaction, control.table_id, control.hand, move)


MOVE_BUTTONS: Mapping[str, Callable[[str], Move | None]] = {
    "bid": _bid,
    "play": _card,  # play_arg, or "hidden" for a blind hand's card
    "trump": _trump,  # the suit's letter
}
"""The move buttons' kinds, each with how its arg reads (None: not an arg of that kind)."""


class MoveButton(
    ButtonControl,
    template=_template("oh", MOVE_BUTTONS, f":{_HAND}:(?P<arg>[0-9A-Za-z-]{{1,10}})"),
):
    """A bid, a card or a trump in the hand message, for the hand it was sent for."""

    in_dm = True

    def __init__(self, item: discord.ui.Button[Any], match: re.Match[str]) -> None:
        super().__init__(item, match)
        self.move = MOVE_BUTTONS[self.kind](match["arg"])
        """None: the arg is not one of this kind's, refused when clicked."""

    async def handle(self, controller: Controller, interaction: Interaction) -> None:
        await _move(controller, interaction, self, self.move)


MOVE_SELECTS: Mapping[str, Callable[[str], Move | None]] = {
    "bidsel": _bid,  # part: the index of its first bid among the hand's
    "playsel": _listed_card,  # part: its suit
}
"""The move selects' kinds, each with how its chosen value reads. The part only tells a hand
message's selects apart."""


class MoveSelect(
    SelectControl,
    template=_template("os", MOVE_SELECTS, f":{_HAND}:(?P<part>[0-9]{{1,4}}|[CDHS])"),
):
    """A menu of bids, or of one suit's cards, in a hand message with more than buttons hold."""

    in_dm = True

    async def handle(self, controller: Controller, interaction: Interaction) -> None:
        await _move(controller, interaction, self, MOVE_SELECTS[self.kind](self.chosen()))


HostHandler = Callable[[Interaction, int, int], Awaitable[None]]

HOST_SELECTS: Mapping[str, Callable[[Controller], HostHandler]] = {
    "kick": lambda c: c.kick,  # a seated person's id
    "hostto": lambda c: c.hand_over,  # a seated person's id
    "timer": lambda c: c.set_turn_timer,  # seconds
}


class HostSelect(SelectControl, template=_template("os", HOST_SELECTS)):
    """A menu of the host panel; each chooses a number."""

    async def handle(self, controller: Controller, interaction: Interaction) -> None:
        number = _number(self.chosen())
        await HOST_SELECTS[self.kind](controller)(interaction, self.table_id, number)


class LevelSelect(SelectControl, template=_template("os", ["cpulevel"])):
    """The level of a computer player to add to the lobby."""

    async def handle(self, controller: Controller, interaction: Interaction) -> None:
        await controller.add_computer(interaction, self.table_id, self.chosen())


class RuleSelect(SelectControl, template=_template("os", ["rule"], ":0:(?P<field>[a-z_]{1,24})")):
    """A rule's menu in the rules editor (the service checks the field is a rule)."""

    def __init__(self, item: discord.ui.Select[Any], match: re.Match[str]) -> None:
        super().__init__(item, match)
        self.field = match["field"]

    async def handle(self, controller: Controller, interaction: Interaction) -> None:
        await controller.set_rule(interaction, self.table_id, self.field, self.chosen())


FAMILIES: tuple[type[Control[Any]], ...] = (
    TableButton,
    RulesPageButton,
    ComeBackButton,
    AutoPlayButton,
    MoveButton,
    MoveSelect,
    HostSelect,
    LevelSelect,
    RuleSelect,
)
"""Every family of a table's controls, for the client to register."""


def family_of(text: str) -> type[Control[Any]] | None:
    """The family whose template a custom_id matches, or None."""
    return next((family for family in FAMILIES if family.pattern().fullmatch(text)), None)


def control(item: discord.ui.Button[Any] | discord.ui.Select[Any]) -> Control[Any]:
    """`item` as the control of its family, to be sent (a custom_id of no family is a mistake
    of the renderer's: ValueError)."""
    text = item.custom_id or ""
    family = family_of(text)
    match = family.pattern().fullmatch(text) if family is not None else None
    if family is None or match is None:
        raise ValueError(f"no family of controls takes {text!r}")
    return family.read(item, match)
