"""The hands a table's seat streams send cost one load of the table a change, however many of
its people are at the page, and each stream is still sent its own person's hand alone; a move
from the page loads the table once, for the change."""

from __future__ import annotations

import asyncio
from contextlib import AsyncExitStack

import aiohttp
import pytest

from bot.engine.records import record_from_game
from standin.server import StandIn
from tests.end_to_end.conftest import BotFactory
from tests.end_to_end.page_leaks import check_stream
from tests.end_to_end.seats import Seat, SeatStream, session_of
from tests.end_to_end.test_web_seat import game_of
from tests.end_to_end.test_web_sign_in import sign_in_settings
from tools.page_people import page_move
from tools.simulated_people import open_table

pytestmark = [
    pytest.mark.timeout(120),
    pytest.mark.parametrize("database_url", ["sqlite"], indirect=True),
]

MOVES = 12


async def test_four_seat_streams_cost_one_load_a_change(
    standin: StandIn, start_bot: BotFactory
) -> None:
    people = [standin.person(name) for name in ("Ann", "Bob", "Cat", "Dan")]
    async with (
        start_bot(settings=sign_in_settings(standin)) as bot,
        aiohttp.ClientSession() as http,
        AsyncExitStack() as stack,
    ):
        assert bot.web is not None and bot.links is not None
        table, table_id = await open_table(standin, people, preset="classic", max_cards=3)
        path = bot.links.table(standin.guild.id, table_id).removeprefix(bot.links.public_url)
        seats = [Seat(bot, http, path, await session_of(standin, bot, http, p)) for p in people]
        streams: list[SeatStream] = [await stack.enter_async_context(s.stream()) for s in seats]
        await people[0].click(table, f"oh:start:{table_id}")
        for stream in streams:
            await stream.wait(lambda stream=stream: stream.latest("hand"))
        tables = bot.tables.service.db.tables

        async def settled() -> None:
            """Every stream has been sent the newest state and looked up its hand."""
            await bot.presenter.ground.idle()
            for _ in range(20):
                await asyncio.sleep(0.02)
                if all(
                    s.latest("table")["version"] == streams[0].latest("table")["version"]
                    for s in streams
                ):
                    break
            await asyncio.sleep(0.1)

        await settled()
        loads = tables.loads
        for _ in range(MOVES):
            # The stream and seat of the person whose move the page offers now.
            stream, seat = await standin.wait_for(
                lambda: next(
                    (
                        pair
                        for pair in zip(streams, seats, strict=True)
                        if page_move(pair[0].latest("hand"))
                    ),
                    None,
                )
            )
            before = [s.latest("table")["version"] for s in streams]
            move = page_move(stream.latest("hand"))
            assert move is not None
            status, answer = await seat.act(move)
            assert status == 200, answer
            for each, seen in zip(streams, before, strict=True):
                await each.newer(seen)
            await settled()
        # A move is one load of the table for the change (the link's check takes the table's
        # server and channel from the row held in memory) and one for all four hands: a load
        # for each stream's hand, and the link's check loading the table, would be six.
        assert (tables.loads - loads) / MOVES <= 2.5, tables.loads - loads
        game = await game_of(bot, table_id)
        record = record_from_game(game)
        for stream, person in zip(streams, people, strict=True):
            assert check_stream(bytes(stream.raw), record, list(game.names).index(person.name))
    # The table's hands were held only while its streams were open.
    await asyncio.sleep(0.1)
    assert bot.web.seats.hands.tables() == set()
