"""The launch-activity answer (interaction callback type 12) as discord.py sends it
(`InteractionResponse.launch_activity`): Discord takes the person into the channel's Activity
instance, and tells the bot which instance; and the App Launcher, with no bot involved."""

from __future__ import annotations

from typing import Any

import discord
import pytest
from discord import app_commands

from standin.server import StandIn
from standin.testing import run_bot


class Launcher(discord.ui.View):
    def __init__(self, bot: ActivityBot) -> None:
        super().__init__(timeout=None)
        self.bot = bot

    @discord.ui.button(label="Play", custom_id="activity:play")
    async def play(self, interaction: discord.Interaction, button: discord.ui.Button[Any]) -> None:
        await self.bot.launch(interaction)


class ActivityBot(discord.Client):
    """A bot whose /play and Play button open its Activity."""

    def __init__(self, guild_id: int) -> None:
        super().__init__(intents=discord.Intents.default())
        self.guild_id = guild_id
        self.tree = app_commands.CommandTree(self)
        self.answers: list[discord.InteractionCallbackResponse[Any]] = []
        self.errors: list[discord.HTTPException] = []

        @self.tree.command(name="play", description="Open the Activity")
        async def play(interaction: discord.Interaction) -> None:
            await self.launch(interaction)

        @self.tree.command(name="panel", description="A message with a Play button")
        async def panel(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("Join us", view=Launcher(self))

    async def launch(self, interaction: discord.Interaction) -> None:
        try:
            self.answers.append(await interaction.response.launch_activity())
        except discord.HTTPException as error:
            self.errors.append(error)

    async def setup_hook(self) -> None:
        self.add_view(Launcher(self))
        guild = discord.Object(self.guild_id)
        self.tree.copy_global_to(guild=guild)
        await self.tree.sync(guild=guild)


async def test_a_command_answered_with_launch_activity_opens_the_activity(
    standin: StandIn,
) -> None:
    async with run_bot(standin, ActivityBot(standin.guild.id)) as bot:
        ann = standin.person("Ann")
        result = await ann.slash(standin.channel, "play")
        await standin.wait_for(lambda: bot.answers)
        assert result.response_type == 12 and result.reply is None
        instance = result.activity
        assert instance is not None and instance.users == [ann.user]
        assert instance.channel is standin.channel and instance.guild is standin.guild
        assert instance.id.endswith(f"-gc-{standin.guild.id}-{standin.channel.id}")
        [launch] = standin.activity_launches
        assert launch.user is ann.user and launch.interaction is result.interaction
        # discord.py reads the instance from the answer.
        answer = bot.answers[0]
        assert answer.activity_id == instance.id
        assert isinstance(answer.resource, discord.InteractionCallbackActivityInstance)
        assert answer.resource.id == instance.id


async def test_a_button_answered_with_launch_activity_joins_the_running_instance(
    standin: StandIn,
) -> None:
    async with run_bot(standin, ActivityBot(standin.guild.id)) as bot:
        ann, bob = standin.person("Ann"), standin.person("Bob")
        first = await ann.slash(standin.channel, "play")
        panel = await bob.slash(standin.channel, "panel")
        assert panel.reply is not None
        second = await bob.click(panel.reply, "activity:play")
        await standin.wait_for(lambda: len(bot.answers) == 2)
        assert second.response_type == 12 and second.activity is first.activity
        assert second.activity is not None and second.activity.users == [ann.user, bob.user]
        assert panel.reply.content == "Join us"  # the message is left as it was


async def test_without_activities_enabled_the_launch_is_refused(standin: StandIn) -> None:
    standin.activities_enabled = False
    async with run_bot(standin, ActivityBot(standin.guild.id)) as bot:
        result = await standin.person("Ann").slash(standin.channel, "play")
        await standin.wait_for(lambda: bot.errors)
        assert bot.errors[0].status == 400
        assert result.response_type is None and standin.activity_launches == []


def test_the_app_launcher_opens_and_joins_without_the_bot(standin: StandIn) -> None:
    ann, bob = standin.person("Ann"), standin.person("Bob")
    instance = standin.launch_activity(ann, standin.channel)
    assert standin.launch_activity(bob, standin.channel) is instance
    assert [launch.interaction for launch in standin.activity_launches] == [None, None]
    standin.leave_activity(ann, instance)
    standin.leave_activity(bob, instance)
    assert standin.launch_activity(ann, standin.channel) is not instance


def test_the_app_launcher_refuses_a_stranger_or_activities_off(standin: StandIn) -> None:
    stranger = standin.world.add_user("Zed")
    standin.guild.members.pop(stranger.id, None)
    with pytest.raises(ValueError, match="not a member"):
        standin.launch_activity(stranger, standin.channel)
    standin.activities_enabled = False
    with pytest.raises(ValueError, match="not enabled"):
        standin.launch_activity(standin.person("Ann"), standin.channel)


async def test_a_bot_reads_where_an_instance_runs_and_who_is_in_it(standin: StandIn) -> None:
    async with run_bot(standin, ActivityBot(standin.guild.id)) as bot:
        ann, bob = standin.person("Ann"), standin.person("Bob")
        instance = standin.launch_activity(ann, standin.channel)
        path = "/applications/{application_id}/activity-instances/{instance_id}"

        async def read(application_id: int, instance_id: str) -> Any:
            route = discord.http.Route(
                "GET", path, application_id=application_id, instance_id=instance_id
            )
            return await bot.http.request(route)

        got = await read(standin.application_id, instance.id)
        assert got == {
            "application_id": str(standin.application_id),
            "instance_id": instance.id,
            "launch_id": instance.launch_id,
            "location": {
                "id": instance.location_id,
                "kind": "gc",
                "channel_id": str(standin.channel.id),
                "guild_id": str(standin.guild.id),
            },
            "users": [str(ann.id)],
        }
        standin.launch_activity(bob, standin.channel)
        assert (await read(standin.application_id, instance.id))["users"] == [
            str(ann.id),
            str(bob.id),
        ]
        with pytest.raises(discord.NotFound):
            await read(standin.application_id, "i-1-gc-2-3")
        with pytest.raises(discord.Forbidden):
            await read(standin.application_id + 1, instance.id)
        standin.leave_activity(ann, instance)
        standin.leave_activity(bob, instance)
        with pytest.raises(discord.NotFound):  # the last one out ended it
            await read(standin.application_id, instance.id)
        assert standin.violations == []
