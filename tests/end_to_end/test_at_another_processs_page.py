"""A hand DM while its person is at the table's page served by another bot process (two
processes, one PostgreSQL): the process that stores the others' moves hears that she is at the
page, so her DM is not edited on every card nor a new hand's DM sent, and catches up once she
leaves the page there."""

from __future__ import annotations

from typing import Any

import pytest

from bot.service import TableStatus
from cogs.client import OhHellBot
from standin.driver import Person
from standin.server import StandIn
from tests.end_to_end.seats import Seat, session_of
from tests.end_to_end.test_at_the_page import edits_of, shows_now, waiting_for
from tests.end_to_end.test_web_seat_processes import two_shards
from tools.simulated_people import hand_message, my_turn_controls, open_table, take_turn

pytestmark = pytest.mark.timeout(180)


async def ann_at_the_page(bot: OhHellBot, seat: Seat, table_id: int, user_id: int) -> None:
    """Ann's move, sent from her page as its buttons send one: the first allowed."""
    state = await bot.tables.service.lookups.hand_state(table_id, user_id)
    move: dict[str, Any] = {"hand": state.hand_number}
    if state.bid_options:
        move |= {"do": "bid", "bid": next(o.n for o in state.bid_options if o.allowed)}
    else:
        move |= {"do": "play", "card": next(o.card_id for o in state.cards if o.allowed)}
    status, answer = await seat.act(move)
    assert status == 200, answer


async def in_discord(standin: StandIn, person: Person) -> None:
    await standin.wait_for(lambda: my_turn_controls(person) is not None)
    controls = my_turn_controls(person)
    assert controls is not None
    result = await take_turn(person, controls[0], controls[1][0])
    assert result.response_type == 7, result.content


async def test_a_dm_waits_while_its_person_is_at_another_processs_page(
    standin: StandIn, postgres_url: str
) -> None:
    async with two_shards(standin, postgres_url) as shards:
        # Bob and Cat click their DMs (the owner's shard), Ann plays at the other's page.
        hall, owner, other, http = shards.hall, shards.owner, shards.other, shards.http
        people = [standin.person(name) for name in ("Ann", "Bob", "Cat")]
        ann, bob, cat = people
        assert owner.web is not None and owner.links is not None
        table, table_id = await open_table(
            standin, people, channel=hall, preset="classic", max_cards=2
        )
        assert (await ann.click(table, f"oh:start:{table_id}")).response_type == 7
        await standin.wait_for(lambda: all(hand_message(p) is not None for p in people))
        first = hand_message(ann)
        assert first is not None
        path = owner.links.table(shards.here.id, table_id).removeprefix(owner.links.public_url)
        anns = Seat(other, http, path, await session_of(standin, other, http, ann))
        async with anns.stream():
            await standin.wait_for(lambda: owner.web.presence.at_page(table_id, ann.id), 10)
            since, dms = len(standin.calls), len(ann.dms())
            # The first hand, and the second until the owner stored a move of it.
            owner_moved_in_second = False
            while not owner_moved_in_second:
                user_id, hand, status = await waiting_for(owner, table_id)
                assert status is TableStatus.PLAYING and user_id is not None
                if user_id == ann.id:
                    await ann_at_the_page(other, anns, table_id, ann.id)
                else:
                    await in_discord(standin, bob if user_id == bob.id else cat)
                    owner_moved_in_second = hand == 2
                for bot in (owner, other):
                    await bot.presenter.ground.idle()
            # Her first hand's DM was closed when the hand ended (by each process at most
            # once), never edited for a card, and no new hand's DM came while at the page.
            assert edits_of(standin, first, since) <= 2
            assert first.components == [] and not first.embeds
            assert len(ann.dms()) == dms
        # She left the page on the other process: the owner, which stores Bob's and Cat's
        # moves, hears it, and her DM catches up there.
        await standin.wait_for(lambda: not owner.web.presence.at_page(table_id, ann.id), 10)
        caught_up = await standin.wait_for(lambda: hand_message(ann) not in (None, first), 10)
        for bot in (owner, other):
            await bot.presenter.ground.idle()
        caught_up = hand_message(ann)
        assert caught_up is not None
        await shows_now(owner, table_id, ann, caught_up)
