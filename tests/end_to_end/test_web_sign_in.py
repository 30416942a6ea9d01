"""Signing in at the pages, through the real client and the stand-in's OAuth2: an Activity's
code becomes a session for its person; "Log in with Discord" goes to Discord's page and back
with a signed state; a used, foreign or forged code, a forged, altered or expired session, a
state not started in this browser — each refused with its code and nothing given; the
application's secret and the access tokens never in a log; the pages Discord frames allowed
its frame, every other page none."""

from __future__ import annotations

import json
import logging
import socket
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any
from urllib.parse import parse_qs, urlsplit

import aiohttp
import pytest
from aiohttp import web_exceptions
from aiohttp.test_utils import make_mocked_request

from cogs.client import OhHellBot
from cogs.web.auth import AUTH, MAX_EXCHANGES, who
from cogs.web.auth import acting as acting_user
from cogs.web.sessions import Sessions
from standin.oauth import CODE_LIFETIME
from standin.server import StandIn
from tests.end_to_end.conftest import BotFactory
from tools.simulated_people import open_table

PUBLIC = "https://ohhell.example.org"

pytestmark = pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)


def sign_in_settings(standin: StandIn, **more: Any) -> dict[str, Any]:
    return {
        "public_url": PUBLIC,
        "web_port": 0,
        "discord_client_secret": standin.client_secret,
        "discord_api_base": standin.api_base,
        "discord_authorize_url": f"{standin.base_url}/oauth2/authorize",
        **more,
    }


class Site:
    """The bot's pages over HTTP, with what each answer said."""

    def __init__(self, bot: OhHellBot, http: aiohttp.ClientSession) -> None:
        assert bot.web is not None
        self.bot = bot
        self.base = f"http://127.0.0.1:{bot.web.port}"
        self.http = http
        self.bodies: list[str] = []

    async def post(self, path: str, **options: Any) -> tuple[int, Any]:
        async with self.http.post(self.base + path, allow_redirects=False, **options) as answer:
            text = await answer.text()
            self.bodies.append(text)
            assert answer.headers.get("Cache-Control") == "no-store" or answer.status == 404
            try:
                return answer.status, await answer.json(content_type=None)
            except ValueError:
                return answer.status, text

    async def session(self, code: Any) -> tuple[int, Any]:
        return await self.post("/activity/session", json={"code": code})

    async def renew(self, session: str) -> tuple[int, Any]:
        return await self.post("/activity/renew", headers={"Authorization": f"Session {session}"})


@asynccontextmanager
async def site(start_bot: BotFactory, settings: dict[str, Any]) -> AsyncIterator[Site]:
    async with start_bot(settings=settings) as bot, aiohttp.ClientSession() as http:
        yield Site(bot, http)


async def acting(bot: OhHellBot, header: str | None) -> int | None:
    """Who a request with this Authorization header acts for."""
    assert bot.web is not None and bot.web._runner is not None
    headers = {"Authorization": header} if header is not None else {}
    return await who(make_mocked_request("POST", "/", headers=headers, app=bot.web._runner.app))


