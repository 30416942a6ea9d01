"""Each option on a hand-built deal (deals are written as records and loaded)."""

from __future__ import annotations

import random

import pytest

from bot.engine import (
    HIDDEN,
    JOKER,
    Bid,
    BidChanged,
    BidsRevealed,
    Card,
    ChooseTrump,
    Game,
    HandScored,
    IllegalBid,
    IllegalPlay,
    IllegalTrump,
    NotYourTurn,
    Phase,
    Play,
    RecordError,
    Settings,
    TrickWon,
    WrongPhase,
)
from bot.engine.records import game_from_record

from .helpers import bids, deal, plays, record

C = Card.parse
BASE = {"preset": "classic", "sequence": "down", "bid_changes": False}

# A 3-card deal for 4 players; dealer seat 0, so seat 1 bids and leads first.
HANDS3 = [
    ["2C", "3D", "4H"],  # seat 0 (dealer)
    ["AH", "KH", "2S"],  # seat 1
    ["QH", "3C", "9D"],  # seat 2
    ["5S", "6S", "7C"],  # seat 3
]


def test_follow_suit_and_the_highest_card_of_the_led_suit_wins() -> None:
    g = deal({**BASE, "max_cards": 3}, HANDS3, "2D", bids((1, 1), (2, 1), (3, 0), (0, 0)))
    assert g.phase is Phase.PLAYING and g.to_act == (1,)
    assert g.trump == "D"
    g.apply(1, Play(C("AH")))
    assert g.legal_actions(2) == [Play(C("QH"))]
    with pytest.raises(IllegalPlay, match="you must follow hearts"):
        g.apply(2, Play(C("3C")))
    g.apply(2, Play(C("QH")))
    g.apply(3, Play(C("7C")))
    events = g.apply(0, Play(C("4H")))
    assert events == [
        events[0],
        TrickWon(1, (C("AH"), C("QH"), C("7C"), C("4H")), 1, 1),
    ]
    assert g.to_act == (1,)


def test_the_highest_trump_wins() -> None:
    g = deal({**BASE, "max_cards": 3}, HANDS3, "2D", bids((1, 1), (2, 1), (3, 0), (0, 0)))
    for seat, card in [(1, "2S"), (2, "9D"), (3, "6S"), (0, "3D")]:
        events = g.apply(seat, Play(C(card)))
    assert isinstance(events[-1], TrickWon) and events[-1].winner == 2


def test_not_your_turn_names_the_player() -> None:
    g = deal({**BASE, "max_cards": 3}, HANDS3, "2D")
    with pytest.raises(NotYourTurn, match="it is Bob's turn to bid"):
        g.apply(2, Bid(1))
    g.apply(1, Bid(1))
    with pytest.raises(WrongPhase, match="bidding isn't over"):
        g.apply(2, Play(C("QH")))


def test_the_hook_stops_the_dealer_making_the_bids_add_up() -> None:
    g = deal({**BASE, "max_cards": 3}, HANDS3, "2D", bids((1, 1), (2, 1), (3, 0)))
    assert g.legal_actions(0) == [Bid(0), Bid(2), Bid(3)]
    with pytest.raises(
        IllegalBid, match="as the dealer you can't bid 1: the bids would add up to 3"
    ):
        g.apply(0, Bid(1))
    with pytest.raises(IllegalBid, match="bid from 0 to 3"):
        g.apply(0, Bid(4))


def test_open_bidding_lets_the_dealer_bid_anything() -> None:
    g = deal(
        {**BASE, "max_cards": 3, "bidding": "open"}, HANDS3, "2D", bids((1, 1), (2, 1), (3, 0))
    )
    assert g.legal_actions(0) == [Bid(0), Bid(1), Bid(2), Bid(3)]


