"""The hand message's controls, built as Discord component rows (`render.common.Controls`)."""

from __future__ import annotations

import dataclasses
from types import SimpleNamespace
from typing import Any

import pytest

from bot.engine import Card, Phase
from bot.service import BidOption, CardOption, HandState, TableView
from cogs.items import CardChoice, card_choice, family_of, play_arg
from cogs.items.table import AutoPlayButton, MoveButton, MoveSelect
from cogs.render.common import Controls
from cogs.render.hand import hand_message

RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")


def _state(cards: int = 0, bids: int = 0, my_turn: bool = True, **overrides: Any) -> HandState:
    pack = [Card(rank, suit) for suit in "CDHS" for rank in RANKS] * 2
    fields: dict[str, Any] = {
        "table_id": 7,
        "seat": 0,
        "hand_number": 3,
        "phase": Phase.BIDDING if bids else Phase.PLAYING,
        "cards": tuple(CardOption(pack[i], i, i % 2 == 0) for i in range(cards)),
        "blind_cards": (),
        "trump": "H",
        "turned": None,
        "trump_decided": True,
        "my_turn": my_turn,
        "bid": None,
        "tricks_won": 0,
        "bid_options": tuple(BidOption(n, n != 2) for n in range(bids)),
        "trump_options": (),
        "bids_so_far": () if bids else None,
        "on_table": None if bids else (),
        "auto_play": False,
    }
    fields.update(overrides)
    return HandState(**fields)


def _rows(state: HandState, table: TableView) -> list[list[dict[str, Any]]]:
    rendered = hand_message(state, table, "#cards")
    assert rendered.view is not None
    return [row["components"] for row in rendered.view.to_components()]


@pytest.fixture
def table() -> Any:
    class Table:
        guild_id, channel_id, message_id = 1, 2, 3

    return Table()


def test_thirteen_cards_fill_rows_of_five_and_auto_play_sits_in_the_last_row(table: Any) -> None:
    rows = _rows(_state(cards=13), table)
    assert [len(row) for row in rows] == [5, 5, 3, 1]
    assert rows[-1][0]["custom_id"] == "oh:auto:7:0:1"
    plays = [c for row in rows[:3] for c in row]
    assert [c["label"] for c in plays[:3]] == ["2♣", "3♣", "4♣"]
    assert [c["disabled"] for c in plays[:3]] == [False, True, False]
    families = [family_of(c["custom_id"]) for row in rows for c in row]
    assert families == [MoveButton] * 13 + [AutoPlayButton]


def test_more_than_twenty_cards_become_one_select_a_suit(table: Any) -> None:
    rows = _rows(_state(cards=30), table)
    selects = [row[0] for row in rows[:-1]]
    assert all(len(row) == 1 for row in rows[:-1]) and [s["type"] for s in selects] == [3, 3, 3]
    assert all(family_of(s["custom_id"]) is MoveSelect for s in selects)
    assert all(len(s["options"]) <= 25 for s in selects)
    # Only the playable faces are offered, each by its id in the pack.
    assert {o["value"] for s in selects for o in s["options"]} == {
        str(i) for i in range(30) if i % 2 == 0
    }
    assert rows[-1][0]["custom_id"] == "oh:auto:7:0:1"


def test_many_bids_become_selects_of_the_allowed_bids(table: Any) -> None:
    rows = _rows(_state(bids=27), table)
    values = [o["value"] for row in rows for c in row for o in c["options"]]
    assert values == [str(n) for n in range(27) if n != 2]
    assert all(c["type"] == 3 for row in rows for c in row)


def test_bid_buttons_go_five_a_row_by_number(table: Any) -> None:
    rows = _rows(_state(bids=8), table)
    assert [[c["label"] for c in row] for row in rows] == [
        ["0", "1", "2", "3", "4"],
        ["5", "6", "7"],
    ]
    assert rows[0][2]["disabled"] is True


