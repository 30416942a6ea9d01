from __future__ import annotations

from collections import Counter

import pytest

from bot.engine import JOKER, PACKS, Card, CardError, pack


@pytest.mark.parametrize(
    ("name", "size"),
    [("52", 52), ("52+joker", 53), ("63", 63), ("65", 65), ("78", 78), ("104", 104)],
)
def test_pack_sizes(name: str, size: int) -> None:
    assert pack(name).size == size
    assert len(PACKS[name].cards) == size


def test_63_card_pack_ranks_in_order() -> None:
    p = pack("63")
    by_suit = {s: [c.rank for c in p.cards if c.suit == s] for s in "CDHS"}
    assert by_suit["C"] == [
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
        "J",
        "Q",
        "K",
        "A",
    ]
    assert by_suit["S"] == by_suit["C"]
    assert by_suit["H"] == [*by_suit["C"][:11], "13", "J", "Q", "K", "A"]
    assert by_suit["D"] == by_suit["H"]
    assert p.cards.count(JOKER) == 1


def test_australian_packs_add_the_lowest_cards_of_a_second_pack() -> None:
    extra65 = Counter(pack("65").cards) - Counter(pack("52").cards)
    assert sorted(map(str, extra65)) == sorted([f"{r}{s}" for r in "234" for s in "CDHS"] + ["5C"])
    extra78 = Counter(pack("78").cards) - Counter(pack("52").cards)
    assert sum(extra78.values()) == 26
    assert {str(c) for c in extra78} == {f"{r}{s}" for r in "234567" for s in "CDHS"} | {
        "8C",
        "8D",
    }


def test_double_pack_holds_every_card_twice() -> None:
    assert set(Counter(pack("104").cards).values()) == {2}


def test_ids_rank_within_suit() -> None:
    for p in PACKS.values():
        for a in range(p.size):
            for b in range(a + 1, p.size):
                if p.suit_of[a] == p.suit_of[b]:
                    assert p.rank_of[a] <= p.rank_of[b]


@pytest.mark.parametrize("text", ["10H", "QS", "2C", "AD", "11C", "13H", "JOKER"])
def test_notation_round_trip(text: str) -> None:
    assert str(Card.parse(text)) == text


def test_notation_is_case_insensitive() -> None:
    assert Card.parse("qs") == Card("Q", "S")
    assert Card.parse("joker") is JOKER or Card.parse("joker") == JOKER


@pytest.mark.parametrize("text", ["1H", "10X", "", "T", "14S", "JOKERS"])
def test_bad_notation_says_how_to_write_a_card(text: str) -> None:
    with pytest.raises(CardError, match="rank then suit"):
        Card.parse(text)


def test_pack_refuses_cards_it_lacks() -> None:
    with pytest.raises(CardError, match="not in the 52-card pack"):
        pack("52").parse("11C")
    assert pack("63").parse("11C") == Card("11", "C")
