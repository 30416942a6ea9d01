"""`Game.catch_up`: a saved game brought forward by the actions another process added."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.engine import EngineError, Game, Phase, Settings
from tests.engine.test_properties import games


def _play(g: Game, rng: random.Random, actions: int) -> None:
    for _ in range(actions):
        if g.phase is Phase.GAME_OVER:
            return
        seat = rng.choice(g.to_act)
        g.apply(seat, rng.choice(g.legal_actions(seat)))


@settings(max_examples=80, deadline=None)
@given(games(), st.integers(0, 120), st.integers(0, 120))
def test_a_game_caught_up_is_the_game_decoded_whole(
    arg: tuple[Game, int], before: int, added: int
) -> None:
    g, seed = arg
    rng = random.Random(seed)
    _play(g, rng, before)
    behind = Game.from_json(g.to_json())
    _play(g, rng, added)
    saved = g.to_json()
    if behind.phase is Phase.GAME_OVER:
        assert not behind.catch_up(saved)  # a finished game never moves on: decoded whole
        return
    assert behind.catch_up(saved)
    assert behind.to_json() == saved
    assert (behind.hand_number, behind.phase, behind.totals, behind.to_act) == (
        g.hand_number,
        g.phase,
        g.totals,
        g.to_act,
    )


def _game(seed: int = 4, preset: str = "classic") -> Game:
    return Game.new(Settings(preset=preset), 4, seed=seed)


def test_another_game_is_not_caught_up_and_leaves_the_game_as_it_was() -> None:
    g = _game()
    _play(g, random.Random(1), 10)
    saved = g.to_json()
    other_seed, other_rules = _game(seed=5), _game(preset="oh-hell")
    _play(other_seed, random.Random(1), 14)
    _play(other_rules, random.Random(1), 14)
    for text in (other_seed.to_json(), other_rules.to_json(), "not json", "[]", '{"v": 1}'):
        assert not g.catch_up(text)
        assert g.to_json() == saved


def test_a_saved_game_behind_this_one_is_not_caught_up() -> None:
    g = _game()
    rng = random.Random(2)
    _play(g, rng, 6)
    earlier = g.to_json()
    _play(g, rng, 30)  # into a later hand
    later = g.to_json()
    assert not g.catch_up(earlier)
    assert g.to_json() == later


def test_a_hand_that_differs_is_not_caught_up() -> None:
    g = _game()
    rng = random.Random(3)
    _play(g, rng, 3)
    behind = Game.from_json(g.to_json())
    _play(g, rng, 20)
    doc = json.loads(g.to_json())
    first = doc["hands"][0][2].split(" ")
    first[0] = first[0][:-1] + str((int(first[0][-1]) + 1) % 2)  # another first bid
    doc["hands"][0][2] = " ".join(first)
    assert not behind.catch_up(json.dumps(doc))


def test_an_illegal_added_action_is_an_engine_error() -> None:
    g = _game()
    rng = random.Random(4)
    _play(g, rng, 2)
    behind = Game.from_json(g.to_json())
    doc = json.loads(g.to_json())
    doc["hands"][-1][2] += " 9b0"  # a seat that does not exist
    with pytest.raises(EngineError):
        behind.catch_up(json.dumps(doc))
