"""The slash commands: /ohhell start, settings, hand, scores, rules, leave, cancel, history,
record, replay, stats, ratings, and /leaderboard; the servers the bot leaves and joins."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.app_commands import locale_str
from discord.ext import commands

from bot.service import (
    BOARD_ORDERS,
    RATING_GUIDE,
    CorruptRow,
    Leaderboard,
    Place,
    Refused,
    TableView,
)
from bot.service.refusals import (
    ChannelHasTable,
    HostOnly,
    MissingPermissions,
    NoSuchPage,
    NoTableHere,
    NotOffered,
    NotSeated,
)
from cogs import render, rule_options
from cogs.clicks import TableController, can_manage
from cogs.community import Community
from cogs.errors import answer_error, reply
from cogs.interaction import Interaction
from cogs.items import parse_board
from cogs.render.language import LANGUAGES, _, speaking

REQUIRED_PERMISSIONS = ("view_channel", "send_messages", "embed_links")


PRESET_CHOICES = rule_options.choices("preset")
SERVER_LANGUAGE = "server"
"""`/ohhell settings language:`'s choice that clears the channel's language."""
LANGUAGE_CHOICES = [
    *(app_commands.Choice(name=name, value=code) for code, name in LANGUAGES.items()),
    app_commands.Choice(name=locale_str("The server's language"), value=SERVER_LANGUAGE),
]
BOARD_CHOICES = [
    app_commands.Choice(name=locale_str(name), value=value)
    for value, name in render.BOARD_ORDER_NAMES.items()
]


def _place(interaction: Interaction) -> Place | None:
    """The server's and channel's names, kept with the table for its hand DMs."""
    channel = interaction.channel
    name = getattr(channel, "name", None)
    if interaction.guild is None or not isinstance(name, str):
        return None
    return Place(guild=interaction.guild.name, channel=name)


def _missing_permissions(interaction: Interaction) -> list[str]:
    granted = interaction.app_permissions
    return [name for name in REQUIRED_PERMISSIONS if not getattr(granted, name)]


class TablesCog(commands.Cog, name="Tables"):
    ohhell = app_commands.Group(
        name="ohhell", description=locale_str("Play Oh Hell in this channel"), guild_only=True
    )

    def __init__(self, controller: TableController, community: Community) -> None:
        self.controller = controller
        self.presenter = controller.presenter
        self.service = controller.service
        self.community = community

    @commands.Cog.listener()
    async def on_guild_channel_update(
        self, before: discord.abc.GuildChannel, after: discord.abc.GuildChannel
    ) -> None:
        # Permission overwrites changed, perhaps given back to the bot: catch up.
        await self.presenter.channel_changed(after.id)

    @commands.Cog.listener()
    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        await self.presenter.channel_gone(channel.guild.id, channel.id)

    @commands.Cog.listener()
    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        await self.presenter.channel_gone(payload.guild_id, payload.thread_id)

    @commands.Cog.listener()
    async def on_guild_remove(self, guild: discord.Guild) -> None:
        # Its data goes once the bot has been gone RETAIN_AFTER_LEAVE days.
        await self.service.retention.server_left(guild.id)
        known = [c.id for c in guild.channels] + [t.id for t in guild.threads]
        await self.presenter.guild_gone(guild.id, known)

    @commands.Cog.listener()
    async def on_guild_join(self, guild: discord.Guild) -> None:
        await self.service.retention.server_back(guild.id)

    @ohhell.command(name="start", description=locale_str("Open a table in this channel"))
    @rule_options.rule_options
    async def start(self, interaction: Interaction, options: rule_options.RuleOptions) -> None:
        missing = _missing_permissions(interaction)
        if missing:
            raise Refused(MissingPermissions(names=tuple(missing)))
        existing = await self.service.lookups.table_in_channel(interaction.channel_id or 0)
        if existing is not None:
            url = render.jump_url(existing.guild_id, existing.channel_id, existing.message_id)
            raise Refused(ChannelHasTable(table_id=existing.id, url=url))
        outcome = await self.service.lobby.open_table(
            guild_id=interaction.guild_id or 0,
            channel_id=interaction.channel_id or 0,
            user_id=interaction.user.id,
            name=interaction.user.display_name,
            settings=options.rules(),
            turn_timer=options.timer,
            place=_place(interaction),
        )
        await self.presenter.ground.speakers.acted(interaction)
        table = outcome.table
        with speaking(
            await self.presenter.ground.speakers.channel(table.guild_id, table.channel_id)
        ):
            rendered = render.table_message(table, self.presenter.ground.pages(table))
        try:
            callback = await interaction.response.send_message(**rendered.send_kwargs())
        except discord.HTTPException:
            # Too late for Discord's 3 s (or refused): the table is stored, so it is posted in
            # the channel instead of left open and unseen, blocking the channel.
            await self.presenter.table_messages.post(outcome.table)
            return
        message = callback.resource
        if not isinstance(message, discord.InteractionMessage):
            message = await interaction.original_response()
        stored = await self.service.lobby.set_message(outcome.table.table_id, message.id)
        self.presenter.ground.remember_side(stored)

    @ohhell.command(
        name="settings",
        # Translators: /ohhell start stays as it is; Manage Channels is Discord's permission.
        description=locale_str(
            "Set the rules /ohhell start uses in this channel (Manage Channels)"
        ),
    )
    @app_commands.describe(
        clear=locale_str("Forget this channel's defaults"),
        language=locale_str("The language of this channel's tables and posts"),
    )
    @app_commands.choices(language=LANGUAGE_CHOICES)
    @rule_options.rule_options
    async def channel_settings(
        self,
        interaction: Interaction,
        options: rule_options.RuleOptions,
        clear: bool = False,
        language: str | None = None,
    ) -> None:
        channel = interaction.channel_id or 0
        guild_id = interaction.guild_id or 0
        if language is not None:
            if language not in LANGUAGES and language != SERVER_LANGUAGE:
                raise Refused(NotOffered())
            await self.presenter.ground.speakers.set_channel(
                guild_id=guild_id,
                channel_id=channel,
                code=None if language == SERVER_LANGUAGE else language,
                can_manage=can_manage(interaction),
            )
            await self.presenter.channel_language_changed(channel)
            await self.presenter.ground.speakers.acted(interaction)
        if not clear and options.empty:
            current = await self.service.lobby.channel_defaults(channel)
            text = (
                "" if language is not None else render.channel_defaults_text(current, changed=False)
            )
            await reply(interaction, await self._with_language(text, guild_id, channel))
            return
        stored = await self.service.lobby.set_channel_defaults(
            guild_id=guild_id,
            channel_id=channel,
            user_id=interaction.user.id,
            settings=None if clear else options.rules(),
            turn_timer=options.timer,
            can_manage=can_manage(interaction),
        )
        await self.presenter.ground.speakers.acted(interaction)
        text = render.channel_defaults_text(stored, changed=True)
        await reply(interaction, await self._with_language(text, guild_id, channel))

    async def _with_language(self, text: str, guild_id: int, channel_id: int) -> str:
        """`text`, then which language the channel's tables are in."""
        speakers = self.presenter.ground.speakers
        code = await speakers.channel_setting(channel_id)
        said = render.channel_language_text(code, speakers.server(guild_id))
        return f"{text}\n{said}" if text else said

    async def _channel_table(self, interaction: Interaction) -> TableView:
        row = await self.service.lookups.table_in_channel(interaction.channel_id or 0)
        if row is None:
            raise Refused(NoTableHere())
        return await self.service.lookups.table_view(row.id)

    @ohhell.command(
        name="hand",
        description=locale_str("Show your hand at this channel's table (only you see it)"),
    )
    async def hand(self, interaction: Interaction) -> None:
        table = await self._channel_table(interaction)
        await self.controller.send_hand(interaction, table.table_id)

    @ohhell.command(
        name="scores", description=locale_str("The score sheet of this channel's table")
    )
    async def scores(self, interaction: Interaction) -> None:
        table = await self._channel_table(interaction)
        await reply(interaction, render.scores_text(table))

    @ohhell.command(name="rules", description=locale_str("The rules of this channel's table"))
    async def rules(self, interaction: Interaction) -> None:
        table = await self._channel_table(interaction)
        await reply(interaction, render.rules_reply(table))

    @ohhell.command(name="leave", description=locale_str("Leave this channel's table"))
    async def leave(self, interaction: Interaction) -> None:
        table = await self._channel_table(interaction)
        seat = next((s for s in table.seats if s.user_id == interaction.user.id), None)
        if seat is None or seat.left:
            raise Refused(NotSeated())
        await interaction.response.send_message(
            **render.leave_confirm(table).send_kwargs(), ephemeral=True
        )

    @ohhell.command(
        name="cancel",
        # Translators: Manage Channels is Discord's permission.
        description=locale_str("Cancel this channel's table (host or Manage Channels)"),
    )
    async def cancel(self, interaction: Interaction) -> None:
        try:
            table = await self._channel_table(interaction)
        except CorruptRow:
            # Neither playable nor showable: its host closes it at once, with no confirmation.
            closed = await self.service.lobby.cancel_unreadable(
                interaction.channel_id or 0, interaction.user.id, can_manage=can_manage(interaction)
            )
            await reply(interaction, _(render.UNREADABLE_CANCELLED))
            await self.presenter.table_messages.show_unreadable_closed(closed)
            return
        if table.host_id != interaction.user.id and not can_manage(interaction):
            raise Refused(HostOnly(doing="cancel"))
        await interaction.response.send_message(
            **render.cancel_confirm(table.table_id).send_kwargs(), ephemeral=True
        )

    @ohhell.command(
        name="history", description=locale_str("This server's finished games, newest first")
    )
    async def history(self, interaction: Interaction) -> None:
        await self.community.history(interaction)

    @ohhell.command(
        name="record", description=locale_str("A finished game's record, as a JSON file")
    )
    @app_commands.describe(
        game=locale_str("The game's number (default: the last game in this channel)")
    )
    async def record(
        self,
        interaction: Interaction,
        game: app_commands.Range[int, 1, 2**53 - 1] | None = None,
    ) -> None:
        await self.community.record(interaction, game)

    @ohhell.command(
        name="replay",
        description=locale_str("A finished game's replay: a page to open in any web browser"),
    )
    @app_commands.describe(
        game=locale_str("The game's number (default: the last game in this channel)")
    )
    async def replay(
        self,
        interaction: Interaction,
        game: app_commands.Range[int, 1, 2**53 - 1] | None = None,
    ) -> None:
        await self.community.replay(interaction, game)

    @ohhell.command(name="stats", description=locale_str("A player's Oh Hell stats on this server"))
    @app_commands.describe(player=locale_str("Whose stats (default: yours)"))
    async def stats(self, interaction: Interaction, player: discord.User | None = None) -> None:
        await self.community.stats(interaction, player)

    @ohhell.command(
        name="ratings",
        # Translators: the ? marks a provisional rating (one of too few games to settle).
        description=locale_str("How ratings work: the number, the ?, a difference"),
    )
    async def ratings(self, interaction: Interaction) -> None:
        await interaction.response.send_message(
            embed=render.ratings_help(RATING_GUIDE), ephemeral=True
        )

    @app_commands.command(
        name="leaderboard", description=locale_str("This server's Oh Hell leaderboard")
    )
    @app_commands.guild_only()
    @app_commands.describe(
        # Translators: "rating" is the choice of the option (as the choice reads).
        by=locale_str("What to rank by (rating unless you choose)"),
        preset=locale_str("Only games of this rule system"),
    )
    @app_commands.choices(by=BOARD_CHOICES, preset=PRESET_CHOICES)
    async def leaderboard(
        self,
        interaction: Interaction,
        by: str = "rating",
        preset: str | None = None,
    ) -> None:
        board = await self.service.lookups.leaderboard(
            interaction.guild_id or 0, by=by, preset=preset, caller_id=interaction.user.id
        )
        await self._send_board(interaction, board, edit=False)

    async def on_board_page(self, interaction: Interaction, custom_id: str) -> None:
        """Previous / Next on a leaderboard: the page its (untrusted) custom_id asks for, or a
        refusal that changes nothing."""
        await self.presenter.ground.speakers.hear(interaction)
        try:
            page = parse_board(custom_id, BOARD_ORDERS, tuple(render.RULE_CHOICES["preset"]))
            if page is None:
                raise Refused(NoSuchPage())
            board = await self.service.lookups.leaderboard(
                interaction.guild_id or 0,
                by=page.by,
                preset=page.preset,
                page=page.page,
                caller_id=interaction.user.id,
            )
            await self._send_board(interaction, board, edit=True)
        except Exception as error:  # the one error handler answers every failure
            await answer_error(interaction, error)

    async def _send_board(
        self, interaction: Interaction, board: Leaderboard, *, edit: bool
    ) -> None:
        """A leaderboard is a public message: in the channel's language."""
        channel = await self.presenter.ground.speakers.channel(
            interaction.guild_id, interaction.channel_id or 0
        )
        with speaking(channel):
            guild_name = interaction.guild.name if interaction.guild else _("this server")
            embed = render.leaderboard_embed(board, guild_name)
            links = self.presenter.ground.links
            web_page = links.board(interaction.guild_id) if links and interaction.guild_id else None
            view = render.leaderboard_view(board, web_page)
        await _show_board(interaction, embed, view, edit=edit)


async def _show_board(
    interaction: Interaction,
    embed: discord.Embed,
    view: discord.ui.View | None,
    *,
    edit: bool,
) -> None:
    none = discord.AllowedMentions.none()
    if edit:
        await interaction.response.edit_message(embed=embed, view=view)
    elif view is None:
        await interaction.response.send_message(embed=embed, allowed_mentions=none)
    else:
        await interaction.response.send_message(embed=embed, view=view, allowed_mentions=none)
