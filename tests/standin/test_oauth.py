"""The stand-in's OAuth2, as an application's web server meets Discord's: a person's code
exchanged at /oauth2/token with the application's secret, /users/@me read with the token, and
every way Discord refuses a code, a secret or a token."""

from __future__ import annotations

import base64
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest

from standin.oauth import CODE_LIFETIME, TOKEN_LIFETIME
from standin.server import StandIn
from standin.testing import ManualClock


@pytest.fixture
async def http(standin: StandIn) -> AsyncIterator[aiohttp.ClientSession]:
    """A web server's client: no bot token."""
    async with aiohttp.ClientSession(base_url=standin.base_url) as session:
        yield session


async def token_call(
    http: aiohttp.ClientSession, form: dict[str, str], headers: dict[str, str] | None = None
) -> tuple[int, Any]:
    async with http.post("/api/v10/oauth2/token", data=form, headers=headers) as response:
        return response.status, await response.json()


def exchange_form(standin: StandIn, code: str, **changes: str) -> dict[str, str]:
    form = {
        "client_id": str(standin.application_id),
        "client_secret": standin.client_secret,
        "grant_type": "authorization_code",
        "code": code,
    }
    return {**form, **changes}


async def me(http: aiohttp.ClientSession, token: str) -> tuple[int, Any]:
    headers = {"Authorization": f"Bearer {token}"}
    async with http.get("/api/v10/users/@me", headers=headers) as response:
        return response.status, await response.json()


async def test_a_code_exchanged_gives_a_token_that_reads_its_person(
    standin: StandIn, http: aiohttp.ClientSession
) -> None:
    ann = standin.person("Ann", locale="nl")
    standin.person("Bob")
    code = standin.authorize(ann, standin.application_id, ["identify"])
    status, body = await token_call(http, exchange_form(standin, code))
    assert status == 200
    assert body["token_type"] == "Bearer" and body["scope"] == "identify"
    assert body["expires_in"] == TOKEN_LIFETIME and body["refresh_token"]
    status, user = await me(http, body["access_token"])
    assert status == 200
    assert user["id"] == str(ann.user.id) and user["username"] == "ann"
    assert user["locale"] == "nl" and "email" not in user
    # The route the bot logs in by still answers the bot.
    bot = {"Authorization": f"Bot {standin.token}"}
    async with http.get("/api/v10/users/@me", headers=bot) as response:
        assert (await response.json())["id"] == str(standin.world.bot.id)


async def test_the_client_may_authenticate_with_http_basic(
    standin: StandIn, http: aiohttp.ClientSession
) -> None:
    code = standin.authorize(standin.person("Ann"))
    basic = base64.b64encode(f"{standin.application_id}:{standin.client_secret}".encode())
    form = {"grant_type": "authorization_code", "code": code}
    status, body = await token_call(http, form, {"Authorization": f"Basic {basic.decode()}"})
    assert status == 200 and body["access_token"]


@pytest.mark.parametrize(
    "changes",
    [
        {"client_secret": "not-the-secret"},
        {"client_id": "1234"},
    ],
)
async def test_a_wrong_client_is_refused_and_the_code_still_works(
    standin: StandIn, http: aiohttp.ClientSession, changes: dict[str, str]
) -> None:
    code = standin.authorize(standin.person("Ann"))
    status, body = await token_call(http, exchange_form(standin, code, **changes))
    assert (status, body["error"]) == (401, "invalid_client")
    assert (await token_call(http, exchange_form(standin, code)))[0] == 200


async def test_a_form_without_secret_is_refused(
    standin: StandIn, http: aiohttp.ClientSession
) -> None:
    code = standin.authorize(standin.person("Ann"))
    form = exchange_form(standin, code)
    del form["client_secret"]
    assert (await token_call(http, form))[1]["error"] == "invalid_client"


async def test_an_unknown_code_is_an_invalid_grant(
    standin: StandIn, http: aiohttp.ClientSession
) -> None:
    status, body = await token_call(http, exchange_form(standin, "made-up"))
    assert status == 400
    assert body == {"error": "invalid_grant", "error_description": 'Invalid "code" in request.'}


async def test_a_code_used_twice_is_refused_and_revokes_its_token(
    standin: StandIn, http: aiohttp.ClientSession
) -> None:
    code = standin.authorize(standin.person("Ann"))
    status, first = await token_call(http, exchange_form(standin, code))
    assert status == 200 and (await me(http, first["access_token"]))[0] == 200
    status, body = await token_call(http, exchange_form(standin, code))
    assert (status, body["error"]) == (400, "invalid_grant")
    assert (await me(http, first["access_token"]))[0] == 401


@pytest.mark.standin(clock=ManualClock())
async def test_a_code_expires_and_a_token_too(
    standin: StandIn, http: aiohttp.ClientSession
) -> None:
    clock = standin.clock
    assert isinstance(clock, ManualClock)
    ann = standin.person("Ann")
    late = standin.authorize(ann)
    clock.advance(CODE_LIFETIME + 1)
    status, body = await token_call(http, exchange_form(standin, late))
    assert (status, body["error"]) == (400, "invalid_grant")
    status, body = await token_call(http, exchange_form(standin, standin.authorize(ann)))
    assert status == 200
    clock.advance(TOKEN_LIFETIME - 1)
    assert (await me(http, body["access_token"]))[0] == 200
    clock.advance(1)
    assert (await me(http, body["access_token"]))[0] == 401


