"""Restarts: a new bot on the same database and stand-in carries every table on; a SIGKILL at
any moment loses no action a person was shown as done."""

from __future__ import annotations

import asyncio
import os
import random
import re
import socket
from collections import Counter
from pathlib import Path

import aiohttp
import pytest

from bot.engine import Game, Phase
from bot.storage import Database
from standin.driver import Person
from standin.server import StandIn
from standin.testing import BotProcess
from standin.world import Message
from tests.end_to_end.conftest import BotFactory
from tests.end_to_end.test_variants import NAMES
from tools.simulated_people import (
    add_computer,
    game_over,
    my_turn_controls,
    open_table,
    play_until_over,
    take_turn,
)

REFRESH_WINDOW = 3.0
"""Seconds after a restart in which a click on a not-yet-refreshed message may be refused."""


async def test_a_restart_mid_hand_carries_the_game_on(
    standin: StandIn, start_bot: BotFactory
) -> None:
    people = [standin.person(n) for n in NAMES[:3]]
    async with start_bot() as bot:
        table, t = await open_table(standin, people, preset="classic", max_cards=3)
        await people[0].click(table, f"oh:start:{t}")
        # Bid the first hand and start the second.
        for _ in range(3):
            found = await standin.wait_for(
                lambda: next((p for p in people if my_turn_controls(p)), None), timeout=5
            )
            controls = my_turn_controls(found)
            assert controls is not None
            await take_turn(found, controls[0], controls[1][0])
        await bot.presenter.ground.idle()
        before = (await bot.tables.service.db.tables.load(t)).version
    # The old bot is gone; its messages and buttons stay. A new one takes over.
    async with start_bot() as bot:
        assert (await bot.tables.service.db.tables.load(t)).version >= before
        await play_until_over(standin, people, table)
        row = await bot.tables.service.db.tables.load(t)
        assert Game.from_json(row.document["game"]).phase is Phase.GAME_OVER


SIGKILLS = int(os.environ.get("SIGKILLS", "8"))
"""Kills in the test below (`make soak` runs it with more, and another seed each time)."""
SEED = int(os.environ.get("SIGKILL_SEED", "20261122"))


async def test_sigkill_at_random_moments_loses_no_acknowledged_action_and_no_post(
    standin: StandIn, database_url: str
) -> None:
    env = {
        "DATABASE_URL": database_url,
        "TABLE_EDIT_DELAY": "0.02",
        "COMPUTER_DELAY": "0",
        "POST_RETRY_AFTER": "1",
        "LOG_LEVEL": "WARNING",
        "DEV_GUILD_ID": "",
    }
    rng = random.Random(SEED)
    people = [standin.person(n) for n in NAMES[:3]]
    process = await BotProcess(standin, "bot", env=env).start()
    acknowledged: Counter[int] = Counter()
    in_flight_kills = 0
    kills = 0
    loop = asyncio.get_running_loop()
    restarted_at = loop.time()
    try:
        table, t = await open_table(standin, people, preset="classic", max_cards=3)
        started = await people[0].click(table, f"oh:start:{t}")
        assert started.response_type == 7
        # classic, 3 players, at most 3 cards: 15 bids and up to 27 cards; most cards are
        # clicked. Kill at SIGKILLS of the first 30 clicks, half of them with a click in flight.
        kill_at = set(rng.sample(range(1, 31), min(SIGKILLS, 30)))
        clicks = 0
        while not game_over(table):
            found = await standin.wait_for(
                lambda: game_over(table) or next((p for p in people if my_turn_controls(p)), None),
                timeout=15,
            )
            if found is True:
                break
            controls = my_turn_controls(found)
            assert controls is not None
            message, ids = controls
            clicks += 1
            if clicks in kill_at:
                kills += 1
                if rng.random() < 0.5:
                    click = asyncio.ensure_future(take_turn(found, message, ids[0]))
                    await asyncio.sleep(rng.uniform(0, 0.01))
                    process.kill()
                    await process.wait()
                    result = await click
                    if result.response_type == 7:
                        acknowledged[found.id] += 1
                    else:
                        in_flight_kills += 1
                else:
                    process.kill()
                    await process.wait()
                await process.stop()
                process = await BotProcess(standin, "bot", env=env).start()
                restarted_at = loop.time()
                continue
            result = await take_turn(found, message, ids[0])
            if result.response_type != 7 and loop.time() - restarted_at < REFRESH_WINDOW:
                # The new bot refreshes every hand message on start-up; a click on a message it
                # has not refreshed yet is refused and changes nothing.
                assert result.ephemeral, result
                await asyncio.sleep(0.05)
                continue
            assert result.response_type == 7, result
            acknowledged[found.id] += 1
        # Every hand's score once, and the final standings once, whatever the kills cut short.
        await standin.wait_for(lambda: posts_of(standin).get("Game over"), timeout=10)
        await asyncio.sleep(3)  # a post made twice would be made again by now
    finally:
        await process.stop()
    assert kills == len(kill_at)
    database = await Database.open(database_url)
    try:
        row = await database.tables.load(t)
        game = Game.from_json(row.document["game"])
        stored = Counter(e.user_id for e in await database.tables.events(t) if e.kind == "action")
    finally:
        await database.close()
    assert game.phase is Phase.GAME_OVER
    for person in people:
        assert stored[person.id] >= acknowledged[person.id], person.name
    extra = sum(stored.values()) - sum(acknowledged.values())
    assert 0 <= extra <= in_flight_kills
    expected = {f"Hand {log.number}" for log in game.history()} | {"Game over"}
    assert posts_of(standin) == dict.fromkeys(expected, 1)


