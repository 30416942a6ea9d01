"""The hand message's controls, built as Discord component rows (`render.common.Controls`)."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from bot.engine import Card, Phase
from bot.service import BidOption, CardOption, HandState, TableView
from cogs.items import CUSTOM_ID, SELECT_ID
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
    assert all(CUSTOM_ID.fullmatch(c["custom_id"]) for row in rows for c in row)


def test_more_than_twenty_cards_become_one_select_a_suit(table: Any) -> None:
    rows = _rows(_state(cards=30), table)
    selects = [row[0] for row in rows[:-1]]
    assert all(len(row) == 1 for row in rows[:-1]) and [s["type"] for s in selects] == [3, 3, 3]
    assert all(SELECT_ID.fullmatch(s["custom_id"]) for s in selects)
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


# -- the joker: every card is offered ------------

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