def test_a_bid_may_change_until_the_next_player_bids() -> None:
    rules = {**BASE, "max_cards": 3, "bid_changes": True}
    g = deal(rules, HANDS3, "2D", bids((1, 2)))
    assert g.to_act == (2, 1)
    assert Bid(1) in g.legal_actions(1) and Bid(2) not in g.legal_actions(1)
    assert g.apply(1, Bid(1)) == [BidChanged(1, 2, 1)]
    with pytest.raises(IllegalBid, match="your bid is 1 already"):
        g.apply(1, Bid(1))
    g.apply(2, Bid(0))
    with pytest.raises(IllegalBid, match="can't change your bid any more"):
        g.apply(1, Bid(3))
    assert g.to_act == (3, 2)
    g.apply(3, Bid(0))
    # The dealer's bid closes bidding: nobody can change after it.
    g.apply(0, Bid(0))
    assert g.phase is Phase.PLAYING
    assert g.bids == (0, 1, 0, 0)


def test_secret_bidding_hides_bids_until_all_are_in() -> None:
    g = deal({**BASE, "max_cards": 3, "bidding": "secret"}, HANDS3, "2D")
    assert set(g.to_act) == {0, 1, 2, 3}
    g.apply(2, Bid(3))
    v = g.view(1)
    assert v.bids == (None, None, None, None) and v.has_bid == (False, False, True, False)
    assert g.view(2).bids[2] == 3
    with pytest.raises(NotYourTurn, match="you have bid already"):
        g.apply(2, Bid(1))
    g.apply(0, Bid(3))  # no hook in simultaneous bidding
    g.apply(1, Bid(0))
    events = g.apply(3, Bid(0))
    assert BidsRevealed((3, 0, 3, 0), 1, False) in events
    assert g.view(1).bids == (3, 0, 3, 0)
    assert g.phase is Phase.PLAYING


def test_knocking_rebids_when_the_bids_add_up_at_most_three_rounds() -> None:
    g = deal({**BASE, "max_cards": 3, "bidding": "knock"}, HANDS3, "2D")
    for rnd in (1, 2, 3):
        assert g.phase is Phase.BIDDING
        for seat, b in [(0, 1), (1, 1), (2, 1)]:
            g.apply(seat, Bid(b))
        events = g.apply(3, Bid(0))
        assert BidsRevealed((1, 1, 1, 0), rnd, rnd < 3) in events
    assert g.phase is Phase.PLAYING  # after the third round the bids stand
    assert g.bids == (1, 1, 1, 0)


def test_knocking_stops_when_the_bids_do_not_add_up() -> None:
    g = deal(
        {**BASE, "max_cards": 3, "bidding": "knock"},
        HANDS3,
        "2D",
        bids((0, 1), (1, 1), (2, 1), (3, 1)),
    )
    assert g.phase is Phase.PLAYING


def test_highest_bidder_chooses_trump_ties_to_the_earliest_bidder() -> None:
    rules = {**BASE, "max_cards": 3, "trump": "bidder"}
    g = deal(rules, HANDS3, None, bids((1, 1), (2, 2), (3, 2)))
    g.apply(0, Bid(0))
    assert g.phase is Phase.TRUMP_CHOICE and g.to_act == (2,)
    assert g.view(0).trump_decided is False
    with pytest.raises(NotYourTurn, match="Cat chooses trump"):
        g.apply(3, ChooseTrump("S"))
    with pytest.raises(IllegalTrump):
        g.apply(2, ChooseTrump("X"))  # type: ignore[arg-type]
    g.apply(2, ChooseTrump("S"))
    assert g.trump == "S" and g.phase is Phase.PLAYING


def test_spades_always_trump_and_rotation() -> None:
    g = deal({**BASE, "max_cards": 3, "trump": "spades"}, HANDS3, None)
    assert g.trump == "S" and g.turned is None
    g = Game.new(
        Settings(trump="rotation", sequence="fixed", max_cards=2, end="target", target=10**6), 4
    )
    seen: list[str | None] = []
    rng = random.Random(1)
    while len(seen) < 10:
        if g.hand_number > len(seen):
            seen.append(g.trump)
        seat = g.to_act[0]
        g.apply(seat, rng.choice(g.legal_actions(seat)))
    assert seen == ["C", "D", "H", "S", None] * 2


