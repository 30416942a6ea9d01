"""A tiny Activity, playing an application's web server for the stand-in's Discord client: a
page that loads the vendored Embedded App SDK unmodified (cogs/web/static/discord-sdk.js)
under a Content-Security-Policy like the web room's, runs the SDK's handshake, authorize and
authenticate, and a `/api/token` endpoint that exchanges the page's code at the stand-in's
`/oauth2/token` with the application's secret and reads `/users/@me` with the token."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp
from aiohttp import web

from standin.server import StandIn

SDK = Path(__file__).resolve().parents[2] / "cogs" / "web" / "static" / "discord-sdk.js"
CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; "
    "base-uri 'none'; form-action 'none'; frame-ancestors 'self'"
)
"""The web room's policy, but for its frame-ancestors: the client page frames the Activity."""

SCRIPT = """"use strict";
(async function () {
  var body = document.body;
  function show(key, value) { body.dataset[key] = value; }
  try {
    var clientId = body.dataset.clientId;
    var sdk = new DiscordSDK(clientId);
    show("instance", sdk.instanceId);
    show("channel", sdk.channelId);
    show("guild", sdk.guildId || "");
    show("platform", sdk.platform);
    show("location", sdk.locationId);
    await sdk.ready();
    function participants(data) {
      show("participants", data.participants.map(function (p) { return p.username; })
        .sort().join(","));
    }
    await sdk.subscribe("ACTIVITY_INSTANCE_PARTICIPANTS_UPDATE", participants);
    participants(await sdk.commands.getActivityInstanceConnectedParticipants());
    var granted = await sdk.commands.authorize({
      client_id: clientId, response_type: "code", state: "", prompt: "none", scope: ["identify"],
    });
    var answer = await fetch("/api/token", {
      method: "POST",
      headers: {"Content-Type": "application/json"},
      body: JSON.stringify({code: granted.code}),
    });
    if (!answer.ok) throw new Error("the token exchange answered " + answer.status);
    var token = await answer.json();
    var auth = await sdk.commands.authenticate({access_token: token.access_token});
    show("user", auth.user.id);
    show("username", auth.user.username);
    show("scopes", auth.scopes.join(" "));
    show("locale", (await sdk.commands.userSettingsGetLocale()).locale);
    show("channelName", (await sdk.commands.getChannel({channel_id: sdk.channelId})).name);
    show("done", "yes");
  } catch (error) {
    show("error", error && error.message ? error.message : JSON.stringify(error));
  }
})();
"""


@dataclass
class ActivityApp:
    """The running app: its address and the people whose codes it exchanged."""

    url: str
    exchanged: list[str] = field(default_factory=list)
    """The user id `/users/@me` gave for each code exchanged."""
    refusals: list[Any] = field(default_factory=list)
    """What the stand-in answered to an exchange it refused."""


@asynccontextmanager
async def activity_app(standin: StandIn) -> AsyncIterator[ActivityApp]:
    """The Activity's server, on a free port, for as long as the block runs."""
    sdk = SDK.read_bytes()
    state = ActivityApp("")

    async def page(request: web.Request) -> web.Response:
        html = (
            '<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>Activity</title>'
            f'</head><body data-client-id="{standin.application_id}">'
            '<script src="/static/discord-sdk.js"></script><script src="/app.js"></script>'
            "</body></html>\n"
        )
        return web.Response(text=html, content_type="text/html")

    async def token(request: web.Request) -> web.Response:
        code = (await request.json())["code"]
        form = {
            "client_id": str(standin.application_id),
            "client_secret": standin.client_secret,
            "grant_type": "authorization_code",
            "code": code,
        }
        async with aiohttp.ClientSession() as http:
            async with http.post(f"{standin.api_base}/oauth2/token", data=form) as answer:
                granted = await answer.json()
                if answer.status != 200:
                    state.refusals.append(granted)
                    return web.json_response({"error": "refused"}, status=403)
            headers = {"Authorization": f"Bearer {granted['access_token']}"}
            async with http.get(f"{standin.api_base}/users/@me", headers=headers) as answer:
                user = await answer.json()
        state.exchanged.append(user["id"])
        body = {"access_token": granted["access_token"], "user": user}
        return web.Response(text=json.dumps(body), content_type="application/json")

    async def sdk_script(request: web.Request) -> web.Response:
        return web.Response(body=sdk, content_type="text/javascript")

    async def app_script(request: web.Request) -> web.Response:
        return web.Response(text=SCRIPT, content_type="text/javascript")

    @web.middleware
    async def policy(request: web.Request, handler: Any) -> web.StreamResponse:
        response: web.StreamResponse = await handler(request)
        response.headers["Content-Security-Policy"] = CSP
        return response

    app = web.Application(middlewares=[policy])
    app.router.add_get("/", page)
    app.router.add_get("/static/discord-sdk.js", sdk_script)
    app.router.add_get("/app.js", app_script)
    app.router.add_post("/api/token", token)
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
    state.url = f"http://127.0.0.1:{port}"
    try:
        yield state
    finally:
        await runner.cleanup()
