"""Whole-game behaviour: ties, the end, views, JSON, copies and determinised states."""

from __future__ import annotations

import json
import random

import pytest

from bot.engine import (
    Bid,
    Card,
    DealError,
    EngineError,
    Game,
    GameOver,
    HandDealt,
    NotYourTurn,
    Phase,
    Play,
    Settings,
    WrongPhase,
)
from bot.engine.records import game_from_record

from .helpers import bids, deal, play_randomly, plays, record

C = Card.parse
ONE = [["2C"], ["AH"], ["QH"], ["5S"]]


def _finish_one_card_hand(g: Game) -> list[object]:
    events: list[object] = []
    while g.phase is Phase.PLAYING and g.hand_number == 1:
        seat = g.to_act[0]
        events += g.apply(seat, g.legal_actions(seat)[0])
    return events


def test_tie_for_first_extra_hand_of_the_same_size() -> None:
    rules = {"preset": "oh-hell", "sequence": "down", "max_cards": 1}
    g = deal(rules, ONE, "2D", bids((1, 0), (2, 0), (3, 1), (0, 1)))
    events = _finish_one_card_hand(g)
    assert g.totals == (10, 10, 10, -10)
    dealt = [e for e in events if isinstance(e, HandDealt)]
    assert dealt and dealt[0].cards_each == 1 and dealt[0].dealer == 1
    assert g.phase is Phase.BIDDING and g.seats == (0, 1, 2, 3)


def test_tie_shared_places() -> None:
    rules = {"preset": "oh-hell", "sequence": "down", "max_cards": 1, "ties": "share"}
    g = deal(rules, ONE, "2D", bids((1, 0), (2, 0), (3, 1), (0, 1)))
    events = _finish_one_card_hand(g)
    assert GameOver((1, 1, 1, 2), (10, 10, 10, -10)) in events
    assert g.phase is Phase.GAME_OVER and g.to_act == ()


def test_001_tiebreakers_then_a_five_card_deal_among_the_tied() -> None:
    rules = {"preset": "oh-shit", "sequence": "down", "max_cards": 1}
    g = deal(rules, ONE, "2D", bids((0, 0), (1, 0), (2, 0), (3, 0)))
    _finish_one_card_hand(g)
    # Seat 1 leads (eldest) AH and wins; 0, 2 and 3 made misère: 5 each, equal on every
    # tie-breaker, so those three play a 5-card deal.
    assert g.totals == (5, 1, 5, 5)
    assert g.phase is Phase.BIDDING
    assert g.seats == (0, 2, 3) and g.cards_each == 5 and g.dealer == 2
    assert g.hand_mask(1) == 0
    with pytest.raises(NotYourTurn, match="not in this tie-break deal"):
        g.apply(1, Bid(0))
    play_randomly(g, random.Random(5))
    placing = g.placing
    assert placing is not None
    assert placing[1] == max(placing)  # the one who took the trick is last
    assert sorted(placing[s] for s in (0, 2, 3))[0] == 1
    assert g.totals[1] == 1  # tie-break deals don't change the totals


def test_tiebreaker_criteria_decide_before_a_deal() -> None:
    # oh-shit scoring: seat 2 bids 1 and takes it (11); others bid 0: seat 0 and 3 make it (5).
    rules = {"preset": "oh-shit", "sequence": "down", "max_cards": 1, "scoring": "ten-plus-bid"}
    g = deal(rules, [["2C"], ["3H"], ["QH"], ["5S"]], "2D", bids((0, 0), (1, 1), (2, 0), (3, 0)))
    _finish_one_card_hand(g)
    # QH (seat 2) wins: seat 1 bid 1 and missed (0), seat 2 bid 0 and missed (0), 0 and 3 made
    # misère (10 each): tied on total and on contracts made -> a deal between 0 and 3.
    assert g.totals == (10, 0, 0, 10)
    assert g.seats == (0, 3)