def test_an_ace_turned_means_no_trumps_when_chosen() -> None:
    assert deal({**BASE, "max_cards": 3, "ace_no_trumps": True}, HANDS3, "AS").trump is None
    assert deal({**BASE, "max_cards": 3}, HANDS3, "AS").trump == "S"


def test_a_turned_joker_means_no_trumps_even_without_the_ace_rule() -> None:
    g = deal({**BASE, "max_cards": 3, "pack": "52+joker"}, HANDS3, "JOKER")
    assert g.trump is None and g.turned == JOKER


def test_first_lead_by_the_dealer() -> None:
    g = deal(
        {**BASE, "max_cards": 3, "first_lead": "dealer"},
        HANDS3,
        "2D",
        bids((1, 1), (2, 1), (3, 0), (0, 0)),
    )
    assert g.to_act == (0,)


# --- the joker -----------------------------------------------------------------------------

JOKER_HANDS = [
    ["3D", "5D", "7D", "3C"],  # seat 0 (dealer)
    ["9D", "AD", "QD", "10D"],  # seat 1 leads every trick
    ["8D", "KD", "6C", "JOKER"],  # seat 2: document 001's example hand
    ["2D", "4D", "6D", "2C"],  # seat 3
]
JOKER_NT = {**BASE, "max_cards": 4, "pack": "52+joker", "ace_no_trumps": True}
BIDS4 = bids((1, 0), (2, 0), (3, 0), (0, 0))


def test_001_no_trump_joker_example() -> None:
    g = deal(JOKER_NT, JOKER_HANDS, "AS", BIDS4)
    assert g.trump is None
    g.apply(1, Play(C("9D")))
    # 1) a suit in which the player has not played another card yet: the joker may be played.
    assert set(g.legal_actions(2)) == {Play(C("8D")), Play(C("KD")), Play(JOKER)}
    g.apply(2, Play(C("8D")))
    g.apply(3, Play(C("2D")))
    g.apply(0, Play(C("3D")))
    g.apply(1, Play(C("AD")))
    # Another diamond still in the hand: only the king.
    assert g.legal_actions(2) == [Play(C("KD"))]
    with pytest.raises(IllegalPlay, match="joker can't be played as diamonds"):
        g.apply(2, Play(JOKER))
    g.apply(2, Play(C("KD")))
    g.apply(3, Play(C("4D")))
    g.apply(0, Play(C("5D")))
    g.apply(1, Play(C("QD")))
    # 2) out of diamonds without having failed to follow them: the joker (it would win) or 6C.
    assert set(g.legal_actions(2)) == {Play(C("6C")), Play(JOKER)}
    g.apply(2, Play(C("6C")))
    g.apply(3, Play(C("6D")))
    g.apply(0, Play(C("7D")))
    g.apply(1, Play(C("10D")))
    # 3) the final trick: played, and it wins, though it could no longer be played as a diamond.
    g.apply(2, Play(JOKER))
    g.apply(3, Play(C("2C")))
    events = g.apply(0, Play(C("3C")))
    won = [e for e in events if isinstance(e, TrickWon)]
    assert won[0].winner == 2
    scored = next(e for e in events if isinstance(e, HandScored))
    assert scored.tricks == (0, 3, 1, 0)


def test_no_trump_joker_wins_when_played_mid_hand() -> None:
    g = deal(JOKER_NT, JOKER_HANDS, "AS", BIDS4 + plays((1, "9D")))
    g.apply(2, Play(JOKER))
    g.apply(3, Play(C("2D")))
    events = g.apply(0, Play(C("3D")))
    assert next(e for e in events if isinstance(e, TrickWon)).winner == 2
    assert g.to_act == (2,)


