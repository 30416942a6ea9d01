"""The player-view boundary: a decision depends on what the seat may see and nothing else."""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest

from bot.ai import LEVELS, Level, decide
from bot.ai.knowledge import Table
from bot.ai.sanitise import Determiniser, public_game
from bot.engine import Game, Phase, Settings
from bot.engine.records import game_from_record, record_from_game

SUIT_OF = {"C": 0, "D": 1, "H": 2, "S": 3}


def _suit(card: str) -> str:
    return card[-1]


def twin_record(record: dict[str, Any], seat: int) -> dict[str, Any]:
    """The same record with the last hand's unplayed cards of two other seats (and of the
    undealt rest) exchanged within suits: every play stays legal, ``seat`` sees no change."""
    twin = copy.deepcopy(record)
    hand = twin["hands"][-1]
    played = {a["play"] for a in hand["actions"] if "play" in a}
    others = [s for s in range(len(hand["cards"])) if s != seat]
    a, b = others[0], others[1]
    changed = 0
    for i, ca in enumerate(hand["cards"][a]):
        if ca in played:
            continue
        for j, cb in enumerate(hand["cards"][b]):
            if cb not in played and _suit(cb) == _suit(ca) and cb != ca:
                hand["cards"][a][i], hand["cards"][b][j] = cb, ca
                changed += 1
                break
    assert changed, "the two seats share no unplayed suit: pick another deal"
    return twin


def hidden_hands(game: Game, seat: int) -> list[tuple[str, ...]]:
    return [tuple(map(str, game.hand(s))) for s in range(game.players) if s != seat]


def games_at(step: int, seed: int) -> tuple[Game, Game, int]:
    """Two games after ``step`` random actions of one deal: identical to the seat to act,
    different in its opponents' hidden cards and in the seed of future deals."""
    rng = random.Random(seed)
    game = Game.new(Settings(preset="first-to-101"), 4, seed=seed)
    for _ in range(step):
        s = game.turn
        game.apply(s, rng.choice(game.legal_actions(s)))
    seat = game.turn
    record = record_from_game(game)
    one = game_from_record(record, seed=1)
    two = game_from_record(twin_record(record, seat), seed=2)
    assert one.view(seat) == two.view(seat)
    assert hidden_hands(one, seat) != hidden_hands(two, seat)
    return one, two, seat


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("step", [0, 2, 9, 17])
def test_hidden_cards_do_not_change_the_decision(level: Level, step: int) -> None:
    for seed in (3, 8):
        one, two, seat = games_at(step, seed)
        a = decide(one, seat, level=level, seed=5, iterations=6)
        b = decide(two, seat, level=level, seed=5, iterations=6)
        assert a == b


def test_sanitised_copy_holds_no_hidden_fact() -> None:
    one, two, seat = games_at(9, 3)
    rng1, rng2 = random.Random(7), random.Random(7)
    p1 = public_game(one, Table.from_view(one.view(seat), one.rules), rng1)
    p2 = public_game(two, Table.from_view(two.view(seat), two.rules), rng2)
    assert p1.to_json() == p2.to_json()  # built from the seat's knowledge alone
    assert p1.seed != one.seed and p2.seed != two.seed
    assert p1.view(seat) == one.view(seat)


def test_secret_bids_stay_secret_in_the_copy() -> None:
    game = Game.new(Settings(preset="oh-shit", sequence="fixed", max_cards=5), 4, seed=3)
    game.apply(2, game.legal_actions(2)[-1])  # a secret bid of 5 by seat 2
    assert game.phase is Phase.BIDDING
    table = Table.from_view(game.view(0), game.rules)
    assert table.bids[2] == -1
    public = public_game(game, table, random.Random(1))
    assert public.bids[2] is None
    assert public.bids == (None, None, None, None)


def test_samples_respect_known_voids() -> None:
    rng = random.Random(2)
    found = 0
    for seed in range(40):
        game = Game.new(Settings(preset="first-to-101"), 4, seed=seed)
        while game.phase is not Phase.GAME_OVER and game.hand_number == 1:
            s = game.turn
            game.apply(s, rng.choice(game.legal_actions(s)))
            if game.phase is not Phase.PLAYING:
                continue
            seat = game.turn
            table = Table.from_view(game.view(seat), game.rules)
            if not any(table.voids):
                continue
            found += 1
            det = Determiniser(public_game(game, table, rng), table)
            for _ in range(20):
                sample = det.sample(rng)
                for p in table.seats:
                    for suit in range(4):
                        if table.voids[p] >> suit & 1:
                            assert not sample.hand_mask(p) & table.suits.masks[suit]
                assert sample.view(seat) == game.view(seat)
            break
    assert found > 10