async def test_the_redirect_must_be_the_one_the_code_was_issued_for(
    standin: StandIn, http: aiohttp.ClientSession
) -> None:
    standin.redirect_uris.add("https://ohhell.example.org/login")
    ann = standin.person("Ann")
    code = standin.authorize(ann, redirect_uri="https://ohhell.example.org/login")
    status, body = await token_call(http, exchange_form(standin, code))
    assert (status, body["error_description"]) == (400, 'Invalid "redirect_uri" in request.')
    elsewhere = exchange_form(standin, code, redirect_uri="https://evil.example.org/login")
    assert (await token_call(http, elsewhere))[0] == 400
    right = exchange_form(standin, code, redirect_uri="https://ohhell.example.org/login")
    assert (await token_call(http, right))[0] == 200
    # A code for an Activity names no redirect; the exchange may not add one.
    code = standin.authorize(ann)
    added = exchange_form(standin, code, redirect_uri="https://ohhell.example.org/login")
    assert (await token_call(http, added))[0] == 400


def test_what_discord_would_not_offer_a_person_to_approve_raises(standin: StandIn) -> None:
    ann = standin.person("Ann")
    with pytest.raises(ValueError, match="application"):
        standin.authorize(ann, 42)
    with pytest.raises(ValueError, match="scopes"):
        standin.authorize(ann, scopes=["identify", "admin"])
    with pytest.raises(ValueError, match="registered"):
        standin.authorize(ann, redirect_uri="https://evil.example.org/")


@pytest.mark.parametrize(
    ("grant_type", "error"),
    [("password", "unsupported_grant_type"), (None, "invalid_request")],
)
async def test_a_grant_type_other_than_code_or_refresh_is_refused(
    standin: StandIn, http: aiohttp.ClientSession, grant_type: str | None, error: str
) -> None:
    form = exchange_form(standin, standin.authorize(standin.person("Ann")))
    del form["grant_type"]
    if grant_type is not None:
        form["grant_type"] = grant_type
    status, body = await token_call(http, form)
    assert (status, body["error"]) == (400, error)


async def test_json_instead_of_form_fields_is_refused_and_reported(
    standin: StandIn, http: aiohttp.ClientSession
) -> None:
    form = exchange_form(standin, standin.authorize(standin.person("Ann")))
    async with http.post("/api/v10/oauth2/token", json=form) as response:
        assert response.status == 400
        assert (await response.json())["error"] == "invalid_request"
    taken = standin.take_violations()
    assert [v.route for v in taken] == ["POST /oauth2/token"]


async def test_a_refresh_gives_a_new_pair_once(
    standin: StandIn, http: aiohttp.ClientSession
) -> None:
    ann = standin.person("Ann")
    _, first = await token_call(http, exchange_form(standin, standin.authorize(ann)))
    refresh = {
        "client_id": str(standin.application_id),
        "client_secret": standin.client_secret,
        "grant_type": "refresh_token",
        "refresh_token": first["refresh_token"],
    }
    status, second = await token_call(http, refresh)
    assert status == 200 and second["access_token"] != first["access_token"]
    assert (await me(http, second["access_token"]))[1]["id"] == str(ann.user.id)
    assert (await token_call(http, refresh))[1]["error"] == "invalid_grant"


async def test_a_revoked_token_reads_nothing(standin: StandIn, http: aiohttp.ClientSession) -> None:
    _, body = await token_call(
        http, exchange_form(standin, standin.authorize(standin.person("Ann")))
    )
    revoke = {
        "client_id": str(standin.application_id),
        "client_secret": standin.client_secret,
        "token": body["access_token"],
    }
    async with http.post("/api/v10/oauth2/token/revoke", data=revoke) as response:
        assert response.status == 200
    assert (await me(http, body["access_token"]))[0] == 401


@pytest.mark.parametrize("header", ["Bearer made-up", "Bearer ", "Bot wrong"])
async def test_a_bad_token_gets_401(
    standin: StandIn, http: aiohttp.ClientSession, header: str
) -> None:
    async with http.get("/api/v10/users/@me", headers={"Authorization": header}) as response:
        assert response.status == 401


async def test_a_persons_token_opens_only_users_me(
    standin: StandIn, http: aiohttp.ClientSession
) -> None:
    _, body = await token_call(
        http, exchange_form(standin, standin.authorize(standin.person("Ann")))
    )
    headers = {"Authorization": f"Bearer {body['access_token']}"}
    async with http.get(f"/api/v10/channels/{standin.channel.id}", headers=headers) as response:
        assert response.status == 401


async def test_a_token_without_identify_does_not_read_the_user(
    standin: StandIn, http: aiohttp.ClientSession
) -> None:
    code = standin.authorize(standin.person("Ann"), scopes=["guilds"])
    _, body = await token_call(http, exchange_form(standin, code))
    assert (await me(http, body["access_token"]))[0] == 401
