"""The stand-in's world: users, guilds, channels, threads, DM channels and messages.

Plain data kept in memory for the life of a `StandIn`, so it outlives any bot process that logs
into it (restarts keep every message and component).
"""

from __future__ import annotations

import asyncio
import datetime as dt
import itertools
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import IntEnum
from typing import Any

DISCORD_EPOCH_MS = 1_420_070_400_000

LOCALES = frozenset(
    {
        "ar", "bg", "cs", "da", "de", "el", "en-GB", "en-US", "es-419", "es-ES", "fi", "fr",
        "he", "hi", "hr", "hu", "id", "it", "ja", "ko", "lt", "nl", "no", "pl", "pt-BR", "ro",
        "ru", "sv-SE", "th", "tr", "uk", "vi", "zh-CN", "zh-TW",
    }
)  # fmt: skip
"""Discord's locales: the keys a `*_localizations` object may have, a user's and a guild's
`locale`."""
PSEUDO_LOCALE = "en-XA"
"""A person's or guild's locale no Discord client sends: the pseudo-language's (tools/catalogs.py),
in which a test finds any text that did not come through a catalog."""


class Perm(IntEnum):
    """Permission bits the stand-in enforces or reports."""

    MANAGE_CHANNELS = 1 << 4
    ADD_REACTIONS = 1 << 6
    VIEW_CHANNEL = 1 << 10
    SEND_MESSAGES = 1 << 11
    MANAGE_MESSAGES = 1 << 13
    EMBED_LINKS = 1 << 14
    ATTACH_FILES = 1 << 15
    READ_MESSAGE_HISTORY = 1 << 16
    USE_EXTERNAL_EMOJIS = 1 << 18
    USE_APPLICATION_COMMANDS = 1 << 31
    MANAGE_THREADS = 1 << 34
    CREATE_PUBLIC_THREADS = 1 << 35
    CREATE_PRIVATE_THREADS = 1 << 36
    SEND_MESSAGES_IN_THREADS = 1 << 38


TEXT_PERMISSIONS = (
    Perm.ADD_REACTIONS
    | Perm.VIEW_CHANNEL
    | Perm.SEND_MESSAGES
    | Perm.EMBED_LINKS
    | Perm.ATTACH_FILES
    | Perm.READ_MESSAGE_HISTORY
    | Perm.USE_EXTERNAL_EMOJIS
    | Perm.USE_APPLICATION_COMMANDS
    | Perm.CREATE_PUBLIC_THREADS
    | Perm.CREATE_PRIVATE_THREADS
    | Perm.SEND_MESSAGES_IN_THREADS
)
"""What @everyone, and so every person, may do in every channel."""

BOT_PERMISSIONS = TEXT_PERMISSIONS | Perm.MANAGE_MESSAGES | Perm.MANAGE_THREADS
"""The bot's guild-wide permissions (through its role) unless a channel denies some."""


class ChannelKind(IntEnum):
    GUILD_TEXT = 0
    DM = 1
    PUBLIC_THREAD = 11
    PRIVATE_THREAD = 12


class MessageFlag(IntEnum):
    EPHEMERAL = 1 << 6
    LOADING = 1 << 7


class SnowflakeMaker:
    """Discord-shaped ids: milliseconds since the Discord epoch, shifted, plus a counter."""

    def __init__(self) -> None:
        self._counter = itertools.count()
        self._last = 0

    def __call__(self) -> int:
        ms = int(time.time() * 1000) - DISCORD_EPOCH_MS
        candidate = (ms << 22) | (next(self._counter) & 0xFFF)
        self._last = max(candidate, self._last + 1)
        return self._last

    def on_shard(self, shard_id: int, shard_count: int) -> int:
        """A new id whose guild would be on `shard_id` of `shard_count` (`(id >> 22) % count`):
        the next id, its timestamp moved up by under `shard_count` milliseconds."""
        made = self()
        ms = made >> 22
        ms += (shard_id - ms) % shard_count
        self._last = max(self._last, (ms << 22) | (made & 0x3FFFFF))
        return self._last


