"""The post-game review's judging (bot.ai.review): a bad card is found and priced, a card
``hard`` agrees with is not, and only what the seat could see counts."""

from __future__ import annotations

import random
from typing import Any

from bot.ai import decide
from bot.ai.review import assess, decisions
from bot.engine import Bid, Card, Game, Phase, Play, Settings
from bot.engine.records import game_from_record, record_from_game
from tests.ai.test_boundary import twin_record

ITERATIONS = 30


def duck_or_overtake(card: str) -> dict[str, Any]:
    """Seat 1 bid 0 and holds K♥ 2♥ 3♣; seat 0 leads 5♥; seat 1 plays ``card``."""
    return {
        "format": "ohhell-record/1",
        "rules": {"preset": "first-to-101", "max_cards": 3},
        "players": ["Ann", "Bob", "Cat"],
        "hands": [
            {
                "dealer": 2,
                "cards": [["5H", "7C", "8C"], ["KH", "2H", "3C"], ["4D", "5D", "6D"]],
                "turned": "QS",
                "actions": [
                    {"seat": 0, "bid": 1},
                    {"seat": 1, "bid": 0},
                    {"seat": 2, "bid": 0},
                    {"seat": 0, "play": "5H"},
                    {"seat": 1, "play": card},
                ],
            }
        ],
    }


def test_a_seat_s_decisions_are_its_bids_and_its_cards_with_a_choice() -> None:
    found = decisions(duck_or_overtake("KH"), 1)
    assert [(d.kind, d.action) for d in found] == [
        ("bid", Bid(0)),
        ("play", Play(Card.parse("KH"))),
    ]
    play = found[1]
    assert (play.hand, play.index, play.trick, play.bid, play.won) == (1, 4, 1, 0, 0)
    assert play.trick_cards == (Card.parse("5H"),)
    # seat 2 (the dealer) bid under the hook and has only diamonds: its bid is a decision,
    # its cards (none played yet) are not in the record
    assert [d.kind for d in decisions(duck_or_overtake("KH"), 2)] == ["bid"]


def test_overtaking_when_the_bid_is_made_is_reported_with_its_cost() -> None:
    record = duck_or_overtake("KH")
    play = decisions(record, 1)[1]
    judged = assess(record, play, budget_s=1.0, seed=0, iterations=ITERATIONS)
    assert judged.choice == Play(Card.parse("2H"))
    assert judged.cost > 2.0 and judged.cost > 3 * judged.error, judged
    assert judged.actual_tricks > judged.choice_tricks
    again = assess(record, play, budget_s=1.0, seed=0, iterations=ITERATIONS)
    assert again == judged  # reproducible with a fixed number of samples


def test_a_decision_hard_agrees_with_costs_nothing() -> None:
    record = duck_or_overtake("2H")
    bid, play = decisions(record, 1)
    for decision in (bid, play):
        judged = assess(record, decision, budget_s=1.0, seed=0, iterations=ITERATIONS)
        assert judged.choice == decision.action
        assert judged.cost == 0.0 and judged.error == 0.0
    judged_bid = assess(record, bid, budget_s=1.0, seed=0, iterations=ITERATIONS)
    assert 0.0 <= judged_bid.choice_tricks < 0.5  # K♥ 2♥ 3♣ under spades: about no tricks


def test_hard_s_choice_is_the_one_it_makes_in_play() -> None:
    """With the same seed and samples, the review's ``hard`` (the sampling race: the review
    needs each candidate's value per sample, which the tree search does not give) chooses what
    ``decide`` does where ``hard`` plays by the race: its cards while no other seat has played
    enough to be judged unlike ``normal``, here the first trick's."""
    game = Game.new(Settings(preset="first-to-101", max_cards=4), 4, seed=4)
    while game.phase is Phase.BIDDING:
        seat = game.turn
        game.apply(seat, decide(game, seat, level="normal", seed=9))
    while not game.view(0).tricks:
        seat = game.turn
        game.apply(seat, decide(game, seat, level="hard", seed=9, iterations=ITERATIONS))
    record = record_from_game(game)
    checked = 0
    for seat in range(4):
        for decision in decisions(record, seat):
            if decision.kind == "play":
                judged = assess(record, decision, budget_s=1.0, seed=9, iterations=ITERATIONS)
                assert judged.choice == decision.action
                assert judged.cost == 0.0
                checked += 1
    assert checked >= 2


def test_only_the_seat_s_view_counts() -> None:
    """Two games that differ only in two opponents' hidden cards give the same review of a
    bid and of a card."""
    rng = random.Random(11)
    game = Game.new(Settings(preset="first-to-101", max_cards=6), 4, seed=11)
    seat = game.turn
    bid = rng.choice(game.legal_actions(seat))
    assert isinstance(bid, Bid)
    record = record_from_game(game)
    record["hands"][-1]["actions"].append({"seat": seat, "bid": bid.n})
    one, two = record, twin_record(record, seat)
    assert one["hands"][-1]["cards"] != two["hands"][-1]["cards"]
    first = [d for d in decisions(one, seat) if d.kind == "bid"]
    second = [d for d in decisions(two, seat) if d.kind == "bid"]
    assert first == second and first
    assert assess(one, first[-1], 1.0, 3, ITERATIONS) == assess(two, second[-1], 1.0, 3, ITERATIONS)

    # and a card in the middle of a trick
    game = game_from_record(record)
    while not game.view(game.turn).trick or len(game.legal_actions(game.turn)) < 2:
        s = game.turn
        game.apply(s, rng.choice(game.legal_actions(s)))
    seat = game.turn
    card = rng.choice(game.legal_actions(seat))
    assert isinstance(card, Play)
    record = record_from_game(game)
    record["hands"][-1]["actions"].append({"seat": seat, "play": str(card.card)})
    one, two = record, twin_record(record, seat)
    assert one["hands"][-1]["cards"] != two["hands"][-1]["cards"]
    last_one, last_two = decisions(one, seat)[-1], decisions(two, seat)[-1]
    assert last_one == last_two and last_one.kind == "play"
    assert assess(one, last_one, 1.0, 3, ITERATIONS) == assess(two, last_two, 1.0, 3, ITERATIONS)
