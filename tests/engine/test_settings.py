from __future__ import annotations

import random

import pydantic
import pytest

from bot.engine import PRESETS, Game, Settings, SettingsError

from .helpers import play_randomly


def _down_up(top: int) -> list[int]:
    return [*range(top, 0, -1), *range(2, top + 1)]


def _up_down(top: int) -> list[int]:
    return [*range(1, top + 1), *range(top - 1, 0, -1)]


# Hand sequences straight from RULES.md's preset table, per player count.
EXPECTED: dict[str, dict[int, list[int]]] = {
    "oh-hell": {3: _down_up(10), 4: _down_up(10), 5: _down_up(10), 6: _down_up(8), 7: _down_up(7)},
    "oh-shit": {p: _up_down(9) for p in range(3, 8)},
    "oh-shit-half": {p: list(range(9, 0, -1)) for p in range(3, 8)},
    "classic": {3: _up_down(17), 4: _up_down(12), 5: _up_down(10), 6: _up_down(8), 7: _up_down(7)},
    "nomination": {
        3: _up_down(17),
        4: _up_down(13),
        5: _up_down(10),
        6: _up_down(8),
        7: _up_down(7),
    },
}


@pytest.mark.parametrize(("preset", "players"), [(p, n) for p, by in EXPECTED.items() for n in by])
def test_preset_hand_sequence(preset: str, players: int) -> None:
    rules = Settings.model_validate({"preset": preset}).resolve(players)
    assert list(rules.sizes) == EXPECTED[preset][players]


def test_document_examples() -> None:
    assert len(Settings(preset="oh-hell").resolve(7).sizes) == 13  # 000: 13 hands with 7
    assert len(Settings(preset="nomination").resolve(4).sizes) == 25  # 003: 25 hands
    assert len(Settings(preset="oh-shit").resolve(4).sizes) == 17  # 001: full game
    assert len(Settings(preset="oh-shit-half").resolve(4).sizes) == 9


@pytest.mark.parametrize("players", [3, 4, 5])
def test_first_to_101_deals_ten_every_hand(players: int) -> None:
    g = Game.new(Settings(preset="first-to-101"), players, seed=players)
    sizes = set()
    rng = random.Random(players)
    while g.phase.value != "game-over":
        sizes.add(g.cards_each)
        seat = g.to_act[0]
        g.apply(seat, rng.choice(g.legal_actions(seat)))
    assert sizes == {10}
    assert max(g.totals) >= 101


@pytest.mark.parametrize("preset", ["oh-hell", "oh-shit-half", "classic"])
def test_played_game_follows_the_sequence(preset: str) -> None:
    g = Game.new(Settings(preset=preset, ties="share"), 5, seed=3)
    seen: list[int] = []
    rng = random.Random(1)
    while g.phase.value != "game-over":
        if not seen or g.hand_number != len(seen):
            seen.append(g.cards_each)
        seat = g.to_act[0]
        g.apply(seat, rng.choice(g.legal_actions(seat)))
    assert seen == list(g.rules.sizes)


def test_oh_shit_uses_the_63_card_pack_for_six_or_seven() -> None:
    assert Settings(preset="oh-shit").resolve(5).pack.name == "52"
    assert Settings(preset="oh-shit").resolve(6).pack.name == "63"
    assert Settings(preset="oh-shit-half").resolve(7).pack.name == "63"


def test_presets_resolve_the_documented_options() -> None:
    r = Settings(preset="oh-shit").resolve(4)
    assert (r.bidding, r.ace_no_trumps, r.exhausted_trump, r.scoring, r.ties, r.first_lead) == (
        "secret",
        True,
        "dealer-last",
        "oh-shit",
        "tiebreakers",
        "left",
    )
    r = Settings(preset="oh-hell").resolve(4)
    assert (r.first_lead, r.scoring, r.ties, r.bidding) == (
        "dealer",
        "exact-tens",
        "extra-hand",
        "hook",
    )
    r = Settings(preset="classic").resolve(4)
    assert (r.bid_changes, r.scoring, r.exhausted_trump) == (True, "ten-plus-bid", "forbidden")
    r = Settings(preset="nomination").resolve(4)
    assert (r.scoring, r.exhausted_trump, r.max_cards) == ("basic", "dealer-last", 13)
    r = Settings(preset="first-to-101").resolve(4)
    assert (r.sequence, r.max_cards, r.scoring, r.end, r.target) == (
        "fixed",
        10,
        "tricks-plus-ten",
        "target",
        101,
    )