def test_a_led_joker_names_its_suit_and_wins() -> None:
    hands = [
        ["3D", "5D", "7D", "3C"],
        ["9D", "AD", "QD", "10D"],
        ["JOKER", "KD", "6C", "8D"],
        ["2D", "4D", "6D", "2C"],
    ]
    rules = {**JOKER_NT, "first_lead": "left"}
    g = deal(rules, hands, "AS", BIDS4 + plays((1, "9D"), (2, "8D"), (3, "2D"), (0, "3D")))
    # Seat 1 won; now make seat 2 lead by letting it win with the joker? Seat 1 leads: AD.
    g.apply(1, Play(C("AD")))
    g.apply(2, Play(C("KD")))
    g.apply(3, Play(C("4D")))
    g.apply(0, Play(C("5D")))
    # seat 1 leads again; seat 2 holds JOKER and 6C, no diamonds, never failed diamonds.
    g.apply(1, Play(C("QD")))
    g.apply(2, Play(JOKER))  # as a diamond: wins
    g.apply(3, Play(C("6D")))
    g.apply(0, Play(C("7D")))
    assert g.to_act == (2,)
    assert g.view(2).tricks[-1].winner == 2


def test_leading_the_joker_requires_a_suit_it_may_be() -> None:
    hands = [
        ["3D", "5D", "7D"],
        ["JOKER", "9D", "2S"],
        ["8D", "KD", "6C"],
        ["2D", "4D", "6D"],
    ]
    g = deal({**JOKER_NT, "max_cards": 3}, hands, "AS", bids((1, 0), (2, 0), (3, 0), (0, 0)))
    joker_leads = {a for a in g.legal_actions(1) if isinstance(a, Play) and a.card == JOKER}
    assert joker_leads == {Play(JOKER, s) for s in "CDHS"}
    with pytest.raises(IllegalPlay, match="name the suit"):
        g.apply(1, Play(JOKER))
    g.apply(1, Play(JOKER, "D"))
    assert g.view(2).led == "D"
    assert g.legal_actions(2) == [Play(C("8D")), Play(C("KD"))]
    g.apply(2, Play(C("KD")))
    g.apply(3, Play(C("6D")))
    events = g.apply(0, Play(C("7D")))
    assert next(e for e in events if isinstance(e, TrickWon)).winner == 1


def test_a_player_who_played_and_failed_to_follow_may_not_play_the_joker_as_that_suit() -> None:
    hands = [
        ["3D", "5D", "7D", "4S"],
        ["9D", "AD", "QD", "2S"],
        ["8D", "6C", "JOKER", "3S"],
        ["2D", "4D", "6D", "5S"],
    ]
    g = deal(JOKER_NT, hands, "AS", BIDS4)
    for seat, card in [(1, "9D"), (2, "8D"), (3, "2D"), (0, "3D"), (1, "AD")]:
        g.apply(seat, Play(C(card)))
    # Out of diamonds and never failed them: the joker may still be a diamond.
    assert set(g.legal_actions(2)) == {Play(C("6C")), Play(JOKER), Play(C("3S"))}
    g.apply(2, Play(C("6C")))  # fails to follow diamonds
    g.apply(3, Play(C("4D")))
    g.apply(0, Play(C("5D")))
    g.apply(1, Play(C("QD")))
    assert g.legal_actions(2) == [Play(C("3S"))]
    with pytest.raises(IllegalPlay, match="failed to follow diamonds"):
        g.apply(2, Play(JOKER))


def test_the_joker_may_not_be_a_failed_suit_even_if_never_played() -> None:
    # 001 circumstance 1 read with 001's revoke rule (RULES.md: "only as a suit the player has
    # not yet failed to follow"): failing clubs bars the joker as a club until the last trick.
    hands = [
        ["3D", "5D", "7D", "8D"],
        ["9D", "AD", "2S", "3S"],
        ["6C", "JOKER", "4S", "5S"],
        ["2D", "4D", "6D", "10D"],
    ]
    g = deal(JOKER_NT, hands, "AS", BIDS4)
    for seat, card in [(1, "9D"), (2, "6C"), (3, "2D"), (0, "3D"), (1, "AD")]:
        g.apply(seat, Play(C(card)))
    assert set(g.legal_actions(2)) == {Play(C("4S")), Play(C("5S"))}
    with pytest.raises(IllegalPlay, match="failed to follow diamonds"):
        g.apply(2, Play(JOKER))
    g.apply(2, Play(C("4S")))
    g.apply(3, Play(C("4D")))
    g.apply(0, Play(C("5D")))
    # Spades now played and still held: the joker can't be a spade either.
    g.apply(1, Play(C("2S")))
    assert g.legal_actions(2) == [Play(C("5S"))]


