"""Card arithmetic in engine card ids, shared by the levels: suits, strength, trick winners.

A hand is an int with bit ``1 << id`` per card (the engine's representation). Within a suit a
higher id never ranks lower, and copies of a duplicated card sit next to each other.
"""

from __future__ import annotations

import functools
from typing import Final

from bot.engine import Pack

NO_TRUMPS: Final = -1
TRUMP_PENDING: Final = -2
JOKER_WINS: Final = 5
"""Effective suit of a joker in a no-trumps hand: it wins any trick it is played to."""


def bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def note_void(voids: list[int], eff: list[int], led: int, seat: int, card: int) -> None:
    """``seat`` played ``card`` to a trick led in suit ``led`` (-1: it led): not following
    shows it lacks that suit (a joker in no trumps follows anything)."""
    e = eff[card]
    if 0 <= led < 4 and e != led and e != JOKER_WINS:
        voids[seat] |= 1 << led


def one_of_each_face(mask: int, face_of: tuple[int, ...]) -> list[int]:
    """The cards of ``mask``, one copy of each (the lowest id) where a pack holds duplicates."""
    out: list[int] = []
    faces = 0
    for c in bits(mask):
        if not faces >> face_of[c] & 1:
            faces |= 1 << face_of[c]
            out.append(c)
    return out


class Suits:
    """Per-hand tables for one pack and one trump: effective suit, strength and the cards
    ranking strictly above each card in its effective suit."""

    __slots__ = ("above", "beaters", "eff", "joker", "masks", "rank", "strength", "trump")

    def __init__(self, pack: Pack, trump: int) -> None:
        self.trump = trump
        self.joker = pack.joker
        self.rank = pack.rank_of
        masks = list(pack.suit_masks)
        eff = list(pack.suit_of)
        if pack.joker >= 0:
            if trump >= 0:
                eff[pack.joker] = trump
                masks[trump] |= 1 << pack.joker
            else:
                eff[pack.joker] = JOKER_WINS
        self.eff = eff
        self.masks = masks
        self.above = _above(pack, trump)
        jbit = 1 << pack.joker if pack.joker >= 0 and trump < 0 else 0
        tmask = masks[trump] if trump >= 0 else 0
        self.beaters = [
            0 if e == JOKER_WINS else self.above[c] | jbit | (tmask if e != trump else 0)
            for c, e in enumerate(eff)
        ]
        """Cards that take the trick from card ``c`` when it leads the trick so far (ruffs
        included); a player who must follow suit can only use those of the suit."""
        self.strength = [
            (300 if e == JOKER_WINS else 100 if e == trump else 0) + pack.rank_of[c]
            for c, e in enumerate(eff)
        ]

    def beats(self, card: int, best: int) -> bool:
        """Would ``card`` played later take the trick from ``best`` (first copy wins ties)?"""
        eff = self.eff
        ec, eb = eff[card], eff[best]
        if eb == JOKER_WINS:
            return False
        if ec == JOKER_WINS:
            return True
        if ec == eb:
            return self.rank[card] > self.rank[best]
        return ec == self.trump

    def winner_index(self, trick: list[int] | tuple[int, ...]) -> int:
        best = 0
        for i in range(1, len(trick)):
            if self.beats(trick[i], trick[best]):
                best = i
        return best


@functools.cache
def _above_cached(pack_name: str, trump: int) -> tuple[int, ...]:
    from bot.engine import PACKS

    pack = PACKS[pack_name]
    out = []
    jbit = 1 << pack.joker if pack.joker >= 0 else 0
    for c in range(pack.size):
        s = pack.suit_of[c]
        if s == 4:
            out.append(0)
            continue
        m = 0
        r = pack.rank_of[c]
        for d in bits(pack.suit_masks[s]):
            if pack.rank_of[d] > r:
                m |= 1 << d
        if s == trump:
            m |= jbit
        out.append(m)
    return tuple(out)


def _above(pack: Pack, trump: int) -> tuple[int, ...]:
    return _above_cached(pack.name, trump)


@functools.cache
def suits_for(pack_name: str, trump: int) -> Suits:
    from bot.engine import PACKS

    return Suits(PACKS[pack_name], trump)