def posts_of(standin: StandIn) -> Counter[str]:
    """The channel's posts by what they are: "Hand N" (its score), "Game over"."""
    found: Counter[str] = Counter()
    for message in standin.messages(standin.channel):
        heading = re.match(r"\*\*(Hand \d+) scored\*\*|\*\*(Game over)", message.content)
        if heading:
            found[heading[1] or heading[2]] += 1
    return found


WORKER_KILLS = int(os.environ.get("SIGKILLS_WITH_WORKERS", "2"))
"""Kills of a bot with metrics and computer workers on (`make soak` runs more)."""


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
async def test_sigkill_with_metrics_and_workers_on_frees_the_port_for_the_next_start(
    standin: StandIn, database_url: str
) -> None:
    port = free_port()
    env = {
        "DATABASE_URL": database_url,
        "TABLE_EDIT_DELAY": "0.02",
        "COMPUTER_DELAY": "0",
        "COMPUTER_WORKERS": "2",
        "METRICS_PORT": str(port),
        "LOG_LEVEL": "WARNING",
        "DEV_GUILD_ID": "",
    }
    rng = random.Random(SEED)
    ann = standin.person("Ann")
    process = await BotProcess(standin, "bot", env=env).start()
    try:
        table, t = await open_table(standin, [ann], preset="classic", max_cards=7)
        for _ in range(3):
            await add_computer(standin, ann, table, t, "normal")
        await ann.click(table, f"oh:start:{t}")
        for _ in range(WORKER_KILLS):
            # Ann plays on meanwhile; the computers decide in the workers.
            playing = asyncio.ensure_future(play_on_turns(standin, ann, table))
            pid = process.pid
            await standin.wait_for(lambda: len(descendants(pid)) >= 2, timeout=30)  # noqa: B023
            await asyncio.sleep(rng.uniform(0, 1.0))
            workers = descendants(pid)
            process.kill()
            await process.wait()
            playing.cancel()
            await asyncio.gather(playing, return_exceptions=True)
            # Every worker (and the fork server) goes with the bot, and the port with them.
            await standin.wait_for(lambda: not any(map(alive, workers)), timeout=5)  # noqa: B023
            await process.stop()
            process = await BotProcess(standin, "bot", env=env).start()
            assert await healthz(port) == (200, "ok\n"), process.stderr()
        await process.stop()
        assert "Traceback" not in process.stderr(), process.stderr()
    finally:
        await process.stop()


async def play_on_turns(standin: StandIn, person: Person, table: Message) -> None:
    """The person takes every turn that comes to them, until the game is over."""
    while not game_over(table):
        await standin.wait_for(lambda: game_over(table) or my_turn_controls(person), timeout=60)
        controls = my_turn_controls(person)
        if controls is not None:
            await take_turn(person, controls[0], controls[1][0])
            await asyncio.sleep(0.05)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def descendants(pid: int) -> set[int]:
    """The processes `pid` started, and theirs (Linux: read from /proc)."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_bytes()
            except OSError:
                continue
            parents[int(entry.name)] = int(stat.rsplit(b")", 1)[1].split()[1])
    found: set[int] = set()
    grown = {pid}
    while grown:
        grown = {child for child, parent in parents.items() if parent in grown} - found
        found |= grown
    return found


def alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_bytes()
    except OSError:
        return False
    return stat.rsplit(b")", 1)[1].split()[0] != b"Z"


async def healthz(port: int) -> tuple[int, str]:
    """/healthz's answer once it is "ok", or its last within 10 s."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + 10
    answer = (0, "no answer")
    while loop.time() < deadline:
        try:
            async with (
                aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=5)) as session,
                session.get(f"http://127.0.0.1:{port}/healthz") as response,
            ):
                answer = response.status, await response.text()
        except aiohttp.ClientError as error:
            answer = (0, str(error))
        if answer[0] == 200:
            break
        await asyncio.sleep(0.2)
    return answer