def test_in_a_trump_hand_the_joker_is_the_highest_trump_and_follows_trumps() -> None:
    hands = [
        ["AH", "3C", "4C"],
        ["2H", "5C", "6C"],
        ["JOKER", "7C", "8C"],
        ["3H", "9C", "10C"],
    ]
    g = deal(
        {**BASE, "max_cards": 3, "pack": "52+joker"},
        hands,
        "5H",
        bids((1, 0), (2, 0), (3, 0), (0, 0)),
    )
    assert g.trump == "H"
    g.apply(1, Play(C("2H")))
    assert g.legal_actions(2) == [Play(JOKER)]  # the joker is a trump: it must follow hearts
    g.apply(2, Play(JOKER))
    g.apply(3, Play(C("3H")))
    events = g.apply(0, Play(C("AH")))
    assert next(e for e in events if isinstance(e, TrickWon)).winner == 2
    with pytest.raises(IllegalPlay, match="only when you lead the joker in no trumps"):
        g.apply(2, Play(C("7C"), "C"))


# --- duplicates ----------------------------------------------------------------------------

DUP = {"preset": "classic", "sequence": "down", "max_cards": 2, "pack": "104"}
DUP_HANDS = [
    ["3D", "4D"],  # seat 0
    ["5S", "AH"],  # seat 1
    ["5S", "2H"],  # seat 2
    ["3D", "4D"],  # seat 3
]
DUP_BIDS = bids((1, 0), (2, 0), (3, 0), (0, 0))


@pytest.mark.parametrize(("rule", "winner"), [("first-wins", 1), ("later-wins", 2)])
def test_identical_cards_first_or_later_wins(rule: str, winner: int) -> None:
    g = deal({**DUP, "duplicates": rule}, DUP_HANDS, "KC", DUP_BIDS)
    g.apply(1, Play(C("5S")))
    g.apply(2, Play(C("5S")))
    g.apply(3, Play(C("3D")))
    events = g.apply(0, Play(C("3D")))
    assert events[-1] == TrickWon(1, (C("5S"), C("5S"), C("3D"), C("3D")), winner, 1)


def test_cancelled_everywhere_up_the_ante_same_leader_next_trick_double() -> None:
    g = deal(
        {**DUP, "duplicates": "cancel", "all_cancelled": "up-the-ante"}, DUP_HANDS, "KC", DUP_BIDS
    )
    for seat, card in [(1, "5S"), (2, "5S"), (3, "3D")]:
        g.apply(seat, Play(C(card)))
    events = g.apply(0, Play(C("3D")))
    assert events[-1] == TrickWon(1, (C("5S"), C("5S"), C("3D"), C("3D")), None, 1)
    assert g.to_act == (1,) and g.view(1).trick_value == 2
    for seat, card in [(1, "AH"), (2, "2H"), (3, "4D")]:
        g.apply(seat, Play(C(card)))
    events = g.apply(0, Play(C("4D")))
    assert TrickWon(1, (C("AH"), C("2H"), C("4D"), C("4D")), 1, 2) in events
    scored = next(e for e in events if isinstance(e, HandScored))
    assert scored.tricks == (0, 2, 0, 0)
    assert sum(scored.tricks) == 2


def test_last_trick_all_cancelled_under_up_the_ante_goes_to_the_first_highest() -> None:
    hands = [["3D", "4D"], ["5S", "AH"], ["5S", "AH"], ["3D", "4D"]]
    g = deal({**DUP, "duplicates": "cancel"}, hands, "KC", DUP_BIDS)
    for seat, card in [(1, "5S"), (2, "5S"), (3, "3D"), (0, "3D"), (1, "AH"), (2, "AH"), (3, "4D")]:
        g.apply(seat, Play(C(card)))
    events = g.apply(0, Play(C("4D")))
    assert TrickWon(1, (C("AH"), C("AH"), C("4D"), C("4D")), 1, 2) in events


