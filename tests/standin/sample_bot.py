"""A small discord.py bot that uses every response type the Oh Hell bot will use.

In-process: `SampleBot(guild_id=...)` run with `standin.testing.run_bot`. As a process:
`python -m tests.standin.sample_bot` with env DISCORD_API_BASE, DISCORD_GATEWAY_URL,
DISCORD_TOKEN and SAMPLE_GUILD_ID (and SAMPLE_SHARD_COUNT, SAMPLE_SHARD_IDS="0,2" for a
`ShardedSampleBot` running those shards).
"""

from __future__ import annotations

import asyncio
import io
import os
import re
from typing import Any

import discord
from discord import app_commands

BAD_CUSTOM_ID = "x" * 101


class Panel(discord.ui.View):
    """A persistent view: fixed custom_ids, no timeout, registered in setup_hook."""

    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.button(label="Yes", custom_id="sample:yes", style=discord.ButtonStyle.success)
    async def yes(self, interaction: discord.Interaction, button: discord.ui.Button[Panel]) -> None:
        await interaction.response.edit_message(content=f"yes by {interaction.user.display_name}")

    @discord.ui.button(label="Who answers?", custom_id="sample:who")
    async def who(self, interaction: discord.Interaction, button: discord.ui.Button[Panel]) -> None:
        await interaction.response.send_message(f"pid {os.getpid()}", ephemeral=True)

    @discord.ui.select(
        custom_id="sample:pick",
        max_values=2,
        options=[
            discord.SelectOption(label="Alpha", value="a"),
            discord.SelectOption(label="Beta", value="b"),
            discord.SelectOption(label="Gamma", value="c"),
        ],
    )
    async def pick(
        self, interaction: discord.Interaction, select: discord.ui.Select[Panel]
    ) -> None:
        await interaction.response.send_message(f"picked {','.join(select.values)}", ephemeral=True)