def test_negative_scoring_lowest_total_wins() -> None:
    rules = {
        "preset": "oh-hell",
        "sequence": "down",
        "max_cards": 1,
        "scoring": "negative",
        "ties": "share",
    }
    g = deal(rules, ONE, "2D", bids((1, 0), (2, 0), (3, 1), (0, 1)))
    _finish_one_card_hand(g)
    assert g.totals == (0, 0, 0, 1)
    assert g.placing == (1, 1, 1, 2)


def test_target_end_highest_over_the_target_wins() -> None:
    g = Game.new(Settings(preset="first-to-101"), 4, seed=9)
    play_randomly(g, random.Random(9))
    assert max(g.totals) >= 101
    winner = g.placing.index(1) if g.placing else -1
    assert g.totals[winner] == max(g.totals)


def test_view_shows_exactly_what_a_seat_may_see() -> None:
    g = Game.new(Settings(preset="oh-shit"), 4, seed=3, names=["Ann", "Bob", "Cat", "Dan"])
    v = g.view(2)
    assert v.hand == g.hand(2)
    assert v.hand_sizes == (1, 1, 1, 1)
    assert v.visible_hands == (None, None, None, None)
    assert v.names == ("Ann", "Bob", "Cat", "Dan")
    assert v.legal_actions == (Bid(0), Bid(1))
    assert set(v.to_act) == {0, 1, 2, 3}
    assert v.turned == g.turned and v.hand_number == 1 and v.cards_each == 1


def test_game_over_refuses_actions() -> None:
    g = Game.new(Settings(sequence="down", max_cards=1), 4, seed=1)
    play_randomly(g, random.Random(1))
    with pytest.raises(WrongPhase, match="the game is over"):
        g.apply(0, Bid(0))
    assert g.legal_actions(0) == []


def test_deals_are_deterministic_from_the_seed() -> None:
    a = Game.new(Settings(), 5, seed=42)
    b = Game.new(Settings(), 5, seed=42)
    c = Game.new(Settings(), 5, seed=43)
    assert [a.hand_mask(s) for s in range(5)] == [b.hand_mask(s) for s in range(5)]
    play_randomly(a, random.Random(1))
    play_randomly(b, random.Random(1))
    assert a.to_json() == b.to_json()
    assert a.to_json() != c.to_json()


@pytest.mark.parametrize("preset", ["oh-shit", "classic", "first-to-101", "nomination"])
def test_json_round_trip_mid_game_keeps_future_deals(preset: str) -> None:
    rng = random.Random(7)
    g = Game.new(Settings.model_validate({"preset": preset}), 4, seed=77)
    for _ in range(150):
        seat = rng.choice(g.to_act)
        g.apply(seat, rng.choice(g.legal_actions(seat)))
    text = g.to_json()
    assert text.startswith('{"v":1,')
    h = Game.from_json(text)
    assert h.to_json() == text
    assert h.view(1) == g.view(1)
    play_randomly(g, random.Random(3))
    play_randomly(h, random.Random(3))
    assert h.to_json() == g.to_json()
    assert h.totals == g.totals


def test_a_game_saved_at_every_step_writes_what_a_fresh_copy_of_it_writes() -> None:
    """Finished hands are encoded once per game object; a copy that plays on differently
    writes its own later hands, and neither's saved text differs from a decoded game's."""
    rng = random.Random(11)
    g = Game.new(Settings(preset="first-to-101"), 4, seed=12)
    branch: Game | None = None
    for step in range(400):
        if g.phase is Phase.GAME_OVER:
            break
        if step == 120:
            branch = g.copy()
        seat = g.to_act[0]
        g.apply(seat, rng.choice(g.legal_actions(seat)))
        text = g.to_json()
        assert Game.from_json(text).to_json() == text
    assert branch is not None and g.hand_number > 3
    play_randomly(branch, random.Random(5))
    text = branch.to_json()
    assert Game.from_json(text).to_json() == text
    assert text != g.to_json()


def test_from_json_refuses_other_versions() -> None:
    with pytest.raises(EngineError, match="version 1"):
        Game.from_json('{"v": 2}')


