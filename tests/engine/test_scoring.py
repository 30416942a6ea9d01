from __future__ import annotations

import pytest

from bot.engine import score
from bot.engine.scoring import FORMULAS


def test_there_are_eleven_formulas() -> None:
    assert len(FORMULAS) == 11


# (formula, bid, tricks, cards each, players, points) — from RULES.md's scoring table.
CASES = [
    ("exact-tens", 3, 3, 5, 4, 30),
    ("exact-tens", 0, 0, 5, 4, 10),
    ("exact-tens", 2, 5, 5, 4, -30),
    ("exact-tens", 2, 0, 5, 4, -20),
    ("tricks-plus-ten", 3, 3, 10, 4, 13),
    ("tricks-plus-ten", 3, 5, 10, 4, 5),
    ("tricks-plus-ten", 0, 0, 10, 4, 10),
    ("five-and-tens", 2, 2, 5, 4, 25),
    ("five-and-tens", 0, 0, 5, 4, 5),
    ("five-and-tens", 2, 4, 5, 4, -15),
    ("five-and-tens", 3, 2, 5, 4, -10),
    ("squares", 3, 3, 5, 4, 19),
    ("squares", 0, 0, 5, 4, 10),
    ("squares", 1, 4, 5, 4, -9),
    ("oh-shit", 3, 3, 5, 6, 13),
    ("oh-shit", 0, 0, 5, 6, 5),
    ("oh-shit", 2, 3, 5, 6, 3),
    ("oh-shit", 3, 1, 5, 6, -2),
    ("oh-shit", 0, 1, 5, 6, 1),
    ("ten-plus-bid", 0, 0, 5, 4, 10),
    ("ten-plus-bid", 2, 2, 5, 4, 12),
    ("ten-plus-bid", 2, 3, 5, 4, 0),
    ("basic", 2, 2, 5, 4, 12),
    ("basic", 2, 4, 5, 4, 4),
    ("basic", 0, 0, 5, 4, 10),
    ("progressive", 0, 0, 5, 4, 15),  # 3·n with 4 players
    ("progressive", 0, 0, 5, 6, 10),  # 12·5/6
    ("progressive", 0, 0, 1, 5, 2),  # 12/5 = 2.4 -> 2
    ("progressive", 0, 0, 3, 5, 7),  # 36/5 = 7.2 -> 7
    ("progressive", 0, 0, 1, 8, 2),  # 12/8 = 1.5 -> 2 (halves up)
    ("progressive", 1, 1, 5, 4, 11),
    ("progressive", 4, 4, 5, 4, 26),
    ("progressive", 3, 1, 5, 4, 1),
    ("negative", 2, 2, 5, 4, 0),
    ("negative", 2, 3, 5, 4, 1),
    ("negative", 2, 4, 5, 4, 3),
    ("negative", 4, 1, 5, 4, 6),
    ("adjusted-basic", 0, 0, 1, 4, 6),  # 003: "a successful zero bid is worth 6 points"
    ("adjusted-basic", 1, 1, 1, 4, 11),
    ("adjusted-basic", 0, 0, 7, 4, 12),
    ("adjusted-basic", 2, 1, 7, 4, 1),
    ("adjusted-basic-2", 0, 0, 7, 4, 5),
    ("adjusted-basic-2", 2, 2, 7, 4, 12),
    ("adjusted-basic-2", 2, 1, 7, 4, 0),
]


@pytest.mark.parametrize(("formula", "bid", "tricks", "n", "players", "points"), CASES)
def test_formula(formula: str, bid: int, tricks: int, n: int, players: int, points: int) -> None:
    assert score(formula, bid, tricks, n, players) == points


def test_every_formula_has_a_case() -> None:
    assert {c[0] for c in CASES} == set(FORMULAS)


# RULES.md: document 001's example, six players, oh-shit scoring. Chaz's -5 is a revoke penalty,
# which can't happen in the bot (an illegal card is refused); his score without it is -1.
EXAMPLE_001 = [
    ("Adam", 3, 1, -2),
    ("Bonnie", 0, 1, 1),
    ("Chaz", 2, 1, -1),
    ("Daniel", 0, 0, 5),
    ("Ellie", 3, 3, 13),
    ("Fred", 2, 3, 3),
]


@pytest.mark.parametrize(("name", "bid", "tricks", "points"), EXAMPLE_001)
def test_001_example_table(name: str, bid: int, tricks: int, points: int) -> None:
    assert score("oh-shit", bid, tricks, 5, 6) == points, name
