"""The stand-in shards as Discord does: a guild's events on shard `(guild_id >> 22) % count`,
DMs on shard 0, 4010 for a shard outside the count, 4011 for too few shards, and GET
/gateway/bot recommending enough shards. Real discord.py clients, several at once."""

from __future__ import annotations

import contextlib
from typing import Any

import aiohttp
import discord
import pytest

from standin.server import StandIn
from standin.testing import BotProcess, run_bot
from standin.world import Channel, ChannelKind, Guild
from tests.standin.sample_bot import SampleBot, ShardedSampleBot

SAMPLE = "tests.standin.sample_bot"


def general(guild: Guild) -> Channel:
    return next(c for c in guild.channels if c.kind is ChannelKind.GUILD_TEXT)


def add_guilds(standin: StandIn, shard_count: int) -> list[Guild]:
    """One more guild on each shard of `shard_count`, each with a #general."""
    guilds = []
    for shard_id in range(shard_count):
        guild = standin.world.add_guild(f"Guild {shard_id}", shard=(shard_id, shard_count))
        standin.world.add_text_channel(guild, "general")
        guilds.append(guild)
    return guilds


def general_guild(channel: Channel) -> int:
    assert channel.guild is not None
    return channel.guild.id


def owner(guild_id: int, bots: list[SampleBot]) -> SampleBot:
    """The bot among `bots` (one shard each, in shard order) that Discord's formula names."""
    return bots[(guild_id >> 22) % len(bots)]


async def see_all_in_order(standin: StandIn, bots: list[SampleBot], guilds: list[Guild]) -> None:
    """A message in each guild, waited for at its shard's bot: a session's events arrive in
    order, so whatever was sent to a bot before has arrived by then."""
    ann = standin.person("Ann")
    for guild in guilds:
        marker = await ann.say(general(guild), f"marker {guild.id}")
        bot = owner(guild.id, bots)
        await standin.wait_for(lambda b=bot, m=marker: any(s.id == m.id for s in b.seen))


@pytest.mark.parametrize("shard_count", [2, 3])
async def test_each_shard_gets_only_its_guilds_events(standin: StandIn, shard_count: int) -> None:
    guilds = add_guilds(standin, shard_count)
    everything = list(standin.world.guilds.values())
    bots = [ShardedSampleBot(shard_count=shard_count, shard_ids=[k]) for k in range(shard_count)]
    async with contextlib.AsyncExitStack() as stack:
        for bot in bots:
            await stack.enter_async_context(run_bot(standin, bot))
        for shard_id, bot in enumerate(bots):
            mine = {g.id for g in everything if (g.id >> 22) % shard_count == shard_id}
            assert mine and {g.id for g in bot.guilds} == mine
        assert sorted(s.shard for s in standin.sessions) == [
            (k, shard_count) for k in range(shard_count)
        ]

        ann = standin.person("Ann")
        said = [await ann.say(general(g), f"hello {g.name}") for g in guilds]
        lobby = await standin.add_text_channel("lobby", guild=guilds[-1])
        await see_all_in_order(standin, bots, guilds)
        for bot in bots:
            mine = {m.id for m in said if owner(general_guild(m.channel), bots) is bot}
            assert mine and {m.id for m in bot.seen} & {m.id for m in said} == mine
            assert (bot.get_channel(lobby.id) is not None) == (owner(guilds[-1].id, bots) is bot)

        for guild in guilds:
            result = await ann.slash(general(guild), "sample hello", name=guild.name)
            assert result.content == f"Hello, {guild.name}!"
            answered = [b for b in bots if b.last_interaction is not None]
            assert [b.last_interaction.id for b in answered if b is owner(guild.id, bots)] == [
                result.interaction.id  # type: ignore[union-attr]
            ]
            assert all(
                b.last_interaction.id != result.interaction.id  # type: ignore[union-attr]
                for b in answered
                if b is not owner(guild.id, bots)
            )