async def test_an_activity_code_gives_its_person_a_session_that_renews(
    standin: StandIn, start_bot: BotFactory, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    ann, bob = standin.person("Ann"), standin.person("Bob")
    async with site(start_bot, sign_in_settings(standin)) as web:
        code = standin.authorize(ann, standin.application_id)
        status, answer = await web.session(code)
        assert status == 200, answer
        assert answer["user"] == {"id": str(ann.user.id), "name": ann.user.display_name}
        assert answer["expires_in"] == 900
        token = standin.access_token(answer["access_token"])
        assert token is not None and token.user is ann.user
        session = answer["session"]
        assert await acting(web.bot, f"Session {session}") == ann.user.id
        # Renewed: the same person, a new token.
        status, renewed = await web.renew(session)
        assert status == 200 and renewed["user"] == {"id": str(ann.user.id)}
        assert renewed["session"] != session or renewed["expires_in"] == 900
        assert await acting(web.bot, f"Session {renewed['session']}") == ann.user.id
        # Bob's code gives Bob's session, never Ann's.
        status, bobs = await web.session(standin.authorize(bob, standin.application_id))
        assert status == 200 and await acting(web.bot, f"Session {bobs['session']}") == bob.user.id
        # The code used once more: refused, and Discord revoked what it gave.
        assert await web.session(code) == (401, {"error": "code_refused"})
        assert standin.access_token(answer["access_token"]) is None
        # Nothing signed in the bodies but each one's own answer.
        access = [answer["access_token"], bobs["access_token"]]
        assert [sum(a in body for body in web.bodies) for a in access] == [1, 1]
        assert not [body for body in web.bodies if standin.client_secret in body]
    assert "sign-in at the pages on" in caplog.text  # the bot's own logs, captured
    for secret in (standin.client_secret, *access, code, session):
        assert secret not in caplog.text


async def test_bad_codes_and_sessions_are_refused_with_a_reason(
    standin: StandIn, start_bot: BotFactory
) -> None:
    ann = standin.person("Ann")
    async with site(start_bot, sign_in_settings(standin)) as web:
        redirect = f"{PUBLIC}/login/callback"
        standin.redirect_uris.add(redirect)
        for bad in ("", "not a code!", 12345, None, "x" * 201, ["a"]):
            assert await web.session(bad) == (400, {"error": "bad_request"}), bad
        assert await web.post("/activity/session", data=b"code=abc") == (
            400,
            {"error": "bad_request"},
        )
        too_large = await web.post("/activity/session", json={"code": "a" * 2000})
        assert too_large == (413, {"error": "too_large"})
        assert await web.session("unknowncode") == (401, {"error": "code_refused"})
        # A code older than Discord keeps one: refused, and nobody signed in.
        late = standin.authorize(ann)
        standin._grants[late].issued_at -= CODE_LIFETIME + 1
        assert await web.session(late) == (401, {"error": "code_refused"})
        assert standin._grants[late].used is False
        # A code asked for with a redirect is a browser's: not an Activity's.
        browser_code = standin.authorize(ann, redirect_uri=redirect)
        assert await web.session(browser_code) == (401, {"error": "code_refused"})

        _status, good = await web.session(standin.authorize(ann))
        session = good["session"]
        assert await web.post("/activity/renew") == (401, {"error": "session_missing"})
        altered = session[:-2] + ("AA" if session[-2:] != "AA" else "BB")
        key = await web.bot.tables.service.keys.link_key()
        other_key = Sessions(b"x" * 32).session(ann.user.id)
        expired = Sessions(key, clock=lambda: time.time() - 901).session(ann.user.id)
        assert web.bot.links is not None
        link = web.bot.links.table(standin.guild.id, ann.user.id).rsplit("/", 1)[1]
        for forged, reason in (
            (altered, "session_invalid"),
            (other_key, "session_invalid"),
            (link, "session_invalid"),
            ("", "session_missing"),
            ("é", "session_invalid"),
            (expired, "session_expired"),
        ):
            assert await web.renew(forged) == (401, {"error": reason}), forged
            assert await acting(web.bot, f"Session {forged}") is None
        assert await acting(web.bot, None) is None
        assert await acting(web.bot, f"Bearer {good['access_token']}") is None
        assert await acting(web.bot, f"Session {session}") == ann.user.id


async def test_a_wrong_secret_is_the_operators_fault_and_never_logged(
    standin: StandIn, start_bot: BotFactory, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    wrong = "not-the-secret-" + "s" * 20
    async with site(start_bot, sign_in_settings(standin, discord_client_secret=wrong)) as web:
        code = standin.authorize(standin.person("Ann"))
        assert await web.session(code) == (502, {"error": "discord_unavailable"})
        assert "DISCORD_CLIENT_SECRET" in caplog.text
        assert not [body for body in web.bodies if wrong in body]  # nor in the answer
    assert wrong not in caplog.text and code not in caplog.text
    # Discord took nothing: the code is still good for a right exchange.
    assert standin._grants[code].used is False


async def test_without_the_secret_there_is_no_sign_in(
    standin: StandIn, start_bot: BotFactory
) -> None:
    settings = sign_in_settings(standin)
    del settings["discord_client_secret"]
    async with site(start_bot, settings) as web:
        for path in ("/activity/session", "/activity/renew", "/login/session", "/logout"):
            assert (await web.post(path, json={"code": "abc"}))[0] == 404, path
        for path in ("/login?next=/t/x", "/login/callback", "/?instance_id=1&frame_id=2"):
            async with web.http.get(web.base + path, allow_redirects=False) as answer:
                assert answer.status == 404, path
        assert await acting(web.bot, "Session anything") is None


async def test_discord_may_frame_the_tables_and_the_activity_and_nothing_else(
    standin: StandIn, start_bot: BotFactory
) -> None:
    async with site(start_bot, sign_in_settings(standin)) as web:
        assert web.bot.links is not None
        _, table_id = await open_table(standin, [standin.person("Ann")])
        table = web.bot.links.table(standin.guild.id, table_id).removeprefix(PUBLIC)
        board = web.bot.links.board(standin.guild.id).removeprefix(PUBLIC)
        framed = "frame-ancestors 'self' https://discord.com https://ptb.discord.com"
        for path, allowed in (
            (table, True),
            ("/?instance_id=i-1&frame_id=f&channel_id=1&guild_id=2", True),
            (board, False),
            ("/", False),
            (table + "x", False),
            ("/static/session.js", False),
            ("/login?next=/t/nothing", False),
        ):
            async with web.http.get(web.base + path, allow_redirects=False) as answer:
                policy = answer.headers["Content-Security-Policy"]
                assert (framed in policy) is allowed, path
                assert ("frame-ancestors 'none'" in policy) is not allowed, path


async def test_log_in_with_discord_goes_to_discords_page_and_back_to_the_table(
    standin: StandIn, start_bot: BotFactory, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    ann = standin.person("Ann")
    callback = f"{PUBLIC}/login/callback"
    standin.redirect_uris.add(callback)
    async with site(start_bot, sign_in_settings(standin)) as web:
        assert web.bot.links is not None
        _, table_id = await open_table(standin, [ann])
        table = web.bot.links.table(standin.guild.id, table_id).removeprefix(PUBLIC)

        async def login(next_path: str) -> aiohttp.ClientResponse:
            async with web.http.get(
                web.base + "/login", params={"next": next_path}, allow_redirects=False
            ) as answer:
                return answer

        for elsewhere in (
            "https://evil.example/t/x",
            "//evil.example/t/abc",
            "/t/../../evil",
            "/g/abc",
            table + "/events",
            table[:-1] + "A" if not table.endswith("A") else table[:-1] + "B",
            "",
        ):
            assert (await login(elsewhere)).status == 404, elsewhere
        went = await login(table)
        assert went.status == 302
        where = urlsplit(went.headers["Location"])
        asked = {k: v[0] for k, v in parse_qs(where.query).items()}
        assert (
            f"{where.scheme}://{where.netloc}{where.path}" == f"{standin.base_url}/oauth2/authorize"
        )
        assert asked["client_id"] == str(standin.application_id)
        assert asked["redirect_uri"] == callback and asked["scope"] == "identify"
        assert asked["response_type"] == "code"
        state_cookie = went.cookies["ohhell_login_state"]
        assert state_cookie["httponly"] and state_cookie["secure"]
        assert state_cookie["samesite"] == "Lax" and state_cookie["path"] == "/login"
        state, nonce = asked["state"], state_cookie.value

        async def back(query: dict[str, str], cookie: str | None = nonce, **headers: str) -> Any:
            cookies = {"ohhell_login_state": cookie} if cookie else {}
            async with (
                aiohttp.ClientSession(cookies=cookies) as browser,
                browser.get(
                    web.base + "/login/callback",
                    params=query,
                    headers=headers,
                    allow_redirects=False,
                ) as answer,
            ):
                return answer, await answer.text()

        code = standin.authorize(ann, redirect_uri=callback)
        # Refused, each with a page in words, and the code left unused.
        expired_sentence = "This sign-in has expired or did not start here."
        for query, cookie in (
            ({"code": code, "state": state}, None),
            ({"code": code, "state": state}, "another-browsers-nonce"),
            ({"code": code, "state": state[:-2] + "AA"}, nonce),
            ({"code": code}, nonce),
            ({"state": state}, nonce),
        ):
            answer, page = await back(query, cookie)
            assert answer.status == 400 and expired_sentence in page, query
            assert "ohhell_login" not in answer.cookies
        assert standin._grants[code].used is False
        answer, page = await back({"error": "access_denied", "state": state})
        assert answer.status == 400 and "You did not allow the sign-in." in page
        answer, page = await back(
            {"error": "access_denied", "state": state}, **{"Accept-Language": "fr"}
        )
        assert "Tu n’as pas autorisé la connexion." in page
        assert 'lang="fr"' in page
        # The code, the state and this browser's nonce: back to the table, logged in.
        answer, _ = await back({"code": code, "state": state})
        assert answer.status == 303 and answer.headers["Location"] == PUBLIC + table
        kept = answer.cookies["ohhell_login"]
        assert kept["httponly"] and kept["secure"] and kept["samesite"] == "Lax"
        assert kept["path"] == "/" and int(kept["max-age"]) == 12 * 3600
        # The same code again: Discord refuses it.
        answer, page = await back({"code": code, "state": state})
        assert answer.status == 400 and expired_sentence in page

        # The page trades the cookie for a session; a cookie alone never acts.
        assert await acting(web.bot, f"Session {kept.value}") is None
        async with aiohttp.ClientSession(cookies={"ohhell_login": kept.value}) as browser:
            async with browser.post(web.base + "/login/session") as answer:
                assert answer.status == 200
                got = await answer.json()
            async with browser.post(
                web.base + "/login/session", headers={"Sec-Fetch-Site": "cross-site"}
            ) as answer:
                assert answer.status == 403 and await answer.json() == {"error": "cross_site"}
            async with browser.post(web.base + "/logout") as answer:
                assert answer.status == 204 and answer.cookies["ohhell_login"].value == ""
        assert got["user"] == {"id": str(ann.user.id), "name": ann.user.display_name}
        assert await acting(web.bot, f"Session {got['session']}") == ann.user.id
        assert "access_token" not in got
        assert await web.post("/login/session") == (401, {"error": "login_missing"})
        async with (
            aiohttp.ClientSession(cookies={"ohhell_login": got["session"]}) as browser,
            browser.post(web.base + "/login/session") as answer,
        ):
            assert answer.status == 401 and await answer.json() == {"error": "login_invalid"}
    for secret in (standin.client_secret, code, kept.value, got["session"]):
        assert secret not in caplog.text


async def test_a_handler_that_needs_someone_is_told_why_there_is_nobody(
    standin: StandIn, start_bot: BotFactory
) -> None:
    ann = standin.person("Ann")
    async with site(start_bot, sign_in_settings(standin)) as web:
        assert web.bot.web is not None and web.bot.web._runner is not None
        app = web.bot.web._runner.app
        key = await web.bot.tables.service.keys.link_key()
        expired = Sessions(key, clock=lambda: time.time() - 901).session(ann.user.id)
        for header, reason in (
            (None, "session_missing"),
            (f"Bearer {expired}", "session_missing"),
            (f"Session {expired}", "session_expired"),
            (f"Session {expired[:-1]}", "session_invalid"),
        ):
            headers = {"Authorization": header} if header else {}
            with pytest.raises(web_exceptions.HTTPUnauthorized) as refused:
                await acting_user(make_mocked_request("POST", "/", headers=headers, app=app))
            assert json.loads(refused.value.text or "") == {"error": reason}
        good = Sessions(key).session(ann.user.id)
        request = make_mocked_request(
            "POST", "/", headers={"Authorization": f"Session {good}"}, app=app
        )
        assert await acting_user(request) == ann.user.id

        # A flood of codes is not a flood of calls to Discord.
        app[AUTH].exchanging = MAX_EXCHANGES
        code = standin.authorize(ann)
        assert await web.session(code) == (503, {"error": "busy"})
        assert standin._grants[code].used is False
        app[AUTH].exchanging = 0
        assert (await web.session(code))[0] == 200


async def test_a_site_under_a_path_keeps_its_cookies_and_redirect_under_it(
    standin: StandIn, start_bot: BotFactory
) -> None:
    public = "https://example.org/games/ohhell"
    async with site(start_bot, sign_in_settings(standin, public_url=public)) as web:
        assert web.bot.links is not None
        _, table_id = await open_table(standin, [standin.person("Ann")])
        table = web.bot.links.table(standin.guild.id, table_id).removeprefix(public)
        async with web.http.get(
            web.base + "/login", params={"next": table}, allow_redirects=False
        ) as answer:
            assert answer.status == 302
            asked = parse_qs(urlsplit(answer.headers["Location"]).query)
            assert asked["redirect_uri"] == [f"{public}/login/callback"]
            assert answer.cookies["ohhell_login_state"]["path"] == "/games/ohhell/login"


async def test_discord_out_of_reach_is_said_and_nothing_given(
    standin: StandIn, start_bot: BotFactory
) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        closed = f"http://127.0.0.1:{probe.getsockname()[1]}/api/v10"
    settings = sign_in_settings(standin, discord_api_base=closed)
    async with site(start_bot, settings) as web:
        assert web.bot.links is not None
        assert await web.session("somecode") == (502, {"error": "discord_unavailable"})
        _, table_id = await open_table(standin, [standin.person("Ann")])
        table = web.bot.links.table(standin.guild.id, table_id).removeprefix(PUBLIC)
        async with web.http.get(
            web.base + "/login", params={"next": table}, allow_redirects=False
        ) as went:
            state = parse_qs(urlsplit(went.headers["Location"]).query)["state"][0]
            nonce = went.cookies["ohhell_login_state"].value
        async with (
            aiohttp.ClientSession(cookies={"ohhell_login_state": nonce}) as browser,
            browser.get(
                web.base + "/login/callback",
                params={"code": "somecode", "state": state},
                allow_redirects=False,
            ) as answer,
        ):
            assert answer.status == 502 and "ohhell_login" not in answer.cookies
            assert "Discord cannot be reached to sign you in just now." in await answer.text()