def discord_locale(locale: str) -> str:
    """`locale` if Discord has it (or it is the pseudo-language's), else a ValueError (a mistake
    in the test)."""
    if locale not in LOCALES and locale != PSEUDO_LOCALE:
        raise ValueError(f"{locale!r} is not one of Discord's locales: {sorted(LOCALES)}")
    return locale


def utcnow() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


def iso(moment: dt.datetime | None) -> str | None:
    return None if moment is None else moment.isoformat()


@dataclass(eq=False)
class User:
    id: int
    name: str
    display_name: str
    bot: bool = False
    dms_open: bool = True
    locale: str = "en-US"
    """The language of their Discord client (one of `LOCALES`): their interactions'
    `locale`."""

    def __repr__(self) -> str:
        return f"User({self.display_name!r}, id={self.id})"


@dataclass(eq=False)
class Guild:
    id: int
    name: str
    owner_id: int
    bot_role_id: int
    channels: list[Channel] = field(default_factory=list)
    members: dict[int, Member] = field(default_factory=dict)
    preferred_locale: str = "en-US"
    """The guild's language (one of `LOCALES`): its payloads' `preferred_locale`, its
    interactions' `guild_locale`."""

    def __repr__(self) -> str:
        return f"Guild({self.name!r}, id={self.id})"

    def channel(self, name: str) -> Channel:
        """The channel or thread called `name`."""
        for channel in self.channels:
            if channel.name == name:
                return channel
        raise KeyError(f"no channel {name!r} in {self.name}")


@dataclass(eq=False)
class Member:
    user: User
    guild: Guild
    nick: str | None = None
    joined_at: dt.datetime = field(default_factory=utcnow)
    granted: int = 0
    """Permissions beyond a plain member's (e.g. Manage Channels), as interactions report."""


@dataclass(eq=False)
class Channel:
    id: int
    kind: ChannelKind
    name: str
    guild: Guild | None = None
    parent: Channel | None = None
    recipient: User | None = None
    position: int = 0
    owner_id: int | None = None
    bot_denied: int = 0
    """Permission bits the channel denies the bot (a member overwrite, as on Discord)."""

    def __repr__(self) -> str:
        return f"Channel({self.name!r}, id={self.id}, kind={self.kind.name})"

    @property
    def is_thread(self) -> bool:
        return self.kind in (ChannelKind.PUBLIC_THREAD, ChannelKind.PRIVATE_THREAD)

    @property
    def is_dm(self) -> bool:
        return self.kind is ChannelKind.DM

    def bot_permissions(self) -> int:
        """What the bot may do here: its role's permissions less this channel's (or parent's)
        denials. In a DM the bot may do what a DM allows."""
        if self.guild is None:
            return int(TEXT_PERMISSIONS & ~Perm.USE_APPLICATION_COMMANDS)
        denied = self.bot_denied | (self.parent.bot_denied if self.parent is not None else 0)
        return int(BOT_PERMISSIONS & ~denied)


@dataclass(frozen=True)
class Attachment:
    id: int
    filename: str
    content_type: str | None
    data: bytes
    description: str | None = None

    @property
    def size(self) -> int:
        return len(self.data)


@dataclass(frozen=True)
class Revision:
    """A message's visible state before an edit."""

    content: str
    embeds: list[dict[str, Any]]
    components: list[dict[str, Any]]
    flags: int
    at: dt.datetime


