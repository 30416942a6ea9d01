"""A saved game with some seats renamed (a former player's, after an erasure) is the same game:
it loads, replays and scores as before, and only the names changed."""

from __future__ import annotations

import json
import random

import pytest

from bot.engine import EngineError, Game, Settings
from bot.engine.codec import renamed
from bot.engine.records import record_from_game, replay

from .helpers import play_randomly


def test_a_renamed_game_is_the_same_game_under_other_names() -> None:
    game = Game.new(Settings(preset="classic", max_cards=3), 3, seed=4, names=["Ann", "Bob", "Cy"])
    play_randomly(game, random.Random(4))
    text = game.to_json()
    again = Game.from_json(renamed(text, {1: "Former player 1"}))
    assert again.names == ("Ann", "Former player 1", "Cy")
    before, after = json.loads(text), json.loads(again.to_json())
    assert {**before, "names": None} == {**after, "names": None}
    assert again.to_json() == renamed(text, {1: "Former player 1"})
    scored, played = replay(record_from_game(again)), replay(record_from_game(game))
    assert scored == {**played, "players": ["Ann", "Former player 1", "Cy"]}


@pytest.mark.parametrize("text", ['{"v": 2}', "[]", "not json", '{"v": 1}'])
def test_a_text_that_is_no_saved_game_is_refused(text: str) -> None:
    with pytest.raises(EngineError):
        renamed(text, {0: "X"})


def test_a_seat_the_game_does_not_have_is_refused() -> None:
    text = Game.new(Settings(preset="classic"), 3, names=["A", "B", "C"]).to_json()
    with pytest.raises(EngineError):
        renamed(text, {3: "X"})
