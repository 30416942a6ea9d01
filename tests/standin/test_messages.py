"""Channel messages, DMs, permissions, attachments, threads and Discord's limits."""

from __future__ import annotations

import aiohttp
import discord

from standin.server import StandIn
from standin.testing import run_bot
from standin.world import Perm
from tests.standin.sample_bot import BAD_CUSTOM_ID, SampleBot

POST_MESSAGE = "POST /channels/{channel_id}/messages"


async def test_dm_reaches_its_recipient_only(standin: StandIn, sample: SampleBot) -> None:
    ann, bob = standin.person("Ann"), standin.person("Bob")
    result = await bob.slash(standin.channel, "sample dm", user=ann)
    assert result.content == "sent"
    [dm] = ann.dms()
    assert dm.content == "psst from Bob" and dm.channel.is_dm
    assert bob.dms() == []
    assert not bob.can_see(dm)
    assert [c.route for c in standin.calls[-3:-1]] == ["POST /users/@me/channels", POST_MESSAGE]


async def test_dm_to_a_user_with_dms_closed_is_forbidden(
    standin: StandIn, sample: SampleBot
) -> None:
    shy = standin.person("Shy", dms_open=False)
    result = await standin.person("Ann").slash(standin.channel, "sample dm", user=shy)
    assert result.content == "closed (50007)"
    [error] = sample.errors
    assert isinstance(error, discord.Forbidden) and error.code == 50007
    opened, refused = standin.calls[-3:-1]
    assert (opened.route, opened.status) == ("POST /users/@me/channels", 200)
    assert (refused.route, refused.status) == (POST_MESSAGE, 403)
    assert shy.dms() == []


async def test_missing_send_messages_answers_50013(standin: StandIn, sample: SampleBot) -> None:
    standin.world.deny_bot(standin.channel, Perm.SEND_MESSAGES)
    result = await standin.person("Ann").slash(standin.channel, "sample say", text="hi")
    assert result.content == "saying"  # interaction replies need no channel permission
    [error] = await standin.wait_for(lambda: sample.errors)
    assert isinstance(error, discord.Forbidden) and error.code == 50013
    assert standin.messages(standin.channel) == []


async def test_missing_embed_links_answers_50013(standin: StandIn, sample: SampleBot) -> None:
    standin.world.deny_bot(standin.channel, Perm.EMBED_LINKS)
    channel = sample.get_channel(standin.channel.id)
    assert isinstance(channel, discord.TextChannel)
    await channel.send("plain text is fine")
    try:
        await channel.send(embed=discord.Embed(title="no"))
    except discord.Forbidden as error:
        assert error.code == 50013
    else:
        raise AssertionError("an embed without Embed Links was accepted")
    assert [m.content for m in standin.messages(standin.channel)] == ["plain text is fine"]


async def test_edit_and_delete_keep_history(standin: StandIn, sample: SampleBot) -> None:
    ann = standin.person("Ann")
    result = await ann.slash(standin.channel, "sample lifecycle")
    assert (await result.wait_until_loaded()).content == "done"
    visible = [m for m in ann.visible_messages(standin.channel) if not m.ephemeral]
    [final] = visible
    assert final.content == "final" and final.edited_at is not None
    [embed] = final.embeds
    assert (embed["title"], embed["description"]) == ("Score", "1-0")
    assert [r.content for r in final.history] == ["draft"]
    [gone] = [
        m
        for m in standin.world.channel_messages(standin.channel, include_deleted=True)
        if m.deleted
    ]
    assert gone.content == "temporary" and not ann.can_see(gone)


async def test_attachments_are_kept_and_served(standin: StandIn, sample: SampleBot) -> None:
    result = await standin.person("Ann").slash(standin.channel, "sample file")
    assert result.reply is not None
    [attachment] = result.reply.attachments
    assert (attachment.filename, attachment.data) == ("hello.txt", b"hello, file")
    url = f"{standin.base_url}/attachments/{attachment.id}/hello.txt"
    async with aiohttp.ClientSession() as session, session.get(url) as response:
        assert await response.read() == b"hello, file"


async def test_threads_are_created_and_posted_in(standin: StandIn, sample: SampleBot) -> None:
    ann = standin.person("Ann")
    await ann.slash(standin.channel, "sample thread", name="table-1")
    thread = await standin.wait_for(
        lambda: next((c for c in standin.guild.channels if c.name == "table-1"), None)
    )
    assert thread.is_thread and thread.parent is standin.channel
    [welcome] = await standin.wait_for(lambda: ann.visible_messages(thread))
    assert welcome.content == "welcome to table-1"
    assert sample.get_channel(thread.id) is not None


async def test_a_101_character_custom_id_is_a_violation(
    standin: StandIn, sample: SampleBot
) -> None:
    result = await standin.person("Ann").slash(standin.channel, "sample badid")
    assert (await result.wait_until_loaded()).content == "tried"
    [error] = sample.errors
    assert isinstance(error, discord.HTTPException) and error.status == 400
    assert error.code == 50035
    violations = standin.take_violations()
    messages = [str(v) for v in violations]
    assert any(
        v.route == POST_MESSAGE
        and v.field == "components[0].components[0].custom_id"
        and "101 characters" in v.message
        for v in violations
    ), messages
    if standin.spec_checks:
        assert any("spec maxLength 100" in m for m in messages), messages
    assert all(BAD_CUSTOM_ID not in m.custom_ids() for m in standin.messages(standin.channel))


async def test_people_messages_need_the_message_content_intent(standin: StandIn) -> None:
    seen: dict[str, list[str]] = {}

    class Listener(discord.Client):
        async def on_message(self, message: discord.Message) -> None:
            seen.setdefault(self.label, []).append(message.content)

        label = ""

    blind = Listener(intents=discord.Intents.default())
    blind.label = "default"
    reading = Listener(intents=discord.Intents.default() | discord.Intents(message_content=True))
    reading.label = "message_content"
    async with run_bot(standin, blind), run_bot(standin, reading):
        await standin.person("Ann").say(standin.channel, "!bid 3")
        await standin.wait_for(lambda: len(seen) == 2)
    assert seen == {"default": [""], "message_content": ["!bid 3"]}
