"""What Discord checks of a slash command before the bot hears of it: each rule refuses what
breaks it (and the bot never sees the interaction), and lets through what keeps to it."""

from __future__ import annotations

import re
import secrets
from typing import Any

import pytest

from standin.invocations import INT53, InvocationRefused
from standin.server import StandIn
from standin.world import Interaction
from tests.standin.sample_bot import SampleBot

FIT = {"count": 1}
"""/sample options with nothing but its required option."""


async def test_values_at_every_limit_reach_the_bot(standin: StandIn, sample: SampleBot) -> None:
    bob = standin.person("Bob")
    given: dict[str, Any] = {
        "count": 13,
        "colour": "blue",
        "ratio": 1.0,
        "word": "abcde",
        "note": "x" * 6000,
        "big": INT53,
        "flag": False,
        "where": standin.channel,
        "who": bob,
    }
    result = await standin.person("Ann").slash(standin.channel, "sample options", **given)
    assert result.response_type == 4
    assert sample.options_seen == {**given, "where": standin.channel.id, "who": bob.id}
    await standin.person("Ann").slash(standin.channel, "sample options", count=1, big=-INT53)
    assert sample.options_seen == {"count": 1, "big": -INT53}


@pytest.mark.parametrize(
    ("name", "refused", "accepted", "why"),
    [
        ("count", 0, 1, "count=0: outside 1 to 13"),
        ("count", 14, 13, "count=14: outside 1 to 13"),
        ("count", "3", 3, "not an integer"),
        ("count", True, 2, "not an integer"),
        ("count", 2.5, 2, "not an integer"),
        ("big", 2**53, INT53, f"outside {-INT53} to {INT53}"),
        ("big", -(2**53), -INT53, f"outside {-INT53} to {INT53}"),
        ("big", 2**63, 0, f"outside {-INT53} to {INT53}"),
        ("ratio", 1.5, 0.5, "ratio=1.5: outside 0.0 to 1.0"),
        ("ratio", "0.5", 0.5, "not a number"),
        ("ratio", float("inf"), 0.0, "not a finite number"),
        ("word", "a", "ab", "1 characters, not 2 to 5"),
        ("word", "abcdef", "abcde", "6 characters, not 2 to 5"),
        ("note", "x" * 6001, "x" * 6000, "6001 characters, not 0 to 6000"),
        ("note", 7, "7", "not a string"),
        ("flag", "yes", True, "not a boolean"),
        ("colour", "green", "red", "not one of its choices"),
    ],
)
async def test_a_value_discord_would_not_send_never_reaches_the_bot(
    standin: StandIn, sample: SampleBot, name: str, refused: Any, accepted: Any, why: str
) -> None:
    ann = standin.person("Ann")
    with pytest.raises(InvocationRefused, match=re.escape(why)) as caught:
        await ann.slash(standin.channel, "sample options", **{**FIT, name: refused})
    assert caught.value.code == 50035
    assert caught.value.path.endswith(".value")
    assert sample.last_interaction is None and standin.interactions == {}
    result = await ann.slash(standin.channel, "sample options", **{**FIT, name: accepted})
    assert result.response_type == 4
    assert sample.options_seen == {**FIT, name: accepted}


async def test_users_and_channels_must_be_ones_discord_knows(
    standin: StandIn, sample: SampleBot
) -> None:
    ann = standin.person("Ann")
    thread = await standin.add_thread(standin.channel, "side")
    elsewhere = standin.world.add_text_channel(standin.world.add_guild("Other"), "general")
    forged: list[tuple[str, Any, str]] = [
        ("who", str(standin.world.snowflake()), "no such user"),
        ("who", "Bob", "not a user id"),
        ("where", thread, "a channel of type 11, not one of [0"),
        ("where", elsewhere, "no such channel here"),
        ("where", str(standin.channel.id), "no such channel here"),  # without resolved data
    ]
    for name, value, why in forged:
        with pytest.raises(InvocationRefused, match=re.escape(why)):
            await ann.slash(standin.channel, "sample options", count=1, **{name: value})
    assert sample.last_interaction is None
    await ann.slash(standin.channel, "sample options", count=1, where=standin.channel, who=ann)
    assert sample.options_seen == {"count": 1, "where": standin.channel.id, "who": ann.id}