def test_default_preset_is_classic() -> None:
    assert Settings().preset == "classic"


def test_overrides_apply_and_round_trip() -> None:
    s = Settings(preset="oh-hell", scoring="squares", max_cards=5)
    assert s.overrides() == {"preset": "oh-hell", "scoring": "squares", "max_cards": 5}
    assert Settings.model_validate(s.overrides()) == s
    r = s.resolve(4)
    assert r.scoring == "squares"
    assert list(r.sizes) == _down_up(5)


@pytest.mark.parametrize(
    ("sequence", "sizes"),
    [
        ("down-up", [3, 2, 1, 2, 3]),
        ("up-down", [1, 2, 3, 2, 1]),
        ("down", [3, 2, 1]),
        ("up", [1, 2, 3]),
        ("up-up", [1, 2, 3, 1, 2, 3]),
        ("fixed", [3, 3, 3, 3]),
    ],
)
def test_every_sequence(sequence: str, sizes: list[int]) -> None:
    r = Settings.model_validate({"sequence": sequence, "max_cards": 3}).resolve(4)
    assert list(r.sizes) == sizes


def test_max_pack_is_the_largest_deal() -> None:
    assert Settings(max_cards="pack", exhausted_trump="dealer-last").resolve(4).max_cards == 13
    assert Settings(max_cards="pack", pack="104").resolve(10).max_cards == 10
    assert Settings(max_cards="pack", pack="104").resolve(7).max_cards == 14  # 003: 14 cards


@pytest.mark.parametrize(
    ("fields", "players", "match"),
    [
        (
            {"max_cards": 13},
            4,
            "13 cards each for 4 players leaves no card to turn for trump: "
            "choose at most 12, or let the dealer's last card set trump",
        ),
        ({"max_cards": 14, "exhausted_trump": "dealer-last"}, 4, "needs 56 cards"),
        ({}, 8, "for 8 players choose pack 104"),
        ({"preset": "first-to-101"}, 6, "3 to 5 players"),
        ({}, 2, "3 to 10 players"),
        ({}, 11, "3 to 10 players"),
        ({"scoring": "negative", "end": "target"}, 4, "lowest total"),
        ({"bidding": "secret", "bid_changes": True}, 4, "bid changes need bidding in turn"),
        ({"blind": "last", "end": "target"}, 4, "no last one-card hand"),
        ({"spades_double": True, "trump": "spades"}, 4, "spades double needs"),
        ({"ace_no_trumps": True, "trump": "bidder"}, 4, "needs trump set by a turned card"),
        ({"blind": "last", "sequence": "fixed", "max_cards": 3}, 4, "no one-card hand"),
    ],
)
def test_impossible_settings_say_what_to_change(
    fields: dict[str, object], players: int, match: str
) -> None:
    with pytest.raises(SettingsError, match=match):
        Settings.model_validate(fields).resolve(players)


def test_double_pack_seats_ten() -> None:
    r = Settings(preset="first-to-101", pack="104").resolve(10)
    assert r.max_cards == 10


def test_unknown_fields_and_values_are_refused() -> None:
    with pytest.raises(pydantic.ValidationError):
        Settings.model_validate({"colour": "red"})
    with pytest.raises(pydantic.ValidationError):
        Settings.model_validate({"scoring": "golf"})
    with pytest.raises(pydantic.ValidationError):
        Settings.model_validate({"max_cards": 0})


def test_settings_are_frozen() -> None:
    s = Settings()
    with pytest.raises(pydantic.ValidationError):
        s.preset = "oh-hell"  # type: ignore[misc]


@pytest.mark.parametrize("preset", PRESETS)
def test_every_preset_plays_to_the_end(preset: str) -> None:
    g = Game.new(Settings.model_validate({"preset": preset}), 4, seed=11)
    play_randomly(g, random.Random(2))
    assert g.placing is not None
    assert sorted(set(g.placing))[0] == 1
