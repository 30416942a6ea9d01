"""What Discord checks of a slash command's invocation before the bot hears of it, from the
command the bot registered: where the command is offered (a guild-only one is not offered in a
DM), its subcommand, its options (known, given once, present when required, of the declared
type, within the declared limits and Discord's own, one of the choices when there are choices)
and, for autocomplete, the one focused option. An invocation that breaks one is refused with
`InvocationRefused`, as Discord refuses it: the bot never receives it.

The limits are the OpenAPI description's (``../shared/discord-api-spec``): INTEGER and NUMBER
values within its Int53Type, a string option's ``max_length`` at most 6000 (also the longest
choice value), ``contexts`` of InteractionContextType.
"""

from __future__ import annotations

import math
import re
from typing import Any

from standin.driver import DriverError
from standin.world import Channel, World

JSON = dict[str, Any]

SUBCOMMAND, SUBCOMMAND_GROUP = 1, 2
STRING, INTEGER, BOOLEAN, USER, CHANNEL, ROLE, MENTIONABLE, NUMBER = 3, 4, 5, 6, 7, 8, 9, 10
GUILD, BOT_DM = 0, 1
"""InteractionContextType: where a command with ``contexts`` is offered."""

INT53 = 2**53 - 1
"""Discord's integers (the spec's Int53Type): INTEGER and NUMBER values lie in -INT53..INT53."""
STRING_LIMIT = 6000
"""The longest value of a string option that declares no shorter ``max_length``."""
_SNOWFLAKE = re.compile(r"[0-9]{1,20}")


class InvocationRefused(DriverError):
    """Discord refused a slash command's invocation (400, 50035 Invalid Form Body, as it answers
    a client that sends one; 10063 for a command it does not know): the bot never saw it.
    `path` names the refused part as Discord's error body does (``data.options[0].value``)."""

    def __init__(self, command: str, path: str, reason: str, *, code: int = 50035) -> None:
        super().__init__(f"Discord refuses /{command}: {path}: {reason}")
        self.command = command
        self.path = path
        self.reason = reason
        self.code = code


def offered_in(command: JSON, channel: Channel) -> bool:
    """Whether Discord offers `command` in `channel`: ``contexts`` when the command has them,
    else ``dm_permission`` (False: guild-only) for a DM."""
    contexts = command.get("contexts")
    if contexts is not None:
        return (BOT_DM if channel.is_dm else GUILD) in contexts
    return not channel.is_dm or command.get("dm_permission") is not False


def check_invocation(
    command: JSON, data: JSON, channel: Channel, world: World, *, autocomplete: bool
) -> None:
    """Refuse (`InvocationRefused`) an invocation of `command` (as registered) whose `data`
    Discord would not accept in `channel`; `autocomplete`: an autocomplete interaction, whose
    one focused option holds the text typed so far and whose required options may be missing."""
    name = str(command["name"])

    def refuse(path: str, reason: str) -> InvocationRefused:
        return InvocationRefused(name, path, reason)

    if not offered_in(command, channel):
        raise refuse("contexts", "the command is guild-only: it is not offered in a DM")
    declared: list[JSON] = list(command.get("options") or [])
    given: list[JSON] = list(data.get("options") or [])
    path = "data.options"
    while any(o.get("type") in (SUBCOMMAND, SUBCOMMAND_GROUP) for o in declared):
        chosen = given[0] if len(given) == 1 else None
        if chosen is None or chosen.get("type") not in (SUBCOMMAND, SUBCOMMAND_GROUP):
            raise refuse(path, "the command needs a subcommand")
        spec = _named(declared, chosen.get("name"))
        if spec is None or spec.get("type") != chosen.get("type"):
            raise refuse(f"{path}[0]", f"no subcommand {chosen.get('name')!r}")
        declared, given = list(spec.get("options") or []), list(chosen.get("options") or [])
        path += "[0].options"
    problem = _options_problem(declared, given, data, path, channel, world, autocomplete)
    if problem is not None:
        raise refuse(*problem)


def _named(declared: list[JSON], name: object) -> JSON | None:
    return next((o for o in declared if o.get("name") == name), None)


