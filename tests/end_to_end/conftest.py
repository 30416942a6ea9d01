"""The real bot (bot.app) against the local Discord stand-in, on each backend in turn: a real
SQLite file and a real PostgreSQL server (`database_url`, tests/conftest.py)."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from typing import Any

import pytest

from bot.app import build
from bot.config import BotSettings
from bot.engine import Action, Game
from cogs.client import OhHellBot
from standin.server import StandIn
from standin.testing import run_bot


def random_legal(game_json: str, seat: int, level: str, seed: int) -> Action:
    """A computer that plays any legal move (the tests here are about the bot, not strength)."""
    game = Game.from_json(game_json)
    return random.Random(seed).choice(game.legal_actions(seat))


BotFactory = Callable[..., Any]


@asynccontextmanager
async def running_bot(
    standin: StandIn, database_url: str, **options: Any
) -> AsyncIterator[OhHellBot]:
    """The real bot on `database_url`, logged into the stand-in until the block ends; `options`
    as `start_bot` takes them."""
    settings = BotSettings(
        discord_token="test",
        database_url=database_url,
        _env_file=None,
        table_edit_delay=options.pop("edit_delay", 0.02),
        computer_delay=options.pop("computer_delay", 0.0),
        turn_ping_after=options.pop("turn_ping_after", 0.0),
        **options.pop("settings", {}),
    )
    bot, database, _ = await build(
        settings,
        clock=options.pop("clock", None),
        decide=options.pop("decide", random_legal),
        workers=0,
    )
    try:
        async with run_bot(standin, bot):
            # Start-up's own saves (the grace period of open tables) come first: a test
            # that writes to the database meanwhile would race them.
            await standin.wait_for(lambda: bot.presenter.automatic.scheduling)
            yield bot
            await bot.presenter.ground.idle()
    finally:
        await database.close()


@pytest.fixture
def start_bot(standin: StandIn, database_url: str) -> BotFactory:
    def starting(**options: Any) -> AbstractAsyncContextManager[OhHellBot]:
        return running_bot(standin, database_url, **options)

    return starting
