"""The stand-in's gateway: WebSocket sessions (identify, resume, shards, member chunks) and
the events sent on them, interactions among them (`Gateway`, a part of `StandIn`)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from aiohttp import WSMsgType, web

from standin import payloads
from standin.base import StandInBase
from standin.rest import API_VERSION, JSON
from standin.shards import (
    INVALID_SHARD,
    SHARDING_REQUIRED,
    parse_shard,
    shard_of,
    sharding_required,
)
from standin.world import Interaction, Message

GUILD_MESSAGES = 1 << 9
DIRECT_MESSAGES = 1 << 12
MESSAGE_CONTENT = 1 << 15


@dataclass(eq=False)
class GatewaySession:
    ws: web.WebSocketResponse
    number: int
    session_id: str = field(default_factory=lambda: secrets.token_hex(16))
    intents: int = 0
    shard: tuple[int, int] = (0, 1)
    ready: bool = False
    seq: int = 0

    async def send(self, op: int, d: Any, t: str | None = None) -> None:
        frame: JSON = {"op": op, "d": d, "s": None, "t": t}
        if op == 0:
            self.seq += 1
            frame["s"] = self.seq
        if not self.ws.closed:
            await self.ws.send_str(json.dumps(frame))

    def covers(self, guild_id: int | None) -> bool:
        """Whether this session receives the events of `guild_id` (None: a DM, shard 0's)."""
        shard_id, shard_count = self.shard
        if guild_id is None:
            return shard_id == 0
        return shard_of(guild_id, shard_count) == shard_id


class Gateway(StandInBase):
    """The gateway side of `StandIn`: its WebSocket endpoint and everything sent on it."""

    # Its own state, set in StandIn.__init__ (the core reads it too).
    sessions: list[GatewaySession]
    sessions_started: int
    _resumable: dict[str, GatewaySession]

    # Defined by the application handlers (the commands the bot registered).
    if TYPE_CHECKING:

        def _check_invocation(self, inter: Interaction) -> None: ...

    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(max_msg_size=0)
        await ws.prepare(request)
        self.sessions_started += 1
        session = GatewaySession(ws, self.sessions_started)
        self.sessions.append(session)
        try:
            await session.send(10, {"heartbeat_interval": 41_250})
            async for msg in ws:
                if msg.type is WSMsgType.TEXT:
                    await self._on_gateway(session, json.loads(msg.data))
                elif msg.type is WSMsgType.ERROR:
                    break
        except (ConnectionResetError, asyncio.CancelledError):
            pass
        finally:
            self.sessions.remove(session)
            if session.ready and ws.close_code != 1000:
                self._resumable[session.session_id] = session
            self._notify()
        return ws

    async def _on_gateway(self, session: GatewaySession, frame: JSON) -> None:
        op, d = frame.get("op"), frame.get("d")
        if op == 1:
            await session.send(11, None)
        elif op == 2:
            await self._identify(session, d or {})
        elif op == 6:
            await self._resume(session, d or {})
        elif op == 8:
            await self._member_chunks(session, d or {})

    async def _identify(self, session: GatewaySession, d: JSON) -> None:
        if d.get("token") not in (self.token, f"Bot {self.token}"):
            await session.ws.close(code=4004, message=b"Authentication failed.")
            return
        shard = d.get("shard")
        if shard is not None:
            valid = parse_shard(shard)
            if valid is None:
                await session.ws.close(code=INVALID_SHARD, message=b"Invalid shard.")
                return
            session.shard = valid
        if sharding_required(len(self.world.guilds), session.shard[1], self.max_guilds_per_shard):
            await session.ws.close(code=SHARDING_REQUIRED, message=b"Sharding required.")
            return
        session.intents = int(d.get("intents", 0))
        guilds = [g for g in self.world.guilds.values() if session.covers(g.id)]
        ready: JSON = {
            "v": API_VERSION,
            "user": payloads.self_user(self.world.bot),
            "guilds": [{"id": str(g.id), "unavailable": True} for g in guilds],
            "session_id": session.session_id,
            "resume_gateway_url": self.gateway_url,
            "application": {"id": str(self.application_id), "flags": 0},
            "private_channels": [],
            "relationships": [],
            "presences": [],
        }
        if shard is not None:
            ready["shard"] = list(session.shard)
        await session.send(0, ready, "READY")
        for guild in guilds:
            await session.send(0, payloads.guild_create(guild, self.world), "GUILD_CREATE")
        session.ready = True
        self._notify()

    async def _resume(self, session: GatewaySession, d: JSON) -> None:
        # Events sent while the bot was away are not replayed (interactions in that gap were
        # not delivered anyway); a session the stand-in does not know is invalidated, and the
        # client identifies afresh (after discord.py's 5 s identify pause).
        old = self._resumable.pop(str(d.get("session_id")), None)
        if old is None or d.get("token") not in (self.token, f"Bot {self.token}"):
            await session.send(9, False)
            return
        session.session_id, session.intents, session.shard = old.session_id, old.intents, old.shard
        session.seq = max(old.seq, int(d.get("seq") or 0))
        await session.send(0, {}, "RESUMED")
        session.ready = True
        self._notify()

    async def _member_chunks(self, session: GatewaySession, d: JSON) -> None:
        ids: Any = d.get("guild_id")
        for guild_id in ids if isinstance(ids, list) else [ids]:
            guild = self.world.guilds.get(int(guild_id))
            if guild is None:
                continue
            members = list(guild.members.values())
            query = d.get("query") or ""
            if d.get("user_ids"):
                wanted = {int(u) for u in d["user_ids"]}
                members = [m for m in members if m.user.id in wanted]
            elif query:
                members = [m for m in members if m.user.name.startswith(query.lower())]
            chunk: JSON = {
                "guild_id": str(guild.id),
                "members": [payloads.member(m) for m in members],
                "chunk_index": 0,
                "chunk_count": 1,
                "not_found": [],
            }
            if d.get("nonce"):
                chunk["nonce"] = d["nonce"]
            await session.send(0, chunk, "GUILD_MEMBERS_CHUNK")

    async def reconnect_gateway(self, *, resumable: bool = True) -> int:
        """Make every connected bot reconnect, as Discord does now and then: op 7 RECONNECT
        (the bot resumes its session), or with `resumable=False` op 9 INVALID_SESSION (it
        identifies afresh; discord.py pauses 5 s first). Returns how many sessions were told."""
        told = 0
        for session in list(self.sessions):
            with contextlib.suppress(ConnectionError):
                await session.send(7 if resumable else 9, None if resumable else False)
                told += 1
        return told

    async def dispatch(
        self, event: str, data: JSON, *, guild_id: int | None = None, intent: int = 0
    ) -> int:
        """Send a gateway event to every ready session covering `guild_id` (and asking for
        `intent`, when given). Returns how many sessions it went to."""
        sent = 0
        for session in list(self.sessions):
            if intent and not session.intents & intent:
                continue
            if session.ready and session.covers(guild_id):
                try:
                    await session.send(0, data, event)
                    sent += 1
                except ConnectionError:
                    pass
        return sent

    async def _dispatch_message(self, event: str, message: Message) -> None:
        if message.ephemeral:
            return
        guild = message.channel.guild
        intent = DIRECT_MESSAGES if guild is None else GUILD_MESSAGES
        data = payloads.gateway_message(message, self.world, self.base_url)
        if event == "MESSAGE_DELETE":
            data = {"id": str(message.id), "channel_id": str(message.channel.id)}
            if guild is not None:
                data["guild_id"] = str(guild.id)
        hidden = None
        if message.author is not self.world.bot and event != "MESSAGE_DELETE":
            # Without the Message Content intent a bot gets other people's messages blank.
            hidden = {**data, "content": "", "embeds": [], "components": [], "attachments": []}
        for session in list(self.sessions):
            if (
                session.ready
                and session.intents & intent
                and session.covers(guild.id if guild else None)
            ):
                shown = data if hidden is None or session.intents & MESSAGE_CONTENT else hidden
                with contextlib.suppress(ConnectionError):
                    await session.send(0, shown, event)

    async def deliver_interaction(self, interaction: Interaction) -> bool:
        """INTERACTION_CREATE to the newest ready session of the channel's shard (a DM's:
        shard 0), as Discord delivers each interaction to one session. A slash command that
        Discord would refuse raises `InvocationRefused` and reaches no one."""
        self._check_invocation(interaction)
        self.interactions[interaction.id] = interaction
        self._tokens[interaction.token] = interaction
        guild = interaction.channel.guild
        data = self._interaction_payload(interaction)
        for session in reversed(self.sessions):
            if session.ready and session.covers(guild.id if guild else None):
                try:
                    await session.send(0, data, "INTERACTION_CREATE")
                except ConnectionError:
                    continue
                interaction.delivered = True
                return True
        return False

    def _interaction_payload(self, inter: Interaction) -> JSON:
        channel = inter.channel
        guild = channel.guild
        body: JSON = {
            "id": str(inter.id),
            "application_id": str(self.application_id),
            "type": inter.type,
            "data": inter.data,
            "channel_id": str(channel.id),
            "channel": payloads.channel(channel, self.world),
            "token": inter.token,
            "version": 1,
            "app_permissions": str(channel.bot_permissions()),
            "locale": inter.locale,
            "entitlements": [],
            "attachment_size_limit": payloads.ATTACHMENT_SIZE_LIMIT,
        }
        if guild is not None:
            member = guild.members[inter.user.id]
            body["guild_id"] = str(guild.id)
            locale = guild.preferred_locale
            body["guild"] = {"id": str(guild.id), "locale": locale, "features": []}
            body["guild_locale"] = locale
            from standin.world import TEXT_PERMISSIONS

            body["member"] = payloads.member(
                member, permissions=int(TEXT_PERMISSIONS) | member.granted
            )
            body["authorizing_integration_owners"] = {"0": str(guild.id)}
            body["context"] = 0
        else:
            body["user"] = payloads.user(inter.user)
            body["authorizing_integration_owners"] = {"0": str(self.world.owner.id)}
            body["context"] = 1
        if inter.message is not None:
            body["message"] = payloads.message(inter.message, self.world, self.base_url)
        return body
