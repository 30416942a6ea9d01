"""The stand-in's Discord client without a browser: its answers to the Embedded App SDK's
messages, every refusal among them, and the proxy that stands for `<app>.discordsays.com`."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import aiohttp
from aiohttp import web

from standin.activity_client import ActivityClient
from standin.activity_rpc import CLOSE, FRAME, HANDSHAKE, Frame
from standin.server import StandIn

NOWHERE = {"/": "http://127.0.0.1:9"}


def handshake(standin: StandIn, frame: Frame, **changes: Any) -> list[Any]:
    payload = {"v": 1, "encoding": "json", "client_id": str(standin.application_id)}
    return [HANDSHAKE, {**payload, "frame_id": frame.id, "sdk_version": "2.5.0", **changes}]


def command(cmd: str, nonce: str = "n1", **fields: Any) -> list[Any]:
    return [FRAME, {"cmd": cmd, "nonce": nonce, "args": {}, **fields}]


def ready_frame(standin: StandIn, client: ActivityClient, name: str = "Ann") -> Frame:
    frame = client.open(standin.person(name), standin.channel)
    client.rpc.receive(frame, handshake(standin, frame))
    return frame


def answer(frame: Frame) -> dict[str, Any]:
    opcode, payload = frame.sent[-1]
    assert opcode == FRAME
    return dict(payload)


async def token_for(standin: StandIn, name: str) -> str:
    form = {
        "client_id": str(standin.application_id),
        "client_secret": standin.client_secret,
        "grant_type": "authorization_code",
        "code": standin.authorize(standin.person(name)),
    }
    async with (
        aiohttp.ClientSession() as http,
        http.post(f"{standin.api_base}/oauth2/token", data=form) as response,
    ):
        token: str = (await response.json())["access_token"]
        return token


def test_the_handshake_is_answered_with_ready(standin: StandIn) -> None:
    client = ActivityClient(standin, NOWHERE)
    frame = ready_frame(standin, client)
    [ready, *_] = frame.sent
    assert ready[0] == FRAME and ready[1]["cmd"] == "DISPATCH" and ready[1]["evt"] == "READY"
    assert ready[1]["nonce"] is None and ready[1]["data"]["v"] == 1
    assert ready[1]["data"]["user"]["id"] == str(frame.user.id)
    assert frame.ready and frame.sdk_version == "2.5.0"


def test_a_handshake_for_another_application_or_version_closes(standin: StandIn) -> None:
    client = ActivityClient(standin, NOWHERE)
    for changes, code in (
        ({"client_id": "1"}, 4000),
        ({"v": 2}, 4004),
        ({"encoding": "etf"}, 4005),
    ):
        frame = client.open(standin.person("Ann"), standin.channel)
        client.rpc.receive(frame, handshake(standin, frame, **changes))
        assert frame.sent == [[CLOSE, {"code": code, "message": frame.sent[0][1]["message"]}]]
        assert frame.closed is not None and frame.closed[0] == code and not frame.ready
        client.rpc.receive(frame, command("AUTHORIZE"))
        assert len(frame.sent) == 1  # a closed connection answers nothing


def test_a_command_before_the_handshake_is_an_error_with_its_nonce(standin: StandIn) -> None:
    client = ActivityClient(standin, NOWHERE)
    frame = client.open(standin.person("Ann"), standin.channel)
    client.rpc.receive(frame, command("AUTHORIZE", nonce="early"))
    reply = answer(frame)
    assert reply["evt"] == "ERROR" and reply["nonce"] == "early"
    assert reply["data"]["code"] == 4000 and frame.codes == []


def test_an_unknown_command_is_invalid_and_kept_for_the_test(standin: StandIn) -> None:
    client = ActivityClient(standin, NOWHERE)
    frame = ready_frame(standin, client)
    client.rpc.receive(frame, command("START_PURCHASE"))
    assert answer(frame)["data"]["code"] == 4002 and frame.unanswered == ["START_PURCHASE"]


def test_a_malformed_message_closes_the_connection(standin: StandIn) -> None:
    client = ActivityClient(standin, NOWHERE)
    frame = ready_frame(standin, client)
    client.rpc.receive(frame, "hello")
    assert frame.sent[-1][0] == CLOSE and frame.closed is not None


def test_authorize_for_another_application_or_scope_is_refused(standin: StandIn) -> None:
    client = ActivityClient(standin, NOWHERE)
    frame = ready_frame(standin, client)
    client.rpc.receive(frame, command("AUTHORIZE", args={"client_id": "1", "scope": ["identify"]}))
    assert answer(frame)["data"]["code"] == 4007
    args = {"client_id": str(standin.application_id), "scope": ["identify", "admin"]}
    client.rpc.receive(frame, command("AUTHORIZE", args=args))
    assert answer(frame)["data"]["code"] == 5000 and frame.codes == []
    args["scope"] = "identify"
    client.rpc.receive(frame, command("AUTHORIZE", args=args))
    reply = answer(frame)
    assert reply["evt"] is None and reply["data"] == {"code": frame.codes[0]}


async def test_authenticate_takes_only_the_persons_own_valid_token(standin: StandIn) -> None:
    client = ActivityClient(standin, NOWHERE)
    frame = ready_frame(standin, client, "Ann")
    for token in ("made-up", await token_for(standin, "Bob")):
        client.rpc.receive(frame, command("AUTHENTICATE", args={"access_token": token}))
        assert answer(frame)["data"]["code"] == 4009 and frame.authenticated is None
    client.rpc.receive(frame, command("AUTHENTICATE"))
    assert answer(frame)["data"]["code"] == 4009
    token = await token_for(standin, "Ann")
    client.rpc.receive(frame, command("AUTHENTICATE", args={"access_token": token}))
    data = answer(frame)["data"]
    assert data["user"]["id"] == str(frame.user.id) and data["access_token"] == token
    assert data["application"]["id"] == str(standin.application_id)
    assert frame.authenticated is frame.user


def test_events_go_only_to_frames_that_subscribed(standin: StandIn) -> None:
    client = ActivityClient(standin, NOWHERE)
    ann = ready_frame(standin, client, "Ann")
    client.rpc.receive(ann, command("SUBSCRIBE", evt="NO_SUCH_EVENT"))
    assert answer(ann)["data"]["code"] == 4004
    client.rpc.receive(ann, command("SUBSCRIBE", evt="ACTIVITY_INSTANCE_PARTICIPANTS_UPDATE"))
    assert answer(ann)["data"] == {"evt": "ACTIVITY_INSTANCE_PARTICIPANTS_UPDATE"}
    bob = client.open(standin.person("Bob"), instance=ann.instance)
    client.rpc.receive(bob, handshake(standin, bob))
    update = answer(ann)
    assert update["cmd"] == "DISPATCH" and update["evt"] == "ACTIVITY_INSTANCE_PARTICIPANTS_UPDATE"
    assert [p["username"] for p in update["data"]["participants"]] == ["ann", "bob"]
    assert all(m[1].get("evt") != "ACTIVITY_INSTANCE_PARTICIPANTS_UPDATE" for m in bob.sent)
    client.rpc.receive(ann, command("UNSUBSCRIBE", evt="ACTIVITY_INSTANCE_PARTICIPANTS_UPDATE"))
    sent = len(ann.sent)
    client.rpc.receive(bob, [CLOSE, {"code": 1000, "message": "bye"}])
    assert len(ann.sent) == sent and bob.closed == (1000, "bye")


async def test_get_channel_answers_only_a_channel_the_person_may_see(standin: StandIn) -> None:
    client = ActivityClient(standin, NOWHERE)
    frame = ready_frame(standin, client)
    client.rpc.receive(frame, command("GET_CHANNEL", args={"channel_id": str(standin.channel.id)}))
    assert answer(frame)["data"]["name"] == "general"
    other = standin.world.add_guild("Elsewhere")
    other.members.pop(frame.user.id, None)
    hidden = standin.world.add_text_channel(other, "hidden")
    client.rpc.receive(frame, command("GET_CHANNEL", args={"channel_id": str(hidden.id)}))
    assert answer(frame)["data"]["code"] == 4005
    client.rpc.receive(frame, command("GET_CHANNEL", args={"channel_id": "x"}))
    assert answer(frame)["data"]["code"] == 4005


# --- the proxy ------------------------------------------------------------------------------


@asynccontextmanager
async def upstream(name: str, release: asyncio.Event) -> AsyncIterator[str]:
    """A server that says who it is and what it was asked, and streams events until released."""

    async def echo(request: web.Request) -> web.Response:
        body = {
            "server": name,
            "path": request.path_qs,
            "cookie": request.headers.get("Cookie"),
            "body": (await request.text()) or None,
        }
        return web.json_response(body, headers={"Set-Cookie": "session=abc; Path=/"})

    async def events(request: web.Request) -> web.StreamResponse:
        response = web.StreamResponse(headers={"Content-Type": "text/event-stream"})
        await response.prepare(request)
        await response.write(b"data: first\n\n")
        await release.wait()
        await response.write(b"data: second\n\n")
        return response

    app = web.Application()
    app.router.add_get("/events", events)
    app.router.add_route("*", "/{tail:.*}", echo)
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    try:
        yield f"http://127.0.0.1:{site._server.sockets[0].getsockname()[1]}"  # type: ignore[union-attr]
    finally:
        release.set()
        await runner.cleanup()


async def test_the_proxy_follows_the_longest_mapping(standin: StandIn) -> None:
    release = asyncio.Event()
    async with (
        upstream("web", release) as web_url,
        upstream("api", release) as api_url,
        ActivityClient(standin, {"/": web_url, "/api": f"{api_url}/v2"}) as client,
        aiohttp.ClientSession(base_url=client.base_url) as http,
    ):
        async with http.get("/t/abc?x=1") as response:
            assert (await response.json())["server"] == "web"
            assert (await response.json())["path"] == "/t/abc?x=1"
        async with http.post("/api/act", data="bid=2", headers={"Cookie": "s=1"}) as response:
            body = await response.json()
            assert (body["server"], body["path"], body["body"]) == ("api", "/v2/act", "bid=2")
            assert body["cookie"] == "s=1" and "session=abc" in response.headers["Set-Cookie"]
        async with http.get("/apiary") as response:
            assert (await response.json())["server"] == "web"


async def test_server_sent_events_pass_the_proxy_as_they_come(standin: StandIn) -> None:
    release = asyncio.Event()
    async with (
        upstream("web", release) as url,
        ActivityClient(standin, {"/": url}) as client,
        aiohttp.ClientSession() as http,
        http.get(f"{client.base_url}/events") as response,
    ):
        first = await asyncio.wait_for(response.content.readline(), 5)
        assert first == b"data: first\n"  # before the upstream has finished
        release.set()
        rest = await asyncio.wait_for(response.content.read(), 5)
        assert b"data: second" in rest


async def test_the_client_pages_and_an_unreachable_activity(standin: StandIn) -> None:
    ann = standin.person("Ann")
    ann.user.display_name = '"><img src=x onerror=alert(1)>'
    async with (
        ActivityClient(standin, NOWHERE) as client,
        aiohttp.ClientSession(base_url=client.base_url) as http,
    ):
        frame = client.open(ann, standin.channel)
        async with http.get(f"/.standin/client/{frame.id}") as response:
            page = await response.text()
            assert "<img" not in page and "&lt;img" in page
            assert f"frame_id={frame.id}" in page and "platform=desktop" in page
        for path in ("/.standin/client/nope", "/.standin/anything"):
            async with http.get(path) as response:
                assert response.status == 404
        async with http.get("/") as response:
            assert response.status == 502
