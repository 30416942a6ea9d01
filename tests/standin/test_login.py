"""The real discord.py client logs in, receives its guild and syncs its commands."""

from __future__ import annotations

import discord
import pytest

from cogs.endpoint import point_discord_py_at, restore_discord_py
from standin.server import StandIn
from standin.testing import run_bot
from standin.world import Perm
from tests.standin.sample_bot import SampleBot


async def test_login_follows_discord_py_sequence(standin: StandIn, sample: SampleBot) -> None:
    routes = [c.route for c in standin.calls]
    assert routes[:2] == ["GET /users/@me", "GET /oauth2/applications/@me"]
    assert "PUT /applications/{application_id}/commands" in routes
    assert "PUT /applications/{application_id}/guilds/{guild_id}/commands" in routes
    assert all(c.status == 200 for c in standin.calls)
    assert sample.user is not None and sample.user.id == standin.world.bot.id
    assert sample.application_id == standin.application_id


async def test_bot_sees_the_world_it_was_given(standin: StandIn, sample: SampleBot) -> None:
    guild = sample.get_guild(standin.guild.id)
    assert guild is not None and guild.name == standin.guild.name
    channel = guild.get_channel(standin.channel.id)
    assert isinstance(channel, discord.TextChannel) and channel.name == "general"
    assert guild.me is not None
    assert channel.permissions_for(guild.me).send_messages


async def test_channel_denial_shows_in_the_bots_permissions(standin: StandIn) -> None:
    quiet = standin.world.add_text_channel(standin.guild, "quiet")
    standin.world.deny_bot(quiet, Perm.SEND_MESSAGES)

    async with run_bot(standin, SampleBot(guild_id=standin.guild.id)) as bot:
        guild = bot.get_guild(standin.guild.id)
        assert guild is not None and guild.me is not None
        channel = guild.get_channel(quiet.id)
        assert isinstance(channel, discord.TextChannel)
        assert not channel.permissions_for(guild.me).send_messages
        assert channel.permissions_for(guild.me).view_channel


async def test_commands_are_registered_with_their_subcommands(
    standin: StandIn, sample: SampleBot
) -> None:
    command = standin.find_command("sample", standin.channel)
    subcommands = {o["name"] for o in command["options"]}
    assert {"hello", "slowly", "panel", "dm", "late", "badid"} <= subcommands
    fetched = await sample.tree.fetch_commands(guild=discord.Object(standin.guild.id))
    assert [c.name for c in fetched] == ["sample", "here"]
    assert fetched[0].id == int(command["id"])


async def test_wrong_token_is_refused(standin: StandIn) -> None:
    bot = SampleBot()
    previous = point_discord_py_at(standin.api_base, standin.gateway_url)
    try:
        with pytest.raises(discord.LoginFailure):
            await bot.login("not-the-token")
    finally:
        await bot.close()
        restore_discord_py(previous)
    assert standin.calls[-1].status == 401


async def test_world_changes_reach_a_connected_bot(standin: StandIn, sample: SampleBot) -> None:
    lobby = await standin.add_text_channel("lobby")
    found = await standin.wait_for(lambda: sample.get_channel(lobby.id))
    assert isinstance(found, discord.TextChannel) and found.name == "lobby"
    table = await standin.add_thread(lobby, "table-2")
    assert isinstance(await standin.wait_for(lambda: sample.get_channel(table.id)), discord.Thread)
    await standin.deny_bot(lobby, Perm.SEND_MESSAGES)
    guild = found.guild
    await standin.wait_for(lambda: not found.permissions_for(guild.me).send_messages)
    await standin.allow_bot(lobby, Perm.SEND_MESSAGES)
    await standin.wait_for(lambda: found.permissions_for(guild.me).send_messages)