@dataclass(eq=False)
class Message:
    id: int
    channel: Channel
    author: User
    content: str = ""
    embeds: list[dict[str, Any]] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    """As the bot sent them (normalised to Discord's response form only when served)."""
    flags: int = 0
    attachments: list[Attachment] = field(default_factory=list)
    type: int = 0
    created_at: dt.datetime = field(default_factory=utcnow)
    edited_at: dt.datetime | None = None
    history: list[Revision] = field(default_factory=list)
    deleted: bool = False
    ephemeral_to: User | None = None
    """Set for an ephemeral reply: the one user who sees it."""
    interaction_id: int | None = None
    interaction_user: User | None = None
    interaction_type: int | None = None
    interacted_message_id: int | None = None
    triggered_by: tuple[int, int, int | None] | None = None
    """For a reply to a modal submit: (id, type, interacted message id) of the interaction that
    showed the modal."""
    webhook_id: int | None = None
    reference_id: int | None = None
    nonce: str | None = None
    """The nonce it was created with (Discord echoes it only when the message is created)."""
    posted_at: float = 0.0
    """When it was created, on the stand-in's clock (for `enforce_nonce`)."""

    def __repr__(self) -> str:
        return f"Message(id={self.id}, channel={self.channel.name!r}, content={self.content!r})"

    @property
    def ephemeral(self) -> bool:
        return self.ephemeral_to is not None

    @property
    def loading(self) -> bool:
        return bool(self.flags & MessageFlag.LOADING)

    def visible_to(self, user: User) -> bool:
        """Channel messages are public to the guild; a DM to its recipient; an ephemeral reply
        only to the user who interacted."""
        if self.deleted:
            return False
        if self.ephemeral_to is not None:
            return self.ephemeral_to is user
        if self.channel.is_dm:
            return self.channel.recipient is user
        return self.channel.guild is not None and user.id in self.channel.guild.members

    def iter_components(self) -> list[dict[str, Any]]:
        """Every interactive component (buttons and selects), rows flattened."""
        found: list[dict[str, Any]] = []
        stack = list(reversed(self.components))
        while stack:
            item = stack.pop()
            children = item.get("components")
            if isinstance(children, list):
                stack.extend(reversed(children))
            if "custom_id" in item or item.get("type") in (2, 3, 5, 6, 7, 8):
                found.append(item)
        return found

    def component(self, custom_id: str) -> dict[str, Any]:
        for item in self.iter_components():
            if item.get("custom_id") == custom_id:
                return item
        raise KeyError(custom_id)

    def custom_ids(self) -> list[str]:
        return [str(c["custom_id"]) for c in self.iter_components() if "custom_id" in c]

    def snapshot(self) -> Revision:
        return Revision(self.content, self.embeds, self.components, self.flags, utcnow())


