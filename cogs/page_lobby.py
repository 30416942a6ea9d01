"""The Discord side of the page's lobby (cogs/web/lobby.py `LobbyDesk`): who the person at the
page is in the channel the page names (the bot's gateway cache knows the server and its
channels; the person is read from Discord, and must be a member who can see the channel), and
showing what the page changed as a click's change is shown.

A page's request may reach a process that does not run the server's shard (several processes
behind one address): its gateway cache has no such server, so the channel is read from Discord
(it must be the server's) and the person with it (a member), and their permissions, which that
needs the server's roles for, are not known there: no moderator's rights, and the bot's own
are not checked before it posts (a refused post is logged)."""

from __future__ import annotations

import time
from collections.abc import Callable

import discord
from discord.ext import commands

from bot.service import Outcome, Refused
from bot.service.refusals import UnknownChannel
from cogs.commands import REQUIRED_PERMISSIONS
from cogs.presenter import Presenter
from cogs.web.lobby import PagePerson

MEMBER_SECONDS = 60.0
"""How long a person read from Discord (and an Activity instance's yes) is kept: a page's
requests cost one REST call a minute, not one each."""
MAX_KEPT = 10_000


class PageDesk:
    def __init__(
        self,
        bot: commands.Bot | commands.AutoShardedBot,
        presenter: Presenter,
        covers: Callable[[int], bool],
    ) -> None:
        self.bot = bot
        self.presenter = presenter
        self.covers = covers
        """Whether this process runs a server's shard (`OhHellBot.covers`)."""
        self._elsewhere: dict[tuple[int, int, int], tuple[float, PagePerson]] = {}
        self._members: dict[tuple[int, int], tuple[float, discord.Member]] = {}
        self._instances: dict[tuple[str, int, int, int], float] = {}

    def _channel(self, guild_id: int, channel_id: int) -> discord.abc.GuildChannel | discord.Thread:
        guild = self.bot.get_guild(guild_id)
        channel = guild.get_channel_or_thread(channel_id) if guild is not None else None
        if channel is None or isinstance(channel, discord.CategoryChannel):
            raise Refused(UnknownChannel())
        return channel

    async def _member(self, guild: discord.Guild, user_id: int) -> discord.Member:
        key, now = (guild.id, user_id), time.monotonic()
        kept = self._members.get(key)
        if kept is not None and now - kept[0] < MEMBER_SECONDS:
            return kept[1]
        try:
            member = guild.get_member(user_id) or await guild.fetch_member(user_id)
        except (discord.NotFound, discord.Forbidden):
            raise Refused(UnknownChannel()) from None
        if len(self._members) >= MAX_KEPT:
            self._members.clear()
        self._members[key] = (now, member)
        return member

    async def person(self, guild_id: int, channel_id: int, user_id: int) -> PagePerson:
        if not self.covers(guild_id):
            return await self._person_elsewhere(guild_id, channel_id, user_id)
        channel = self._channel(guild_id, channel_id)
        member = await self._member(channel.guild, user_id)
        granted = channel.permissions_for(member)
        if not granted.view_channel:
            raise Refused(UnknownChannel())
        return PagePerson(name=member.display_name, can_manage=granted.manage_channels)

    async def in_activity(
        self, instance_id: str, guild_id: int, channel_id: int, user_id: int
    ) -> None:
        """Discord's word that the Activity instance runs in that channel with the person in
        it: a page's channel is the one Discord opened it in, not one it names. A yes is kept a
        minute."""
        key, now = (instance_id, guild_id, channel_id, user_id), time.monotonic()
        if now - self._instances.get(key, -MEMBER_SECONDS) < MEMBER_SECONDS:
            return
        route = discord.http.Route(
            "GET",
            "/applications/{application_id}/activity-instances/{instance_id}",
            application_id=self.bot.application_id or 0,
            instance_id=instance_id,
        )
        try:
            got = await self.bot.http.request(route)
        except (discord.NotFound, discord.Forbidden):
            raise Refused(UnknownChannel()) from None
        where = got.get("location") if isinstance(got, dict) else None
        users = got.get("users") if isinstance(got, dict) else None
        if (
            not isinstance(where, dict)
            or where.get("guild_id") != str(guild_id)
            or where.get("channel_id") != str(channel_id)
            or not isinstance(users, list)
            or str(user_id) not in users
        ):
            raise Refused(UnknownChannel())
        if len(self._instances) >= MAX_KEPT:
            self._instances.clear()
        self._instances[key] = now

    async def _person_elsewhere(self, guild_id: int, channel_id: int, user_id: int) -> PagePerson:
        """`person` for a server of another process's shard: the channel and the member read
        from Discord (kept a minute)."""
        key, now = (guild_id, channel_id, user_id), time.monotonic()
        kept = self._elsewhere.get(key)
        if kept is not None and now - kept[0] < MEMBER_SECONDS:
            return kept[1]
        http = self.bot.http
        try:
            channel = await http.get_channel(channel_id)
            if str(channel.get("guild_id")) != str(guild_id):
                raise Refused(UnknownChannel())
            member = await http.get_member(guild_id, user_id)
        except (discord.NotFound, discord.Forbidden):
            raise Refused(UnknownChannel()) from None
        user = member.get("user") or {}
        name = member.get("nick") or user.get("global_name") or user.get("username") or "?"
        person = PagePerson(name=str(name), can_manage=False)
        if len(self._elsewhere) >= MAX_KEPT:
            self._elsewhere.clear()
        self._elsewhere[key] = (now, person)
        return person

    def missing_permissions(self, guild_id: int, channel_id: int) -> list[str]:
        if not self.covers(guild_id):
            return []  # not known here: a refused post is logged
        channel = self._channel(guild_id, channel_id)
        granted = channel.permissions_for(channel.guild.me)
        return [name for name in REQUIRED_PERMISSIONS if not getattr(granted, name)]

    async def opened(self, outcome: Outcome) -> None:
        self.presenter.ground.remember(outcome)
        await self.presenter.table_messages.post(outcome.table)

    def changed(self, outcome: Outcome, *, move_on: bool) -> None:
        self.presenter.ground.remember(outcome)
        self.presenter.tell_followers(outcome)
        self.presenter.publish_later(outcome)
        if move_on:
            self.presenter.automatic.move_on(outcome.table.table_id)