def test_cancellation_example_from_003_first_highest() -> None:
    # 7 players, hearts trump; 3s, Qh, 7h, Qh, 8d, 7h, 3s: player 2 (the first Qh) wins.
    cards = [["3S"], ["QH"], ["7H"], ["QH"], ["8D"], ["7H"], ["3S"]]
    rules = {
        "preset": "classic",
        "sequence": "down",
        "max_cards": 1,
        "pack": "104",
        "duplicates": "cancel",
        "all_cancelled": "first-highest",
    }
    names = ["P1", "P2", "P3", "P4", "P5", "P6", "P7"]
    acts = bids(*((s, 0) for s in range(7))) + plays(*((s, cards[s][0]) for s in range(6)))
    g = game_from_record(record(rules, cards, "2H", acts, dealer=6, names=names))
    assert g.trump == "H"
    events = g.apply(6, Play(C("3S")))
    assert next(e for e in events if isinstance(e, TrickWon)).winner == 1  # P2


def test_cancellation_leaves_a_surviving_led_card_the_winner() -> None:
    hands = [["3D", "4D"], ["5S", "AH"], ["7H", "2H"], ["7H", "4C"]]
    g = deal({**DUP, "duplicates": "cancel", "max_cards": 2}, hands, "KH", DUP_BIDS)
    for seat, card in [(1, "5S"), (2, "7H"), (3, "7H")]:
        g.apply(seat, Play(C(card)))
    events = g.apply(0, Play(C("3D")))
    assert events[-1].winner == 1  # type: ignore[union-attr]


# --- blind hands ---------------------------------------------------------------------------


def test_blind_one_card_hand_hides_only_your_own_card() -> None:
    rules = {**BASE, "max_cards": 1, "blind": "all"}
    g = deal(rules, [["2C"], ["AH"], ["QH"], ["5S"]], "2D")
    v = g.view(1)
    assert v.blind and v.hand == ()
    assert v.visible_hands == ((C("2C"),), None, (C("QH"),), (C("5S"),))
    for seat, b in [(1, 0), (2, 0), (3, 0)]:
        g.apply(seat, Bid(b))
    g.apply(0, Bid(0))
    assert g.view(1).legal_actions == (Play(HIDDEN),)
    g.apply(1, Play(HIDDEN))
    assert g.view(2).trick == ((1, C("AH")),)


def test_a_blind_joker_led_in_no_trumps_is_played_unseen() -> None:
    # RULES, blind round: "the player's own card stays hidden from them until played"; the
    # joker led in no trumps has its suit named. A seat that can't see its card can't know to
    # name one: the view offers one Play(HIDDEN), as for any other card (four would show it is
    # the joker), and the engine plays it, naming a suit itself (the last trick: any suit).
    rules = {**BASE, "max_cards": 1, "blind": "all", "pack": "52+joker", "ace_no_trumps": True}
    g = deal(rules, [["2C"], ["JOKER"], ["QH"], ["5S"]], "AS", bids((1, 1), (2, 0), (3, 0)))
    g.apply(0, Bid(1))
    assert g.trump is None and g.is_blind and g.to_act == (1,)
    assert g.view(1).legal_actions == (Play(HIDDEN),)
    g.apply(1, Play(HIDDEN))
    assert g.view(2).trick == ((1, JOKER),)
    for seat in (2, 3, 0):
        g.apply(seat, Play(HIDDEN))
    assert g.history()[0].won == (0, 1, 0, 0)


def test_blind_last_is_only_the_final_one_card_hand() -> None:
    r = Settings(preset="oh-hell", blind="last", sequence="up-down", max_cards=3).resolve(4)
    assert [r.is_blind(i, n) for i, n in enumerate(r.sizes)] == [False, False, False, False, True]