def test_copy_is_independent() -> None:
    g = Game.new(Settings(preset="first-to-101"), 4, seed=5)
    before = g.to_json()
    c = g.copy()
    play_randomly(c, random.Random(1))
    assert g.to_json() == before
    assert c.phase is Phase.GAME_OVER and g.phase is Phase.BIDDING


def test_with_hands_redeals_unseen_cards() -> None:
    g = Game.new(Settings(preset="first-to-101"), 4, seed=5)
    rng = random.Random(2)
    for _ in range(6):  # four bids and two cards
        seat = g.to_act[0]
        g.apply(seat, rng.choice(g.legal_actions(seat)))
    me = 0
    unseen = g.unseen_mask(me)
    assert unseen & g.hand_mask(me) == 0 and unseen & g.played_mask() == 0
    pool = [c for c in range(52) if unseen >> c & 1]
    rng.shuffle(pool)
    hands = []
    for s in range(4):
        if s == me:
            hands.append(g.hand_mask(s))
            continue
        n = g.hand_mask(s).bit_count()
        hands.append(sum(1 << c for c in pool[:n]))
        pool = pool[n:]
    d = g.with_hands(hands)
    assert [d.hand_mask(s) for s in range(4)] == hands
    assert g.hand_mask(1) != hands[1] or g.hand_mask(2) != hands[2]
    # the copy plays on, and saves/loads exactly
    play_randomly(d, random.Random(4))
    assert Game.from_json(d.to_json()).to_json() == d.to_json()
    with pytest.raises(DealError):
        g.with_hands([hands[0], hands[0], hands[2], hands[3]])
    with pytest.raises(DealError, match="holds"):
        g.with_hands([hands[0], 0, hands[2], hands[3]])


def test_fast_path_agrees_with_the_public_api() -> None:
    g = Game.new(Settings(preset="oh-shit", pack="52+joker"), 5, seed=12)
    rng = random.Random(12)
    while g.phase is not Phase.GAME_OVER:
        seat = g.to_act[0]
        actions = g.legal_actions(seat)
        m = g.legal_mask(seat)
        if g.phase is Phase.PLAYING:
            cards = {a.card for a in actions if isinstance(a, Play)}
            assert cards == {g.pack.cards[i] for i in range(g.pack.size) if m >> i & 1}
        assert g.legal_mask((seat + 1) % 5) == 0 or g.phase is Phase.BIDDING
        g.apply(seat, rng.choice(actions))


def test_tiebreak_deal_under_negative_scoring_lowest_wins() -> None:
    rules = {"preset": "oh-shit", "sequence": "down", "max_cards": 1, "scoring": "negative"}
    g = deal(rules, ONE, "2D", bids((0, 0), (1, 0), (2, 0), (3, 0)))
    _finish_one_card_hand(g)
    assert g.totals == (0, 1, 0, 0)  # seat 1 took the trick; the rest tie for first
    assert g.seats == (0, 2, 3) and g.cards_each == 5
    play_randomly(g, random.Random(8))
    last = g.history()[-1]
    assert last.kind == "tiebreak" and last.points is not None
    winner = g.placing.index(1) if g.placing else -1
    assert last.points[winner] == min(last.points[s] for s in last.seats)


@pytest.mark.parametrize(
    "text",
    [
        "not json",
        "[]",
        '{"v": 1}',
        (
            '{"v": 1, "rules": {"preset": "golf"}, "players": 4, "names": null, "seed": 0, '
            '"hands": []}'
        ),
    ],
)
def test_from_json_refuses_what_is_not_a_saved_game(text: str) -> None:
    with pytest.raises(EngineError):
        Game.from_json(text)


def test_from_json_refuses_a_tampered_action() -> None:
    g = Game.new(Settings(preset="first-to-101"), 4, seed=1)
    g.apply(1, Bid(3))
    text = g.to_json().replace('"1b3"', '"1b11"')
    with pytest.raises(EngineError, match="illegal action"):
        Game.from_json(text)


