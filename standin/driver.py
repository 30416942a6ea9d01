"""Simulated people: run slash commands, click buttons, pick select options, read what they see.

Every action returns an `InteractionResult` once the bot has answered (or the interaction's
deadline has passed) — there are no fixed sleeps.
"""

from __future__ import annotations

import contextlib
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from standin import payloads
from standin.world import (
    TEXT_PERMISSIONS,
    ActivityInstance,
    Channel,
    Interaction,
    Message,
    User,
    World,
)


class StandIn(Protocol):
    """What a driver needs of the stand-in it drives (standin.server.StandIn)."""

    world: World
    clock: Callable[[], float]
    ack_deadline: float

    async def wait_for(self, predicate: Callable[[], Any], timeout: float = 5.0) -> Any: ...
    def find_command(self, name: str, channel: Channel) -> Any: ...
    async def deliver_interaction(self, interaction: Interaction) -> bool: ...
    async def _dispatch_message(self, event: str, message: Message) -> None: ...
    def _notify(self) -> None: ...


JSON = dict[str, Any]


class DriverError(AssertionError):
    """A simulated person tried something Discord's client would not let them do — a mistake
    in the test, not in the bot."""


@dataclass(eq=False)
class InteractionResult:
    """What came of one interaction. The message objects are live: they follow later edits."""

    standin: StandIn
    interaction: Interaction

    def __repr__(self) -> str:
        return (
            f"InteractionResult(type={self.response_type}, ephemeral={self.ephemeral}, "
            f"reply={self.reply!r})"
        )

    @property
    def response_type(self) -> int | None:
        """The bot's first response: 4 message, 5 deferred, 6 deferred update, 7 update,
        8 autocomplete, 9 modal, 12 launch activity; None when it did not answer in time."""
        return self.interaction.response_type

    @property
    def acknowledged(self) -> bool:
        return self.interaction.acknowledged

    @property
    def failed(self) -> bool:
        """Discord would show "This interaction failed": no first response by the deadline."""
        return not self.interaction.acknowledged

    @property
    def delivered(self) -> bool:
        """Whether a bot was connected to receive the interaction."""
        return self.interaction.delivered

    @property
    def reply(self) -> Message | None:
        """The interaction's original response: the message it created (types 4 and 5) or the
        message it updated (types 6 and 7)."""
        return self.interaction.original

    @property
    def content(self) -> str | None:
        return None if self.reply is None else self.reply.content

    @property
    def ephemeral(self) -> bool:
        return self.reply is not None and self.reply.ephemeral

    @property
    def message(self) -> Message | None:
        """For a click or a select: the message whose component was used."""
        return self.interaction.message

    @property
    def followups(self) -> list[Message]:
        return list(self.interaction.followups)

    @property
    def modal(self) -> JSON | None:
        return self.interaction.modal

    @property
    def activity(self) -> ActivityInstance | None:
        """For a launch-activity answer: the Activity instance the person was taken into."""
        return self.interaction.activity

    @property
    def choices(self) -> list[JSON] | None:
        return self.interaction.choices

    async def wait_for(
        self, predicate: Callable[[InteractionResult], Any], timeout: float = 5.0
    ) -> Any:
        return await self.standin.wait_for(lambda: predicate(self), timeout)

    async def wait_for_followups(self, count: int = 1, timeout: float = 5.0) -> list[Message]:
        await self.wait_for(lambda r: len(r.followups) >= count, timeout)
        return self.followups

    async def wait_until_loaded(self, timeout: float = 5.0) -> Message:
        """For a deferred reply: wait until the bot has filled it in (edit or follow-up)."""
        await self.wait_for(lambda r: r.reply is not None and not r.reply.loading, timeout)
        assert self.reply is not None
        return self.reply


def _option_type(value: Any) -> int:
    """The option type a value not declared by the command would be sent as."""
    if isinstance(value, bool):
        return 5
    if isinstance(value, int):
        return 4
    if isinstance(value, float):
        return 10
    if isinstance(value, Person | User):
        return 6
    return 7 if isinstance(value, Channel) else 3


