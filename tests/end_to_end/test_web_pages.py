"""The web room through the real client and the stand-in: with PUBLIC_URL set, a table's page
and its pushes follow the game as it is played; a link that is altered, of another kind or of
another server is the same 404; every answer carries the Content-Security-Policy."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import aiohttp
import pytest

from cogs.web.assets import ASSETS
from cogs.web.links import Links
from standin.server import StandIn
from tests.end_to_end.conftest import BotFactory
from tools.simulated_people import add_computer, hand_message, open_table, play_until_over

WEB = {"public_url": "https://ohhell.example.org", "web_port": 0}


async def events(session: aiohttp.ClientSession, url: str, count: int) -> list[dict]:
    """The first `count` states the page's stream pushes."""
    states = []
    async with session.get(url) as response:
        assert response.headers["Content-Type"].startswith("text/event-stream")
        async for line in response.content:
            if line.startswith(b"data: "):
                states.append(json.loads(line[6:]))
                if len(states) == count:
                    break
    return states


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
async def test_a_tables_page_follows_its_game(standin: StandIn, start_bot: BotFactory) -> None:
    async with start_bot(settings=WEB) as bot:
        assert bot.web is not None and bot.links is not None
        base = f"http://127.0.0.1:{bot.web.port}"
        ann, bob = standin.person("Ann"), standin.person("Bob")
        table, table_id = await open_table(standin, [ann, bob], preset="classic", max_cards=2)
        await add_computer(standin, ann, table, table_id, "easy")
        link = bot.links.table(standin.guild.id, table_id)
        path = link.removeprefix(bot.links.public_url)
        async with aiohttp.ClientSession() as session:
            async with session.get(base + path) as page:
                assert page.status == 200
                assert "script-src 'self'" in page.headers["Content-Security-Policy"]
                assert f'data-events="{path}/events"' in await page.text()
            # Its files, compressed for a browser that takes it, as they are for one that not.
            script = "/static/table.js"
            for accepts, encoding, body in (
                ("gzip, deflate", "gzip", ASSETS["table.js"].gzipped),
                ("identity", None, ASSETS["table.js"].body),
            ):
                async with session.get(
                    base + script, headers={"Accept-Encoding": accepts}, auto_decompress=False
                ) as answer:
                    assert answer.headers.get("Content-Encoding") == encoding
                    assert answer.headers["Vary"] == "Accept-Encoding"
                    assert await answer.read() == body
            (lobby,) = await events(session, base + path + "/events", 1)
            assert lobby["status"] == "lobby"
            await ann.click(table, f"oh:start:{table_id}")
            await standin.wait_for(lambda: all(hand_message(p) for p in (ann, bob)))
            (playing,) = await events(session, base + path + "/events", 1)
            assert playing["status"] == "playing" and len(playing["seats"]) == 3
            await play_until_over(standin, [ann, bob], table)
            await bot.presenter.ground.idle()
            (over,) = await events(session, base + path + "/events", 1)
            assert over["status"] == "finished"

            other_server = Links(b"k" * 32, "").token("t", standin.guild.id + 1, table_id)
            forged = bot.links.token("t", standin.guild.id + 1, table_id)
            game_kind = bot.links.token("g", standin.guild.id, table_id)
            altered = path[:-1] + ("A" if path[-1] != "A" else "B")
            for wrong in (
                f"/t/{other_server}",
                f"/t/{forged}",
                f"/t/{game_kind}",
                altered,
                altered + "/events",
                f"/t/{table_id}",
                "/static/nothing.js",
                "/../etc/passwd",
            ):
                async with session.get(base + wrong) as answer:
                    assert answer.status == 404, wrong
                    assert await answer.text() == "404: no such page\n"
                    assert "Content-Security-Policy" in answer.headers


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
async def test_a_page_that_fails_answers_500_with_the_policy_and_no_detail(
    standin: StandIn, start_bot: BotFactory, monkeypatch: pytest.MonkeyPatch, caplog: Any
) -> None:
    async with start_bot(settings=WEB) as bot:
        assert bot.web is not None and bot.links is not None
        _, table_id = await open_table(standin, [standin.person("Ann")])
        link = bot.links.table(standin.guild.id, table_id)

        async def broken(table_id: int) -> None:
            raise RuntimeError("a fault of the bot's")

        monkeypatch.setattr(bot.web.service.lookups, "table_view", broken)
        async with aiohttp.ClientSession() as session:
            url = f"http://127.0.0.1:{bot.web.port}{link.removeprefix(bot.links.public_url)}"
            async with session.get(url) as answer:
                assert answer.status == 500
                assert await answer.text() == "500: this page failed\n"
                assert "script-src 'self'" in answer.headers["Content-Security-Policy"]
        assert "a fault of the bot's" in caplog.text and "/t/{token}" in caplog.text
        assert link.rsplit("/", 1)[1] not in caplog.text


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
async def test_a_join_answered_in_place_reaches_the_page_at_once(
    standin: StandIn, start_bot: BotFactory
) -> None:
    """Joining is answered by editing the table message in the click's answer, so nothing is
    published afterwards: the page is told as the change is committed."""
    async with start_bot(settings=WEB) as bot:
        assert bot.web is not None and bot.links is not None
        table, table_id = await open_table(standin, [standin.person("Ann")])
        path = bot.links.table(standin.guild.id, table_id).removeprefix(bot.links.public_url)
        async with aiohttp.ClientSession() as session:
            url = f"http://127.0.0.1:{bot.web.port}{path}/events"
            async with session.get(url) as response:
                lines = response.content
                first = await asyncio.wait_for(next_state(lines), 5)
                assert [seat["name"] for seat in first["seats"]] == ["Ann"]
                joined = await standin.person("Bob").click(table, f"oh:join:{table_id}")
                assert joined.response_type == 7
                after = await asyncio.wait_for(next_state(lines), 2)
                assert [seat["name"] for seat in after["seats"]] == ["Ann", "Bob"]


async def next_state(lines: aiohttp.StreamReader) -> dict:
    async for line in lines:
        if line.startswith(b"data: "):
            state: dict = json.loads(line[6:])
            return state
    raise AssertionError("the stream ended")
