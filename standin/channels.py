"""The stand-in's channels and messages: the REST handlers on channels (reading, posting,
editing and deleting messages, threads, typing) and message bodies as sent and edited
(`ChannelHandlers`, a part of `StandIn`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from standin import payloads
from standin.base import StandInBase
from standin.rest import JSON, ApiError, Request, unknown
from standin.world import Attachment, Channel, ChannelKind, Message, Perm, utcnow

NONCE_WINDOW = 120.0
"""Seconds a message's nonce is checked for uniqueness (`enforce_nonce`): Discord says "the past
few minutes"; the stand-in takes the short end of that."""


class ChannelHandlers(StandInBase):
    """The channel and message routes of `StandIn`, and how a body fills a message."""

    keep_history: bool  # set in StandIn.__init__

    # Defined by the core (messages) and the gateway.
    if TYPE_CHECKING:

        def messages(
            self, channel: Channel, *, include_ephemeral: bool = False
        ) -> list[Message]: ...
        async def dispatch(
            self, event: str, data: JSON, *, guild_id: int | None = None, intent: int = 0
        ) -> int: ...
        async def _dispatch_message(self, event: str, message: Message) -> None: ...

    def _channel(self, raw: str) -> Channel:
        try:
            return self.world.channels[int(raw)]
        except (KeyError, ValueError):
            raise unknown("Channel", 10003) from None

    def _require(self, channel: Channel, *perms: Perm) -> None:
        have = channel.bot_permissions()
        if not have & Perm.VIEW_CHANNEL:
            raise ApiError(403, 50001, "Missing Access")
        for perm in perms:
            if not have & perm:
                raise ApiError(403, 50013, "Missing Permissions")

    def _message(self, channel: Channel, raw: str) -> Message:
        try:
            message = self.world.messages[int(raw)]
        except (KeyError, ValueError):
            raise unknown("Message", 10008) from None
        if message.channel is not channel or message.deleted or message.ephemeral:
            raise unknown("Message", 10008)
        return message

    @staticmethod
    def _require_content(data: JSON, files: list[Attachment]) -> None:
        keys = ("content", "embeds", "components", "sticker_ids", "poll")
        if not files and not any(data.get(k) for k in keys):
            raise ApiError(400, 50006, "Cannot send an empty message")

    async def _get_channel(self, req: Request) -> tuple[int, Any]:
        channel = self._channel(req.params["channel_id"])
        if channel.guild is not None:
            self._require(channel)
        return 200, payloads.channel(channel, self.world)

    async def _get_guild_channels(self, req: Request) -> tuple[int, Any]:
        guild = self.world.guilds.get(int(req.params["guild_id"]))
        if guild is None:
            raise unknown("Guild", 10004)
        return 200, [payloads.channel(c, self.world) for c in guild.channels if not c.is_thread]

    async def _typing(self, req: Request) -> tuple[int, Any]:
        self._channel(req.params["channel_id"])
        return 204, None

    async def _post_message(self, req: Request) -> tuple[int, Any]:
        channel = self._channel(req.params["channel_id"])
        data = req.body or {}
        if channel.is_dm:
            assert channel.recipient is not None
            if not channel.recipient.dms_open:
                raise ApiError(403, 50007, "Cannot send messages to this user")
        else:
            send = Perm.SEND_MESSAGES_IN_THREADS if channel.is_thread else Perm.SEND_MESSAGES
            needed = [send]
            if data.get("embeds"):
                needed.append(Perm.EMBED_LINKS)
            if req.files:
                needed.append(Perm.ATTACH_FILES)
            self._require(channel, *needed)
        self._require_content(data, req.files)
        nonce = None if data.get("nonce") is None else str(data["nonce"])
        if nonce is not None and data.get("enforce_nonce"):
            # As Discord: a message this author created with the same nonce a short while ago
            # comes back, and no new one is made.
            earlier = self._created_with(channel, nonce)
            if earlier is not None:
                return 200, self._created(earlier)
        message = Message(
            self.world.snowflake(), channel, self.world.bot, nonce=nonce, posted_at=self.clock()
        )
        reference = data.get("message_reference")
        if isinstance(reference, dict) and reference.get("message_id"):
            message.reference_id = int(reference["message_id"])
            message.type = 19
        self._fill(message, data, req.files)
        self.world.add_message(message)
        await self._dispatch_message("MESSAGE_CREATE", message)
        return 200, self._created(message)

    def _created(self, message: Message) -> JSON:
        body = payloads.message(message, self.world, self.base_url)
        if message.nonce is not None:
            body["nonce"] = message.nonce
        return body

    def _created_with(self, channel: Channel, nonce: str) -> Message | None:
        found = self.world.created_with(channel, self.world.bot, nonce)
        if found is None or found.posted_at < self.clock() - NONCE_WINDOW:
            return None
        return found

    async def _get_message(self, req: Request) -> tuple[int, Any]:
        channel = self._channel(req.params["channel_id"])
        if channel.guild is not None:
            self._require(channel, Perm.READ_MESSAGE_HISTORY)
        message = self._message(channel, req.params["message_id"])
        return 200, payloads.message(message, self.world, self.base_url)

    async def _get_messages(self, req: Request) -> tuple[int, Any]:
        channel = self._channel(req.params["channel_id"])
        if channel.guild is not None:
            self._require(channel, Perm.READ_MESSAGE_HISTORY)
        found = sorted(self.messages(channel), key=lambda m: m.id, reverse=True)
        if "before" in req.query:
            found = [m for m in found if m.id < int(req.query["before"])]
        if "after" in req.query:
            found = [m for m in found if m.id > int(req.query["after"])]
        limit = max(1, min(int(req.query.get("limit", 50)), 100))
        return 200, [payloads.message(m, self.world, self.base_url) for m in found[:limit]]

    async def _edit_message(self, req: Request) -> tuple[int, Any]:
        channel = self._channel(req.params["channel_id"])
        message = self._message(channel, req.params["message_id"])
        if message.author is not self.world.bot:
            raise ApiError(403, 50005, "Cannot edit a message authored by another user")
        data = req.body or {}
        if channel.guild is not None and data.get("embeds"):
            self._require(channel, Perm.EMBED_LINKS)
        self._apply_edit(message, data, req.files)
        await self._dispatch_message("MESSAGE_UPDATE", message)
        return 200, payloads.message(message, self.world, self.base_url)

    async def _delete_message(self, req: Request) -> tuple[int, Any]:
        channel = self._channel(req.params["channel_id"])
        message = self._message(channel, req.params["message_id"])
        if message.author is not self.world.bot and channel.guild is not None:
            self._require(channel, Perm.MANAGE_MESSAGES)
        message.deleted = True
        await self._dispatch_message("MESSAGE_DELETE", message)
        return 204, None

    async def _create_thread(self, req: Request) -> tuple[int, Any]:
        parent = self._channel(req.params["channel_id"])
        data = req.body or {}
        private = data.get("type") == int(ChannelKind.PRIVATE_THREAD)
        self._require(
            parent, Perm.CREATE_PRIVATE_THREADS if private else Perm.CREATE_PUBLIC_THREADS
        )
        if "message_id" in req.params:
            self._message(parent, req.params["message_id"])
        name = str(data.get("name") or "thread")
        thread = self.world.add_thread(parent, name, private=private)
        body = payloads.channel(thread, self.world)
        assert parent.guild is not None
        await self.dispatch(
            "THREAD_CREATE", {**body, "newly_created": True}, guild_id=parent.guild.id
        )
        return 201, body

    # --- message bodies -------------------------------------------------------------------

    def _fill(self, message: Message, data: JSON, files: list[Attachment]) -> None:
        message.content = str(data.get("content") or "")
        message.embeds = list(data.get("embeds") or [])
        message.components = list(data.get("components") or [])
        message.attachments = self._attachments(message, data, files, keep=False)

    def _attachments(
        self, message: Message, data: JSON, files: list[Attachment], *, keep: bool
    ) -> list[Attachment]:
        for f in files:
            self.world.attachments[f.id] = f
        listed = data.get("attachments")
        if listed is None:
            return [*message.attachments, *files] if keep else list(files)
        kept_ids = {str(a.get("id")) for a in listed if isinstance(a, dict)}
        kept = [a for a in message.attachments if str(a.id) in kept_ids]
        return [*kept, *files]

    def _apply_edit(self, message: Message, data: JSON, files: list[Attachment]) -> None:
        if self.keep_history:
            message.history.append(message.snapshot())
        if "content" in data:
            message.content = str(data["content"] or "")
        if "embeds" in data:
            message.embeds = list(data["embeds"] or [])
        if "components" in data:
            message.components = list(data["components"] or [])
        if files or "attachments" in data:
            message.attachments = self._attachments(message, data, files, keep=True)
        message.edited_at = utcnow()