async def test_dms_go_to_shard_zero(standin: StandIn) -> None:
    guilds = add_guilds(standin, 2)
    zero, one = bots = [ShardedSampleBot(shard_count=2, shard_ids=[k]) for k in range(2)]
    async with run_bot(standin, zero), run_bot(standin, one):
        ann = standin.person("Ann")
        asked = await ann.slash(general(guilds[1]), "sample dmpanel")
        assert asked.content == "check your DMs"
        assert one.last_interaction is not None and zero.last_interaction is None
        [panel] = ann.dms()
        await see_all_in_order(standin, bots, guilds)
        assert [m.id for m in zero.seen if m.content == "Panel"] == [panel.id]
        assert not [m for m in one.seen if m.content == "Panel"]

        click = await ann.click(panel, "sample:yes")
        assert click.response_type == 7 and panel.content == "yes by Ann"
        assert zero.last_interaction is not None
        assert zero.last_interaction.id == click.interaction.id
        assert one.last_interaction.id != click.interaction.id


async def test_a_shard_outside_the_count_is_closed_with_4010(standin: StandIn) -> None:
    bot = SampleBot(shard_id=2, shard_count=2)
    with pytest.raises(discord.ConnectionClosed) as closed:
        async with run_bot(standin, bot):
            pass
    assert closed.value.code == 4010
    assert not standin.sessions and not standin.connected


@pytest.mark.standin(max_guilds_per_shard=2)
async def test_too_many_guilds_for_one_shard_is_closed_with_4011(standin: StandIn) -> None:
    add_guilds(standin, 2)  # three guilds, two a shard
    with pytest.raises(discord.ConnectionClosed) as closed:
        async with run_bot(standin, SampleBot()):
            pass
    assert closed.value.code == 4011
    with pytest.raises(discord.ConnectionClosed) as closed:
        async with run_bot(standin, ShardedSampleBot(shard_count=1)):
            pass
    assert closed.value.code == 4011
    assert not standin.connected


@pytest.mark.standin(max_guilds_per_shard=2)
async def test_gateway_bot_recommends_enough_shards(standin: StandIn) -> None:
    add_guilds(standin, 4)  # five guilds, two a shard: three shards
    async with run_bot(standin, ShardedSampleBot()) as bot:
        assert bot.shard_count == 3
        assert {g.id for g in bot.guilds} == set(standin.world.guilds)
        assert sorted(s.shard for s in standin.sessions) == [(0, 3), (1, 3), (2, 3)]
    [call] = standin.calls_to("GET /gateway/bot")
    assert call.response["shards"] == 3
    assert call.response["session_start_limit"]["max_concurrency"] == 1


async def test_one_guild_recommends_one_shard(standin: StandIn) -> None:
    async with run_bot(standin, ShardedSampleBot()) as bot:
        assert bot.shard_count == 1
    [call] = standin.calls_to("GET /gateway/bot")
    assert call.response["shards"] == 1


async def test_each_shard_resumes_its_own_session(standin: StandIn) -> None:
    guilds = add_guilds(standin, 2)
    zero, one = bots = [ShardedSampleBot(shard_count=2, shard_ids=[k]) for k in range(2)]
    async with run_bot(standin, zero), run_bot(standin, one):
        before = {s.session_id: s.shard for s in standin.sessions}
        started = standin.sessions_started
        assert await standin.reconnect_gateway() == 2
        await standin.wait_for_bot(since=started, count=2)
        assert {s.session_id: s.shard for s in standin.sessions} == before
        ann = standin.person("Ann")
        for guild in guilds:
            result = await ann.slash(general(guild), "sample hello", name="again")
            assert result.content == "Hello, again!"
            handler = owner(guild.id, bots).last_interaction
            assert handler is not None and handler.id == result.interaction.id


async def test_two_processes_split_the_shards(standin: StandIn) -> None:
    guilds = add_guilds(standin, 3)
    first = BotProcess(
        standin, SAMPLE, env={"SAMPLE_SHARD_COUNT": "3", "SAMPLE_SHARD_IDS": "0,2"}, sessions=2
    )
    second = BotProcess(
        standin, SAMPLE, env={"SAMPLE_SHARD_COUNT": "3", "SAMPLE_SHARD_IDS": "1"}, sessions=1
    )
    async with first, second:
        assert sorted(s.shard for s in standin.sessions) == [(0, 3), (1, 3), (2, 3)]
        ann = standin.person("Ann")
        for guild in guilds:
            panel = await ann.slash(general(guild), "sample panel")
            assert panel.reply is not None
            who = await ann.click(panel.reply, "sample:who")
            expected = second if (guild.id >> 22) % 3 == 1 else first
            assert who.content == f"pid {expected.pid}"

        await ann.slash(general(guilds[1]), "sample dmpanel")
        [dm_panel] = ann.dms()
        who = await ann.click(dm_panel, "sample:who")
        assert who.content == f"pid {first.pid}"


