"""The lobby at the page in a process that does not run the server's shard (several processes
behind one address, sharing PostgreSQL): its gateway cache has no such server, so the page's
channel and person are read from Discord instead; a table is found, opened and joined all the
same, and a channel of another server or a server the person is not in is still refused."""

from __future__ import annotations

import pytest

from standin.server import StandIn
from tests.end_to_end.conftest import BotFactory
from tests.end_to_end.test_web_lobby import pages, place, seats
from tests.end_to_end.test_web_sign_in import sign_in_settings

pytestmark = pytest.mark.parametrize("database_url", ["postgres"], indirect=True)


async def test_a_page_reaching_another_shards_process_finds_opens_and_joins(
    standin: StandIn, start_bot: BotFactory
) -> None:
    elsewhere = standin.world.add_guild("Shard 1", shard=(1, 2))
    hall = standin.world.add_text_channel(elsewhere, "hall")
    ann, bob = standin.person("Ann"), standin.person("Bob")
    other = standin.world.add_guild("Other", shard=(1, 2))  # Ann and Bob are not members
    yard = standin.world.add_text_channel(other, "yard")
    settings = sign_in_settings(standin, shard_count=2, shard_ids=(0,))
    async with pages(start_bot, standin, settings) as (bot, page_of):
        assert bot.get_guild(elsewhere.id) is None and not bot.covers(elsewhere.id)
        ann_page, bob_page = await page_of(ann), await page_of(bob)
        assert await ann_page.find(hall) == (200, {"table": None})
        status, opened = await ann_page.open(hall)
        assert status == 200, opened
        await standin.wait_for(lambda: len(ann.visible_messages(hall)) == 1)
        table = ann.visible_messages(hall)[0]
        assert seats(table) == ["1. Ann"]
        assert await bob_page.find(hall) == (200, {"table": opened["table"]})
        status, joined = await bob_page.lobby(opened["table"], "join")
        assert status == 200, joined
        await standin.wait_for(lambda: seats(table) == ["1. Ann", "2. Bob"])

        bobs = bob_page.launch(hall)
        for body in (bobs | place(yard, guild_id=elsewhere.id), bobs | place(yard)):
            status, got = await bob_page.post("activity/table", body)
            assert (status, got["error"]) == (404, "unknown_channel"), body
