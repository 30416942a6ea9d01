"""The bot's side of Discord's OAuth2, for the pages: a person's authorization code exchanged
for an access token with the application's secret, and the person read with it
(`GET /users/@me`). The access token is handed back to the caller and kept nowhere; neither it
nor the secret is ever logged.

Refusals: `CodeRefused` (Discord did not take the code: unknown, used, expired, another
redirect's), `Unavailable` (Discord could not be asked: unreachable, slow, an error of its own,
or the secret it refused — logged once for the operator, without the secret)."""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass

import aiohttp

log = logging.getLogger(__name__)

DISCORD_API = "https://discord.com/api/v10"
TIMEOUT = 10.0
"""Seconds Discord is given for each of the two calls."""


@dataclass(frozen=True)
class Person:
    """Who a token belongs to: their id and the name Discord shows."""

    id: int
    name: str


class CodeRefused(Exception):
    """Discord did not take the code."""


class Unavailable(Exception):
    """Discord could not be asked, or refused the application's own credentials."""


class OAuthClient:
    """Exchanges codes at `{api}/oauth2/token` as application `client_id()` with `secret`."""

    def __init__(self, api: str, client_id: Callable[[], int | None], secret: str) -> None:
        self.api = api.rstrip("/")
        self._client_id = client_id
        self._secret = secret
        self._http: aiohttp.ClientSession | None = None

    def _session(self) -> aiohttp.ClientSession:
        if self._http is None or self._http.closed:
            self._http = aiohttp.ClientSession(
                timeout=aiohttp.ClientTimeout(total=TIMEOUT), raise_for_status=False
            )
        return self._http

    async def close(self) -> None:
        http, self._http = self._http, None
        if http is not None:
            await http.close()

    async def sign_in(self, code: str, redirect_uri: str | None = None) -> tuple[Person, str]:
        """The person whose `code` this is, and their access token. `redirect_uri`: the one
        the code was asked for (None for an Activity's code, which names none)."""
        access = await self._exchange(code, redirect_uri)
        return await self._me(access), access

    async def _exchange(self, code: str, redirect_uri: str | None) -> str:
        client_id = self._client_id()
        if client_id is None:
            raise Unavailable("the application id is not known yet")
        form = {
            "client_id": str(client_id),
            "client_secret": self._secret,
            "grant_type": "authorization_code",
            "code": code,
        }
        if redirect_uri is not None:
            form["redirect_uri"] = redirect_uri
        try:
            async with self._session().post(f"{self.api}/oauth2/token", data=form) as answer:
                status = answer.status
                body = await answer.json(content_type=None) if status < 500 else None
        except (TimeoutError, aiohttp.ClientError, ValueError) as fault:
            log.warning(
                "OAuth2: Discord's token endpoint did not answer (%s)", type(fault).__name__
            )
            raise Unavailable("token endpoint") from None
        error = body.get("error") if isinstance(body, dict) else None
        if status == 401 or error == "invalid_client":
            log.error(
                "OAuth2: Discord refused the application's credentials: check DISCORD_CLIENT_SECRET"
            )
            raise Unavailable("invalid client")
        if status == 400 and error in ("invalid_grant", "invalid_request"):
            raise CodeRefused(error)
        access = body.get("access_token") if isinstance(body, dict) else None
        if status != 200 or not isinstance(access, str) or not access:
            log.warning("OAuth2: Discord's token endpoint answered %d (%s)", status, error)
            raise Unavailable("token endpoint")
        return access

    async def _me(self, access: str) -> Person:
        headers = {"Authorization": f"Bearer {access}"}
        try:
            async with self._session().get(f"{self.api}/users/@me", headers=headers) as answer:
                status = answer.status
                body = await answer.json(content_type=None) if status == 200 else None
        except (TimeoutError, aiohttp.ClientError, ValueError) as fault:
            log.warning("OAuth2: Discord's /users/@me did not answer (%s)", type(fault).__name__)
            raise Unavailable("users/@me") from None
        if status == 401:
            raise CodeRefused("token refused")
        if not isinstance(body, dict) or not str(body.get("id", "")).isdigit():
            log.warning("OAuth2: Discord's /users/@me answered %d", status)
            raise Unavailable("users/@me")
        name = body.get("global_name") or body.get("username") or ""
        return Person(int(body["id"]), str(name)[:100])
