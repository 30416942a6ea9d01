"""Discord's OAuth2 page in a plain browser (`LoginPage`, a part of `StandIn`): "Log in with
Discord" sends a person to `/oauth2/authorize?client_id=…&response_type=code&redirect_uri=…
&scope=identify&state=…`; Discord asks them to authorize the application and redirects back
to `redirect_uri` with `code` and `state` (or `error=access_denied` when they cancel).

Who is logged in to Discord in a browser is a cookie a test gives it
(`standin.login_cookie(person)`, for Playwright's `context.add_cookies`). As Discord: an
unknown application or a redirect that is not registered gets an error page and no redirect
(a redirect there could leak the code); a wrong response type or scope is redirected back as an
OAuth2 error; `prompt=none` skips the question for a person who approved the same scopes
before."""

from __future__ import annotations

import html
import secrets
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from aiohttp import web

from standin.base import StandInBase
from standin.oauth import SCOPES
from standin.world import User

LOGIN_COOKIE = "standin_login"
DENIED = "The resource owner or authorization server denied the request"


def with_query(url: str, fields: dict[str, str]) -> str:
    """`url` with `fields` added to its query."""
    parts = urlsplit(url)
    query = parse_qsl(parts.query, keep_blank_values=True) + list(fields.items())
    return urlunsplit(parts._replace(query=urlencode(query)))


def _redirect(url: str) -> web.Response:
    return web.Response(status=302, headers={"Location": url})


def _page(title: str, body: str, status: int = 200) -> web.Response:
    text = (
        '<!doctype html>\n<html lang="en"><head><meta charset="utf-8">'
        f"<title>{html.escape(title)}</title></head><body><main>{body}</main></body></html>\n"
    )
    return web.Response(status=status, text=text, content_type="text/html")


class LoginPage(StandInBase):
    """The OAuth2 authorize page of `StandIn`, at `/oauth2/authorize` of its `base_url`."""

    redirect_uris: set[str]
    _logins: dict[str, User]
    _approved: set[tuple[int, frozenset[str]]]

    # Defined by the OAuth2 part.
    if TYPE_CHECKING:

        def authorize(
            self,
            person: Any,
            client_id: int | str | None = None,
            scopes: tuple[str, ...] | list[str] = ("identify",),
            *,
            redirect_uri: str | None = None,
        ) -> str: ...

    def _init_login(self) -> None:
        self._logins = {}
        self._approved = set()

    def login_cookie(self, person: Any) -> dict[str, str]:
        """The cookie of `person` logged in to Discord, for a browser: Playwright's
        `await context.add_cookies([standin.login_cookie(ann)])`."""
        user: User = getattr(person, "user", person)
        token = secrets.token_urlsafe(16)
        self._logins[token] = user
        return {"name": LOGIN_COOKIE, "value": token, "url": self.base_url}

    def _authorize_routes(self, app: web.Application) -> None:
        app.router.add_get("/oauth2/authorize", self._authorize_page)
        app.router.add_post("/oauth2/authorize", self._authorize_decision)

    def _checked(self, fields: Any) -> tuple[web.Response | None, str, list[str]]:
        """An error answer for the request, if any; else the redirect and the scopes."""
        redirect = str(fields.get("redirect_uri", ""))
        if str(fields.get("client_id")) != str(self.application_id):
            return _page("Unknown application", "<p>Unknown application</p>", 400), "", []
        if redirect not in self.redirect_uris:
            body = "<p>Invalid OAuth2 redirect_uri</p>"
            return _page("Invalid OAuth2 redirect_uri", body, 400), "", []
        state = {"state": str(fields["state"])} if "state" in fields else {}
        if fields.get("response_type") != "code":
            error = {"error": "unsupported_response_type", **state}
            return _redirect(with_query(redirect, error)), redirect, []
        scopes = str(fields.get("scope", "")).split()
        if not scopes or any(s not in SCOPES for s in scopes):
            error = {"error": "invalid_scope", **state}
            return _redirect(with_query(redirect, error)), redirect, []
        return None, redirect, scopes

    def _logged_in(self, request: web.Request) -> User | None:
        return self._logins.get(request.cookies.get(LOGIN_COOKIE, ""))

    def _grant(self, user: User, redirect: str, scopes: list[str], fields: Any) -> web.Response:
        code = self.authorize(user, self.application_id, scopes, redirect_uri=redirect)
        self._approved.add((user.id, frozenset(scopes)))
        answer = {"code": code}
        if "state" in fields:
            answer["state"] = str(fields["state"])
        self._notify()
        return _redirect(with_query(redirect, answer))

    async def _authorize_page(self, request: web.Request) -> web.Response:
        fields = request.query
        refusal, redirect, scopes = self._checked(fields)
        if refusal is not None:
            return refusal
        user = self._logged_in(request)
        if user is None:
            return _page("Log in", "<p>Log in to Discord to continue.</p>", 401)
        if fields.get("prompt") == "none" and (user.id, frozenset(scopes)) in self._approved:
            return self._grant(user, redirect, scopes, fields)
        hidden = "".join(
            f'<input type="hidden" name="{html.escape(k)}" value="{html.escape(v)}">'
            for k, v in fields.items()
            if k in ("client_id", "redirect_uri", "response_type", "scope", "state")
        )
        wanted = "".join(f"<li>{html.escape(s)}</li>" for s in scopes)
        body = (
            f"<h1>{html.escape(self.world.bot.display_name)} wants to access your account</h1>"
            f"<p>Signed in as {html.escape(user.display_name)}</p><ul>{wanted}</ul>"
            f'<form method="post" action="/oauth2/authorize">{hidden}'
            '<button id="cancel" name="decision" value="cancel">Cancel</button>'
            '<button id="authorize" name="decision" value="authorize">Authorize</button>'
            "</form>"
        )
        return _page("Authorize access to your account", body)

    async def _authorize_decision(self, request: web.Request) -> web.Response:
        fields = await request.post()
        refusal, redirect, scopes = self._checked(fields)
        if refusal is not None:
            return refusal
        user = self._logged_in(request)
        if user is None:
            return _page("Log in", "<p>Log in to Discord to continue.</p>", 401)
        if fields.get("decision") != "authorize":
            denied = {"error": "access_denied", "error_description": DENIED}
            if "state" in fields:
                denied["state"] = str(fields["state"])
            return _redirect(with_query(redirect, denied))
        return self._grant(user, redirect, scopes, fields)
