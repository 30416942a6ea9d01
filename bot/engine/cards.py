"""Cards, packs and card notation.

A card is written rank then suit letter: ``10H``, ``QS``, ``11C`` (63-card pack), and the joker
is ``JOKER``. Inside a game every physical card has an integer id; a hand is one int whose bit
``1 << id`` is set for each card held. Ids are ordered suit by suit (clubs, diamonds, hearts,
spades), low rank to high, copies of a duplicated card next to each other, the joker last, so
that within a suit a higher id never ranks lower.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final, Literal

SuitLetter = Literal["C", "D", "H", "S"]
PackName = Literal["52", "52+joker", "63", "65", "78", "104"]

SUITS: Final[tuple[SuitLetter, ...]] = ("C", "D", "H", "S")
SUIT_NAMES: Final[tuple[str, ...]] = ("clubs", "diamonds", "hearts", "spades")
JOKER_SUIT: Final = 4
BIT: Final = tuple(1 << i for i in range(128))
"""``BIT[id] == 1 << id`` for every card id (packs hold at most 104 cards), without making the
int each time."""

_STANDARD_RANKS: Final = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
_BLACK_63: Final = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12", "J", "Q", "K", "A")
_RED_63: Final = (
    "2",
    "3",
    "4",
    "5",
    "6",
    "7",
    "8",
    "9",
    "10",
    "11",
    "12",
    "13",
    "J",
    "Q",
    "K",
    "A",
)
_ALL_RANKS: Final = frozenset(_RED_63)


class CardError(ValueError):
    """A card notation that is not a card (or not a card of this pack)."""


@dataclass(frozen=True, slots=True)
class Card:
    """One card face: ``Card("10", "H")``; the joker is ``Card("JOKER", None)``."""

    rank: str
    suit: SuitLetter | None

    @staticmethod
    def parse(text: str) -> Card:
        """Parse notation such as ``"10H"``, ``"qs"`` or ``"JOKER"``."""
        t = text.strip().upper()
        if t == "JOKER":
            return JOKER
        if len(t) >= 2 and t[-1] in SUITS and t[:-1] in _ALL_RANKS:
            suit: SuitLetter = t[-1]
            return Card(t[:-1], suit)
        raise CardError(
            f"{text!r} is not a card: write rank then suit, like 10H or QS (ranks 2-10, 11, 12, "
            "13, J, Q, K, A; suits C D H S), or JOKER"
        )

    @property
    def is_joker(self) -> bool:
        return self.suit is None

    def __str__(self) -> str:
        return "JOKER" if self.suit is None else self.rank + self.suit

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"


JOKER: Final = Card("JOKER", None)
HIDDEN: Final = Card("?", None)
"""Stands for a blind hand's own card, which its holder may play without seeing it."""


@dataclass(frozen=True, eq=False)
class Pack:
    """A pack's cards by id, with the tables the game's hot path reads."""

    name: PackName
    cards: tuple[Card, ...]
    suit_of: tuple[int, ...]
    """0-3 for clubs..spades, 4 for the joker."""
    rank_of: tuple[int, ...]
    """Strength within the suit (higher wins); copies share it."""
    face_of: tuple[int, ...]
    """Copies of one card share a face number."""
    suit_masks: tuple[int, int, int, int]
    joker: int
    """The joker's id, or -1."""
    full_mask: int
    has_duplicates: bool
    ids_by_card: dict[Card, tuple[int, ...]] = field(repr=False)

    @property
    def size(self) -> int:
        return len(self.cards)

    def ids(self, card: Card) -> tuple[int, ...]:
        """The ids of every copy of ``card`` in this pack (empty if it is not in it)."""
        return self.ids_by_card.get(card, ())

    def parse(self, text: str) -> Card:
        card = Card.parse(text)
        if card not in self.ids_by_card:
            raise CardError(f"{card} is not in the {self.name}-card pack")
        return card

    def cards_of(self, mask: int) -> tuple[Card, ...]:
        """The cards whose bits are set in ``mask``, in id order."""
        out = []
        cards = self.cards
        while mask:
            low = mask & -mask
            out.append(cards[low.bit_length() - 1])
            mask ^= low
        return tuple(out)


def _build(name: PackName, faces: list[tuple[str, int]], extra: list[tuple[str, int]]) -> Pack:
    """faces: (rank, suit index) of one copy each; extra: second copies to add."""
    rank_lists = {
        0: _BLACK_63 if name == "63" else _STANDARD_RANKS,
        1: _RED_63 if name == "63" else _STANDARD_RANKS,
        2: _RED_63 if name == "63" else _STANDARD_RANKS,
        3: _BLACK_63 if name == "63" else _STANDARD_RANKS,
    }
    every = sorted(
        faces + extra,
        key=lambda f: (f[1], -1 if f[1] == JOKER_SUIT else rank_lists[f[1]].index(f[0])),
    )
    cards: list[Card] = []
    suit_of: list[int] = []
    rank_of: list[int] = []
    face_of: list[int] = []
    face_index: dict[Card, int] = {}
    ids: dict[Card, list[int]] = {}
    for i, (rank, s) in enumerate(every):
        card = JOKER if s == JOKER_SUIT else Card(rank, SUITS[s])
        cards.append(card)
        suit_of.append(s)
        rank_of.append(99 if s == JOKER_SUIT else rank_lists[s].index(rank))
        face_of.append(face_index.setdefault(card, len(face_index)))
        ids.setdefault(card, []).append(i)
    masks = [0, 0, 0, 0]
    for i, s in enumerate(suit_of):
        if s < 4:
            masks[s] |= 1 << i
    joker = ids[JOKER][0] if JOKER in ids else -1
    return Pack(
        name=name,
        cards=tuple(cards),
        suit_of=tuple(suit_of),
        rank_of=tuple(rank_of),
        face_of=tuple(face_of),
        suit_masks=(masks[0], masks[1], masks[2], masks[3]),
        joker=joker,
        full_mask=(1 << len(cards)) - 1,
        has_duplicates=len(face_index) < len(cards),
        ids_by_card={c: tuple(v) for c, v in ids.items()},
    )


def _standard() -> list[tuple[str, int]]:
    return [(r, s) for s in range(4) for r in _STANDARD_RANKS]


def _lowest(count: int) -> list[tuple[str, int]]:
    # Reading (RULES.md, 000 Australian packs): "lowest" is by rank, all four suits of a rank
    # together, the remainder in suit order clubs, diamonds, hearts, spades.
    return [(r, s) for r in _STANDARD_RANKS for s in range(4)][:count]


def _make_packs() -> dict[str, Pack]:
    std = _standard()
    joker = [("JOKER", JOKER_SUIT)]
    p63 = [(r, s) for s in range(4) for r in (_BLACK_63 if s in (0, 3) else _RED_63)]
    return {
        "52": _build("52", std, []),
        "52+joker": _build("52+joker", std + joker, []),
        "63": _build("63", p63 + joker, []),
        "65": _build("65", std, _lowest(13)),
        "78": _build("78", std, _lowest(26)),
        "104": _build("104", std, std),
    }


PACKS: Final[dict[str, Pack]] = _make_packs()


def pack(name: str) -> Pack:
    """The pack called ``name`` ("52", "52+joker", "63", "65", "78", "104")."""
    try:
        return PACKS[name]
    except KeyError:
        raise CardError(f"no pack {name!r}: choose one of {', '.join(PACKS)}") from None
