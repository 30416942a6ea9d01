"""Host-facing settings, the six presets, and their resolution into concrete rules.

``Settings`` is the public contract (field names and values appear in game records). Every field
but ``preset`` may be ``None``, meaning "the preset's choice". ``settings.resolve(players)``
gives a frozen :class:`Rules` for that player count or raises :class:`SettingsError` saying what
to change.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any, Final, Literal

from pydantic import BaseModel, ConfigDict, Field

from bot.engine.cards import PACKS, Pack, PackName
from bot.engine.errors import SettingsError

PresetName = Literal["oh-hell", "oh-shit", "oh-shit-half", "classic", "nomination", "first-to-101"]
SequenceName = Literal["down-up", "up-down", "down", "up", "up-up", "fixed"]
TrumpRule = Literal["turned", "spades", "rotation", "bidder"]
ExhaustedRule = Literal["forbidden", "dealer-last", "before-deal", "none"]
BiddingRule = Literal["hook", "open", "secret", "knock"]
FirstLead = Literal["dealer", "left"]
ScoringName = Literal[
    "exact-tens",
    "tricks-plus-ten",
    "five-and-tens",
    "squares",
    "oh-shit",
    "ten-plus-bid",
    "basic",
    "progressive",
    "negative",
    "adjusted-basic",
    "adjusted-basic-2",
]
EndRule = Literal["sequence", "target"]
TieRule = Literal["extra-hand", "tiebreakers", "share"]
DuplicateRule = Literal["first-wins", "later-wins", "cancel"]
AllCancelledRule = Literal["up-the-ante", "first-highest"]
BlindRule = Literal["none", "last", "all"]

PRESETS: Final[tuple[PresetName, ...]] = (
    "oh-hell",
    "oh-shit",
    "oh-shit-half",
    "classic",
    "nomination",
    "first-to-101",
)
MIN_PLAYERS: Final = 3
MAX_PLAYERS: Final = 10
TIEBREAK_DEAL_SIZE: Final = 5


class Settings(BaseModel):
    """What a table host chooses. ``Settings(preset="oh-shit", bidding="hook")``."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    preset: PresetName = "classic"
    pack: PackName | None = None
    sequence: SequenceName | None = None
    max_cards: Annotated[int, Field(ge=1)] | Literal["pack"] | None = None
    trump: TrumpRule | None = None
    ace_no_trumps: bool | None = None
    exhausted_trump: ExhaustedRule | None = None
    bidding: BiddingRule | None = None
    bid_changes: bool | None = None
    first_lead: FirstLead | None = None
    scoring: ScoringName | None = None
    spades_double: bool | None = None
    end: EndRule | None = None
    target: Annotated[int, Field(ge=1)] | None = None
    ties: TieRule | None = None
    duplicates: DuplicateRule | None = None
    all_cancelled: AllCancelledRule | None = None
    blind: BlindRule | None = None

    def overrides(self) -> dict[str, Any]:
        """The record form: ``{"preset": ..., **fields the host set}``."""
        return self.model_dump(exclude_none=True)

    def resolve(self, players: int) -> Rules:
        """Concrete rules for ``players`` seats, or :class:`SettingsError`."""
        return _resolve(self, players)


@dataclass(frozen=True, slots=True)
class Rules:
    """Settings resolved for one player count: every choice made, ready for play."""

    settings: Settings
    players: int
    preset: PresetName
    pack: Pack
    sequence: SequenceName
    max_cards: int
    sizes: tuple[int, ...]
    """Cards each, hand by hand; with ``end == "target"`` the game cycles through it."""
    trump: TrumpRule
    ace_no_trumps: bool
    exhausted_trump: ExhaustedRule
    bidding: BiddingRule
    bid_changes: bool
    first_lead: FirstLead
    scoring: ScoringName
    spades_double: bool
    end: EndRule
    target: int
    ties: TieRule
    duplicates: DuplicateRule
    all_cancelled: AllCancelledRule
    blind: BlindRule
    blind_hand: int
    """With ``blind == "last"``: the sequence index of the last one-card hand (-1 if none)."""

    def size_at(self, index: int) -> int:
        """Cards each in the hand at sequence position ``index`` (0-based)."""
        sizes = self.sizes
        return sizes[index] if index < len(sizes) else sizes[index % len(sizes)]

    def is_blind(self, index: int, size: int) -> bool:
        if size != 1 or self.blind == "none":
            return False
        return self.blind == "all" or index == self.blind_hand


