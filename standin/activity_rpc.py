"""The Discord client's side of the Embedded App SDK's protocol, as the stand-in plays it for one
framed Activity (`Frame`, `answer`).

The SDK (`@discord/embedded-app-sdk`, output/Discord.mjs) talks to the window that frames it
with `postMessage([opcode, payload])`: opcode 0 HANDSHAKE (`{v: 1, encoding: "json",
client_id, frame_id, sdk_version}`), 1 FRAME (a command `{cmd, args, nonce}`; the client
answers `{cmd, evt: null, nonce, data}`, or `{cmd, evt: "ERROR", nonce, data: {code,
message}}`, and sends events as `{cmd: "DISPATCH", evt, nonce: null, data}`), 2 CLOSE
(`{code, message}`) and 3 HELLO (ignored). After the handshake the client dispatches READY;
`sdk.ready()` waits for it. Commands the stand-in answers: AUTHORIZE, AUTHENTICATE, SUBSCRIBE,
UNSUBSCRIBE, CAPTURE_LOG, GET_CHANNEL, USER_SETTINGS_GET_LOCALE,
GET_ACTIVITY_INSTANCE_CONNECTED_PARTICIPANTS, SET_CONFIG, ENCOURAGE_HW_ACCELERATION,
GET_PLATFORM_BEHAVIORS and OPEN_EXTERNAL_LINK; any other gets INVALID_COMMAND, and is kept in
`Frame.unanswered` for a test to see."""

from __future__ import annotations

import asyncio
import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from standin import payloads
from standin.world import ActivityInstance, ChannelKind, User

if TYPE_CHECKING:
    from standin.server import StandIn

HANDSHAKE, FRAME, CLOSE, HELLO = 0, 1, 2, 3

# RPCCloseCodes and RPCErrorCodes of the SDK (output/Constants.mjs), and the OAuth2 error
# Discord's RPC answers an authorization it could not give with.
CLOSE_INVALID_CLIENTID = 4000
CLOSE_INVALID_VERSION = 4004
CLOSE_INVALID_ENCODING = 4005
INVALID_PAYLOAD = 4000
INVALID_COMMAND = 4002
INVALID_EVENT = 4004
INVALID_CHANNEL = 4005
INVALID_CLIENTID = 4007
INVALID_TOKEN = 4009
OAUTH2_ERROR = 5000

EVENTS = frozenset(
    {
        "READY",
        "VOICE_STATE_UPDATE",
        "SPEAKING_START",
        "SPEAKING_STOP",
        "ACTIVITY_LAYOUT_MODE_UPDATE",
        "ORIENTATION_UPDATE",
        "CURRENT_USER_UPDATE",
        "CURRENT_GUILD_MEMBER_UPDATE",
        "ENTITLEMENT_CREATE",
        "THERMAL_STATE_UPDATE",
        "ACTIVITY_INSTANCE_PARTICIPANTS_UPDATE",
        "RELATIONSHIP_UPDATE",
        "ACTIVITY_JOIN",
        "QUEST_ENROLLMENT_STATUS_UPDATE",
    }
)
"""The SDK's `Events`: what an Activity may SUBSCRIBE to."""

JSON = dict[str, Any]


class RpcError(Exception):
    def __init__(self, code: int, message: str) -> None:
        super().__init__(f"{code} {message}")
        self.code = code
        self.message = message


@dataclass(eq=False)
class Frame:
    """One person's view of one Activity instance: the frame Discord's client made for it, and
    everything said over it."""

    id: str
    """The `frame_id` the Activity's URL carries."""
    user: User
    instance: ActivityInstance
    platform: str = "desktop"
    declines: bool = False
    """The person refuses the authorization (AUTHORIZE answers an OAuth2 error)."""
    ready: bool = False
    """The handshake succeeded and READY was sent."""
    closed: tuple[int, str] | None = None
    """What closed the connection (a CLOSE either way): code and message."""
    sdk_version: str | None = None
    query: dict[str, str] = field(default_factory=dict)
    """The Activity URL's query parameters (`ActivityClient.activity_query`)."""
    received: list[list[Any]] = field(default_factory=list)
    """Every message from the Activity, `[opcode, payload]`, in order."""
    sent: list[list[Any]] = field(default_factory=list)
    """Every message to it, in order."""
    subscriptions: set[str] = field(default_factory=set)
    codes: list[str] = field(default_factory=list)
    """The authorization codes AUTHORIZE gave."""
    authenticated: User | None = None
    """Whose token AUTHENTICATE accepted."""
    logs: list[tuple[str, str]] = field(default_factory=list)
    """What the SDK captured of the page's console: (level, message)."""
    links: list[str] = field(default_factory=list)
    """The links OPEN_EXTERNAL_LINK was asked to open."""
    unanswered: list[str] = field(default_factory=list)
    """Commands the stand-in does not play."""
    outbox: asyncio.Queue[list[Any] | None] = field(default_factory=asyncio.Queue)
    """What goes to the client page: messages for the Activity; None, take the frame away."""

    @property
    def commands(self) -> list[str]:
        """The `cmd` of every command received, in order."""
        return [m[1].get("cmd", "") for m in self.received if m[0] == FRAME]

    def post(self, message: list[Any]) -> None:
        self.sent.append(message)
        self.outbox.put_nowait(message)

    def dispatch(self, event: str, data: JSON) -> None:
        """Send an event, if the Activity subscribed to it (READY always goes)."""
        if event == "READY" or event in self.subscriptions:
            self.post([FRAME, {"cmd": "DISPATCH", "evt": event, "nonce": None, "data": data}])


