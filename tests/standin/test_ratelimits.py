"""Rate limits: Discord-shaped 429s that the real discord.py honours, losing nothing."""

from __future__ import annotations

import discord
import pytest

from standin.ratelimit import RateLimits
from standin.server import StandIn
from standin.testing import ManualClock
from tests.standin.sample_bot import SampleBot

POST_MESSAGE = "POST /channels/{channel_id}/messages"
CALLBACK = "POST /interactions/{interaction_id}/{interaction_token}/callback"


def contents(standin: StandIn) -> list[str]:
    return [m.content for m in standin.messages(standin.channel)]


async def test_a_429_is_honoured_and_the_message_lands_once(
    standin: StandIn, sample: SampleBot
) -> None:
    standin.rate_limits.inject_429(POST_MESSAGE, times=1, retry_after=0.05)
    await standin.person("Ann").slash(standin.channel, "sample say", text="hi")
    await standin.wait_for(lambda: contents(standin) == ["hi 0"])
    refused, accepted = standin.calls_to(POST_MESSAGE)
    assert refused.status == 429 and refused.response["retry_after"] == 0.05
    assert accepted.status == 200 and accepted.body == refused.body
    assert contents(standin) == ["hi 0"]
    assert sample.errors == []


async def test_route_limit_headers_make_discord_py_wait(
    standin: StandIn, sample: SampleBot
) -> None:
    standin.rate_limits.set_route(POST_MESSAGE, limit=2, per=0.1)
    await standin.person("Ann").slash(standin.channel, "sample say", text="n", times=6)
    expected = [f"n {i}" for i in range(6)]
    await standin.wait_for(lambda: contents(standin) == expected)
    statuses = [c.status for c in standin.calls_to(POST_MESSAGE)]
    # discord.py read X-RateLimit-Remaining: 0 and slept instead of earning a 429.
    assert statuses == [200] * 6
    assert standin.calls_to(POST_MESSAGE)[1].response is not None


async def test_global_limit_refuses_then_everything_lands_once(
    standin: StandIn, sample: SampleBot
) -> None:
    standin.rate_limits.set_global(3, per=0.1)
    await standin.person("Ann").slash(standin.channel, "sample say", text="g", times=8)
    expected = [f"g {i}" for i in range(8)]
    await standin.wait_for(lambda: contents(standin) == expected)
    calls = standin.calls_to(POST_MESSAGE)
    refused = [c for c in calls if c.status == 429]
    assert refused and all(c.response["global"] for c in refused)
    assert len(calls) == 8 + len(refused)
    assert sample.errors == []


async def test_interaction_callbacks_are_exempt_from_the_global_limit(
    standin: StandIn, sample: SampleBot
) -> None:
    standin.rate_limits.set_global(1, per=60)
    ann = standin.person("Ann")
    results = [await ann.slash(standin.channel, "sample hello", name=str(i)) for i in range(4)]
    assert [r.content for r in results] == [f"Hello, {i}!" for i in range(4)]
    assert all(c.status == 200 for c in standin.calls[-4:])


@pytest.mark.standin(clock=ManualClock())
async def test_interaction_tokens_live_fifteen_minutes(standin: StandIn, sample: SampleBot) -> None:
    assert isinstance(standin.clock, ManualClock)
    await standin.person("Ann").slash(standin.channel, "sample hello", name="x")
    interaction = sample.last_interaction
    assert interaction is not None
    standin.clock.advance(14 * 60)
    await interaction.followup.send("still in time")
    standin.clock.advance(60 + 1)
    with pytest.raises(discord.HTTPException) as raised:
        await interaction.followup.send("too late")
    assert (raised.value.status, raised.value.code) == (401, 50027)


def test_route_buckets_count_per_major_parameter_and_reset() -> None:
    clock = ManualClock()
    limits = RateLimits(global_limit=None, clock=clock)
    limits.set_route(POST_MESSAGE, limit=2, per=1.0)
    first = limits.check(POST_MESSAGE, "1", exempt_global=False)
    assert first.allowed and first.headers["X-RateLimit-Remaining"] == "1"
    assert limits.check(POST_MESSAGE, "1", exempt_global=False).allowed
    clock.advance(0.25)
    refused = limits.check(POST_MESSAGE, "1", exempt_global=False)
    assert not refused.allowed and refused.retry_after == 0.75 and refused.scope == "user"
    assert limits.check(POST_MESSAGE, "2", exempt_global=False).allowed  # another channel
    clock.advance(0.75)
    assert limits.check(POST_MESSAGE, "1", exempt_global=False).allowed


def test_global_limit_spares_exempt_routes() -> None:
    clock = ManualClock()
    limits = RateLimits(global_limit=1, clock=clock)
    assert limits.check("GET /users/@me", "", exempt_global=False).allowed
    refused = limits.check("GET /users/@me", "", exempt_global=False)
    assert not refused.allowed and refused.is_global
    assert refused.headers["X-RateLimit-Global"] == "true"
    assert limits.check(CALLBACK, "", exempt_global=True).allowed
