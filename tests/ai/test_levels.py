"""Every level plays legal games under random valid settings, deterministically."""

from __future__ import annotations

import random

import pytest

from bot.ai import LEVELS, Level, NothingToDecide, decide
from bot.engine import JOKER, Game, Phase, Play, Settings
from bot.engine.records import game_from_record
from tests.ai.helpers import play_game, random_settings


@pytest.mark.parametrize("level", LEVELS)
def test_level_finishes_random_games_legally(level: Level) -> None:
    rng = random.Random(f"levels-{level}")
    games = 12 if level == "hard" else 30
    finished = 0
    for i in range(games):
        settings, players = random_settings(rng)
        game = Game.new(settings, players, seed=i, first_dealer=i % players)
        play_game(game, [level] * players, rng)
        finished += game.phase is Phase.GAME_OVER
    assert finished == games


def test_levels_mixed_at_one_table() -> None:
    rng = random.Random(5)
    for i in range(6):
        settings, players = random_settings(rng)
        game = Game.new(settings, players, seed=100 + i)
        levels: list[Level] = [LEVELS[(i + s) % len(LEVELS)] for s in range(players)]
        play_game(game, levels, rng)
        assert game.phase is Phase.GAME_OVER


@pytest.mark.parametrize("level", LEVELS)
def test_same_seed_same_decisions(level: Level) -> None:
    settings = Settings(preset="first-to-101")
    runs = []
    for _ in range(2):
        game = Game.new(settings, 4, seed=11)
        actions = []
        while game.hand_number == 1:
            seat = game.turn
            action = decide(game, seat, level=level, seed=3, iterations=4)
            actions.append(action)
            game.apply(seat, action)
        runs.append(actions)
    assert runs[0] == runs[1]


@pytest.mark.parametrize("level", LEVELS)
def test_json_input_decides_like_the_game(level: Level) -> None:
    game = Game.new(Settings(preset="oh-hell"), 5, seed=2)
    rng = random.Random(0)
    for _ in range(9):  # some bids and plays
        seat = game.turn
        game.apply(seat, rng.choice(game.legal_actions(seat)))
    seat = game.turn
    a = decide(game, seat, level=level, seed=9, iterations=3)
    b = decide(game.to_json(), seat, level=level, seed=9, iterations=3)
    assert a == b


def test_not_your_turn_and_optional_bid_change_are_not_decisions() -> None:
    game = Game.new(Settings(preset="classic", max_cards=5, sequence="down"), 4, seed=1)
    first = game.turn
    with pytest.raises(NothingToDecide):
        decide(game, (first + 1) % 4)
    game.apply(first, game.legal_actions(first)[0])
    assert first in game.to_act  # classic: it may change its bid until the next one bids
    with pytest.raises(NothingToDecide):
        decide(game, first)
    assert decide(game, game.turn) in game.legal_actions(game.turn)


@pytest.mark.parametrize("level", LEVELS)
def test_joker_led_in_no_trumps_names_a_legal_suit(level: Level) -> None:
    # oh-shit rules: an ace turned means no trumps; seat 1 (dealer's left) leads.
    cards = [["2C", "3D"], ["JOKER", "KH"], ["5S", "6S"], ["9C", "10C"]]
    record = {
        "format": "ohhell-record/1",
        "rules": {"preset": "oh-shit", "pack": "52+joker", "sequence": "fixed", "max_cards": 2},
        "players": ["A", "B", "C", "D"],
        "hands": [
            {
                "dealer": 0,
                "cards": cards,
                "turned": "AS",
                "actions": [{"seat": s, "bid": 0} for s in (1, 2, 3, 0)],
            }
        ],
    }
    chosen = set()
    for seed in range(6):
        game = game_from_record(record, seed=seed)
        assert game.trump is None and game.turn == 1
        action = decide(game, 1, level=level, seed=seed, iterations=6)
        assert action in game.legal_actions(1)
        chosen.add(action)
        game.apply(1, action)
    assert all(isinstance(a, Play) for a in chosen)
    jokers = [a for a in chosen if isinstance(a, Play) and a.card == JOKER]
    assert all(a.suit is not None for a in jokers)


@pytest.mark.parametrize("level", LEVELS)
def test_blind_hand_plays_the_unseen_card(level: Level) -> None:
    settings = Settings(preset="oh-hell", max_cards=2, blind="all")
    game = Game.new(settings, 4, seed=4)
    rng = random.Random(1)
    while game.cards_each != 1:
        seat = game.turn
        game.apply(seat, rng.choice(game.legal_actions(seat)))
    assert game.is_blind
    while game.cards_each == 1 and game.phase is not Phase.GAME_OVER:
        seat = game.turn
        view = game.view(seat)
        action = decide(game, seat, level=level, seed=2, iterations=5)
        assert action in view.legal_actions
        game.apply(seat, action)
