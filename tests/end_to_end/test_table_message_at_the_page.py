"""The table message while everyone seated is at the table's page (cogs/table_messages.py),
through the real client and the stand-in: its edits gather a trick's cards and a bidding's
bids (it follows each trick's and hand's end), it ends showing the finished game, and when
someone leaves the page the edit waiting goes at the usual pace.

As in tests/end_to_end/test_at_the_page.py, a person at the page is marked present directly,
and moves through the service call and publishing a click uses."""

from __future__ import annotations

import asyncio

import pytest

from bot.service import TableStatus
from standin.server import StandIn
from tests.end_to_end.conftest import BotFactory
from tests.end_to_end.test_at_the_page import (
    WEB,
    edits_of,
    from_the_page,
    game_of_three,
    waiting_for,
)
from tools.simulated_people import game_over

pytestmark = [
    pytest.mark.parametrize("database_url", ["sqlite"], indirect=True),
    pytest.mark.timeout(180),
]

A_MOMENT = 0.05
"""Seconds between moves: many times the edit delay (0.02 s), far under the gathering."""


async def test_everyone_at_the_page_gathers_the_table_message_and_it_ends_shown(
    standin: StandIn, start_bot: BotFactory
) -> None:
    settings = {**WEB, "table_gather_at_page": 2.0}
    async with start_bot(settings=settings) as bot:
        assert bot.web is not None
        people, table, table_id = await game_of_three(standin, bot)
        for person in people:
            bot.web.presence.arrive(table_id, person.id)
        since = len(standin.calls)
        moves = 0
        while True:
            user_id, _, status = await waiting_for(bot, table_id)
            if status is not TableStatus.PLAYING:
                break
            assert user_id is not None
            await from_the_page(bot, table_id, user_id)
            moves += 1
            await asyncio.sleep(A_MOMENT)
        await standin.wait_for(lambda: game_over(table))
        await bot.presenter.ground.idle()
        edits = edits_of(standin, table, since)
        # Each trick's and each bidding's end, not each move (one edit a move at the usual
        # pace here, as moves come many edit delays apart).
        assert edits <= moves / 2, (edits, moves)
        assert standin.take_violations() == []


async def test_someone_leaving_the_page_brings_the_gathered_edit_forward(
    standin: StandIn, start_bot: BotFactory
) -> None:
    settings = {**WEB, "table_gather_at_page": 30.0}
    async with start_bot(settings=settings) as bot:
        assert bot.web is not None
        people, table, table_id = await game_of_three(standin, bot)
        for person in people:
            bot.web.presence.arrive(table_id, person.id)
        shown = table.embeds[0].get("fields")
        since = len(standin.calls)
        user_id, _, _ = await waiting_for(bot, table_id)
        assert user_id is not None
        await from_the_page(bot, table_id, user_id)  # the first bid: a bidding under way
        await asyncio.sleep(0.3)
        assert edits_of(standin, table, since) == 0
        assert table.embeds[0].get("fields") == shown

        bot.web.presence.leave(table_id, people[-1].id)
        await standin.wait_for(lambda: edits_of(standin, table, since) == 1, timeout=2)
        assert table.embeds[0].get("fields") != shown
        assert standin.take_violations() == []
