"""The service as the tests build it: computers play a legal move chosen by their seed, work
runs inline, the table's deals come from a seeded generator (the `service` fixture's,
tests/conftest.py)."""

from __future__ import annotations

import random
from typing import Any

from bot.engine import Action, Game
from bot.service import TableService
from bot.storage import Database


def first_legal(game_json: str, seat: int, level: str, seed: int) -> Action:
    """A computer's move: one of the legal ones, chosen by the decision's seed."""
    game = Game.from_json(game_json)
    return random.Random(seed).choice(game.legal_actions(seat))


async def run_inline(function: Any, *args: Any) -> Any:
    return function(*args)


def service_on(database: Database, **options: Any) -> TableService:
    """The service on `database`; `options` (a clock, settings, another generator, …) go to
    `TableService` in place of these."""
    given: dict[str, Any] = {
        "decide": first_legal,
        "run_blocking": run_inline,
        "rng": random.Random(7),
    }
    return TableService(database, **(given | options))