def test_a_full_row_refuses_another_control() -> None:
    controls = Controls()
    for n in range(5):
        controls.button(str(n), f"oh:bid:1:1:{n}", row=0)
    with pytest.raises(ValueError, match="row 0"):
        controls.button("5", "oh:bid:1:1:5", row=0)
    controls.select("os:bidsel:1:1:0", "Bid", [("1", "1")])
    assert [len(row["components"]) for row in controls.to_components()] == [5, 1]


def test_a_played_out_hand_shows_its_last_card_and_bid_and_no_controls(table: Any) -> None:
    state = _state(cards=1, bid=2, played_out=True)
    rendered = hand_message(state, table, "#cards")
    assert rendered.view is None and rendered.content is None
    assert rendered.embed is not None
    fields = {f.name: f.value for f in rendered.embed.fields}
    assert fields["Last card"].endswith("auto-play plays it")
    assert fields["Your bid"] == "2"
    assert rendered.embed.footer.text is not None
    assert rendered.embed.footer.text.startswith("Nothing more to do this hand")
    # As an edit it clears the controls the message had.
    assert rendered.kwargs()["view"].children == []
    every_card = hand_message(_state(cards=0, played_out=True), table, "#cards")
    assert every_card.embed is not None
    assert "Last card" not in {f.name for f in every_card.embed.fields}


# -- the joker: every card is offered, and a joker led in no trumps is named a suit ------------

SUITS = "CDHS"
WITH_JOKER = [Card(rank, suit) for suit in SUITS for rank in RANKS] + [Card("JOKER", None)]


def _offered(rows: list[list[dict[str, Any]]]) -> set[str]:
    """The play args the controls offer: enabled play buttons' and select options' values."""
    out: set[str] = set()
    for row in rows:
        for c in row:
            if c["type"] == 3 and not c["disabled"]:
                out.update(o["value"] for o in c["options"])
            elif c["type"] == 2 and not c["disabled"] and c["custom_id"].startswith("oh:play:"):
                out.add(c["custom_id"].split(":")[4])
    return out


