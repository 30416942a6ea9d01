"""The seeded shuffle: deals must stay the same for the same seed (saved games, records and
arena results are replayed from it), whatever makes it faster."""

from __future__ import annotations

import hashlib
import random
import struct

import pytest

from bot.engine import Game, Settings
from bot.engine.dealing import shuffle


def reference(keys: bytes, n: int) -> list[int]:
    """The shuffle's definition: ids sorted by their little-endian uint32 keys, ties by id."""
    k = struct.unpack(f"<{n}I", keys[: 4 * n])
    return sorted(range(n), key=k.__getitem__)


@pytest.mark.parametrize("n", [52, 53, 63, 65, 78, 104])
def test_shuffle_is_the_sort_by_key(n: int) -> None:
    for i in range(300):
        keys = hashlib.shake_128(f"t:{n}:{i}".encode()).digest(4 * n + 4)
        assert list(shuffle(keys, n)) == reference(keys, n)


@pytest.mark.parametrize("n", [52, 104])
def test_shuffle_breaks_ties_by_id(n: int) -> None:
    rng = random.Random(n)
    for values in ([0, 1, 2], [0, 2**32 - 1], [2**31, 2**31 + 1, 255, 256], [7]):
        keys = struct.pack(f"<{n}I", *(rng.choice(values) for _ in range(n)))
        assert list(shuffle(keys, n)) == reference(keys, n)


def test_seeded_deals_are_pinned() -> None:
    g = Game.new(Settings(preset="first-to-101"), 4, seed=2024)
    assert g.dealt == (
        (39, 7, 31, 6, 15, 33, 42, 24, 45, 50),
        (28, 40, 49, 23, 18, 32, 11, 25, 10, 37),
        (44, 0, 34, 19, 13, 30, 29, 43, 22, 36),
        (5, 4, 27, 12, 26, 21, 16, 20, 1, 9),
    )
    assert g.turned_id == 14
    # Every card dealt, trump turned before the deal: the digest's last key picks it.
    s = Settings(preset="oh-hell", pack="65", exhausted_trump="before-deal", max_cards="pack")
    g = Game.new(s, 5, seed=7)
    assert g.dealt[0] == (3, 51, 39, 34, 7, 20, 33, 41, 47, 21, 38, 31, 26)
    assert g.dealt[4] == (9, 61, 62, 52, 48, 64, 6, 11, 57, 15, 60, 18, 27)
    assert g.turned_id == 11