async def test_options_the_command_does_not_declare_are_refused(
    standin: StandIn, sample: SampleBot
) -> None:
    ann = standin.person("Ann")
    with pytest.raises(InvocationRefused, match="no option 'colours'"):
        await ann.slash(standin.channel, "sample options", count=1, colours="red")
    with pytest.raises(InvocationRefused, match="option 'count' is required"):
        await ann.slash(standin.channel, "sample options", colour="red")
    with pytest.raises(InvocationRefused, match="no subcommand 'nope'"):
        await ann.slash(standin.channel, "sample nope")
    with pytest.raises(InvocationRefused, match="needs a subcommand"):
        await ann.slash(standin.channel, "sample")
    assert sample.last_interaction is None
    await ann.slash(standin.channel, "sample options", count=1, colour="red")
    assert sample.options_seen == {"count": 1, "colour": "red"}


async def test_only_an_autocomplete_option_takes_autocomplete(
    standin: StandIn, sample: SampleBot
) -> None:
    ann = standin.person("Ann")
    with pytest.raises(InvocationRefused, match="option 'count' has no autocomplete"):
        await ann.autocomplete(standin.channel, "sample options", "count", count="1")
    assert sample.last_interaction is None
    # Its required options may still be empty while one is typed; the value typed so far is
    # text, and the value finally sent need not be one of the suggestions.
    typed = await ann.autocomplete(standin.channel, "sample flavour", "name", name="zz")
    assert typed.response_type == 8 and typed.choices == []
    chosen = await ann.slash(standin.channel, "sample flavour", name="zzz")
    assert chosen.content == "flavour zzz"


def forged(standin: StandIn, kind: int, data: dict[str, Any]) -> Interaction:
    """An interaction as a modified client could send it, with any data."""
    return Interaction(
        id=standin.world.snowflake(),
        token=secrets.token_urlsafe(16),
        type=kind,
        user=standin.person("Ann").user,
        channel=standin.channel,
        data=data,
        created_at=standin.clock(),
    )


async def test_payloads_no_client_builds_are_refused(standin: StandIn, sample: SampleBot) -> None:
    command = standin.find_command("sample", standin.channel)
    hello = {"name": "name", "type": 3, "value": "Ann"}

    def invocation(*options: dict[str, Any], id_: object = None) -> dict[str, Any]:
        node = {"name": "hello", "type": 1, "options": list(options)}
        return {"id": str(id_ or command["id"]), "name": "sample", "type": 1, "options": [node]}

    for kind, data, why in (
        (2, invocation(hello, hello), "option 'name' given twice"),
        (2, invocation({**hello, "type": 4}), "option 'name' is of type 3"),
        (2, invocation({**hello, "focused": True}), "only an autocomplete interaction"),
        (4, invocation(hello), "one focused option, not 0"),
        (2, invocation(hello, id_=standin.world.snowflake()), "unknown application command"),
    ):
        with pytest.raises(InvocationRefused, match=re.escape(why)):
            await standin.deliver_interaction(forged(standin, kind, data))
    assert sample.last_interaction is None
    delivered = forged(standin, 2, invocation(hello))
    assert await standin.deliver_interaction(delivered)
    await standin.wait_for(lambda: delivered.acknowledged)


async def test_a_guild_only_command_is_not_offered_in_a_dm(
    standin: StandIn, sample: SampleBot
) -> None:
    ann = standin.person("Ann")
    dm = standin.world.dm_channel(ann.user)
    with pytest.raises(InvocationRefused, match="guild-only"):
        await ann.slash(dm, "here")
    assert sample.last_interaction is None
    assert (await ann.slash(standin.channel, "here")).content == "here"
    assert (await ann.slash(dm, "sample hello", name="Ann")).content == "Hello, Ann!"


@pytest.mark.parametrize(
    ("contexts", "dm_permission", "offered"),
    [
        ([0], True, False),  # contexts decide when there are any
        (None, False, False),
        ([0, 1], False, True),
        ([1], None, True),
        (None, None, True),
    ],
)
async def test_where_a_command_is_offered_follows_its_registration(
    standin: StandIn,
    sample: SampleBot,
    contexts: list[int] | None,
    dm_permission: bool | None,
    offered: bool,
) -> None:
    ann = standin.person("Ann")
    registered = standin.commands[None][("sample", 1)]
    registered.update(contexts=contexts, dm_permission=dm_permission)
    dm = standin.world.dm_channel(ann.user)
    if offered:
        assert (await ann.slash(dm, "sample hello", name="Ann")).content == "Hello, Ann!"
    else:
        with pytest.raises(InvocationRefused, match="not offered in a DM"):
            await ann.slash(dm, "sample hello", name="Ann")
        assert sample.last_interaction is None
