"""Slash commands, buttons, selects and DynamicItems through every response type."""

from __future__ import annotations

import discord
import pytest

from standin.driver import DriverError
from standin.server import StandIn
from standin.testing import run_bot
from standin.world import MessageFlag
from tests.standin.sample_bot import SampleBot

CALLBACK = "POST /interactions/{interaction_id}/{interaction_token}/callback"


async def test_slash_command_with_an_ephemeral_reply(standin: StandIn, sample: SampleBot) -> None:
    ann, bob = standin.person("Ann"), standin.person("Bob")
    result = await ann.slash(standin.channel, "sample hello", name="World")
    assert result.response_type == 4
    assert result.ephemeral and result.content == "Hello, World!"
    assert result.reply is not None and result.reply.flags & MessageFlag.EPHEMERAL
    assert result.reply in ann.visible_messages(standin.channel)
    assert result.reply in ann.ephemerals()
    assert result.reply not in bob.visible_messages(standin.channel)
    assert bob.ephemerals() == []
    [call] = standin.calls_to(CALLBACK)
    assert call.interaction_id == result.interaction.id
    assert call.body["data"]["flags"] == 64


async def test_defer_then_edit_original_then_follow_up(standin: StandIn, sample: SampleBot) -> None:
    ann = standin.person("Ann")
    result = await ann.slash(standin.channel, "sample slowly")
    assert result.response_type == 5
    reply = await result.wait_until_loaded()
    assert reply.content == "done thinking" and not reply.ephemeral
    [followup] = await result.wait_for_followups(1)
    assert followup.content == "and a follow-up"
    assert [m.content for m in ann.visible_messages(standin.channel)] == [
        "done thinking",
        "and a follow-up",
    ]
    routes = [c.route for c in standin.calls if c.interaction_id == result.interaction.id]
    assert routes == [
        CALLBACK,
        "PATCH /webhooks/{webhook_id}/{webhook_token}/messages/@original",
        "POST /webhooks/{webhook_id}/{webhook_token}",
    ]
    assert reply.history and reply.history[0].flags & MessageFlag.LOADING


async def test_button_click_updates_the_message(standin: StandIn, sample: SampleBot) -> None:
    ann, bob = standin.person("Ann"), standin.person("Bob")
    panel = await ann.slash(standin.channel, "sample panel")
    assert panel.reply is not None and panel.reply.content == "Panel"
    assert panel.reply.custom_ids() == ["sample:yes", "sample:who", "sample:pick"]
    click = await bob.click(panel.reply, "sample:yes")
    assert click.response_type == 7
    assert click.reply is panel.reply
    assert panel.reply.content == "yes by Bob"
    assert [r.content for r in panel.reply.history] == ["Panel"]


async def test_select_picks_reach_the_bot(standin: StandIn, sample: SampleBot) -> None:
    ann = standin.person("Ann")
    panel = await ann.slash(standin.channel, "sample panel")
    assert panel.reply is not None
    picked = await ann.select(panel.reply, "sample:pick", ["a", "c"])
    assert picked.ephemeral and picked.content == "picked a,c"
    with pytest.raises(DriverError, match="offers"):
        await ann.select(panel.reply, "sample:pick", ["z"])


async def test_dynamic_item_counts_across_clicks(standin: StandIn, sample: SampleBot) -> None:
    ann = standin.person("Ann")
    await ann.slash(standin.channel, "sample counter")
    message = await standin.wait_for(
        lambda: next((m for m in standin.messages(standin.channel) if m.content == "count 0"), None)
    )
    for n in (1, 2, 3):
        click = await ann.click(message, f"counter:{n - 1}")
        assert click.response_type == 7
        assert message.content == f"count {n}"
        assert message.custom_ids() == [f"counter:{n}"]


async def test_a_reply_after_the_deadline_is_refused(standin: StandIn, sample: SampleBot) -> None:
    standin.ack_deadline = 0.3
    sample.late_delay = 0.5
    result = await standin.person("Ann").slash(standin.channel, "sample late")
    assert result.failed and result.delivered
    [error] = await standin.wait_for(lambda: sample.errors)
    assert isinstance(error, discord.NotFound) and error.code == 10062
    assert [c.status for c in standin.calls_to(CALLBACK)] == [404]