def _preset_defaults(preset: PresetName, players: int) -> dict[str, Any]:
    base: dict[str, Any] = {
        "pack": "52",
        "trump": "turned",
        "ace_no_trumps": False,
        "exhausted_trump": "forbidden",
        "bidding": "hook",
        "bid_changes": False,
        "first_lead": "left",
        "spades_double": False,
        "end": "sequence",
        "target": 101,
        "ties": "share",
        "duplicates": "first-wins",
        "all_cancelled": "up-the-ante",
        "blind": "none",
    }
    if preset == "oh-hell":
        start = 10 if players <= 5 else 8 if players == 6 else 7
        base.update(
            sequence="down-up",
            max_cards=start,
            first_lead="dealer",
            scoring="exact-tens",
            ties="extra-hand",
            duplicates="later-wins",
        )
    elif preset in ("oh-shit", "oh-shit-half"):
        base.update(
            pack="63" if players >= 6 else "52",
            sequence="up-down" if preset == "oh-shit" else "down",
            max_cards=9,
            ace_no_trumps=True,
            exhausted_trump="dealer-last",
            bidding="secret",
            scoring="oh-shit",
            ties="tiebreakers",
        )
    elif preset == "classic":
        base.update(sequence="up-down", max_cards="pack", bid_changes=True, scoring="ten-plus-bid")
    elif preset == "nomination":
        base.update(
            sequence="up-down", max_cards="pack", exhausted_trump="dealer-last", scoring="basic"
        )
    else:  # first-to-101
        base.update(sequence="fixed", max_cards=10, scoring="tricks-plus-ten", end="target")
    return base


def _preset_max_players(preset: PresetName) -> int:
    return 5 if preset == "first-to-101" else 7


def _sizes(sequence: SequenceName, top: int, players: int) -> tuple[int, ...]:
    up = list(range(1, top + 1))
    down = up[::-1]
    if sequence == "down-up":
        return tuple(down + up[1:])
    if sequence == "up-down":
        return tuple(up + down[1:])
    if sequence == "down":
        return tuple(down)
    if sequence == "up":
        return tuple(up)
    if sequence == "up-up":
        return tuple(up + up)
    # fixed: with end "sequence" every player deals once (reading, docs/rules.md)
    return (top,) * players


