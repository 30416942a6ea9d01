"""The web pages with two bot processes on one PostgreSQL, each running one shard of two: a
table's page served by the process that takes none of its clicks follows the game the other
plays (PostgreSQL's NOTIFY → the presenter's followers → the page's stream), and both sign and
read links alike with the key kept in the database (no WEB_SECRET)."""

from __future__ import annotations

import asyncio
import json
import socket
import time
from collections.abc import Callable
from typing import Any

import aiohttp

from bot.service.secrets import LINK_KEY
from bot.storage import Database
from cogs.web.links import Links
from standin.server import StandIn
from standin.testing import BotProcess
from tools.simulated_people import game_over, my_turn_controls, open_table, take_turn

SHARDS = 2
PUBLIC_URL = "https://ohhell.example.org"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def env(database_url: str, shard: int, port: int) -> dict[str, str]:
    return {
        "DATABASE_URL": database_url,
        "SHARD_COUNT": str(SHARDS),
        "SHARD_IDS": str(shard),
        "TABLE_EDIT_DELAY": "0.02",
        "COMPUTER_DELAY": "0",
        "TURN_PING_AFTER": "0",
        "LOG_LEVEL": "WARNING",
        "DEV_GUILD_ID": "",
        "PUBLIC_URL": PUBLIC_URL,
        "WEB_PORT": str(port),
        "WEB_SECRET": "",
    }


async def follow(session: aiohttp.ClientSession, url: str, states: list[dict[str, Any]]) -> None:
    """Every state `url`'s stream pushes, until the bot ends it (the table closed)."""
    async with session.get(url) as response:
        assert response.status == 200, response.status
        async for line in response.content:
            if line.startswith(b"data: "):
                states.append(json.loads(line[6:]))


async def test_a_page_on_one_process_follows_a_game_played_on_the_other(
    standin: StandIn, postgres_url: str
) -> None:
    guilds = [standin.world.add_guild(f"Shard {s}", shard=(s, SHARDS)) for s in range(SHARDS)]
    ports = [free_port() for _ in range(SHARDS)]
    processes = [
        BotProcess(standin, "bot", env=env(postgres_url, s, ports[s])) for s in range(SHARDS)
    ]
    since = standin.sessions_started
    # Started together: both ask for the link key at once, and must come to the same one.
    await asyncio.gather(*(process.start() for process in processes))
    await standin.wait_for_bot(since=since, count=SHARDS, timeout=30)
    bases = [f"http://127.0.0.1:{port}" for port in ports]
    try:
        # The game is on shard 0's server, its people play from their DMs (shard 0's too):
        # shard 1's process takes none of its clicks.
        channel = await standin.add_text_channel("table", guild=guilds[0])
        people = [standin.person(name) for name in ("Ann", "Bob", "Cat")]
        table, table_id = await open_table(
            standin, people[:2], channel=channel, preset="classic", max_cards=2
        )
        database = await Database.open(postgres_url)
        try:
            key = await database.secrets.kept(LINK_KEY, lambda: "made by the test")
        finally:
            await database.close()
        assert key != "made by the test", "no process kept a key"
        links = Links(key.encode(), PUBLIC_URL)
        path = links.table(guilds[0].id, table_id).removeprefix(PUBLIC_URL)
        forged = Links(b"k" * 32, PUBLIC_URL).table(guilds[0].id, table_id)
        async with aiohttp.ClientSession() as session:
            for base in bases:  # either process reads the other's links
                async with session.get(base + path) as page:
                    assert page.status == 200, base
                async with session.get(base + forged.removeprefix(PUBLIC_URL)) as wrong:
                    assert wrong.status == 404
            elsewhere: list[dict[str, Any]] = []
            here: list[dict[str, Any]] = []
            following = [
                asyncio.create_task(follow(session, bases[1] + path + "/events", elsewhere)),
                asyncio.create_task(follow(session, bases[0] + path + "/events", here)),
            ]
            # Once the page elsewhere shows Cat join, its process hears the others' changes
            # (it starts listening at the end of its start-up, and then catches up).
            await standin.wait_for(lambda: len(here) == len(elsewhere) == 1, timeout=10)
            joined = await people[2].click(table, f"oh:join:{table_id}")
            assert joined.response_type == 7, joined
            await standin.wait_for(lambda: len(elsewhere[-1]["seats"]) == 3, timeout=30)
            started = await people[0].click(table, f"oh:start:{table_id}")
            assert started.response_type == 7, started
            clicks = 0
            while not game_over(table):
                # The page elsewhere is up with this process's before the next click: states
                # are newest-only, and the test looks for each move's, not for a race.
                shown = here[-1]["version"]
                await standin.wait_for(reached(elsewhere, shown), timeout=10)
                found = await standin.wait_for(
                    lambda: (
                        game_over(table) or next((p for p in people if my_turn_controls(p)), None)
                    ),
                    timeout=10,
                )
                if found is True:
                    break
                controls = my_turn_controls(found)
                if controls is None:
                    continue
                result = await take_turn(found, controls[0], controls[1][0])
                assert result.response_type == 7, result.content
                clicks += 1
                await standin.wait_for(reached(here, shown + 1), timeout=10)
            await asyncio.wait_for(asyncio.gather(*following), timeout=30)
    finally:
        for process in processes:
            await process.stop()
    versions = [state["version"] for state in elsewhere]
    assert versions == sorted(set(versions)), versions
    assert elsewhere[-1]["status"] == "finished"
    # Every state the game reached, as the process that played it showed them: each move's.
    assert clicks >= 10, clicks
    shown_elsewhere = [public(state) for state in elsewhere]
    for state in here:
        assert public(state) in shown_elsewhere, (state, versions)
    assert all(0 < state["committed"] <= time.time() for state in elsewhere)
    # The last trick of a hand is shown by no view (the move that plays it scores the hand and
    # deals the next): the page elsewhere shows it, and the hand's tricks, as this one does.
    lasts = [state["last"]["caption"] for state in elsewhere if state.get("earlier")]
    assert "Last trick of hand 1" in lasts, lasts


def reached(states: list[dict[str, Any]], version: int) -> Callable[[], bool]:
    """A condition for `wait_for`: the stream has pushed `version` or a newer one."""
    return lambda: states[-1]["version"] >= version


def public(state: dict[str, Any]) -> dict[str, Any]:
    """What a state shows, without what tells one version of it from the next (a version the
    players do not see: a hand message's id kept), nor the serving process's clock."""
    hidden = ("version", "committed", "deadline", "now")
    return {k: v for k, v in state.items() if k not in hidden}
