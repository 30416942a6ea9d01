"""The stand-in's Discord client in a real browser: the vendored Embedded App SDK, unmodified,
runs its handshake, authorize and authenticate against it inside headless Chromium, and the
Activity ends up knowing who the person is."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from standin.activity_client import ActivityClient
from standin.server import StandIn
from tests.browsers import chromium, needs_chromium
from tests.standin.activity_app import SDK, activity_app

pytestmark = needs_chromium


async def activity_state(page: Any, until: str = "done") -> dict[str, str]:
    """The framed Activity's `data-*` once it has `until` (or an error)."""
    await page.wait_for_selector("iframe")
    frame = page.frames[1]
    await frame.wait_for_selector(
        f"body[data-{until}], body[data-error]", state="attached", timeout=15_000
    )
    state: dict[str, str] = await frame.evaluate("Object.assign({}, document.body.dataset)")
    return state


async def participants(page: Any, expected: str) -> None:
    """Wait until the Activity in `page` shows these participants. Polled from here: the page's
    policy (script-src 'self') forbids the string evaluation wait_for_function polls with."""
    frame = page.frames[1]
    for _ in range(100):
        if await frame.evaluate("document.body.dataset.participants") == expected:
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"participants never became {expected!r}")


async def test_the_sdk_learns_the_person_through_authorize_and_authenticate(
    standin: StandIn,
) -> None:
    ann = standin.person("Ann", locale="nl")
    async with (
        activity_app(standin) as app,
        ActivityClient(standin, {"/": app.url}, record=True) as client,
        chromium() as browser,
    ):
        frame = client.open(ann, standin.channel)
        page = await browser.new_page()
        await page.goto(client.frame_url(frame))
        state = await activity_state(page)
        assert "error" not in state, state
        assert state["user"] == str(ann.user.id) and state["username"] == "ann"
        assert state["scopes"] == "identify" and state["locale"] == "nl"
        # What the SDK read from the URL the client framed.
        assert state["instance"] == frame.instance.id and state["platform"] == "desktop"
        assert state["channel"] == str(standin.channel.id)
        assert state["guild"] == str(standin.guild.id)
        assert state["channelName"] == "general"
        assert state["location"] == f"gc-{standin.guild.id}-{standin.channel.id}"
        # The app's server exchanged the one code, and /users/@me named Ann.
        assert app.exchanged == [str(ann.user.id)]
        assert frame.authenticated is ann.user and len(frame.codes) == 1
        assert frame.received[0][0] == 0 and frame.sdk_version == "2.5.0"
        assert frame.commands == [
            "SUBSCRIBE",
            "GET_ACTIVITY_INSTANCE_CONNECTED_PARTICIPANTS",
            "AUTHORIZE",
            "AUTHENTICATE",
            "USER_SETTINGS_GET_LOCALE",
            "GET_CHANNEL",
        ]
        assert frame.unanswered == [] and frame.logs == []
        # The proxy kept every answer it passed the Activity, byte for byte.
        kept = {(a.method, a.path): a for a in client.answers}
        assert set(kept) - {("GET", "/favicon.ico")} == {
            ("GET", "/"),
            ("GET", "/static/discord-sdk.js"),
            ("GET", "/app.js"),
            ("POST", "/api/token"),
        }
        assert kept["GET", "/static/discord-sdk.js"].content() == SDK.read_bytes()
        token = json.loads(kept["POST", "/api/token"].content())
        assert frame.authenticated is standin.access_token(token["access_token"]).user
        assert kept["GET", "/"].status == 200 and kept["GET", "/"].authorization is None


async def test_a_second_person_joins_the_instance_and_the_first_sees_them(
    standin: StandIn,
) -> None:
    ann, bob = standin.person("Ann"), standin.person("Bob")
    async with (
        activity_app(standin) as app,
        ActivityClient(standin, {"/": app.url}) as client,
        chromium() as browser,
    ):
        first = client.open(ann, standin.channel)
        ann_page = await browser.new_page()
        await ann_page.goto(client.frame_url(first))
        await activity_state(ann_page)
        await participants(ann_page, "ann")
        second = client.open(bob, instance=first.instance)
        bob_page = await browser.new_page()
        await bob_page.goto(client.frame_url(second))
        assert (await activity_state(bob_page))["user"] == str(bob.user.id)
        await participants(ann_page, "ann,bob")
        assert second.instance is first.instance and app.exchanged == [
            str(ann.user.id),
            str(bob.user.id),
        ]


async def test_a_person_who_declines_leaves_the_activity_without_a_code(
    standin: StandIn,
) -> None:
    async with (
        activity_app(standin) as app,
        ActivityClient(standin, {"/": app.url}) as client,
        chromium() as browser,
    ):
        frame = client.open(standin.person("Ann"), standin.channel, declines=True)
        page = await browser.new_page()
        await page.goto(client.frame_url(frame))
        state = await activity_state(page)
        assert "cancelled" in state["error"]
        assert frame.codes == [] and app.exchanged == [] and frame.authenticated is None


async def test_a_closed_page_or_activity_leaves_the_instance(standin: StandIn) -> None:
    ann, bob = standin.person("Ann"), standin.person("Bob")
    async with (
        activity_app(standin) as app,
        ActivityClient(standin, {"/": app.url}) as client,
        chromium() as browser,
    ):
        first = client.open(ann, standin.channel)
        second = client.open(bob, instance=first.instance)
        ann_page, bob_page = await browser.new_page(), await browser.new_page()
        await ann_page.goto(client.frame_url(first))
        await bob_page.goto(client.frame_url(second))
        await activity_state(ann_page)
        await activity_state(bob_page)
        await participants(ann_page, "ann,bob")
        # Bob's window closes: within a heartbeat he has left, and Ann's page is told.
        await bob_page.close()
        await standin.wait_for(lambda: second.closed is not None)
        assert first.instance.users == [ann.user]
        await participants(ann_page, "ann")
        # Ann closes the Activity: the client takes the frame away and the instance ends.
        client.close(first)
        await ann_page.wait_for_selector("body[data-closed]", state="attached")
        assert await ann_page.query_selector("iframe") is None
        assert standin.activity_instances == {}
