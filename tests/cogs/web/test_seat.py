"""A person's hand as their page draws it: the DM's `HandState` in the DM's words — a card that
cannot be played dimmed with why (not their turn, the suit to follow), the dealer's forbidden bid
with the hook's reason, the joker led in no trumps as one move a suit, trump's choice; every
word in the page's language; a push of it escaped as the table's pushes are."""

from __future__ import annotations

import json
from typing import Any

from bot.engine import Card, Phase
from bot.service import BidOption, CardOption, HandState
from bot.service.refusals import Hook
from cogs.render.language import language, speaking
from cogs.web.seat import hand_frame, hand_view


def state(**overrides: Any) -> HandState:
    fields: dict[str, Any] = {
        "table_id": 7,
        "seat": 0,
        "hand_number": 2,
        "phase": Phase.PLAYING,
        "cards": (
            CardOption(Card("Q", "S"), 10, True),
            CardOption(Card("7", "H"), 31, False),
        ),
        "blind_cards": (),
        "trump": "H",
        "turned": None,
        "trump_decided": True,
        "my_turn": True,
        "bid": 1,
        "tricks_won": 0,
        "bid_options": (),
        "trump_options": (),
        "bids_so_far": None,
        "on_table": (("Bob", Card("3", "S")),),
        "auto_play": False,
    }
    fields.update(overrides)
    return HandState(**fields)


def english(hand: HandState) -> dict[str, Any]:
    with speaking(language("en")):
        return hand_view(hand)


def test_a_card_that_cannot_be_played_is_dimmed_with_the_suit_to_follow() -> None:
    view = english(state())
    queen, seven = view["cards"]
    assert queen == {"id": 10, "card": "QS", "label": "Q♠", "playable": True, "reason": None}
    assert not seven["playable"] and seven["reason"] == "You must follow spades"
    assert view["prompt"] == "Your turn: play a card"
    assert view["now"] == "On the table: Bob 3♠"
    # Not their turn: every card waits, and says so.
    waiting = english(state(my_turn=False, on_table=None))
    assert [c["playable"] for c in waiting["cards"]] == [False, False]
    assert {c["reason"] for c in waiting["cards"]} == {"Waiting for others"}


def test_the_dealers_forbidden_bid_is_disabled_with_the_hooks_reason() -> None:
    options = (BidOption(0, True), BidOption(1, False, Hook(total=1)), BidOption(2, True))
    view = english(state(phase=Phase.BIDDING, bid=None, bid_options=options, on_table=None))
    assert [(b["n"], b["allowed"]) for b in view["bids"]] == [(0, True), (1, False), (2, True)]
    assert view["bids"][1]["reason"] == "The hook: the bids would add up to 1"
    assert "not 1, the hook" in view["prompt"]
    # While bidding, no card is played.
    assert not any(c["playable"] for c in view["cards"])


def test_the_joker_led_in_no_trumps_is_one_move_a_suit_and_trump_is_chosen_by_suit() -> None:
    joker = CardOption(Card("JOKER", None), 52, True)
    view = english(state(cards=(joker,), joker_suits=("C", "H"), on_table=()))
    assert [(j["id"], j["suit"], j["label"]) for j in view["jokers"]] == [
        (52, 0, "🃏 as ♣"),
        (52, 2, "🃏 as ♥"),
    ]
    assert not view["cards"][0]["playable"] and view["cards"][0]["reason"]
    choosing = english(state(phase=Phase.TRUMP_CHOICE, trump_options=("S", "D"), on_table=None))
    assert [t["label"] for t in choosing["trumps"]] == ["♠ spades", "♦ diamonds"]


def test_a_hand_is_in_the_pages_language_and_its_push_is_escaped() -> None:
    hand = state(on_table=(("<b>Bob</b>", Card("3", "S")),))
    frame = hand_frame(hand, "de")
    assert frame.startswith(b"event: hand\n") and frame.endswith(b"\n\n")
    assert b"<" not in frame and b">" not in frame
    data = json.loads(frame.decode().split("data: ", 1)[1])
    assert data["prompt"] == "Du bist dran: spiel eine Karte"
    assert data["title"] == "Deine Karten — Runde 2"
    assert hand_frame(None, "en") == b"event: hand\nretry: 1000\ndata: null\n\n"


def test_the_page_loads_the_sign_in_only_with_sign_in_and_the_sdk_only_inside_discord() -> None:
    from cogs.web.live_page import live_page
    from tests.cogs.web.test_live import table_view

    view = table_view(3)
    with speaking(language("en")):
        watching = live_page(view, "/t/x/events")
        browser = live_page(view, "/t/x/events", seat="/t/x/seat", login="../login?next=%2Ft%2Fx")
        inside = live_page(view, "/t/x/events", seat="/t/x/seat", discord=True, application_id=9)
    assert '<div id="lobby-controls" hidden></div>' in watching
    assert 'src="/static/session.js' not in watching and "seat.js" not in watching
    assert "Log in with Discord" not in watching
    assert "session.js" in browser and "discord-sdk.js" not in browser
    assert 'data-act="/t/x/act"' in browser and 'href="../login?next=%2Ft%2Fx"' in browser
    assert "discord-sdk.js" in inside and 'data-client-id="9"' in inside
    assert "Log in with Discord" not in inside
