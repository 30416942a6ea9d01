"""The simulated people at the page: how they read a seat's stream, which move they pick, and how
the benchmark tells when the other players' pages showed a move."""

from __future__ import annotations

from tools.page_people import Seen, page_move, parse_event, shown_to_others


def test_an_event_is_read_and_a_keep_alive_is_not() -> None:
    assert parse_event(b'event: hand\nretry: 3000\ndata: {"turn":true}') == (
        "hand",
        {"turn": True},
    )
    assert parse_event(b"data: null") == ("message", None)
    assert parse_event(b": -") is None


def test_the_move_picked_is_the_first_the_page_offers() -> None:
    hand = {
        "hand": 3,
        "turn": True,
        "bids": [],
        "trumps": [],
        "cards": [{"id": 7, "playable": False}, {"id": 9, "playable": True}],
    }
    assert page_move(hand) == {"do": "play", "hand": 3, "card": 9}
    bidding = hand | {"bids": [{"n": 0, "allowed": False}, {"n": 1, "allowed": True}]}
    assert page_move(bidding) == {"do": "bid", "hand": 3, "bid": 1}
    assert page_move(hand | {"turn": False}) is None
    assert page_move(None) is None


def test_a_move_is_shown_when_another_page_gets_its_version_or_a_newer_one() -> None:
    mover = Seen(made=[5, 8], frames=[(10.0, 5, 9.990), (20.0, 8, 19.995)])
    # The other page skipped version 5 and got 6; version 8 came to it after 30 ms.
    other = Seen(frames=[(10.020, 6, 10.010), (20.025, 8, 19.995)])
    shown, unknown = shown_to_others([mover, other])
    assert [round(ms) for ms in shown] == [30, 30]
    assert unknown == 0
    # A move whose own version no page was pushed has no commit time to count from.
    assert shown_to_others([Seen(made=[4]), other]) == ([], 1)