class World:
    """Everything the stand-in knows. Build it before or after starting the server: new users,
    channels and threads show up in the next GUILD_CREATE (and threads by THREAD_CREATE)."""

    def __init__(self, *, bot_name: str = "Oh Hell Bot", token: str | None = None) -> None:
        self.snowflake = SnowflakeMaker()
        self.application_id = self.snowflake()
        self.bot = User(self.snowflake(), bot_name.lower().replace(" ", ""), bot_name, bot=True)
        self.token = token or f"standin.{self.bot.id}.token"
        self.owner = User(self.snowflake(), "owner", "Owner")
        self.users: dict[int, User] = {self.bot.id: self.bot, self.owner.id: self.owner}
        self.guilds: dict[int, Guild] = {}
        self.channels: dict[int, Channel] = {}
        self.messages: dict[int, Message] = {}
        """Every message by id; add with `add_message`, which keeps the indexes below."""
        self._by_channel: dict[int, list[Message]] = {}
        self._by_nonce: dict[tuple[int, int, str], Message] = {}
        """By (channel, author, nonce): the newest message created with that nonce."""
        self._ephemeral_by_user: dict[int, list[Message]] = {}
        self.dm_channels: dict[int, Channel] = {}
        self.attachments: dict[int, Attachment] = {}

    # --- building -------------------------------------------------------------------------

    def add_guild(
        self,
        name: str = "Test Guild",
        *,
        shard: tuple[int, int] | None = None,
        locale: str = "en-US",
    ) -> Guild:
        """A guild with the bot and the owner in it; `shard=(shard_id, shard_count)` picks an id
        whose events go to that shard (ids made in one millisecond share a shard otherwise);
        `locale` its preferred locale."""
        guild_id = self.snowflake() if shard is None else self.snowflake.on_shard(*shard)
        guild = Guild(
            guild_id,
            name,
            owner_id=self.owner.id,
            bot_role_id=self.snowflake(),
            preferred_locale=discord_locale(locale),
        )
        self.guilds[guild.id] = guild
        guild.members[self.bot.id] = Member(self.bot, guild)
        guild.members[self.owner.id] = Member(self.owner, guild)
        return guild

    def add_text_channel(self, guild: Guild, name: str, *, bot_denied: int = 0) -> Channel:
        channel = Channel(
            self.snowflake(),
            ChannelKind.GUILD_TEXT,
            name,
            guild=guild,
            position=len(guild.channels),
            bot_denied=bot_denied,
        )
        guild.channels.append(channel)
        self.channels[channel.id] = channel
        return channel

    def add_thread(
        self, parent: Channel, name: str, *, private: bool = False, owner: User | None = None
    ) -> Channel:
        if parent.guild is None or parent.kind is not ChannelKind.GUILD_TEXT:
            raise ValueError("threads live in guild text channels")
        kind = ChannelKind.PRIVATE_THREAD if private else ChannelKind.PUBLIC_THREAD
        thread = Channel(
            self.snowflake(),
            kind,
            name,
            guild=parent.guild,
            parent=parent,
            owner_id=(owner or self.bot).id,
        )
        parent.guild.channels.append(thread)
        self.channels[thread.id] = thread
        return thread

    def add_user(
        self,
        name: str,
        *,
        display_name: str | None = None,
        dms_open: bool = True,
        guilds: list[Guild] | None = None,
        locale: str = "en-US",
    ) -> User:
        """A person, a member of `guilds` (default: every guild), whose Discord client is in
        `locale`."""
        user = User(self.snowflake(), name.lower().replace(" ", "_"), display_name or name)
        user.dms_open = dms_open
        user.locale = discord_locale(locale)
        self.users[user.id] = user
        for guild in self.guilds.values() if guilds is None else guilds:
            guild.members[user.id] = Member(user, guild)
        return user

    def set_locale(self, user: User, locale: str) -> None:
        """The person switches their client's language: their next interactions carry it
        (Discord tells a bot nothing else)."""
        user.locale = discord_locale(locale)

    def set_guild_locale(self, guild: Guild, locale: str) -> None:
        """The guild's preferred locale changes (`StandIn.set_guild_locale` announces it)."""
        guild.preferred_locale = discord_locale(locale)

    def deny_bot(self, channel: Channel, *perms: Perm) -> None:
        """Take permissions from the bot in one channel (a member overwrite)."""
        for perm in perms:
            channel.bot_denied |= perm

    def allow_bot(self, channel: Channel, *perms: Perm) -> None:
        for perm in perms:
            channel.bot_denied &= ~perm

    def delete_channel(self, channel: Channel) -> list[Channel]:
        """Delete a guild channel or thread, with a channel's threads; the deleted ones, the
        channel first. Their messages stay readable here, but no call reaches them."""
        assert channel.guild is not None, "DM channels are not deleted"
        gone = [channel] + [c for c in channel.guild.channels if c.parent is channel]
        for c in gone:
            channel.guild.channels.remove(c)
            del self.channels[c.id]
        return gone

    def remove_guild(self, guild: Guild) -> None:
        """The bot leaves `guild` (kicked, or the guild deleted): no call reaches its channels."""
        del self.guilds[guild.id]
        for c in guild.channels:
            self.channels.pop(c.id, None)

    def restore_guild(self, guild: Guild) -> None:
        """The bot is in `guild` again (one `remove_guild` took), with its channels."""
        self.guilds[guild.id] = guild
        for c in guild.channels:
            self.channels[c.id] = c

    # --- lookups --------------------------------------------------------------------------

    def user_named(self, name: str) -> User:
        for user in self.users.values():
            if name in (user.name, user.display_name):
                return user
        raise KeyError(name)

    def dm_channel(self, user: User) -> Channel:
        """The bot's DM channel with `user`, opened on first use (as POST /users/@me/channels)."""
        channel = self.dm_channels.get(user.id)
        if channel is None:
            channel = Channel(self.snowflake(), ChannelKind.DM, f"dm-{user.name}", recipient=user)
            self.dm_channels[user.id] = channel
            self.channels[channel.id] = channel
        return channel

    def add_message(self, message: Message) -> None:
        self.messages[message.id] = message
        self._by_channel.setdefault(message.channel.id, []).append(message)
        if message.nonce is not None:
            self._by_nonce[(message.channel.id, message.author.id, message.nonce)] = message
        if message.ephemeral_to is not None:
            self._ephemeral_by_user.setdefault(message.ephemeral_to.id, []).append(message)

    def channel_messages(self, channel: Channel, *, include_deleted: bool = False) -> list[Message]:
        return [m for m in self._by_channel.get(channel.id, []) if include_deleted or not m.deleted]

    def created_with(self, channel: Channel, author: User, nonce: str) -> Message | None:
        """The newest message `author` created in `channel` with `nonce`, if not deleted."""
        found = self._by_nonce.get((channel.id, author.id, nonce))
        return None if found is None or found.deleted else found

    def newest_in(self, channel: Channel, matches: Callable[[Message], bool]) -> Message | None:
        """The newest message in `channel` (not deleted) that `matches`, looking back from the
        newest: as cheap late in a long run as early (simulated people ask it at every
        change the stand-in sees)."""
        for message in reversed(self._by_channel.get(channel.id, ())):
            if not message.deleted and matches(message):
                return message
        return None

    def newest_ephemeral(self, user: User, matches: Callable[[Message], bool]) -> Message | None:
        """The newest ephemeral reply shown to `user` (not deleted) that `matches`."""
        for message in reversed(self._ephemeral_by_user.get(user.id, ())):
            if not message.deleted and matches(message):
                return message
        return None

    def ephemeral_messages(self, user: User) -> list[Message]:
        """Ephemeral messages shown to `user`, oldest first."""
        return [m for m in self._ephemeral_by_user.get(user.id, []) if not m.deleted]