def _as_message(standin: StandIn, message: Message | int) -> Message:
    if isinstance(message, Message):
        return message
    try:
        return standin.world.messages[int(message)]
    except KeyError:
        raise DriverError(f"no message {message}") from None


class Person:
    """One simulated person: `await ann.slash(channel, "ohhell start", preset="classic")`."""

    def __init__(self, standin: StandIn, user: User) -> None:
        self.standin = standin
        self.user = user

    def __repr__(self) -> str:
        return f"Person({self.user.display_name!r})"

    @property
    def id(self) -> int:
        return self.user.id

    @property
    def name(self) -> str:
        return self.user.display_name

    @property
    def locale(self) -> str:
        """Their Discord client's language: their interactions' `locale`."""
        return self.user.locale

    def set_locale(self, locale: str) -> None:
        """Switch their client to `locale` (one of Discord's): their next interactions carry
        it."""
        self.standin.world.set_locale(self.user, locale)

    # --- seeing ---------------------------------------------------------------------------

    def can_see(self, message: Message) -> bool:
        return message.visible_to(self.user)

    def visible_messages(self, channel: Channel) -> list[Message]:
        """What this person sees in `channel`, oldest first, their ephemeral replies included."""
        found = [m for m in self.standin.world.channel_messages(channel) if self.can_see(m)]
        return sorted(found, key=lambda m: m.id)

    def dms(self) -> list[Message]:
        """The bot's messages in this person's DMs, oldest first."""
        channel = self.standin.world.dm_channels.get(self.user.id)
        return [] if channel is None else self.visible_messages(channel)

    def newest_dm(self, matches: Callable[[Message], bool]) -> Message | None:
        """The newest of the bot's messages in this person's DMs that `matches`."""
        channel = self.standin.world.dm_channels.get(self.user.id)
        return None if channel is None else self.standin.world.newest_in(channel, matches)

    def newest_ephemeral(self, matches: Callable[[Message], bool]) -> Message | None:
        """The newest ephemeral reply shown to this person that `matches`."""
        return self.standin.world.newest_ephemeral(self.user, matches)

    def ephemerals(self) -> list[Message]:
        """Every ephemeral message shown to this person, oldest first."""
        return sorted(self.standin.world.ephemeral_messages(self.user), key=lambda m: m.id)

    # --- acting ---------------------------------------------------------------------------

    async def slash(
        self, channel: Channel, command: str, *, timeout: float | None = None, **options: Any
    ) -> InteractionResult:
        """Run `/command` ("ohhell start": a command and its subcommand path) in `channel` with
        `options` (a person, user or channel for those options, other values as sent). What
        Discord would refuse raises `InvocationRefused` (standin.invocations), unseen by the
        bot."""
        data = self._command_data(channel, command, options, focused=None)
        return await self._interact(2, channel, data, None, timeout)

    async def autocomplete(
        self,
        channel: Channel,
        command: str,
        focused: str,
        *,
        timeout: float | None = None,
        **options: Any,
    ) -> InteractionResult:
        """Type into option `focused` of `/command` (its partial value among `options`); the
        bot's suggestions are in `result.choices`."""
        data = self._command_data(channel, command, options, focused=focused)
        return await self._interact(4, channel, data, None, timeout)

    def _command_data(
        self, channel: Channel, command: str, options: dict[str, Any], *, focused: str | None
    ) -> JSON:
        """What the client sends for `/command` with `options`, as given: Discord checks it
        against the registered command (`standin.invocations`) before the bot sees it."""
        if channel.guild is not None and self.user.id not in channel.guild.members:
            raise DriverError(f"{self.name} is not a member of {channel.guild.name}")
        words = command.split()
        try:
            spec = self.standin.find_command(words[0], channel)
        except LookupError as error:
            raise DriverError(str(error)) from None
        resolved: JSON = {}
        data: JSON = {"id": str(spec["id"]), "name": spec["name"], "type": 1}
        declared = list(spec.get("options") or [])
        container = data
        for depth, word in enumerate(words[1:], start=2):
            sub = next((o for o in declared if o["name"] == word), None)
            # A word the command does not declare goes as a subcommand all the same (a group
            # but for the last word), for Discord to refuse.
            kind = sub["type"] if sub is not None else (1 if depth == len(words) else 2)
            node: JSON = {"name": word, "type": kind, "options": []}
            container["options"] = [node]
            container = node
            declared = list((sub or {}).get("options") or [])
        container["options"] = self._options(declared, options, resolved, channel, focused)
        if channel.guild is not None:
            data["guild_id"] = str(channel.guild.id)
        if resolved:
            data["resolved"] = resolved
        return data

    def _options(
        self,
        declared: list[JSON],
        given: dict[str, Any],
        resolved: JSON,
        channel: Channel,
        focused: str | None,
    ) -> list[JSON]:
        names = {o["name"]: o for o in declared}
        # Python keywords cannot hold a hyphen: max_cards= stands for the option "max-cards".
        given = {
            k if k in names or k.replace("_", "-") not in names else k.replace("_", "-"): v
            for k, v in given.items()
        }
        if focused is not None:
            given.setdefault(focused, "")
        out = []
        for name, value in given.items():
            kind = names[name]["type"] if name in names else _option_type(value)
            option: JSON = {"name": name, "type": kind}
            if name == focused:
                option.update(value=str(value), focused=True)
            else:
                option["value"] = self._option_value(kind, value, resolved, channel)
            out.append(option)
        return out

    def _option_value(self, kind: int, value: Any, resolved: JSON, channel: Channel) -> Any:
        """An option's value as the client sends it: a person, a user or a channel as its id
        (and its resolved data); anything else as given."""
        world = self.standin.world
        target = value.user if isinstance(value, Person) else value
        if kind in (6, 9) and isinstance(target, User):
            resolved.setdefault("users", {})[str(target.id)] = payloads.user(target)
            guild = channel.guild
            if guild is not None and target.id in guild.members:
                member = payloads.member(guild.members[target.id], with_user=False)
                member["permissions"] = str(int(TEXT_PERMISSIONS))
                resolved.setdefault("members", {})[str(target.id)] = member
            return str(target.id)
        if kind == 7 and isinstance(value, Channel):
            body = payloads.channel(value, world)
            body["permissions"] = "0"
            resolved.setdefault("channels", {})[str(value.id)] = body
            return str(value.id)
        return value

    async def click(
        self, message: Message | int, custom_id: str, *, timeout: float | None = None
    ) -> InteractionResult:
        """Click the button `custom_id` on `message`."""
        msg = _as_message(self.standin, message)
        component = self._component(msg, custom_id)
        if component.get("type") != 2:
            raise DriverError(f"{custom_id!r} is not a button")
        data = {"custom_id": custom_id, "component_type": 2}
        return await self._interact(3, msg.channel, data, msg, timeout)

    async def click_forged(
        self,
        message: Message | int,
        custom_id: str,
        *,
        values: list[str] | None = None,
        timeout: float | None = None,
    ) -> InteractionResult:
        """What a modified client could send: a component interaction on a message this person
        can see, with any custom_id (and select values), whether or not the message has it."""
        msg = _as_message(self.standin, message)
        if not self.can_see(msg):
            raise DriverError(f"{self.name} cannot see {msg!r}")
        data: JSON = {"custom_id": custom_id, "component_type": 2 if values is None else 3}
        if values is not None:
            data["values"] = list(values)
        return await self._interact(3, msg.channel, data, msg, timeout)

    async def select(
        self,
        message: Message | int,
        custom_id: str,
        values: list[str],
        *,
        timeout: float | None = None,
    ) -> InteractionResult:
        """Pick `values` in the string select `custom_id` on `message`."""
        msg = _as_message(self.standin, message)
        component = self._component(msg, custom_id)
        if component.get("type") != 3:
            raise DriverError(f"{custom_id!r} is not a string select")
        offered = [o.get("value") for o in component.get("options") or []]
        missing = [v for v in values if v not in offered]
        if missing:
            raise DriverError(f"{custom_id!r} offers {offered}, not {missing}")
        low, high = component.get("min_values", 1), component.get("max_values", 1)
        if not low <= len(values) <= high:
            raise DriverError(f"{custom_id!r} takes {low}-{high} values, not {len(values)}")
        data = {"custom_id": custom_id, "component_type": 3, "values": list(values)}
        return await self._interact(3, msg.channel, data, msg, timeout)

    async def submit_modal(
        self, result: InteractionResult, values: dict[str, Any], *, timeout: float | None = None
    ) -> InteractionResult:
        """Fill in the modal the bot answered `result` with (text inputs by custom_id; a list of
        values for a select inside a label) and submit it."""
        modal = result.modal
        if modal is None:
            raise DriverError("the bot showed no modal")
        unused = dict(values)

        def answer(item: JSON) -> JSON:
            kind, cid = item.get("type"), str(item.get("custom_id"))
            if kind == 1:
                return {"type": 1, "components": [answer(c) for c in item.get("components") or []]}
            if kind == 18:
                return {"type": 18, "id": item.get("id"), "component": answer(item["component"])}
            if kind == 4:
                value = str(unused.pop(cid, item.get("value") or ""))
                if item.get("required", True) and not value:
                    raise DriverError(f"the modal's {cid!r} is required")
                return {"type": 4, "id": item.get("id"), "custom_id": cid, "value": value}
            if kind in (3, 5, 6, 7, 8):
                picked = unused.pop(cid, [])
                return {"type": kind, "id": item.get("id"), "custom_id": cid, "values": picked}
            return {"type": kind, "id": item.get("id")}

        components = [answer(c) for c in modal.get("components") or []]
        if unused:
            raise DriverError(f"the modal has no fields {sorted(unused)}")
        data = {"custom_id": modal.get("custom_id"), "components": components}
        inter = result.interaction
        return await self._interact(5, inter.channel, data, inter.message, timeout, trigger=inter)

    async def say(self, channel: Channel, content: str) -> Message:
        """Post a plain message (a MESSAGE_CREATE from this person)."""
        world = self.standin.world
        if channel.is_dm:
            raise DriverError("people write to the bot through slash commands here")
        message = Message(world.snowflake(), channel, self.user, content=content)
        world.add_message(message)
        await self.standin._dispatch_message("MESSAGE_CREATE", message)
        self.standin._notify()
        return message

    def _component(self, message: Message, custom_id: str) -> JSON:
        if not self.can_see(message):
            raise DriverError(f"{self.name} cannot see {message!r}")
        try:
            component = message.component(custom_id)
        except KeyError:
            raise DriverError(
                f"{message!r} has no component {custom_id!r}; it has {message.custom_ids()}"
            ) from None
        if component.get("disabled"):
            raise DriverError(f"{custom_id!r} is disabled")
        return component

    async def _interact(
        self,
        kind: int,
        channel: Channel,
        data: JSON,
        message: Message | None,
        timeout: float | None,
        *,
        trigger: Interaction | None = None,
    ) -> InteractionResult:

        standin = self.standin
        inter = Interaction(
            id=standin.world.snowflake(),
            token="aW50ZXJhY3Rpb24" + secrets.token_urlsafe(48),
            type=kind,
            user=self.user,
            channel=channel,
            data=data,
            created_at=standin.clock(),
            message=message,
            trigger=trigger,
            locale=self.user.locale,
        )
        result = InteractionResult(standin, inter)
        if not await standin.deliver_interaction(inter):
            return result
        wait = standin.ack_deadline + 0.25 if timeout is None else timeout
        with contextlib.suppress(TimeoutError):
            await standin.wait_for(lambda: inter.acknowledged, wait)
        return result
