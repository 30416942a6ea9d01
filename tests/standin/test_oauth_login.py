"""Discord's OAuth2 page in a plain browser, as the stand-in plays it: "Log in with Discord",
the person's approval or refusal, the redirect back with the code and the state, and each
request Discord refuses."""

from __future__ import annotations

import html
import secrets
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from urllib.parse import parse_qs, urlencode, urlsplit

import aiohttp
import pytest
from aiohttp import web
from yarl import URL

from standin.oauth_login import LOGIN_COOKIE
from standin.server import StandIn
from tests.browsers import chromium, needs_chromium

REDIRECT = "https://ohhell.example.org/login/done?from=table"


def authorize_url(standin: StandIn, **changes: str) -> str:
    fields = {
        "client_id": str(standin.application_id),
        "response_type": "code",
        "redirect_uri": REDIRECT,
        "scope": "identify",
        "state": "s-123",
        **changes,
    }
    return f"/oauth2/authorize?{urlencode(fields)}"


@asynccontextmanager
async def browser_of(standin: StandIn, name: str | None) -> AsyncIterator[aiohttp.ClientSession]:
    """A browser logged in to Discord as `name` (None: nobody), that follows no redirect."""
    jar = aiohttp.CookieJar(unsafe=True)
    if name is not None:
        cookie = standin.login_cookie(standin.person(name))
        jar.update_cookies({cookie["name"]: cookie["value"]}, URL(standin.base_url))
    async with aiohttp.ClientSession(base_url=standin.base_url, cookie_jar=jar) as session:
        yield session


def query(location: str) -> dict[str, str]:
    return {k: v[0] for k, v in parse_qs(urlsplit(location).query).items()}


async def decide(
    session: aiohttp.ClientSession, standin: StandIn, decision: str, **changes: str
) -> str:
    """Open the page, press a button; the Location Discord redirects to."""
    async with session.get(authorize_url(standin, **changes), allow_redirects=False) as page:
        assert page.status == 200 and 'id="authorize"' in await page.text()
    form = dict(parse_qs(urlsplit(authorize_url(standin, **changes)).query))
    fields = {k: v[0] for k, v in form.items()} | {"decision": decision}
    async with session.post("/oauth2/authorize", data=fields, allow_redirects=False) as answer:
        assert answer.status == 302
        return answer.headers["Location"]


async def exchange(standin: StandIn, code: str, redirect_uri: str) -> str:
    """The user id the code's token reads from /users/@me."""
    form = {
        "client_id": str(standin.application_id),
        "client_secret": standin.client_secret,
        "grant_type": "authorization_code",
        "code": code,
        "redirect_uri": redirect_uri,
    }
    async with aiohttp.ClientSession() as http:
        async with http.post(f"{standin.api_base}/oauth2/token", data=form) as answer:
            token = (await answer.json())["access_token"]
        headers = {"Authorization": f"Bearer {token}"}
        async with http.get(f"{standin.api_base}/users/@me", headers=headers) as answer:
            user_id: str = (await answer.json())["id"]
            return user_id


async def test_authorize_redirects_back_with_a_code_and_the_state(standin: StandIn) -> None:
    standin.redirect_uris.add(REDIRECT)
    async with browser_of(standin, "Ann") as browser:
        location = await decide(browser, standin, "authorize")
    assert location.startswith("https://ohhell.example.org/login/done?")
    answer = query(location)
    assert answer["from"] == "table" and answer["state"] == "s-123"
    assert await exchange(standin, answer["code"], REDIRECT) == str(standin.person("Ann").user.id)


async def test_cancel_redirects_back_with_access_denied(standin: StandIn) -> None:
    standin.redirect_uris.add(REDIRECT)
    async with browser_of(standin, "Ann") as browser:
        answer = query(await decide(browser, standin, "cancel"))
    assert answer["error"] == "access_denied" and answer["state"] == "s-123"
    assert "code" not in answer


@pytest.mark.parametrize(
    ("changes", "text"),
    [
        ({"client_id": "42"}, "Unknown application"),
        ({"redirect_uri": "https://evil.example.org/"}, "Invalid OAuth2 redirect_uri"),
    ],
)
async def test_what_could_leak_a_code_gets_an_error_page_and_no_redirect(
    standin: StandIn, changes: dict[str, str], text: str
) -> None:
    standin.redirect_uris.add(REDIRECT)
    async with browser_of(standin, "Ann") as browser:
        url = authorize_url(standin, **changes)
        async with browser.get(url, allow_redirects=False) as page:
            assert page.status == 400 and text in await page.text()
        fields = {k: v[0] for k, v in parse_qs(urlsplit(url).query).items()}
        data = fields | {"decision": "authorize"}
        async with browser.post("/oauth2/authorize", data=data, allow_redirects=False) as page:
            assert page.status == 400
    assert standin._grants == {}


