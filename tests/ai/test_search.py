"""hard's card play by information-set tree search (``bot.ai.search``, ``hard.PLAY_SEARCH``):
legal under every rule option, only the seat's view, within its budget."""

from __future__ import annotations

import math
import random
from typing import Any

import pytest
from pytest import MonkeyPatch

from bot.ai import Level, decide, hard, infer, playout, search
from bot.ai.cards import Suits
from bot.ai.knowledge import Table
from bot.ai.sanitise import Determiniser, public_game
from bot.engine import Card, Game, Phase, Play, Settings
from tests.ai.helpers import mid_hand, play_game, random_settings
from tests.ai.test_boundary import games_at

VARIANTS = {
    "pool, random": {"ROLLOUT": "random", "FRESH": False, "QUICK": False, "DEPTH": 99},
    "pool, greedy": {"ROLLOUT": "greedy", "FRESH": False, "QUICK": False, "DEPTH": 99},
    "fresh, quick bids, greedy (hard's)": {
        "ROLLOUT": "greedy",
        "FRESH": True,
        "QUICK": True,
        "DEPTH": 99,
    },
    "fresh, bandit": {"ROLLOUT": "random", "FRESH": True, "QUICK": False, "DEPTH": 1},
    "fresh, later bids in the tree, greedy": {
        "ROLLOUT": "greedy",
        "FRESH": True,
        "QUICK": True,
        "DEPTH": 99,
        "BID_TREE": True,
    },
}


@pytest.fixture(autouse=True, params=list(VARIANTS))
def searching(monkeypatch: MonkeyPatch, request: pytest.FixtureRequest) -> None:
    """Every test here with the search for every bid and card (not only against players
    unlike ``normal``), in each variant."""
    monkeypatch.setattr(hard, "PLAY_SEARCH", True)
    monkeypatch.setattr(hard, "ADAPTIVE", False)
    monkeypatch.setattr(hard, "BID_SEARCH", True)
    for name, value in VARIANTS[request.param].items():
        monkeypatch.setattr(search, name, value)


def test_search_finishes_random_games_legally() -> None:
    rng = random.Random("search")
    for i in range(12):
        settings, players = random_settings(rng)
        game = Game.new(settings, players, seed=i, first_dealer=i % players)
        play_game(game, ["hard"] * players, rng, iterations=40)
        assert game.phase is Phase.GAME_OVER


def test_search_plays_duplicated_packs_and_the_joker_legally() -> None:
    rng = random.Random(4)
    for pack, dup in (("104", "later-wins"), ("104", "cancel"), ("52+joker", "first-wins")):
        settings = Settings(preset="first-to-101", pack=pack, duplicates=dup, max_cards=6)
        game = Game.new(settings, 4, seed=7)
        play_game(game, ["hard", "normal", "hard", "normal"], rng, iterations=60, max_actions=120)


@pytest.mark.parametrize("step", [0, 2, 9, 17])
def test_hidden_cards_do_not_change_the_searchs_decision(step: int) -> None:
    for seed in (3, 8):
        one, two, seat = games_at(step, seed)
        assert one.phase is (Phase.PLAYING if step > 4 else Phase.BIDDING)
        a = decide(one, seat, level="hard", seed=5, iterations=300)
        b = decide(two, seat, level="hard", seed=5, iterations=300)
        assert a == b


def test_same_seed_same_card() -> None:
    g = mid_hand(21, 5)
    seat = g.turn
    a = decide(g, seat, level="hard", seed=2, iterations=500)
    assert a == decide(g, seat, level="hard", seed=2, iterations=500)


def test_the_search_stops_at_its_deadline_with_a_choice() -> None:
    """A deadline already gone (a stalled process): one batch of iterations, a legal choice;
    a budget: more than one batch. (Decision times are measured by the arena, not here.)"""
    for seed in range(4):
        g = mid_hand(seed, 2 + seed) if seed else Game.new(Settings(preset="first-to-101"), 4)
        seat = g.turn
        decided = search.MEASURED.decisions
        action = decide(g, seat, level="hard", budget_s=1e-9, seed=seed)
        assert search.MEASURED.decisions == decided + 1
        assert search.MEASURED.last[0] == search.BATCH
        assert action in g.legal_actions(seat)
        assert decide(g, seat, level="hard", budget_s=0.2, seed=seed) in g.legal_actions(seat)
        assert search.MEASURED.decisions == decided + 2
        assert search.MEASURED.last[0] > search.BATCH


