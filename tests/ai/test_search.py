"""hard's information-set tree search (``bot.ai.search``): legal under every rule option, only
the seat's view, within its budget, each seat backing up its own points. The search decides
every bid and card here (``hard.searched``), whatever the others play like."""

from __future__ import annotations

import random
import time
from dataclasses import replace
from typing import Any

import pytest
from pytest import MonkeyPatch

from bot.ai import Level, decide, hard, infer, playout, search
from bot.ai.cards import Suits
from bot.ai.knowledge import Table
from bot.ai.params import DEFAULT_PARAMS
from bot.ai.position import Position
from bot.ai.sanitise import Determiniser, public_game
from bot.engine import Card, Game, Phase, Play, Settings
from tests.ai.helpers import (
    mid_hand,
    random_settings,
    search_decision,
    seat_to_ask,
)
from tests.ai.test_boundary import games_at


def play_searching(
    game: Game, searching: list[bool], rng: random.Random, iterations: int, max_actions: int
) -> int:
    """Play on, the seats in ``searching`` deciding by the search wherever it can decide (else
    as ``hard``), the others as ``normal``; ``game.apply`` rejects anything illegal. Returns
    the number of the search's decisions."""
    searched = 0
    for n in range(max_actions):
        if game.phase is Phase.GAME_OVER:
            break
        seat = seat_to_ask(game, rng)
        found = None
        if searching[seat] and len(game.legal_actions(seat)) > 1:
            found = search_decision(game, seat, n, iterations)
        if found is not None:
            action = found[0]
            searched += 1
        else:
            level: Level = "hard" if searching[seat] else "normal"
            action = decide(game, seat, level=level, seed=n, iterations=iterations)
        game.apply(seat, action)
    return searched


def test_search_finishes_random_games_legally() -> None:
    rng = random.Random("search")
    searched = 0
    for i in range(12):
        settings, players = random_settings(rng)
        game = Game.new(settings, players, seed=i, first_dealer=i % players)
        searched += play_searching(game, [True] * players, rng, 40, 2000)
        assert game.phase is Phase.GAME_OVER
    assert searched > 100


def test_search_plays_duplicated_packs_and_the_joker_legally() -> None:
    rng = random.Random(4)
    for pack, dup in (("104", "later-wins"), ("104", "cancel"), ("52+joker", "first-wins")):
        settings = Settings(preset="first-to-101", pack=pack, duplicates=dup, max_cards=6)
        game = Game.new(settings, 4, seed=7)
        assert play_searching(game, [True, False, True, False], rng, 60, 120) > 10


@pytest.mark.parametrize("step", [0, 2, 9, 17])
def test_hidden_cards_do_not_change_the_searchs_decision(step: int) -> None:
    for seed in (3, 8):
        one, two, seat = games_at(step, seed)
        assert one.phase is (Phase.PLAYING if step > 4 else Phase.BIDDING)
        a = search_decision(one, seat, 5, 300)
        b = search_decision(two, seat, 5, 300)
        assert a is not None
        assert a == b


def test_same_seed_same_card() -> None:
    g = mid_hand(21, 5)
    seat = g.turn
    a = search_decision(g, seat, 2, 500)
    assert a is not None and a[1] == 500
    assert a == search_decision(g, seat, 2, 500)


def test_the_search_stops_at_its_deadline_with_a_choice() -> None:
    """A deadline already gone (a stalled process): one batch of iterations, a legal choice;
    a budget: more than one batch. (Decision times are measured by the arena, not here.)"""
    params = DEFAULT_PARAMS
    for seed in range(4):
        g = mid_hand(seed, 2 + seed) if seed else Game.new(Settings(preset="first-to-101"), 4)
        seat = g.turn
        for deadline in (0.0, 0.2):
            end = time.perf_counter() + deadline
            found = hard.searched(Position.at(g, seat, seed, end, None, params))
            assert found is not None
            action, iterations = found
            assert action in g.legal_actions(seat)
            if deadline:
                assert iterations > params.batch
            else:
                assert iterations == params.batch


