"""Bots come and go; the stand-in keeps messages and components, and clicks on old messages
reach the new bot — after a clean close, and after a SIGKILL."""

from __future__ import annotations

from standin.server import StandIn
from standin.testing import BotProcess, run_bot
from tests.standin.sample_bot import SampleBot

SAMPLE = "tests.standin.sample_bot"


async def test_a_new_bot_answers_clicks_on_the_old_bots_messages(standin: StandIn) -> None:
    ann = standin.person("Ann")
    async with run_bot(standin, SampleBot(guild_id=standin.guild.id)):
        panel = await ann.slash(standin.channel, "sample panel")
        await ann.slash(standin.channel, "sample counter")
    assert panel.reply is not None
    counter = next(m for m in standin.messages(standin.channel) if m.content == "count 0")

    await standin.wait_for(lambda: not standin.connected)
    orphan = await ann.click(panel.reply, "sample:yes")
    assert orphan.failed and not orphan.delivered

    async with run_bot(standin, SampleBot(guild_id=standin.guild.id)) as second:
        click = await ann.click(panel.reply, "sample:yes")
        assert click.response_type == 7 and panel.reply.content == "yes by Ann"
        bumped = await ann.click(counter, "counter:0")
        assert bumped.response_type == 7 and counter.content == "count 1"
        assert second.last_interaction is not None
        assert second.last_interaction.id == bumped.interaction.id


async def test_a_sigkilled_bot_process_is_replaced(standin: StandIn) -> None:
    ann = standin.person("Ann")
    env = {"SAMPLE_GUILD_ID": str(standin.guild.id)}
    first = await BotProcess(standin, SAMPLE, env=env).start()
    try:
        panel = await ann.slash(standin.channel, "sample panel")
        assert panel.reply is not None
        who = await ann.click(panel.reply, "sample:who")
        assert who.content == f"pid {first.pid}"
    finally:
        first.kill()
        await first.wait()
        await first.stop()
    await standin.wait_for(lambda: not standin.connected)

    async with BotProcess(standin, SAMPLE, env=env) as second:
        who = await ann.click(panel.reply, "sample:who")
        assert who.content == f"pid {second.pid}"
        picked = await ann.select(panel.reply, "sample:pick", ["b"])
        assert picked.content == "picked b"
    assert len(standin.messages(standin.channel)) == 1


async def test_a_gateway_reconnect_loses_nothing(standin: StandIn, sample: SampleBot) -> None:
    ann = standin.person("Ann")
    panel = await ann.slash(standin.channel, "sample panel")
    assert panel.reply is not None
    before = standin.sessions_started
    [old] = standin.sessions
    assert await standin.reconnect_gateway() == 1
    new = await standin.wait_for_bot(since=before)
    assert new.session_id == old.session_id  # resumed, not identified afresh
    click = await ann.click(panel.reply, "sample:yes")
    assert click.response_type == 7 and panel.reply.content == "yes by Ann"
    assert standin.sessions == [new]
