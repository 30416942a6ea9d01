"""The tricks of the hand just scored on a table's page opened after it was scored (nobody
watched it being played), a person's own seat at the page too: its last trick is shown by no
view of the table (the move that plays it scores the hand and deals the next), yet the page
shows the hand's tricks, its last one too, as the game's record has them."""

from __future__ import annotations

from typing import Any

import aiohttp
import pytest

from bot.engine import Game
from cogs.client import OhHellBot
from standin.server import StandIn
from tests.end_to_end.conftest import BotFactory
from tests.end_to_end.seats import Seat, session_of
from tests.end_to_end.test_web_pages import events
from tests.end_to_end.test_web_sign_in import sign_in_settings
from tools.simulated_people import add_computer, open_table
from tools.web_screenshot import play_until


async def stored_game(bot: OhHellBot, table_id: int) -> Game:
    row = await bot.tables.service.db.tables.load(table_id)
    return Game.from_json(row.document["game"])


def shows_hand(state: dict[str, Any], game: Game, number: int) -> None:
    """`state` shows hand `number`'s tricks as the game's record has them, the last one as the
    last trick."""
    (hand,) = (log for log in game.finished_hands if log.number == number)
    assert state["tricks_title"] == f"Tricks of hand {number}"
    assert state["last"]["caption"] == f"Last trick of hand {number}"
    record = [[str(game.pack.cards[card]) for card in trick.cards] for trick in hand.tricks]
    shown = [[play["card"] for play in trick["plays"]] for trick in state["earlier"]]
    assert shown == record
    assert [trick["winner"] for trick in state["earlier"]] == [t.winner for t in hand.tricks]
    assert state["last"]["plays"] == state["earlier"][-1]["plays"]


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
async def test_a_page_opened_after_a_hand_was_scored_shows_its_tricks(
    standin: StandIn, start_bot: BotFactory
) -> None:
    async with start_bot(settings=sign_in_settings(standin)) as bot:
        assert bot.web is not None and bot.links is not None
        base = f"http://127.0.0.1:{bot.web.port}"
        ann, bob = standin.person("Ann"), standin.person("Bob")
        table, table_id = await open_table(standin, [ann, bob], preset="classic", max_cards=2)
        await add_computer(standin, ann, table, table_id, "easy")
        path = bot.links.table(standin.guild.id, table_id).removeprefix(bot.links.public_url)
        await ann.click(table, f"oh:start:{table_id}")

        async def second_hand() -> bool:
            game = (await bot.tables.service.lookups.table_view(table_id)).game
            return game is not None and game.hand_number == 2

        await play_until(standin, [ann, bob], second_hand)
        game = await stored_game(bot, table_id)
        async with aiohttp.ClientSession() as http:
            # Ann's own seat at the page, then anyone's page: each the table's only watcher.
            seat = Seat(bot, http, path, await session_of(standin, bot, http, ann))
            async with seat.stream() as stream:
                at_seat = await stream.wait(lambda: stream.latest("table"))
            await standin.wait_for(lambda: not bot.web.watchers.tables(), timeout=10)
            (opened,) = await events(http, base + path + "/events", 1)
        for state in (at_seat, opened):
            assert state["hand"] == 2 and not state["tricks"]
            shows_hand(state, game, 1)
