"""Bids from a person's seat at the table's page, as the hand DM takes them: with bid changes
(classic), a bid changed from the page while the next bidder has not bid, and refused once they
have, nothing changed; with secret bids, a bid made at the page is "has bid" on every other page
until all are in, and then shown."""

from __future__ import annotations

import asyncio
from typing import Any

import aiohttp
import pytest

from bot.engine.records import record_from_game
from standin.driver import Person
from standin.server import StandIn
from tests.end_to_end.conftest import BotFactory
from tests.end_to_end.seats import Seat, SeatStream, session_of
from tests.end_to_end.test_web_seat import game_of, page_move, version_of
from tests.end_to_end.test_web_sign_in import sign_in_settings
from tools.simulated_people import add_computer, my_turn_controls, open_table, take_turn

pytestmark = [
    pytest.mark.timeout(120),
    pytest.mark.parametrize("database_url", ["sqlite"], indirect=True),
]


def chosen(hand: dict[str, Any] | None) -> int | None:
    """The bid the page shows as the person's (pressed in the bid row)."""
    return next((b["n"] for b in (hand or {}).get("bids", []) if b["chosen"]), None)


def window(hand: dict[str, Any] | None, number: int) -> bool:
    """Whether the page offers its person to change their bid of hand `number` (bids shown
    while it is not their turn)."""
    return bool(hand and hand["hand"] == number and hand["bids"] and not hand["turn"])


async def dm_move(person: Person) -> bool:
    """`person` makes the first move their hand DM takes now (the dealer's forbidden bid is a
    button that refuses); False when it takes none (not their turn, or not shown yet)."""
    controls = my_turn_controls(person)
    if controls is not None:
        message, ids = controls
        for custom_id in ids:
            if (await take_turn(person, message, custom_id)).response_type == 7:
                return True
    await asyncio.sleep(0.05)
    return False


async def test_a_bid_changed_from_the_page_until_the_next_bid(
    standin: StandIn, start_bot: BotFactory
) -> None:
    ann, bob, cat = standin.person("Ann"), standin.person("Bob"), standin.person("Cat")
    async with (
        start_bot(settings=sign_in_settings(standin)) as bot,
        aiohttp.ClientSession() as http,
    ):
        assert bot.links is not None
        # People only, so that someone who waits for a click bids after Ann.
        people = [ann, bob, cat]
        table, table_id = await open_table(standin, people, preset="classic", max_cards=3)
        path = bot.links.table(standin.guild.id, table_id).removeprefix(bot.links.public_url)
        page = Seat(bot, http, path, await session_of(standin, bot, http, ann))
        await ann.click(table, f"oh:start:{table_id}")
        async with page.stream() as stream:
            # Ann at the page, Bob and Cat at their DMs, until Ann has bid and another bids
            # next.
            changing = None
            for _ in range(400):
                hand = stream.latest("hand")
                if hand and window(hand, hand["hand"]):
                    changing = hand
                    break
                move = page_move(hand)
                if move is not None:
                    status, answer = await page.act(move)
                    assert status == 200, answer
                    await stream.wait(lambda: stream.latest("hand") != hand)  # noqa: B023
                    continue
                await dm_move(bob) or await dm_move(cat)
            assert changing is not None, "Ann never bid before another"
            # The page offers the change as the DM does, her bid pressed.
            assert changing["prompt"].startswith("Change your bid?"), changing["prompt"]
            was = chosen(changing)
            assert was is not None
            other = next(b["n"] for b in changing["bids"] if b["allowed"] and b["n"] != was)
            number = changing["hand"]
            status, answer = await page.act({"do": "bid", "hand": number, "bid": other})
            assert status == 200, answer
            await stream.wait(lambda: chosen(stream.latest("hand")) == other)
            stored = await bot.tables.service.lookups.hand_state(table_id, ann.id)
            assert stored.bid == other
            # The next bids: Ann's bid is settled, the page offers no change, and one sent
            # anyway is refused and changes nothing.
            while window(stream.latest("hand"), number):
                await dm_move(bob) or await dm_move(cat)
            await bot.presenter.ground.idle()
            version = await version_of(bot, table_id)
            got, answer = await page.act({"do": "bid", "hand": number, "bid": was})
            assert got == 409 and answer["message"], answer
            assert await version_of(bot, table_id) == version
            record = record_from_game(await game_of(bot, table_id))
            seat = record["players"].index("Ann")
            actions = record["hands"][number - 1]["actions"]
            assert [a["bid"] for a in actions if a["seat"] == seat and "bid" in a] == [was, other]


def seat_bid(stream: SeatStream, name: str) -> str:
    """What the table's newest push shows as `name`'s bid."""
    table = stream.latest("table")
    return next(str(s.get("bid")) for s in table["seats"] if s["name"].startswith(name))


async def test_a_secret_bid_from_the_page_is_hidden_from_the_other_pages_until_all_are_in(
    standin: StandIn, start_bot: BotFactory
) -> None:
    ann, bob = standin.person("Ann"), standin.person("Bob")
    async with (
        start_bot(settings=sign_in_settings(standin)) as bot,
        aiohttp.ClientSession() as http,
    ):
        assert bot.links is not None
        table, table_id = await open_table(standin, [ann, bob], preset="oh-shit-half", max_cards=3)
        await add_computer(standin, ann, table, table_id, "easy")
        path = bot.links.table(standin.guild.id, table_id).removeprefix(bot.links.public_url)
        anns = Seat(bot, http, path, await session_of(standin, bot, http, ann))
        bobs = Seat(bot, http, path, await session_of(standin, bot, http, bob))
        await ann.click(table, f"oh:start:{table_id}")
        async with anns.stream() as ann_stream, bobs.stream() as bob_stream:
            hand = await ann_stream.wait(
                lambda: (h := ann_stream.latest("hand")) and h["turn"] and h["bids"] and h
            )
            await bob_stream.wait(lambda: (h := bob_stream.latest("hand")) and h["turn"])
            bid = page_move(hand)
            assert bid is not None and bid["do"] == "bid"
            seen = bob_stream.latest("table")["version"]
            status, answer = await anns.act(bid)
            assert status == 200, answer
            # Bob's page: Ann "has bid", her number nowhere in his pushes.
            await bob_stream.newer(seen)
            assert seat_bid(bob_stream, "Ann") == "has bid"
            assert "Ann" not in (bob_stream.latest("hand")["now"] or "")
            assert f"Ann {bid['bid']}" not in bytes(bob_stream.raw).decode()
            # Bob bids from his page: all are in, and every page shows the bids.
            move = page_move(bob_stream.latest("hand"))
            assert move is not None and move["do"] == "bid"
            status, answer = await bobs.act(move)
            assert status == 200, answer
            shown = f"bid {bid['bid']}"
            await bob_stream.wait(lambda: seat_bid(bob_stream, "Ann") == shown)
            await ann_stream.wait(lambda: seat_bid(ann_stream, "Bob") == f"bid {move['bid']}")