async def test_an_unsharded_bot_gets_every_guild_and_the_dms(standin: StandIn) -> None:
    guilds = add_guilds(standin, 3)
    async with run_bot(standin, SampleBot()) as bot:
        [session] = standin.sessions
        assert session.shard == (0, 1)
        assert {g.id for g in bot.guilds} == set(standin.world.guilds)
        ann = standin.person("Ann")
        for guild in guilds:
            result = await ann.slash(general(guild), "sample hello", name=guild.name)
            assert result.content == f"Hello, {guild.name}!"
        await ann.slash(general(guilds[2]), "sample dmpanel")
        [panel] = ann.dms()
        click = await ann.click(panel, "sample:yes")
        assert click.response_type == 7 and panel.content == "yes by Ann"


async def test_without_shard_zero_a_dm_click_reaches_no_one(standin: StandIn) -> None:
    guilds = add_guilds(standin, 2)
    async with run_bot(standin, ShardedSampleBot(shard_count=2, shard_ids=[1])) as one:
        ann = standin.person("Ann")
        asked = await ann.slash(general(guilds[1]), "sample dmpanel")
        assert asked.content == "check your DMs"
        [panel] = ann.dms()
        click = await ann.click(panel, "sample:yes")
        assert click.failed and not click.delivered
        assert one.last_interaction is not None
        assert one.last_interaction.id == asked.interaction.id
        stray = await ann.slash(general(guilds[0]), "sample hello", name="nobody")
        assert stray.failed and not stray.delivered


@pytest.mark.parametrize(
    "shard", [[0, 0], [-1, 2], [3, 3], [0], [0, 1, 2], ["0", "1"], [True, 2], "0,1"]
)
async def test_malformed_shards_are_closed_with_4010(standin: StandIn, shard: object) -> None:
    async with aiohttp.ClientSession() as http, http.ws_connect(standin.gateway_url) as ws:
        hello = await ws.receive_json()
        assert hello["op"] == 10
        identify = {"token": standin.token, "intents": 0, "properties": {}, "shard": shard}
        await ws.send_json({"op": 2, "d": identify})
        closing = await ws.receive()
        assert closing.type is aiohttp.WSMsgType.CLOSE and closing.data == 4010
    assert not standin.connected


async def identify_raw(standin: StandIn, shard: list[int] | None) -> list[dict[str, Any]]:
    """IDENTIFY on a bare websocket; the dispatches received before a heartbeat's ACK."""
    identify: dict[str, Any] = {"token": standin.token, "intents": 0, "properties": {}}
    if shard is not None:
        identify["shard"] = shard
    async with aiohttp.ClientSession() as http, http.ws_connect(standin.gateway_url) as ws:
        assert (await ws.receive_json())["op"] == 10
        await ws.send_json({"op": 2, "d": identify})
        await ws.send_json({"op": 1, "d": None})
        frames = []
        while (frame := await ws.receive_json())["op"] != 11:
            frames.append(frame)
    return frames


async def test_ready_names_the_shard_and_guild_creates_are_its_guilds(standin: StandIn) -> None:
    add_guilds(standin, 3)
    for shard_id in range(3):
        ready, *creates = await identify_raw(standin, [shard_id, 3])
        assert ready["t"] == "READY" and ready["d"]["shard"] == [shard_id, 3]
        mine = {str(g) for g in standin.world.guilds if (g >> 22) % 3 == shard_id}
        assert {g["id"] for g in ready["d"]["guilds"]} == mine
        assert {f["t"] for f in creates} == {"GUILD_CREATE"}
        assert {f["d"]["id"] for f in creates} == mine

    ready, *creates = await identify_raw(standin, None)
    assert "shard" not in ready["d"]
    assert {f["d"]["id"] for f in creates} == {str(g) for g in standin.world.guilds}