def test_a_seat_that_does_not_exist_gets_an_engine_error() -> None:
    g = Game.new(Settings(preset="first-to-101"), 4, seed=1)
    with pytest.raises(EngineError, match="no seat 7"):
        g.apply(7, Bid(1))
    with pytest.raises(EngineError):
        g.apply(-1, Play(C("AS")))
    assert g.legal_actions(9) == []


def test_target_end_on_a_hand_built_deal() -> None:
    rules = {"preset": "first-to-101", "max_cards": 1, "target": 11}
    g = deal(rules, ONE, "2D", bids((1, 1), (2, 0), (3, 0), (0, 1)))
    events = _finish_one_card_hand(g)
    assert g.totals == (0, 11, 10, 10)  # tricks-plus-ten: 1 a trick, 10 more if exact
    assert GameOver((3, 1, 2, 2), (0, 11, 10, 10)) in events


def test_below_the_target_the_game_goes_on() -> None:
    rules = {"preset": "first-to-101", "max_cards": 1, "target": 12}
    g = deal(rules, ONE, "2D", bids((1, 1), (2, 0), (3, 0), (0, 1)))
    _finish_one_card_hand(g)
    assert g.phase is Phase.BIDDING and g.hand_number == 2 and g.dealer == 1


def test_from_json_reads_actions_however_they_are_spaced() -> None:
    # to_json separates actions by single spaces; any other whitespace has always been read too.
    g = Game.new(Settings(preset="first-to-101"), 4, seed=1)
    rng = random.Random(5)
    for _ in range(30):
        seat = rng.choice(g.to_act)
        g.apply(seat, rng.choice(g.legal_actions(seat)))
    text = g.to_json()
    doc = json.loads(text)
    actions = doc["hands"][0][2]
    doc["hands"][0][2] = "\t " + actions.replace(" ", "  \n", 5) + " "
    assert Game.from_json(json.dumps(doc)).to_json() == text


def test_a_deal_that_is_not_the_seeds_is_saved_and_loaded() -> None:
    g = Game.new(Settings(preset="first-to-101"), 4, seed=5)
    hands = [g.hand_mask(s) for s in range(4)]
    hands[1], hands[2] = hands[2], hands[1]
    d = g.with_hands(hands)
    text = d.to_json()
    assert text != g.to_json() and '"hands":[[0,null,' not in text
    assert Game.from_json(text).hand_mask(1) == hands[1]
    assert Game.from_json(text).to_json() == text


def test_a_target_tie_is_settled_by_extra_hands_even_if_the_totals_fall_below_it() -> None:
    # RULES: end "the first to a target score"; ties for first "another hand with the same
    # number of cards until one leads". Seats 0 and 1 reach the target together (10 each); in
    # the extra hand everyone misses and all totals fall below 10, but seat 0 now leads: the
    # game is over, not back to ordinary hands.
    rules = {
        "preset": "first-to-101",
        "scoring": "exact-tens",
        "max_cards": 2,
        "target": 10,
        "ties": "extra-hand",
    }
    first = bids((1, 1), (2, 1), (0, 1)) + plays(
        (1, "AS"), (2, "2S"), (0, "3S"), (1, "3H"), (2, "2H"), (0, "AH")
    )
    extra = {
        "dealer": 1,
        "cards": [["2H", "2S"], ["3H", "3S"], ["AH", "AS"]],
        "turned": "2C",
        "actions": bids((2, 0), (0, 1), (1, 2))
        + plays((2, "AH"), (0, "2H"), (1, "3H"), (2, "AS"), (0, "2S"), (1, "3S")),
    }
    rec = record(rules, [["AH", "3S"], ["AS", "3H"], ["2H", "2S"]], "2C", first, more_hands=[extra])
    g = game_from_record(rec)
    assert [h.kind for h in g.history()] == ["normal", "extra"]
    assert g.totals == (0, -10, -30)
    assert g.phase is Phase.GAME_OVER
    assert g.placing == (1, 2, 3)