@dataclass(eq=False)
class Interaction:
    """One interaction a person started, and how the bot answered it."""

    id: int
    token: str
    type: int
    """2 application command, 3 message component, 5 modal submit."""
    user: User
    channel: Channel
    data: dict[str, Any]
    created_at: float
    message: Message | None = None
    response_type: int | None = None
    responded_at: float | None = None
    original: Message | None = None
    followups: list[Message] = field(default_factory=list)
    modal: dict[str, Any] | None = None
    choices: list[dict[str, Any]] | None = None
    delivered: bool = False
    trigger: Interaction | None = None
    """For a modal submit: the interaction the modal answered."""
    first_response: asyncio.Event = field(default_factory=asyncio.Event)
    locale: str = "en-US"
    """The language of the person's client when they interacted."""
    activity: ActivityInstance | None = None
    """The Activity a launch-activity answer (type 12) opened it into."""

    @property
    def acknowledged(self) -> bool:
        return self.response_type is not None


@dataclass(eq=False)
class ActivityInstance:
    """One running Activity in a channel: everyone who launches it there joins this one."""

    id: str
    """As Discord's: "i-<launch id>-gc-<guild id>-<channel id>" ("…-pc-<channel id>" in a DM)."""
    launch_id: str
    channel: Channel
    users: list[User] = field(default_factory=list)

    @property
    def guild(self) -> Guild | None:
        return self.channel.guild

    @property
    def location_id(self) -> str:
        """Where it runs, as Discord names it: "gc-<guild id>-<channel id>", "pc-<channel id>"."""
        return location_of(self.channel)


def location_of(channel: Channel) -> str:
    """An Activity's location in `channel`, as Discord names it."""
    if channel.guild is not None:
        return f"gc-{channel.guild.id}-{channel.id}"
    return f"pc-{channel.id}"
