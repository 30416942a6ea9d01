"""The bot's worker entry point: a failing level never leaves a computer without a move."""

from __future__ import annotations

import logging

import pytest

from bot.ai import NothingToDecide, hard
from bot.app import decide_in_worker
from bot.engine import Game, Settings


def _broken(*args: object, **kwargs: object) -> None:
    raise RuntimeError("a bug in the search")


def test_a_failing_level_falls_back_to_normal_and_is_logged(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setattr(hard, "decide", _broken)
    game = Game.new(Settings(preset="first-to-101"), players=4, seed=3)
    seat = game.turn
    with caplog.at_level(logging.ERROR):
        action = decide_in_worker(game.to_json(), seat, "hard", 5)
    assert action in game.legal_actions(seat)
    assert "computer level hard failed" in caplog.text
    assert "a bug in the search" in caplog.text


def test_nothing_to_decide_is_not_papered_over() -> None:
    game = Game.new(Settings(preset="first-to-101"), players=4, seed=3)
    other = next(s for s in range(4) if s != game.turn)
    with pytest.raises(NothingToDecide):
        decide_in_worker(game.to_json(), other, "hard", 5)