def test_the_last_trick_goes_to_the_engines_winner() -> None:
    rng = random.Random(1)
    for seed in range(20):
        g = mid_hand(seed, 0)
        seat = g.turn
        table = Table.from_view(g.view(seat), g.rules)
        s = search._Search(Determiniser(public_game(g, table, rng), table), table, rng)
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
        action = decide(g, seat, level="hard", seed=seed, iterations=2000)
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
        quick = playout.QuickBids(table)
        assert len(quick.checks) == 3
        real.append(quick.weight([g.hand_mask(s) for s in range(4)]))
        det = Determiniser(public_game(g, table, rng), table)
        for _ in range(20):
            d = det.sample(rng)
            uniform.append(quick.weight([d.hand_mask(s) for s in range(4)]))
    assert sum(real) / len(real) > 1.5 * sum(uniform) / len(uniform)


def test_the_quick_bid_model_takes_the_others_bias(monkeypatch: MonkeyPatch) -> None:
    """``QUICK_BIAS``: a deal is weighed by how far each other seat's estimate plus the bias is
    from its bid, so a bias of half a trick favours deals whose estimates lie half a trick
    under the bids."""
    g = mid_hand(4, 0)
    table = Table.from_view(g.view(g.turn), g.rules)
    plain = playout.QuickBids(table)
    monkeypatch.setattr(playout, "QUICK_BIAS", 0.5)
    biased = playout.QuickBids(table)
    for seed in range(6):
        d = Determiniser(public_game(g, table, random.Random(seed)), table).sample(
            random.Random(seed)
        )
        hands = [d.hand_mask(s) for s in range(4)]
        want = 1.0
        for q, bid, played in plain.checks:
            miss = plain.estimate(hands[q]) + played + 0.5 - bid
            want *= math.exp(-(miss**2) / (2 * playout.QUICK_SIGMA**2))
        assert biased.weight(hands) == pytest.approx(want)
        assert biased.weight(hands) != pytest.approx(plain.weight(hands))


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
            flagged[others] += infer.unlike_normal(table, det, rng, 12, 2)
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


def _searched(g: Game, table: Table, iterations: int) -> search._Search:
    """``iterations`` of the search from ``g`` itself (every hand known)."""
    rng = random.Random(1)
    s = search._Search(Determiniser(public_game(g, table, rng), table), table, rng)
    s.run(iterations, lambda: (s.deal(g), s.root, []))
    return s


@pytest.mark.parametrize("pack", ["52", "104"])
def test_rivalry_backs_up_the_lead_over_the_others(pack: str, monkeypatch: MonkeyPatch) -> None:
    """``RIVALRY``: the searching seat's edges hold its points less that share of the others'
    mean (the others' points: 10, 0, 1 after AC; 10, 11, 10 after 2C; its own 1 either way).
    At 0 the two cards are worth the same to it; at 1 it plays the card that sets the others."""
    g = _setting_position(pack)
    seat = g.turn
    assert seat == 3
    table = Table.from_view(g.view(seat), g.rules)
    key = {
        name: g.pack.face_of[c] if g.pack.has_duplicates else c
        for name, c in (
            ("AC", g.pack.cards.index(Card.parse("AC"))),
            ("2C", g.pack.cards.index(Card.parse("2C"))),
        )
    }
    for rivalry in (0.0, 0.5, 1.0):
        monkeypatch.setattr(search, "RIVALRY", rivalry)
        s = _searched(g, table, 200)
        ace, two = s.root[key["AC"]], s.root[key["2C"]]
        assert ace[1] / ace[0] == pytest.approx(1 - rivalry * 11 / 3)
        assert two[1] / two[0] == pytest.approx(1 - rivalry * 31 / 3)
        if rivalry:
            assert s.choice() == key["AC"] and ace[0] > 0.9 * s.iterations
        else:
            assert ace[0] == two[0] == 100


def test_the_later_bids_are_nodes_of_the_tree(monkeypatch: MonkeyPatch) -> None:
    """``BID_TREE``: below each of the first bidder's candidate bids the next bidder's bids are
    edges chosen by UCB (one visit below for each visit of the candidate); without it, the
    candidates lead to nodes keyed by the whole bids made."""
    trees: list[search._Search] = []

    class Kept(search._Search):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            trees.append(self)

    monkeypatch.setattr(search, "_Search", Kept)
    monkeypatch.setattr(search, "FRESH", True)  # each variant's play-outs finish the bids
    settings = Settings(preset="first-to-101", sequence="fixed", max_cards=10, bidding="hook")
    for tree in (True, False):
        monkeypatch.setattr(search, "BID_TREE", tree)
        g = Game.new(settings, 4, seed=5)
        assert g.phase is Phase.BIDDING and not any(b is not None for b in g.bids)
        decide(g, g.turn, level="hard", seed=5, iterations=400)
        root = trees[-1].root
        assert sum(e[0] for e in root.values()) == 400
        for edge in root.values():
            below = edge[3]
            if tree:
                assert below and set(below) <= set(range(11))
                assert sum(child[0] for child in below.values()) == edge[0]
            else:
                assert all(isinstance(node, dict) for node in below.values())