# --- when the pack is dealt out ------------------------------------------------------------

FULL = [
    ["2C", "3C", "4C"],
    ["5C", "6C", "7C"],
    ["8C", "9C", "10C"],
    ["JC", "QC", "KC"],
]


def test_exhausted_dealer_last_card() -> None:
    rules = {"preset": "nomination", "sequence": "down", "max_cards": 13}
    cards = [
        [f"{r}{s}" for r in ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]]
        for s in "CDHS"
    ]
    g = deal(rules, cards, "AC")
    assert g.trump == "C" and g.cards_each == 13
    with pytest.raises(RecordError, match="dealer's last card") as e:
        deal(rules, cards, "AD")
    assert e.value.rule == "turned"


def test_exhausted_no_trumps_and_before_deal() -> None:
    cards = [
        [f"{r}{s}" for r in ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]]
        for s in "CDHS"
    ]
    g = deal(
        {"preset": "nomination", "sequence": "down", "max_cards": 13, "exhausted_trump": "none"},
        cards,
        None,
    )
    assert g.trump is None
    g = deal(
        {
            "preset": "nomination",
            "sequence": "down",
            "max_cards": 13,
            "exhausted_trump": "before-deal",
        },
        cards,
        "QH",
    )
    assert g.trump == "H"


# --- scoring in play: spades double ---------------------------------------------------------


def test_spades_double_doubles_every_score_of_a_spade_hand() -> None:
    rules = {**BASE, "max_cards": 3, "scoring": "basic", "spades_double": True}
    acts = bids((1, 1), (2, 1), (3, 0), (0, 0)) + plays(
        (1, "AH"),
        (2, "QH"),
        (3, "7C"),
        (0, "4H"),
        (1, "KH"),
        (2, "3C"),
        (3, "5S"),
        (0, "2C"),
        (3, "6S"),
        (0, "3D"),
        (1, "2S"),
        (2, "9D"),
    )
    g = deal(rules, HANDS3, "8S", acts[:-1])
    events = g.apply(2, Play(C("9D")))
    scored = next(e for e in events if isinstance(e, HandScored))
    # seat 3 won two tricks with trumps, seat 1 one
    assert scored.tricks == (0, 1, 0, 2)
    assert scored.points == (2 * 10, 2 * 11, 2 * 0, 2 * 2)


# --- packs in play --------------------------------------------------------------------------


def test_63_card_pack_ranks_11_12_13_between_10_and_jack() -> None:
    rules = {**BASE, "max_cards": 2, "pack": "63"}
    hands = [["10H", "2S"], ["13H", "3S"], ["12H", "4S"], ["JH", "11S"]]
    g = deal(rules, hands, "2C", bids((1, 0), (2, 0), (3, 0), (0, 0)))
    for seat, card in [(1, "13H"), (2, "12H"), (3, "JH")]:
        g.apply(seat, Play(C(card)))
    events = g.apply(0, Play(C("10H")))
    assert events[-1] == TrickWon(1, (C("13H"), C("12H"), C("JH"), C("10H")), 3, 1)
    for seat, card in [(3, "11S"), (0, "2S"), (1, "3S")]:
        g.apply(seat, Play(C(card)))
    events = g.apply(2, Play(C("4S")))
    assert next(e for e in events if isinstance(e, TrickWon)).winner == 3  # 11 beats 4


def test_australian_pack_in_oh_hell_later_duplicate_wins_by_default() -> None:
    rules = {"preset": "oh-hell", "sequence": "down", "max_cards": 1, "pack": "78"}
    g = deal(rules, [["7H"], ["7H"], ["2H"], ["5S"]], "KD", bids((1, 0), (2, 0), (3, 0), (0, 0)))
    assert g.to_act == (0,)  # 000: the dealer leads
    for seat, card in [(0, "7H"), (1, "7H"), (2, "2H")]:
        g.apply(seat, Play(C(card)))
    events = g.apply(3, Play(C("5S")))
    assert next(e for e in events if isinstance(e, TrickWon)).winner == 1  # the second 7H