def test_the_last_trick_goes_to_the_engines_winner() -> None:
    rng = random.Random(1)
    for seed in range(20):
        g = mid_hand(seed, 0)
        seat = g.turn
        table = Table.from_view(g.view(seat), g.rules)
        det = Determiniser(public_game(g, table, rng), table)
        s = search._Search(det, table, rng, DEFAULT_PARAMS)
        while g.hand_mask(g.seats[0]).bit_count() > 1 or g.trick_ids:
            p = g.turn
            g.apply_fast(p, rng.choice([c for c in range(52) if g.legal_mask(p) >> c & 1]))
        won = list(g.tricks_won)
        winner = s._last_trick(g)
        while g.phase is Phase.PLAYING and g.hand_number == 1:
            g.apply_fast(g.turn, g.legal_mask(g.turn).bit_length() - 1)
        won[winner] += 1
        assert tuple(won) == g.history()[0].won


def table_suits(g: Game, seat: int) -> Suits:
    return Table.from_view(g.view(seat), g.rules).suits


def test_a_seat_that_bid_nothing_ducks_what_it_can() -> None:
    """Every seat plays to the lead it must follow: a zero bid throws its lowest card under
    the trick's winner rather than take it (the search sees only this seat's view)."""
    for seed in range(40):
        g = mid_hand(seed, 1)
        seat = g.turn
        if g.bids[seat] != 0 or g.tricks_won[seat]:
            continue
        trick = g.trick_ids
        suits = table_suits(g, seat)
        best = trick[suits.winner_index(trick)]
        follow = [c for c in range(g.pack.size) if g.legal_mask(seat) >> c & 1]
        under = [c for c in follow if not suits.beats(c, best)]
        if len(follow) < 2 or not under or len(under) == len(follow):
            continue
        found = search_decision(g, seat, seed, 2000)
        assert found is not None
        action = found[0]
        assert isinstance(action, Play)
        assert action.card in [g.pack.cards[c] for c in under]
        return
    pytest.skip("no such position in these deals")


def test_the_quick_bid_model_weighs_the_real_deal_above_uniform_ones() -> None:
    rng = random.Random(3)
    real: list[float] = []
    uniform: list[float] = []
    for seed in range(12):
        g = mid_hand(seed, 0)
        seat = g.turn
        table = Table.from_view(g.view(seat), g.rules)
        quick = playout.QuickBids(table, DEFAULT_PARAMS)
        assert len(quick.checks) == 3
        real.append(quick.weight([g.hand_mask(s) for s in range(4)]))
        det = Determiniser(public_game(g, table, rng), table)
        for _ in range(20):
            d = det.sample(rng)
            uniform.append(quick.weight([d.hand_mask(s) for s in range(4)]))
    assert sum(real) / len(real) > 1.5 * sum(uniform) / len(uniform)


def _after_plays(seed: int, plays: int, others: Level) -> Game:
    """A 4-player 10-card hand after the bids and ``plays`` cards, seat 0 playing as
    ``normal`` and the others as ``others``."""
    g = Game.new(Settings(preset="first-to-101", sequence="fixed", max_cards=10), 4, seed=seed)
    while g.phase is not Phase.PLAYING or plays:
        if g.phase is Phase.PLAYING:
            plays -= 1
        seat = g.turn
        level: Level = "normal" if seat == 0 or g.phase is not Phase.PLAYING else others
        g.apply(seat, decide(g, seat, level=level, seed=seed))
    return g


def test_players_unlike_normal_are_told_from_normal_ones() -> None:
    flagged = {"normal": 0, "random": 0}
    for others in flagged:
        for seed in range(8):
            g = _after_plays(seed, 12, others)  # type: ignore[arg-type]
            seat = g.turn
            table = Table.from_view(g.view(seat), g.rules)
            rng = random.Random(seed)
            det = Determiniser(public_game(g, table, rng), table)
            flagged[others] += infer.unlike_normal(table, det, rng, DEFAULT_PARAMS)
    assert flagged["normal"] <= 2
    assert flagged["random"] >= 6