def _resolve(s: Settings, players: int) -> Rules:
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise SettingsError(
            f"{players} players can't play: a table needs {MIN_PLAYERS} to {MAX_PLAYERS} players",
            code="players_range",
            players=players,
            low=MIN_PLAYERS,
            high=MAX_PLAYERS,
        )
    d = _preset_defaults(s.preset, players)
    for key, value in s.overrides().items():
        d[key] = value
    pack_name: PackName = d["pack"]
    pk = PACKS[pack_name]
    limit = _preset_max_players(s.preset)
    if players > limit and pack_name != "104":
        raise SettingsError(
            f"{s.preset} is for {MIN_PLAYERS} to {limit} players with one pack: for {players} "
            "players choose pack 104 (the double pack), or seat fewer players",
            code="preset_players",
            preset=s.preset,
            low=MIN_PLAYERS,
            high=limit,
            players=players,
        )
    if d["scoring"] == "negative" and d["end"] == "target":
        raise SettingsError(
            "negative scoring has the lowest total win, so a game can't end at a target score: "
            "choose end 'sequence' or another scoring",
            code="negative_target",
        )
    if d["bid_changes"] and d["bidding"] in ("secret", "knock"):
        raise SettingsError(
            f"bid changes need bidding in turn, not {d['bidding']} bidding: choose bidding "
            "'hook' or 'open', or turn bid changes off",
            code="bid_changes_bidding",
            bidding=d["bidding"],
        )
    if d["blind"] == "last" and d["end"] == "target":
        raise SettingsError(
            "a game that ends at a target score has no last one-card hand: choose blind 'all' "
            "or 'none', or end 'sequence'",
            code="blind_target",
        )
    if s.spades_double and d["trump"] != "turned":
        raise SettingsError(
            f"spades double needs trump set by a turned card, not trump '{d['trump']}': choose "
            "trump 'turned' or turn spades double off",
            code="spades_double_trump",
            trump=d["trump"],
        )
    if s.ace_no_trumps and d["trump"] != "turned":
        raise SettingsError(
            f"'an ace turned means no trumps' needs trump set by a turned card, not trump "
            f"'{d['trump']}': choose trump 'turned' or turn ace_no_trumps off",
            code="ace_no_trumps_trump",
            trump=d["trump"],
        )
    turned = d["trump"] == "turned"
    forbid = turned and d["exhausted_trump"] == "forbidden"
    whole = pk.size // players
    if whole < 1:
        raise SettingsError(
            f"the {pack_name}-card pack can't deal to {players} players",
            code="pack_too_small",
            pack=pack_name,
            players=players,
        )
    cap = (pk.size - 1) // players if forbid else whole
    mc = d["max_cards"]
    if mc == "pack":
        top = cap
    else:
        top = int(mc)
        if top > whole:
            raise SettingsError(
                f"{top} cards each for {players} players needs {top * players} cards but the "
                f"{pack_name}-card pack has {pk.size}: choose at most {whole} cards, or a "
                "bigger pack",
                code="too_many_cards",
                cards=top,
                players=players,
                needed=top * players,
                pack=pack_name,
                size=pk.size,
                most=whole,
            )
        if top > cap:
            raise SettingsError(
                f"{top} cards each for {players} players leaves no card to turn for trump: "
                f"choose at most {cap}, or let the dealer's last card set trump",
                code="no_card_to_turn",
                cards=top,
                players=players,
                most=cap,
            )
    if top < 1:
        raise SettingsError(
            f"the {pack_name}-card pack leaves no card to turn for {players} players: let the "
            "dealer's last card set trump, or choose a bigger pack",
            code="pack_no_turn",
            pack=pack_name,
            players=players,
        )
    sizes = _sizes(d["sequence"], top, players)
    blind_hand = -1
    if d["blind"] == "last":
        ones = [i for i, n in enumerate(sizes) if n == 1]
        if not ones:
            raise SettingsError(
                f"sequence '{d['sequence']}' with {top} cards has no one-card hand to play "
                "blind: choose blind 'none' or a sequence that reaches one card",
                code="no_one_card_hand",
                sequence=d["sequence"],
                cards=top,
            )
        blind_hand = ones[-1]
    return Rules(
        settings=s,
        players=players,
        preset=s.preset,
        pack=pk,
        sequence=d["sequence"],
        max_cards=top,
        sizes=sizes,
        trump=d["trump"],
        ace_no_trumps=bool(d["ace_no_trumps"]),
        exhausted_trump=d["exhausted_trump"],
        bidding=d["bidding"],
        bid_changes=bool(d["bid_changes"]),
        first_lead=d["first_lead"],
        scoring=d["scoring"],
        spades_double=bool(d["spades_double"]),
        end=d["end"],
        target=int(d["target"]),
        ties=d["ties"],
        duplicates=d["duplicates"],
        all_cancelled=d["all_cancelled"],
        blind=d["blind"],
        blind_hand=blind_hand,
    )