def _participant(user: User) -> JSON:
    return {
        "id": str(user.id),
        "username": user.name,
        "global_name": user.display_name,
        "discriminator": "0",
        "avatar": None,
        "flags": 0,
        "bot": user.bot,
    }


class Rpc:
    """The client's answers, for every frame of one stand-in."""

    def __init__(self, standin: StandIn, frames: Callable[[], list[Frame]]) -> None:
        self.standin = standin
        self._frames = frames

    def participants(self, instance: ActivityInstance) -> list[JSON]:
        """Who has the instance open now (a frame past its handshake, not closed)."""
        seen: dict[int, User] = {}
        for frame in self._frames():
            if frame.instance is instance and frame.ready and frame.closed is None:
                seen.setdefault(frame.user.id, frame.user)
        return [_participant(user) for user in seen.values()]

    def participants_changed(self, instance: ActivityInstance) -> None:
        data = {"participants": self.participants(instance)}
        for frame in self._frames():
            if frame.instance is instance and frame.ready and frame.closed is None:
                frame.dispatch("ACTIVITY_INSTANCE_PARTICIPANTS_UPDATE", data)

    def receive(self, frame: Frame, message: Any) -> None:
        """One message from the Activity, answered on `frame.outbox`."""
        if frame.closed is not None:
            return
        if not (isinstance(message, list) and len(message) == 2 and isinstance(message[1], dict)):
            self.close(frame, INVALID_PAYLOAD, "a message is [opcode, payload]")
            return
        frame.received.append(message)
        opcode, payload = message
        if opcode == HANDSHAKE:
            self._handshake(frame, payload)
        elif opcode == FRAME:
            self._command(frame, payload)
        elif opcode == CLOSE:
            frame.closed = (int(payload.get("code", 1000)), str(payload.get("message", "")))
            self.participants_changed(frame.instance)
        elif opcode != HELLO:
            self.close(frame, INVALID_PAYLOAD, f"unknown opcode {opcode!r}")

    def close(self, frame: Frame, code: int, message: str) -> None:
        frame.post([CLOSE, {"code": code, "message": message}])
        frame.closed = (code, message)

    def _handshake(self, frame: Frame, payload: JSON) -> None:
        if payload.get("v") != 1:
            self.close(frame, CLOSE_INVALID_VERSION, "Invalid Version")
        elif payload.get("encoding", "json") != "json":
            self.close(frame, CLOSE_INVALID_ENCODING, "Invalid Encoding")
        elif str(payload.get("client_id")) != str(self.standin.application_id):
            self.close(frame, CLOSE_INVALID_CLIENTID, "Invalid Client ID")
        elif payload.get("frame_id") != frame.id:
            self.close(frame, CLOSE_INVALID_CLIENTID, "Invalid frame_id")
        else:
            frame.sdk_version = payload.get("sdk_version")
            frame.ready = True
            user = frame.user
            data = {
                "v": 1,
                "config": {
                    "cdn_host": "cdn.discordapp.com",
                    "api_endpoint": "//discord.com/api",
                    "environment": "production",
                },
                "user": {"id": str(user.id), "username": user.name, "discriminator": "0"},
            }
            frame.dispatch("READY", data)
            self.participants_changed(frame.instance)

    def _command(self, frame: Frame, payload: JSON) -> None:
        cmd, nonce = payload.get("cmd"), payload.get("nonce")
        args = payload.get("args") or {}
        if not isinstance(cmd, str) or not isinstance(nonce, str) or not isinstance(args, dict):
            self.close(frame, INVALID_PAYLOAD, "a command needs cmd, nonce and args")
            return
        try:
            if not frame.ready:
                raise RpcError(INVALID_PAYLOAD, "the handshake has not happened")
            handler = getattr(self, f"_cmd_{cmd.lower()}", None)
            if handler is None:
                frame.unanswered.append(cmd)
                raise RpcError(INVALID_COMMAND, f"Invalid command: {cmd}")
            data = handler(frame, args, payload)
        except RpcError as error:
            body = {"code": error.code, "message": error.message}
            frame.post([FRAME, {"cmd": cmd, "evt": "ERROR", "nonce": nonce, "data": body}])
            return
        frame.post([FRAME, {"cmd": cmd, "evt": None, "nonce": nonce, "data": data}])

    # --- the commands -----------------------------------------------------------------------

    def _cmd_authorize(self, frame: Frame, args: JSON, payload: JSON) -> Any:
        if str(args.get("client_id")) != str(self.standin.application_id):
            raise RpcError(INVALID_CLIENTID, "Invalid client id")
        if args.get("response_type", "code") != "code":
            raise RpcError(OAUTH2_ERROR, "OAuth2 Error: unsupported response_type")
        scope = args.get("scope") or []
        scopes = scope.split() if isinstance(scope, str) else list(scope)
        if frame.declines:
            raise RpcError(OAUTH2_ERROR, "OAuth2 Error: the user cancelled the authorization")
        try:
            code = self.standin.authorize(frame.user, args.get("client_id"), scopes)
        except ValueError as error:
            raise RpcError(OAUTH2_ERROR, f"OAuth2 Error: {error}") from None
        frame.codes.append(code)
        return {"code": code}

    def _cmd_authenticate(self, frame: Frame, args: JSON, payload: JSON) -> Any:
        given = args.get("access_token")
        token = self.standin.access_token(given) if isinstance(given, str) else None
        # The token must be this person's: the client's own user is who is authenticated.
        if token is None or token.user is not frame.user:
            raise RpcError(INVALID_TOKEN, "Invalid access token")
        frame.authenticated = token.user
        remaining = token.expires_at - self.standin.clock()
        expires = dt.datetime.now(dt.UTC) + dt.timedelta(seconds=remaining)
        user = payloads.user(token.user)
        return {
            "access_token": given,
            "user": {k: user[k] for k in ("username", "discriminator", "id", "avatar")}
            | {"public_flags": 0, "global_name": token.user.display_name},
            "scopes": list(token.scopes),
            "expires": expires.isoformat(),
            "application": {
                "id": str(self.standin.application_id),
                "name": self.standin.world.bot.display_name,
                "description": "",
                "icon": None,
            },
        }

    def _cmd_subscribe(self, frame: Frame, args: JSON, payload: JSON) -> Any:
        event = payload.get("evt")
        if event not in EVENTS:
            raise RpcError(INVALID_EVENT, f"Invalid event: {event}")
        frame.subscriptions.add(str(event))
        return {"evt": event}

    def _cmd_unsubscribe(self, frame: Frame, args: JSON, payload: JSON) -> Any:
        event = payload.get("evt")
        if event not in EVENTS:
            raise RpcError(INVALID_EVENT, f"Invalid event: {event}")
        frame.subscriptions.discard(str(event))
        return {"evt": event}

    def _cmd_capture_log(self, frame: Frame, args: JSON, payload: JSON) -> Any:
        frame.logs.append((str(args.get("level")), str(args.get("message"))))
        return None

    def _cmd_get_channel(self, frame: Frame, args: JSON, payload: JSON) -> Any:
        try:
            channel = self.standin.world.channels[int(args.get("channel_id", ""))]
        except (KeyError, ValueError):
            raise RpcError(INVALID_CHANNEL, "Invalid channel id") from None
        guild = channel.guild
        if guild is not None and frame.user.id not in guild.members:
            raise RpcError(INVALID_CHANNEL, "Invalid channel id")
        return {
            "id": str(channel.id),
            "type": int(channel.kind),
            "guild_id": str(guild.id) if guild is not None else None,
            "name": channel.name if channel.kind is not ChannelKind.DM else None,
            "topic": None,
            "position": 0,
            "voice_states": [],
            "messages": [],
        }

    def _cmd_user_settings_get_locale(self, frame: Frame, args: JSON, payload: JSON) -> Any:
        return {"locale": frame.user.locale}

    def _cmd_get_activity_instance_connected_participants(
        self, frame: Frame, args: JSON, payload: JSON
    ) -> Any:
        return {"participants": self.participants(frame.instance)}

    def _cmd_set_config(self, frame: Frame, args: JSON, payload: JSON) -> Any:
        return {"use_interactive_pip": bool(args.get("use_interactive_pip"))}

    def _cmd_encourage_hw_acceleration(self, frame: Frame, args: JSON, payload: JSON) -> Any:
        return {"enabled": True}

    def _cmd_get_platform_behaviors(self, frame: Frame, args: JSON, payload: JSON) -> Any:
        return {"iosKeyboardResizesView": False}

    def _cmd_open_external_link(self, frame: Frame, args: JSON, payload: JSON) -> Any:
        frame.links.append(str(args.get("url")))
        return {"opened": True}