@pytest.mark.parametrize(
    ("changes", "error"),
    [
        ({"response_type": "token"}, "unsupported_response_type"),
        ({"scope": "identify admin"}, "invalid_scope"),
        ({"scope": ""}, "invalid_scope"),
    ],
)
async def test_a_wrong_request_is_redirected_back_as_an_oauth2_error(
    standin: StandIn, changes: dict[str, str], error: str
) -> None:
    standin.redirect_uris.add(REDIRECT)
    url = authorize_url(standin, **changes)
    async with (
        browser_of(standin, "Ann") as browser,
        browser.get(url, allow_redirects=False) as page,
    ):
        assert page.status == 302
        answer = query(page.headers["Location"])
    assert answer["error"] == error and answer["state"] == "s-123"


async def test_nobody_logged_in_is_asked_to_log_in(standin: StandIn) -> None:
    standin.redirect_uris.add(REDIRECT)
    async with browser_of(standin, None) as browser:
        async with browser.get(authorize_url(standin), allow_redirects=False) as page:
            assert page.status == 401
        data = {"decision": "authorize", "client_id": str(standin.application_id)}
        data |= {"redirect_uri": REDIRECT, "response_type": "code", "scope": "identify"}
        async with browser.post("/oauth2/authorize", data=data, allow_redirects=False) as page:
            assert page.status == 401
    assert standin._grants == {}


async def test_prompt_none_skips_the_question_once_approved(standin: StandIn) -> None:
    standin.redirect_uris.add(REDIRECT)
    async with browser_of(standin, "Ann") as browser:
        url = authorize_url(standin, prompt="none")
        async with browser.get(url, allow_redirects=False) as page:
            assert page.status == 200  # never approved: asked
        await decide(browser, standin, "authorize")
        async with browser.get(url, allow_redirects=False) as page:
            assert page.status == 302 and "code" in query(page.headers["Location"])
        other = authorize_url(standin, prompt="none", scope="identify guilds")
        async with browser.get(other, allow_redirects=False) as page:
            assert page.status == 200  # more scopes: asked again


@needs_chromium
async def test_log_in_with_discord_in_a_browser(standin: StandIn) -> None:
    """A web page's "Log in with Discord": Discord's page, Authorize, back to the page, which
    checks its state, exchanges the code and greets the person by name."""
    ann = standin.person("Ann")
    ann.user.display_name = "<b>Ann</b>"
    app = web.Application()
    states: set[str] = set()
    redirect = ""

    async def start(request: web.Request) -> web.Response:
        state = secrets.token_urlsafe(8)
        states.add(state)
        fields = {"client_id": str(standin.application_id), "response_type": "code"}
        fields |= {"redirect_uri": redirect, "scope": "identify", "state": state}
        location = f"{standin.base_url}/oauth2/authorize?{urlencode(fields)}"
        return web.Response(status=302, headers={"Location": location})

    async def done(request: web.Request) -> web.Response:
        if request.query.get("state") not in states:
            return web.Response(status=400, text="bad state")
        user_id = await exchange(standin, request.query["code"], redirect)
        name = standin.world.users[int(user_id)].display_name
        return web.Response(
            text=f"<p id=hello>Hello {html.escape(name)}</p>", content_type="text/html"
        )

    app.router.add_get("/login", start)
    app.router.add_get("/login/done", done)
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    origin = f"http://127.0.0.1:{site._server.sockets[0].getsockname()[1]}"  # type: ignore[union-attr]
    redirect = f"{origin}/login/done"
    standin.redirect_uris.add(redirect)
    try:
        async with chromium() as browser:
            context = await browser.new_context()
            await context.add_cookies([standin.login_cookie(ann)])
            page = await context.new_page()
            await page.goto(f"{origin}/login")
            assert "Authorize" in await page.title()
            await page.click("#authorize")
            await page.wait_for_selector("#hello")
            assert await page.text_content("#hello") == "Hello <b>Ann</b>"
            assert page.url.startswith(redirect)
    finally:
        await runner.cleanup()


def test_the_login_cookie_names_the_person(standin: StandIn) -> None:
    cookie = standin.login_cookie(standin.person("Ann"))
    assert cookie["name"] == LOGIN_COOKIE and cookie["url"] == standin.base_url
    assert cookie["value"] != standin.login_cookie(standin.person("Ann"))["value"]
