"""What ``hard`` decides from at one seat's turn, in one value passed down to its searches."""

from __future__ import annotations

import random
import time
from dataclasses import dataclass

from bot.engine import Game

from .common import decision_rng
from .knowledge import Table
from .params import HardParams
from .sanitise import Determiniser, public_game


@dataclass(frozen=True, slots=True)
class Position:
    """The seat's table, a sanitised copy of the game to deal the unseen cards from, the
    decision's randomness, its budget (a ``time.perf_counter`` deadline, or a fixed number of
    samples or search iterations, for reproducible runs) and the values ``hard`` decides
    with."""

    table: Table
    det: Determiniser
    rng: random.Random
    deadline: float | None
    iterations: int | None
    params: HardParams

    @classmethod
    def at(
        cls,
        game: Game,
        seat: int,
        seed: int,
        deadline: float | None,
        iterations: int | None,
        params: HardParams,
    ) -> Position:
        """``seat``'s position in ``game``, built as ``bot.ai.decide`` builds it."""
        view = game.view(seat)
        rng = decision_rng(view, seed)
        table = Table.from_view(view, game.rules)
        det = Determiniser(public_game(game, table, rng), table)
        return cls(table, det, rng, deadline, iterations, params)

    def more(self, done: int) -> bool:
        """Is there budget for more after ``done`` samples (one at least)?"""
        if self.iterations is not None:
            return done < self.iterations
        assert self.deadline is not None
        return done == 0 or time.perf_counter() < self.deadline