class Counter(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"counter:(?P<n>\d+)"):
    """A DynamicItem: the count lives in the custom_id, so any bot process can handle it."""

    def __init__(self, n: int) -> None:
        super().__init__(discord.ui.Button(label=f"Count {n}", custom_id=f"counter:{n}"))
        self.n = n

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction,
        item: discord.ui.Item[Any],
        match: re.Match[str],
    ) -> Counter:
        return cls(int(match["n"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        view = discord.ui.View(timeout=None)
        view.add_item(Counter(self.n + 1))
        await interaction.response.edit_message(content=f"count {self.n + 1}", view=view)


class Ask(discord.ui.Modal, title="A question"):
    answer: discord.ui.TextInput[Ask] = discord.ui.TextInput(
        label="Your answer", custom_id="answer"
    )

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"you said {self.answer.value}", ephemeral=True)


def counter_view(n: int = 0) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(Counter(n))
    return view


class SampleBot(discord.Client):
    def __init__(self, *, guild_id: int | None = None, **options: Any) -> None:
        super().__init__(intents=discord.Intents.default(), **options)
        self.tree = app_commands.CommandTree(self)
        self.guild_id = guild_id
        self.errors: list[Exception] = []
        self.late_delay = 1.0
        self.last_interaction: discord.Interaction | None = None
        self.seen: list[discord.Message] = []
        """Every MESSAGE_CREATE the bot received, its own included."""
        self.options_seen: dict[str, Any] | None = None
        """The options of the last /sample options (users and channels as their ids)."""
        self.tree.add_command(build_group(self))
        self.tree.add_command(build_guild_only())

    async def on_message(self, message: discord.Message) -> None:
        self.seen.append(message)

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        self.last_interaction = interaction

    async def setup_hook(self) -> None:
        self.add_view(Panel())
        self.add_dynamic_items(Counter)
        await self.tree.sync()
        if self.guild_id is not None:
            guild = discord.Object(self.guild_id)
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)


class ShardedSampleBot(SampleBot, discord.AutoShardedClient):
    """The sample bot as an AutoShardedClient: `ShardedSampleBot(shard_count=3,
    shard_ids=[0, 2])`. It identifies its shards without discord.py's 5 s pause between them
    (the stand-in does not limit identifies)."""

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        return None


def build_group(bot: SampleBot) -> app_commands.Group:
    group = app_commands.Group(name="sample", description="Stand-in sample commands")

    @group.command(name="hello", description="An ephemeral greeting")
    @app_commands.describe(name="Who to greet")
    async def hello(interaction: discord.Interaction, name: str) -> None:
        await interaction.response.send_message(f"Hello, {name}!", ephemeral=True)

    @group.command(name="slowly", description="Defer, edit the original, follow up")
    async def slowly(interaction: discord.Interaction) -> None:
        await interaction.response.defer(thinking=True)
        await interaction.edit_original_response(content="done thinking")
        await interaction.followup.send("and a follow-up")

    @group.command(name="panel", description="A message with a persistent view")
    async def panel(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("Panel", view=Panel())

    @group.command(name="counter", description="A DynamicItem counter in a channel message")
    async def counter(interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True)
        assert isinstance(interaction.channel, discord.abc.Messageable)
        await interaction.channel.send("count 0", view=counter_view())
        await interaction.followup.send("posted", ephemeral=True)

    @group.command(name="dm", description="Send someone a DM")
    async def dm(interaction: discord.Interaction, user: discord.User) -> None:
        try:
            await user.send(f"psst from {interaction.user.display_name}")
        except discord.Forbidden as error:
            bot.errors.append(error)
            await interaction.response.send_message(f"closed ({error.code})", ephemeral=True)
        else:
            await interaction.response.send_message("sent", ephemeral=True)

    @group.command(name="dmpanel", description="DM yourself a panel")
    async def dmpanel(interaction: discord.Interaction) -> None:
        await interaction.user.send("Panel", view=Panel())
        await interaction.response.send_message("check your DMs", ephemeral=True)

    @group.command(name="secret", description="An ephemeral panel")
    async def secret(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("secret", view=Panel(), ephemeral=True)

    @group.command(name="late", description="Answer after the deadline")
    async def late(interaction: discord.Interaction) -> None:
        await asyncio.sleep(bot.late_delay)
        try:
            await interaction.response.send_message("too late")
        except discord.NotFound as error:
            bot.errors.append(error)

    @group.command(name="badid", description="Post a button whose custom_id is too long")
    async def badid(interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True)
        view = discord.ui.View()
        view.add_item(discord.ui.Button(label="Bad", custom_id=BAD_CUSTOM_ID))
        assert isinstance(interaction.channel, discord.abc.Messageable)
        try:
            await interaction.channel.send("bad", view=view)
        except discord.HTTPException as error:
            bot.errors.append(error)
        await interaction.followup.send("tried", ephemeral=True)

    async def flavours(interaction: discord.Interaction, current: str) -> list[Any]:
        names = ["classic", "cutthroat", "nomination"]
        return [app_commands.Choice(name=n, value=n) for n in names if n.startswith(current)]

    @group.command(name="flavour", description="Autocomplete")
    @app_commands.autocomplete(name=flavours)
    async def flavour(interaction: discord.Interaction, name: str) -> None:
        await interaction.response.send_message(f"flavour {name}", ephemeral=True)

    @group.command(name="deal", description="An option whose name has a hyphen")
    @app_commands.rename(cards="card-count")
    async def deal(interaction: discord.Interaction, cards: app_commands.Range[int, 1, 13]) -> None:
        await interaction.response.send_message(f"dealing {cards}", ephemeral=True)

    @group.command(name="options", description="Options of every kind Discord checks")
    @app_commands.choices(
        colour=[app_commands.Choice(name=c, value=c) for c in ("red", "blue")],
    )
    async def options(
        interaction: discord.Interaction,
        count: app_commands.Range[int, 1, 13],
        colour: str | None = None,
        ratio: app_commands.Range[float, 0.0, 1.0] | None = None,
        word: app_commands.Range[str, 2, 5] | None = None,
        note: str | None = None,
        big: int | None = None,
        flag: bool | None = None,
        where: discord.TextChannel | None = None,
        who: discord.User | None = None,
    ) -> None:
        given: dict[str, Any] = {
            "count": count,
            "colour": colour,
            "ratio": ratio,
            "word": word,
            "note": note,
            "big": big,
            "flag": flag,
            "where": where and where.id,
            "who": who and who.id,
        }
        bot.options_seen = {k: v for k, v in given.items() if v is not None}
        await interaction.response.send_message("options", ephemeral=True)

    @group.command(name="ask", description="Show a modal")
    async def ask(interaction: discord.Interaction) -> None:
        await interaction.response.send_modal(Ask())

    @group.command(name="say", description="Post plain channel messages")
    async def say(interaction: discord.Interaction, text: str, times: int = 1) -> None:
        await interaction.response.send_message("saying", ephemeral=True)
        assert isinstance(interaction.channel, discord.abc.Messageable)
        try:
            for i in range(times):
                await interaction.channel.send(f"{text} {i}")
        except discord.HTTPException as error:
            bot.errors.append(error)

    @group.command(name="lifecycle", description="Post, edit and delete channel messages")
    async def lifecycle(interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True)
        assert isinstance(interaction.channel, discord.abc.Messageable)
        draft = await interaction.channel.send("draft")
        await draft.edit(content="final", embed=discord.Embed(title="Score", description="1-0"))
        doomed = await interaction.channel.send("temporary")
        await doomed.delete()
        await interaction.followup.send("done", ephemeral=True)

    @group.command(name="file", description="Post a message with an attachment")
    async def file(interaction: discord.Interaction) -> None:
        payload = discord.File(io.BytesIO(b"hello, file"), filename="hello.txt")
        await interaction.response.send_message("a file", file=payload)

    @group.command(name="thread", description="Open a thread and post in it")
    async def thread(interaction: discord.Interaction, name: str) -> None:
        assert isinstance(interaction.channel, discord.TextChannel)
        opened = await interaction.channel.create_thread(
            name=name, type=discord.ChannelType.public_thread
        )
        await opened.send(f"welcome to {name}")
        await interaction.response.send_message("opened", ephemeral=True)

    return group


def build_guild_only() -> app_commands.Command[Any, ..., None]:
    @app_commands.command(name="here", description="A command only offered in a server")
    @app_commands.guild_only()
    async def here(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("here", ephemeral=True)

    return here


async def main() -> None:
    from cogs.endpoint import point_discord_py_at

    api_base = os.environ.get("DISCORD_API_BASE")
    gateway_url = os.environ.get("DISCORD_GATEWAY_URL")
    if not api_base or not gateway_url:
        raise SystemExit("set DISCORD_API_BASE and DISCORD_GATEWAY_URL")
    point_discord_py_at(api_base, gateway_url)
    guild_id = int(os.environ["SAMPLE_GUILD_ID"]) if os.environ.get("SAMPLE_GUILD_ID") else None
    shard_count = os.environ.get("SAMPLE_SHARD_COUNT")
    bot: SampleBot
    if shard_count:
        shard_ids = [int(n) for n in os.environ["SAMPLE_SHARD_IDS"].split(",")]
        bot = ShardedSampleBot(
            guild_id=guild_id,
            shard_count=int(shard_count),
            shard_ids=shard_ids,
            guild_ready_timeout=0.05,
        )
    else:
        bot = SampleBot(guild_id=guild_id, guild_ready_timeout=0.05)
    async with bot:
        await bot.start(os.environ["DISCORD_TOKEN"])


if __name__ == "__main__":
    asyncio.run(main())
