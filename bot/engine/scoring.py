"""The eleven scoring formulas of RULES.md (b = bid, t = tricks taken, n = cards each)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Final


def _exact_tens(b: int, t: int, n: int, p: int) -> int:
    if t == b:
        return 10 * b if b else 10
    return -10 * abs(t - b)


def _tricks_plus_ten(b: int, t: int, n: int, p: int) -> int:
    return t + 10 if t == b else t


def _five_and_tens(b: int, t: int, n: int, p: int) -> int:
    # Reading (RULES.md, 000 alt. 2): the 10 a trick is paid only when the bid is made.
    return 5 + 10 * t if t == b else -5 - 5 * abs(t - b)


def _squares(b: int, t: int, n: int, p: int) -> int:
    return 10 + b * b if t == b else -((t - b) ** 2)


def _oh_shit(b: int, t: int, n: int, p: int) -> int:
    if t == b:
        return 10 + t if b else 5
    return t if t > b else t - b


def _ten_plus_bid(b: int, t: int, n: int, p: int) -> int:
    return 10 + b if t == b else 0


def _basic(b: int, t: int, n: int, p: int) -> int:
    return 10 + b if t == b else t


def _progressive(b: int, t: int, n: int, p: int) -> int:
    if t != b:
        return t
    if b == 0:
        # 3·n with 4 players; reading for other counts: 12·n / players, nearest whole point.
        return (24 * n + p) // (2 * p)
    return 10 + b * b


def _negative(b: int, t: int, n: int, p: int) -> int:
    d = abs(t - b)
    return d * (d + 1) // 2


def _adjusted_basic(b: int, t: int, n: int, p: int) -> int:
    if t != b:
        return t
    return 5 + n if b == 0 else 10 + b


def _adjusted_basic_2(b: int, t: int, n: int, p: int) -> int:
    if t != b:
        return 0
    return 5 if b == 0 else 10 + b


FORMULAS: Final[dict[str, Callable[[int, int, int, int], int]]] = {
    "exact-tens": _exact_tens,
    "tricks-plus-ten": _tricks_plus_ten,
    "five-and-tens": _five_and_tens,
    "squares": _squares,
    "oh-shit": _oh_shit,
    "ten-plus-bid": _ten_plus_bid,
    "basic": _basic,
    "progressive": _progressive,
    "negative": _negative,
    "adjusted-basic": _adjusted_basic,
    "adjusted-basic-2": _adjusted_basic_2,
}


def score(formula: str, bid: int, tricks: int, cards_each: int, players: int) -> int:
    """Points for one player's hand under ``formula`` (before spades double)."""
    return FORMULAS[formula](bid, tricks, cards_each, players)