def _options_problem(
    declared: list[JSON],
    given: list[JSON],
    data: JSON,
    path: str,
    channel: Channel,
    world: World,
    autocomplete: bool,
) -> tuple[str, str] | None:
    """(where, why) for the first option Discord would refuse, or None."""
    focused = sum(1 for o in given if o.get("focused"))
    if autocomplete and focused != 1:
        return path, f"an autocomplete interaction has one focused option, not {focused}"
    seen: set[object] = set()
    for index, option in enumerate(given):
        where = f"{path}[{index}]"
        spec = _named(declared, option.get("name"))
        if spec is None:
            known = sorted(str(o.get("name")) for o in declared)
            return where, f"no option {option.get('name')!r} (it has {known})"
        if spec["name"] in seen:
            return where, f"option {spec['name']!r} given twice"
        seen.add(spec["name"])
        if option.get("type") != spec.get("type"):
            return where, f"option {spec['name']!r} is of type {spec.get('type')}"
        value = option.get("value")
        if option.get("focused"):
            if not autocomplete:
                return where, "only an autocomplete interaction has a focused option"
            if not spec.get("autocomplete"):
                return where, f"option {spec['name']!r} has no autocomplete"
            if not isinstance(value, str):
                return f"{where}.value", "a focused option holds the text typed so far"
            continue
        wrong = _value_problem(spec, value, data, channel, world)
        if wrong is not None:
            return f"{where}.value", f"{spec['name']}={_shown(value)}: {wrong}"
    if not autocomplete:
        missing = [o["name"] for o in declared if o.get("required") and o["name"] not in seen]
        if missing:
            return path, f"option {missing[0]!r} is required"
    return None


def _shown(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 40 else f"{text[:30]}… ({len(str(value))} characters)"


def _value_problem(
    spec: JSON, value: object, data: JSON, channel: Channel, world: World
) -> str | None:
    """Why Discord would refuse `value` for the option `spec`, or None."""
    kind = spec.get("type")
    if kind == STRING:
        wrong = _string_problem(spec, value)
    elif kind in (INTEGER, NUMBER):
        wrong = _number_problem(spec, value, integer=kind == INTEGER)
    elif kind == BOOLEAN:
        wrong = None if isinstance(value, bool) else "not a boolean"
    elif kind in (USER, MENTIONABLE):
        wrong = _user_problem(value, data, world)
    elif kind == CHANNEL:
        wrong = _channel_problem(spec, value, data, channel, world)
    else:
        raise DriverError(f"option type {kind} is not supported by the stand-in")
    if wrong is not None:
        return wrong
    choices = spec.get("choices")
    if choices and value not in [c.get("value") for c in choices]:
        return "not one of its choices"
    return None


def _string_problem(spec: JSON, value: object) -> str | None:
    if not isinstance(value, str):
        return "not a string"
    low = spec.get("min_length") or 0
    high = spec.get("max_length") or STRING_LIMIT
    if not low <= len(value) <= high:
        return f"{len(value)} characters, not {low} to {high}"
    return None


def _number_problem(spec: JSON, value: object, *, integer: bool) -> str | None:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return "not an integer" if integer else "not a number"
    if integer and not isinstance(value, int):
        return "not an integer"
    if not math.isfinite(value):
        return "not a finite number"
    minimum, maximum = spec.get("min_value"), spec.get("max_value")
    low = -INT53 if minimum is None else max(minimum, -INT53)
    high = INT53 if maximum is None else min(maximum, INT53)
    if not low <= value <= high:
        return f"outside {low} to {high}"
    return None


def _user_problem(value: object, data: JSON, world: World) -> str | None:
    if not isinstance(value, str) or not _SNOWFLAKE.fullmatch(value):
        return "not a user id"
    if int(value) not in world.users or value not in (data.get("resolved") or {}).get("users", {}):
        return "no such user"
    return None


def _channel_problem(
    spec: JSON, value: object, data: JSON, channel: Channel, world: World
) -> str | None:
    if not isinstance(value, str) or not _SNOWFLAKE.fullmatch(value):
        return "not a channel id"
    target = world.channels.get(int(value))
    resolved = (data.get("resolved") or {}).get("channels", {})
    if target is None or target.guild is not channel.guild or value not in resolved:
        return "no such channel here"
    kinds = spec.get("channel_types")
    if kinds and target.kind not in kinds:
        return f"a channel of type {int(target.kind)}, not one of {kinds}"
    return None