def _setting_position(pack: str) -> Game:
    """Two cards each, clubs trump, seat 3 last to play to the first trick (6C, 8C, 7C played)
    with AC and 2C, the bids 0, 1, 0 and 0. Seat 3 takes one trick either way: with AC it
    wins this trick and leads 2C into seat 2's KC (seat 1, bid 1, takes none; seat 2, bid 0,
    takes one); with 2C seat 1 takes this trick with 8C and leads 3H, and AC takes the last
    (every other seat makes its bid). Every play after seat 3's is forced."""
    used = {"6C", "2H", "8C", "3H", "7C", "KC", "AC", "2C"}
    extra = {"pack": "104", "duplicates": "later-wins"} if pack == "104" else {}
    settings = Settings(preset="first-to-101", sequence="fixed", max_cards=2, **extra)
    g = next(
        g
        for g in (Game.new(settings, 4, seed=s, first_dealer=3) for s in range(100))
        if str(g.trump) == "C" and str(g.turned) not in used
    )

    def card(name: str) -> int:
        return g.pack.cards.index(Card.parse(name))

    hands = [("6C", "2H"), ("8C", "3H"), ("7C", "KC"), ("AC", "2C")]
    g = g.with_hands([sum(1 << card(c) for c in h) for h in hands])
    for seat, bid in enumerate((0, 1, 0, 0)):
        g.apply_fast(seat, bid)
    for seat, name in enumerate(("6C", "8C", "7C")):
        g.apply_fast(seat, card(name))
    return g


@pytest.mark.parametrize("pack", ["52", "104"])
def test_each_seat_backs_up_its_own_points(pack: str) -> None:
    """With every hand known and every later play forced, the search's two cards are worth
    seat 3's own point either way (1: one trick, bid 0), whatever they cost the others (their
    points 10, 0, 1 after AC; 10, 11, 10 after 2C), so each is visited as often (the greedy
    play-outs with the 52-card pack, random ones with the 104)."""
    g = _setting_position(pack)
    seat = g.turn
    assert seat == 3
    table = Table.from_view(g.view(seat), g.rules)
    rng = random.Random(1)
    s = search._Search(Determiniser(public_game(g, table, rng), table), table, rng, DEFAULT_PARAMS)
    s.run(200, lambda: (s.deal(g), s.root, []))
    for name in ("AC", "2C"):
        c = g.pack.cards.index(Card.parse(name))
        edge = s.root[g.pack.face_of[c] if g.pack.has_duplicates else c]
        assert edge[0] == 100
        assert edge[1] / edge[0] == pytest.approx(1.0)


def test_the_bids_made_key_the_nodes_under_each_candidate(monkeypatch: MonkeyPatch) -> None:
    """Every iteration visits one candidate bid, and below it the node for the bids the deal's
    later bidders made (public before the first card)."""
    trees: list[search._Search] = []

    class Kept(search._Search):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            trees.append(self)

    monkeypatch.setattr(search, "_Search", Kept)
    settings = Settings(preset="first-to-101", sequence="fixed", max_cards=10, bidding="hook")
    g = Game.new(settings, 4, seed=5)
    assert g.phase is Phase.BIDDING and not any(b is not None for b in g.bids)
    found = search_decision(g, g.turn, 5, 400)
    assert found is not None and found[1] == 400
    root = trees[-1].root
    assert sum(e[0] for e in root.values()) == 400
    assert len(root) > 1
    for edge in root.values():
        below = edge[3]
        assert below and all(isinstance(node, dict) for node in below.values())


def test_the_values_passed_in_reach_the_play_outs(monkeypatch: MonkeyPatch) -> None:
    """The greedy play-outs give this seat ``epsilon`` and the others ``others_epsilon``, in
    the search's bids and in its card play alike."""
    seen: set[tuple[float, ...]] = set()
    real = search.greedy

    def greedy(*args: Any) -> list[int]:
        seen.add(tuple(args[-1]))
        return real(*args)

    monkeypatch.setattr(search, "greedy", greedy)
    params = replace(DEFAULT_PARAMS, epsilon=0.05, others_epsilon=0.45)
    bidding = Game.new(Settings(preset="first-to-101", sequence="fixed", max_cards=10), 4, seed=2)
    playing = mid_hand(3, 5)
    for g in (bidding, playing):
        seen.clear()
        me = g.turn
        assert search_decision(g, me, 3, 100, params) is not None
        assert seen == {tuple(0.05 if q == me else 0.45 for q in range(4))}