def _joker_hand(count: int, **overrides: Any) -> HandState:
    """`count` cards from a 53-card pack, the joker first (as a hand message sorts it), spread
    over all four suits, every card allowed."""
    ids = [52] + [(i % 4) * 13 + i // 4 for i in range(count - 1)]
    cards = tuple(CardOption(WITH_JOKER[i], i, True) for i in ids)
    return dataclasses.replace(_state(**overrides), cards=cards)


def _within_discord_limits(rows: list[list[dict[str, Any]]]) -> None:
    assert len(rows) <= 5
    for row in rows:
        assert len(row) <= 5 and (len(row) == 1 or all(c["type"] == 2 for c in row))
        assert all(len(c.get("options", ())) <= 25 for c in row)


@pytest.mark.parametrize("count", [1, 2, 5, 16, 19, 20, 21, 22, 25, 26])
@pytest.mark.parametrize("trump", ["H", None])
def test_every_allowed_card_is_offered_with_a_joker_and_four_suits(
    table: Any, count: int, trump: str | None
) -> None:
    state = _joker_hand(count, trump=trump, on_table=(("Bob", Card("2", "C")),))
    rows = _rows(state, table)
    _within_discord_limits(rows)
    assert _offered(rows) == {str(o.card_id) for o in state.cards}
    assert count < 5 or len({o.card.suit for o in state.cards}) == 5


def test_above_twenty_cards_the_joker_is_a_button_beside_auto_play(table: Any) -> None:
    rows = _rows(_joker_hand(22), table)
    assert [c["type"] for row in rows[:-1] for c in row] == [3, 3, 3, 3]
    assert [c["custom_id"] for c in rows[-1]] == ["oh:play:7:3:52", "oh:auto:7:0:1"]
    assert rows[-1][0]["label"] == "🃏"


@pytest.mark.parametrize("count", [3, 19, 22])
def test_a_joker_led_in_no_trumps_is_offered_as_each_suit(table: Any, count: int) -> None:
    state = _joker_hand(count, trump=None, joker_suits=("C", "D", "H", "S"))
    rows = _rows(state, table)
    _within_discord_limits(rows)
    last = rows[-1]
    assert [c["label"] for c in last[:4]] == ["🃏 as ♣", "🃏 as ♦", "🃏 as ♥", "🃏 as ♠"]
    assert [c["custom_id"] for c in last] == [
        "oh:play:7:3:52-0",
        "oh:play:7:3:52-1",
        "oh:play:7:3:52-2",
        "oh:play:7:3:52-3",
        "oh:auto:7:0:1",
    ]
    assert [family_of(c["custom_id"]) for c in last] == [MoveButton] * 4 + [AutoPlayButton]
    # The joker alone, unnamed, is not offered; every other card still is.
    offered = _offered(rows)
    assert "52" not in offered
    assert offered - {f"52-{s}" for s in range(4)} == {str(o.card_id) for o in state.cards[1:]}


def test_a_joker_followed_in_no_trumps_or_not_my_turn_names_no_suit(table: Any) -> None:
    following = _joker_hand(5, trump=None, on_table=(("Bob", Card("2", "C")),))
    waiting = _joker_hand(5, trump=None, my_turn=False, on_table=None)
    for state in (following, waiting):
        ids = [c["custom_id"] for row in _rows(state, table) for c in row]
        assert "oh:play:7:3:52" in ids and not any("-" in i for i in ids)


def test_the_suits_offered_for_the_joker_are_the_engines() -> None:
    """Random no-trumps hands with a joker: whenever a seat leads holding the joker, the hand
    message offers it as exactly the suits the engine allows."""
    import random

    from bot.engine import Game, Play, Settings
    from bot.service.document import Seat, TableDocument
    from bot.service.seat_views import hand_state

    settings = Settings(preset="nomination", pack="52+joker", trump="rotation", max_cards=9)
    names = ("Ann", "Bob", "Cat")
    document = TableDocument(seats=[Seat(user_id=i + 1, name=n) for i, n in enumerate(names)])
    checked = restricted = 0
    for seed in range(60):
        rng = random.Random(seed)
        game = Game.new(settings, players=3, seed=seed, names=names)
        while game.placing is None and game.hand_number <= 10:
            seat = game.to_act[0]
            if (
                game.phase is Phase.PLAYING
                and game.trump is None
                and not game.current_trick()
                and JOKER_CARD in game.hand(seat)
                and game.joker_suits(seat)
            ):
                state = hand_state(1, document, game, seat)
                table: Any = SimpleNamespace(guild_id=1, channel_id=2, message_id=3)
                labels = [
                    c["label"]
                    for row in _rows(state, table)
                    for c in row
                    if c["label"].startswith("🃏 as")
                ]
                allowed = game.joker_suits(seat)
                assert labels == [f"🃏 as {'♣♦♥♠'[s]}" for s in range(4) if allowed >> s & 1]
                checked += 1
                restricted += allowed != 0b1111
            action = rng.choice(game.legal_actions(seat))
            assert isinstance(action, Play) or game.phase is not Phase.PLAYING
            game.apply(seat, action)
    assert checked > 25 and restricted > 5, (checked, restricted)


JOKER_CARD = Card("JOKER", None)


def test_a_play_arg_carries_a_card_id_and_at_most_a_suit_index() -> None:
    assert play_arg(17) == "17" and card_choice("17") == CardChoice(17)
    assert play_arg(52, 2) == "52-2" and card_choice("52-2") == CardChoice(52, 2)
    for forged in (
        "52-4",
        "52-",
        "-2",
        "52-2-1",
        "52--2",
        "x",
        "",
        " 5",
        "٣",
        "12345",
        "52-H",
        None,
    ):
        assert card_choice(forged) is None, forged
