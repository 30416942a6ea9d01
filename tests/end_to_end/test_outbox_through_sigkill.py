"""Posts from the outbox through a SIGKILL between a change's commit and its post: the process
is killed while Discord has not got the post yet, or has made it and not answered; after the
restart (or by the other process, on two) the post is there once."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from standin.channels import NONCE_WINDOW
from standin.faults import Fault
from standin.server import StandIn
from standin.testing import BotProcess, ManualClock
from standin.world import Channel, Perm
from tests.end_to_end.test_processes import env as sharded_env
from tests.end_to_end.test_variants import NAMES
from tools.simulated_people import my_turn_controls, open_table, take_turn

POST = "POST /channels/{channel_id}/messages"
RETRY_AFTER = 1.0
"""POST_RETRY_AFTER in these tests: a post left waiting is taken up within about 1.25 s."""


def settings(database_url: str) -> dict[str, str]:
    return {
        "DATABASE_URL": database_url,
        "TABLE_EDIT_DELAY": "0.02",
        "COMPUTER_DELAY": "0",
        "TURN_PING_AFTER": "0",
        "POST_RETRY_AFTER": str(RETRY_AFTER),
        "LOG_LEVEL": "WARNING",
        "DEV_GUILD_ID": "",
    }


def first_score(body: dict[str, object]) -> bool:
    return "**Hand 1 scored**" in str(body.get("content", ""))


def score_posts(standin: StandIn, channel: Channel) -> list[str]:
    return [m.content for m in standin.messages(channel) if "**Hand 1 scored**" in m.content]


async def play_until_held(standin: StandIn, channel: Channel, held: Fault) -> None:
    """Three people play a one-card hand until its score post reaches the fault."""
    people = [standin.person(n) for n in NAMES[:3]]
    table, t = await open_table(standin, people, channel=channel, preset="classic", max_cards=1)
    started = await people[0].click(table, f"oh:start:{t}")
    assert started.response_type == 7, started
    while not held.hits:
        found = await standin.wait_for(
            lambda: held.hits or next((p for p in people if my_turn_controls(p)), None),
            timeout=10,
        )
        if found is True or isinstance(found, int):
            break
        controls = my_turn_controls(found)
        assert controls is not None
        await take_turn(found, controls[0], controls[1][0])


async def posted_once(standin: StandIn, channel: Channel) -> None:
    """The score post arrives, and no second one within a few more rounds of retries."""
    await standin.wait_for(lambda: score_posts(standin, channel), timeout=10)
    await asyncio.sleep(3 * RETRY_AFTER)
    assert len(score_posts(standin, channel)) == 1, score_posts(standin, channel)


@pytest.mark.parametrize(
    "discord_made_it",
    [
        pytest.param(False, id="unsent"),
        # Made long ago: Discord no longer checks its nonce. The restarted bot finds it among
        # its messages in the channel.
        pytest.param(True, id="sent-unanswered", marks=pytest.mark.standin(clock=ManualClock())),
    ],
)
async def test_a_post_whose_process_was_killed_is_made_once_after_a_restart(
    standin: StandIn, tmp_path: Path, discord_made_it: bool
) -> None:
    database_url = f"sqlite:///{tmp_path / 'ohhell.sqlite3'}"
    channel = standin.channel
    faults = standin.faults
    held = (faults.hold_answer if discord_made_it else faults.hold_request)(POST, first_score)
    process = await BotProcess(standin, "bot", env=settings(database_url)).start()
    try:
        await play_until_held(standin, channel, held)
        if discord_made_it:
            await standin.wait_for(lambda: score_posts(standin, channel))
        process.kill()
        await process.wait()
        held.release()
        await process.stop()
        assert len(score_posts(standin, channel)) == int(discord_made_it)
        if isinstance(standin.clock, ManualClock):
            standin.clock.advance(NONCE_WINDOW + 1)
        process = await BotProcess(standin, "bot", env=settings(database_url)).start()
        await posted_once(standin, channel)
    finally:
        await process.stop()


async def test_a_post_made_but_not_heard_of_is_recognised_by_its_nonce(
    standin: StandIn, postgres_url: str
) -> None:
    """Without Read Message History the restarted bot cannot look for the post it took over:
    Discord's nonce check gives back the message the killed process made."""
    channel = standin.channel
    standin.world.deny_bot(channel, Perm.READ_MESSAGE_HISTORY)
    held = standin.faults.hold_answer(POST, first_score)
    process = await BotProcess(standin, "bot", env=settings(postgres_url)).start()
    try:
        await play_until_held(standin, channel, held)
        await standin.wait_for(lambda: score_posts(standin, channel))
        process.kill()
        await process.wait()
        held.release()
        await process.stop()
        process = await BotProcess(standin, "bot", env=settings(postgres_url)).start()
        # The new process looked (and was refused), then sent the post again with its nonce.
        await standin.wait_for(
            lambda: [
                c for c in standin.calls_to(POST) if first_score(c.body or {}) and c.status == 200
            ][1:],
            timeout=10,
        )
        await posted_once(standin, channel)
    finally:
        await process.stop()


async def test_the_other_process_makes_a_post_whose_process_was_killed(
    standin: StandIn, postgres_url: str
) -> None:
    """Two processes, as deployed: DM clicks (and so the score post of a hand finished from a
    DM) reach shard 0's. It is killed while the post is on its way; shard 1's makes it."""
    guild = standin.world.add_guild("Shard 1", shard=(1, 2))
    channel = standin.world.add_text_channel(guild, "cards")
    processes = []
    for shard in (0, 1):
        options = {**sharded_env(postgres_url, shard), "POST_RETRY_AFTER": str(RETRY_AFTER)}
        processes.append(await BotProcess(standin, "bot", env=options).start())
    held = standin.faults.hold_request(POST, first_score)
    try:
        await play_until_held(standin, channel, held)
        processes[0].kill()
        await processes[0].wait()
        held.release()
        assert score_posts(standin, channel) == []
        await posted_once(standin, channel)
    finally:
        for process in processes:
            await process.stop()
    # Both processes sent and edited hand DMs, and named the table the same way, though only
    # shard 1's knows its server.
    wheres = {
        (revision.embeds[0].get("description") or "").split(" · ")[0]
        for person in (standin.person(n) for n in NAMES[:3])
        for dm in person.dms()
        for revision in [*dm.history, dm]
        if revision.embeds and revision.embeds[0].get("description", "").startswith("Table")
    }
    assert wheres == {"Table in #cards on Shard 1"}, wheres