async def test_people_cannot_click_what_they_cannot_see(
    standin: StandIn, sample: SampleBot
) -> None:
    ann, bob = standin.person("Ann"), standin.person("Bob")
    hello = await ann.slash(standin.channel, "sample hello", name="Ann")
    assert hello.reply is not None
    panel = await ann.slash(standin.channel, "sample panel")
    assert panel.reply is not None
    with pytest.raises(DriverError, match="no component"):
        await ann.click(panel.reply, "sample:nope")
    with pytest.raises(DriverError, match="cannot see"):
        await bob.click(hello.reply, "sample:yes")
    with pytest.raises(DriverError, match="required"):
        await ann.slash(standin.channel, "sample hello")
    with pytest.raises(DriverError, match="no subcommand"):
        await ann.slash(standin.channel, "sample nope")


async def test_no_bot_connected_means_the_interaction_fails(standin: StandIn) -> None:
    standin.commands[None] = {("ping", 1): {"id": 1, "name": "ping", "type": 1, "version": 1}}
    result = await standin.person("Ann").slash(standin.channel, "ping")
    assert result.failed and not result.delivered


async def test_modal_shown_and_submitted(standin: StandIn, sample: SampleBot) -> None:
    ann = standin.person("Ann")
    asked = await ann.slash(standin.channel, "sample ask")
    assert asked.response_type == 9 and asked.modal is not None
    assert asked.modal["title"] == "A question"
    with pytest.raises(DriverError, match="no fields"):
        await ann.submit_modal(asked, {"answer": "x", "other": "y"})
    submitted = await ann.submit_modal(asked, {"answer": "forty-two"})
    assert submitted.ephemeral and submitted.content == "you said forty-two"


async def test_auto_sharded_client_logs_in(standin: StandIn) -> None:
    bot = discord.AutoShardedClient(intents=discord.Intents.default())
    async with run_bot(standin, bot):
        assert bot.shard_count == 1
        assert bot.get_guild(standin.guild.id) is not None
    assert "GET /gateway/bot" in [c.route for c in standin.calls]


async def test_buttons_on_a_dm_reach_the_bot(standin: StandIn, sample: SampleBot) -> None:
    ann = standin.person("Ann")
    await ann.slash(standin.channel, "sample dmpanel")
    [panel] = ann.dms()
    click = await ann.click(panel, "sample:yes")
    assert click.response_type == 7 and panel.content == "yes by Ann"
    assert click.interaction.channel.is_dm


async def test_buttons_on_an_ephemeral_message_work_for_its_owner_only(
    standin: StandIn, sample: SampleBot
) -> None:
    ann, bob = standin.person("Ann"), standin.person("Bob")
    secret = await ann.slash(standin.channel, "sample secret")
    assert secret.ephemeral and secret.reply is not None
    with pytest.raises(DriverError, match="cannot see"):
        await bob.click(secret.reply, "sample:yes")
    click = await ann.click(secret.reply, "sample:yes")
    assert click.response_type == 7
    assert secret.reply.content == "yes by Ann" and secret.reply.ephemeral


async def test_autocomplete_suggestions_reach_the_person(
    standin: StandIn, sample: SampleBot
) -> None:
    ann = standin.person("Ann")
    typed = await ann.autocomplete(standin.channel, "sample flavour", "name", name="c")
    assert typed.response_type == 8
    assert typed.choices == [
        {"name": "classic", "value": "classic"},
        {"name": "cutthroat", "value": "cutthroat"},
    ]
    with pytest.raises(DriverError, match="no autocomplete"):
        await ann.autocomplete(standin.channel, "sample hello", "name")


async def test_slash_commands_work_in_threads(standin: StandIn, sample: SampleBot) -> None:
    thread = await standin.add_thread(standin.channel, "table-3")
    await standin.wait_for(lambda: sample.get_channel(thread.id))
    result = await standin.person("Ann").slash(thread, "sample panel")
    assert result.reply is not None and result.reply.channel is thread
    click = await standin.person("Bob").click(result.reply, "sample:yes")
    assert click.reply is not None and click.reply.content == "yes by Bob"


async def test_hyphenated_option_names_from_keywords(standin: StandIn, sample: SampleBot) -> None:
    result = await standin.person("Ann").slash(standin.channel, "sample deal", card_count=7)
    assert result.content == "dealing 7"
    [call] = standin.calls_to(CALLBACK)
    assert call.status == 200
