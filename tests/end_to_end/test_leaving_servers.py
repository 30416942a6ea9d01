"""A server the bot is removed from keeps its data `RETAIN_AFTER_LEAVE` days, then has none; one
the bot is added back to in time keeps everything. Through the real client and the stand-in's
gateway events, with the bot's clock moved by hand."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

from bot.clock import ManualClock
from bot.service.retention import DAY
from cogs.retention import SWEEP_EVERY
from standin.server import StandIn
from tests.end_to_end.conftest import BotFactory
from tests.finished_games import people, store_finished
from tests.privacy_scan import places_holding


async def eventually(check: Callable[[], Awaitable[bool]], timeout: float = 5.0) -> None:
    """Wait until the database says `check()` (the bot works in the background)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not await check():
        if loop.time() > deadline:
            raise TimeoutError(f"not so within {timeout} s")
        await asyncio.sleep(0.05)


async def test_a_server_left_for_good_is_erased_and_one_rejoined_in_time_is_kept(
    standin: StandIn, start_bot: BotFactory, database_url: str
) -> None:
    clock = ManualClock()
    gone = standin.world.add_guild("Gone")
    back = standin.world.add_guild("Back")
    async with start_bot(clock=clock, settings={"retain_after_leave": 30}) as bot:
        database = bot.tables.service.db
        for guild in (gone, back, standin.guild):
            hall = await standin.add_text_channel("hall", guild=guild)
            await store_finished(database, guild.id, hall.id, people("Ann", "Bob", "Cat"), seed=1)

        async def marked() -> set[int]:
            return set(await database.retention.servers_left())

        await standin.remove_bot(gone)
        await standin.remove_bot(back)
        await eventually(lambda: _is(marked, {gone.id, back.id}))
        await standin.add_bot(back)
        await eventually(lambda: _is(marked, {gone.id}))

        clock.advance(30 * DAY - 60)
        await bot.presenter.ground.idle()
        assert await places_holding(database_url, [str(gone.id)]) != {}

        clock.advance(SWEEP_EVERY)  # the next sweep, within the hour

        async def erased() -> bool:
            return await places_holding(database_url, [str(gone.id)]) == {}

        await eventually(erased)
        for kept in (back, standin.guild):
            assert await database.history.finished_games(kept.id)
        assert await database.retention.servers_left() == {}


async def _is(read: Callable[[], Awaitable[set[int]]], expected: set[int]) -> bool:
    return await read() == expected


async def test_a_server_left_while_the_bot_was_stopped_is_marked_at_start(
    standin: StandIn, start_bot: BotFactory
) -> None:
    elsewhere = standin.world.add_guild("Elsewhere")
    async with start_bot() as bot:
        database = bot.tables.service.db
        for guild in (elsewhere, standin.guild):
            hall = await standin.add_text_channel("hall", guild=guild)
            await store_finished(database, guild.id, hall.id, people("Ann", "Bob", "Cat"), seed=2)
    standin.world.remove_guild(elsewhere)  # while the bot is stopped: no event
    async with start_bot() as bot:
        database = bot.tables.service.db

        async def marked() -> set[int]:
            return set(await database.retention.servers_left())

        await eventually(lambda: _is(marked, {elsewhere.id}))
