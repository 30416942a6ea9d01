"""The stand-in's HTTP surface seen without a bot: headers, errors, spec-absent behaviour and
the fixture's violation report."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from standin.server import StandIn
from standin.testing import running_standin, violations_report

BAD_BODY = {
    "content": "bad",
    "components": [
        {"type": 1, "components": [{"type": 2, "style": 1, "label": "x", "custom_id": "x" * 101}]}
    ],
}


@pytest.fixture
async def http(standin: StandIn) -> AsyncIterator[aiohttp.ClientSession]:
    headers = {"Authorization": f"Bot {standin.token}"}
    async with aiohttp.ClientSession(base_url=standin.base_url, headers=headers) as session:
        yield session


async def request(
    session: aiohttp.ClientSession, method: str, path: str, body: Any = None
) -> tuple[int, Any, Any]:
    async with session.request(method, "/api/v10" + path, json=body) as response:
        return response.status, await response.json(content_type=None), response.headers


async def test_json_answers_have_discord_py_content_type(
    standin: StandIn, http: aiohttp.ClientSession
) -> None:
    status, body, headers = await request(http, "GET", "/users/@me")
    assert status == 200 and body["id"] == str(standin.world.bot.id)
    assert headers["Content-Type"] == "application/json"


async def test_a_429_carries_what_discord_py_needs(
    standin: StandIn, http: aiohttp.ClientSession
) -> None:
    standin.rate_limits.inject_429("GET /users/@me", retry_after=1.5)
    status, body, headers = await request(http, "GET", "/users/@me")
    assert status == 429
    assert body["retry_after"] == 1.5 and body["global"] is False
    assert headers["Via"] and headers["Retry-After"] == "2"
    assert headers["X-RateLimit-Remaining"] == "0" and headers["X-RateLimit-Bucket"]
    assert (await request(http, "GET", "/users/@me"))[0] == 200


async def test_errors_have_discord_codes(standin: StandIn, http: aiohttp.ClientSession) -> None:
    assert (await request(http, "GET", "/channels/1"))[1]["code"] == 10003
    path = f"/channels/{standin.channel.id}/messages"
    assert (await request(http, "POST", path, {}))[1]["code"] == 50006
    assert (await request(http, "POST", "/no/such/route", {}))[0] == 404
    [violation] = standin.take_violations()
    assert violation.route == "POST /no/such/route"


async def test_limits_are_checked_without_the_spec() -> None:
    async with running_standin(spec_path=Path("/nonexistent/openapi.json")) as standin:
        assert not standin.spec_checks
        assert standin.spec_skip_reason
        headers = {"Authorization": f"Bot {standin.token}"}
        async with aiohttp.ClientSession(base_url=standin.base_url, headers=headers) as http:
            path = f"/channels/{standin.channel.id}/messages"
            status, body, _ = await request(http, "POST", path, BAD_BODY)
        assert (status, body["code"]) == (400, 50035)
        [violation] = standin.take_violations()
        assert violation.field == "components[0].components[0].custom_id"
        assert standin.messages(standin.channel) == []


async def test_unconsumed_violations_are_reported_by_route_and_field(
    standin: StandIn, http: aiohttp.ClientSession
) -> None:
    await request(http, "POST", f"/channels/{standin.channel.id}/messages", BAD_BODY)
    report = violations_report(standin)
    assert report is not None
    assert "POST /channels/{channel_id}/messages" in report
    assert "components[0].components[0].custom_id" in report
    standin.take_violations()
    assert violations_report(standin) is None


async def test_calls_are_logged_with_route_template_and_body(
    standin: StandIn, http: aiohttp.ClientSession
) -> None:
    path = f"/channels/{standin.channel.id}/messages"
    await request(http, "POST", path, {"content": "hi"})
    [call] = standin.calls_to("POST /channels/{channel_id}/messages")
    assert call.body == {"content": "hi"} and call.status == 200
    assert call.path == "/api/v10" + path and call.params == {"channel_id": str(standin.channel.id)}
    assert call.interaction_id is None


async def test_without_history_calls_keep_no_bodies_and_edits_no_revisions() -> None:
    # What `make bench-bot` runs: over a long run the kept bodies and revisions grew the
    # stand-in's memory without end.
    async with running_standin(spec_path=None, keep_history=False) as standin:
        headers = {"Authorization": f"Bot {standin.token}"}
        async with aiohttp.ClientSession(base_url=standin.base_url, headers=headers) as http:
            path = f"/channels/{standin.channel.id}/messages"
            status, sent, _ = await request(http, "POST", path, {"content": "draft"})
            assert status == 200
            status, _, _ = await request(http, "PATCH", f"{path}/{sent['id']}", {"content": "v2"})
            assert status == 200
        posted, edited = standin.calls[-2:]
        assert (posted.route, posted.status) == ("POST /channels/{channel_id}/messages", 200)
        assert (edited.route, edited.status) == (
            "PATCH /channels/{channel_id}/messages/{message_id}",
            200,
        )
        assert posted.body is None and posted.response is None and edited.body is None
        [message] = standin.messages(standin.channel)
        assert message.content == "v2" and message.history == []


async def test_a_body_the_stand_in_cannot_handle_fails_fast_and_loud(
    standin: StandIn, http: aiohttp.ClientSession
) -> None:
    status, body, _ = await request(http, "POST", "/users/@me/channels", ["not", "an", "object"])
    assert status == 400 and body["code"] == 50035
    messages = [v.message for v in standin.take_violations()]
    assert any("could not handle" in m for m in messages), messages


async def test_invalid_json_is_refused_with_50109(
    standin: StandIn, http: aiohttp.ClientSession
) -> None:
    path = f"/api/v10/channels/{standin.channel.id}/messages"
    headers = {"Content-Type": "application/json"}
    async with http.post(path, data=b"{not json", headers=headers) as response:
        assert response.status == 400
        assert (await response.json())["code"] == 50109
    [violation] = standin.take_violations()
    assert "not valid JSON" in violation.message


async def test_every_read_route_answers_in_the_specs_shape(
    standin: StandIn, http: aiohttp.ClientSession
) -> None:
    if not standin.spec_checks:
        pytest.skip(f"no OpenAPI description: {standin.spec_skip_reason}")
    ann = standin.world.add_user("Ann")
    thread = standin.world.add_thread(standin.channel, "t")
    channel, guild = standin.channel.id, standin.guild.id
    status, dm, _ = await request(http, "POST", "/users/@me/channels", {"recipient_id": ann.id})
    assert status == 200
    message = await request(http, "POST", f"/channels/{channel}/messages", {"content": "hi"})
    message_id = message[1]["id"]
    app = standin.application_id
    paths = [
        "/gateway",
        "/gateway/bot",
        "/users/@me",
        f"/users/{ann.id}",
        "/oauth2/applications/@me",
        f"/applications/{app}/commands",
        f"/applications/{app}/guilds/{guild}/commands",
        f"/channels/{channel}",
        f"/channels/{thread.id}",
        f"/channels/{dm['id']}",
        f"/channels/{channel}/messages",
        f"/channels/{channel}/messages/{message_id}",
        f"/guilds/{guild}/channels",
        f"/guilds/{guild}/members/{ann.id}",
    ]
    for path in paths:
        status, _, _ = await request(http, "GET", path)
        assert status == 200, path
    assert standin.violations == []
    assert len(standin.calls) == len(paths) + 2
