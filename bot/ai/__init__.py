"""Computer players for Oh Hell: four levels behind one function.

>>> from bot.engine import Game, Settings
>>> game = Game.new(Settings(preset="first-to-101"), players=4, seed=1)
>>> decide(game, game.turn, level="easy", seed=7) in game.legal_actions(game.turn)
True

``decide`` is a plain synchronous function of picklable inputs (a ``Game`` or its JSON), so it
can run in a worker process. The boundary: the level code receives only the seat's
``PlayerView`` (with the table's public rules) and, for search, a sanitised copy of the game
rebuilt from public facts with every card the seat can't see dealt again at random and a fresh
seed (see ``bot.ai.sanitise``).
"""

from __future__ import annotations

import time
from typing import Final, Literal

from bot.engine import Action, Game, Phase

from . import hard, normal, simple
from .common import decision_rng
from .knowledge import Table
from .params import DEFAULT_PARAMS, HardParams
from .position import Position
from .sanitise import Determiniser, public_game

Level = Literal["random", "easy", "normal", "hard"]
LEVELS: Final[tuple[Level, ...]] = ("random", "easy", "normal", "hard")
DEFAULT_BUDGET_S: Final = 1.0


class NothingToDecide(ValueError):
    """The seat has no decision to make now (not its turn, or only an optional bid change)."""


class IllegalDecision(RuntimeError):
    """A level chose an action the rules don't allow (a bug in the level)."""


def decide(
    game: Game | str,
    seat: int,
    level: Level = "normal",
    budget_s: float = DEFAULT_BUDGET_S,
    seed: int = 0,
    iterations: int | None = None,
    params: HardParams = DEFAULT_PARAMS,
) -> Action:
    """The action ``level`` takes for ``seat`` now.

    ``game``: the engine state or its ``to_json()``. ``budget_s``: time limit for ``hard``
    (wall clock, this process); ``iterations``: instead, a fixed number of samples (``hard``
    is then deterministic for a given ``seed``; the other levels always are). ``params``: the
    values ``hard`` decides with (another set only to measure it, as the arena does).
    Raises :class:`NothingToDecide` when the seat has nothing it must do; a seat that may only
    change its previous bid (bid changes) is never asked: changing gains nothing, as nobody has
    bid since.
    """
    if level not in LEVELS:
        raise ValueError(f"no level {level!r}: choose one of {', '.join(LEVELS)}")
    start = time.perf_counter()
    g = Game.from_json(game) if isinstance(game, str) else game
    view = g.view(seat)
    if seat not in view.to_act or not view.legal_actions:
        raise NothingToDecide(f"seat {seat} has nothing to decide now")
    if view.phase is Phase.BIDDING and view.has_bid[seat]:
        raise NothingToDecide(f"seat {seat} has bid; it may only change that bid")
    rng = decision_rng(view, seed)
    table = Table.from_view(view, g.rules)
    if level == "random":
        action = simple.decide_random(table, rng)
    elif level == "easy":
        action = simple.decide_easy(table, rng)
    elif level == "normal":
        action = normal.decide(table, rng)
    elif len(view.legal_actions) == 1:
        action = view.legal_actions[0]
    else:
        det = Determiniser(public_game(g, table, rng), table)
        deadline = None if iterations is not None else start + budget_s * 0.9
        action = hard.decide(Position(table, det, rng, deadline, iterations, params))
    if action not in view.legal_actions:
        raise IllegalDecision(f"{level} chose {action!r}, which is not legal for seat {seat}")
    return action


__all__ = ["LEVELS", "HardParams", "IllegalDecision", "Level", "NothingToDecide", "decide"]
