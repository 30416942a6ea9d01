"""Who is at a page: the sign-in of the Activity inside Discord and of "Log in with Discord" in
a plain browser, both ending with a session (cogs/web/sessions.py) the page sends with each
action, and `who(request)`, the user an action comes from.

On when PUBLIC_URL and DISCORD_CLIENT_SECRET are both set (otherwise none of these routes
exists, `who` is always None, and the pages are there to watch).

- `GET /?instance_id=…&frame_id=…`: the Activity's entry, the page Discord's client frames; its
  script (static/session.js) runs the Embedded App SDK's handshake and `authorize`, posts the
  code to
- `POST /activity/session` `{"code"}`: the code exchanged at Discord with the application's
  secret (no redirect: an Activity's code names none), the person read, and the answer
  `{"access_token", "session", "expires_in", "user": {"id", "name"}}` — the access token once,
  for the SDK's `authenticate`, then forgotten here;
- `POST /activity/renew` with `Authorization: Session <token>`: a new session for a good one;
- `GET /login?next=/t/<link>`: to Discord's OAuth2 page with a signed `state` (the table's page
  to come back to, and a nonce also kept in a cookie of this browser: nobody can make a
  browser finish a sign-in it did not start);
- `GET /login/callback?code&state`: the code exchanged (with its redirect), the person kept as
  an HttpOnly cookie of this site (a login, not a session), and back to the table;
- `POST /login/session`: the login cookie traded for a session (same-site requests only);
- `POST /logout`: the cookie dropped.

A cookie never acts: actions are POSTs carrying the session in a header, which another site
cannot make a browser send. Refusals of the JSON routes are `{"error": code}`: `bad_request`
(400), `too_large` (413), `code_refused`, `session_missing`, `session_invalid`, `session_expired`,
`login_missing`, `login_invalid`, `login_expired` (401), `cross_site` (403),
`discord_unavailable` (502), `busy` (503); a move's 401 (`no_session`) also carries a sentence
saying to sign in again, in the page's language. Neither a code, an access token nor a session is
ever logged."""

from __future__ import annotations

import json
import logging
import re
import secrets
from typing import TYPE_CHECKING
from urllib.parse import urlencode, urlsplit

from aiohttp import web

from cogs.render.language import N_, Language, _, speaking
from cogs.web.entry import entry_page
from cogs.web.json_answers import BadBody, json_answer, json_body
from cogs.web.oauth import DISCORD_API, CodeRefused, OAuthClient, Person, Unavailable
from cogs.web.sessions import (
    LOGIN,
    LOGIN_LIFETIME,
    SESSION,
    SESSION_LIFETIME,
    STATE,
    STATE_LIFETIME,
    Purpose,
    Refused,
    Sessions,
    Token,
)
from cogs.web.shell import document, text

if TYPE_CHECKING:
    from cogs.web.server import WebRoom

log = logging.getLogger(__name__)

DISCORD_AUTHORIZE = "https://discord.com/oauth2/authorize"
CALLBACK = "/login/callback"
LOGIN_COOKIE = "ohhell_login"
STATE_COOKIE = "ohhell_login_state"
FRAMED = re.compile(r"^/(t/[^/]+)?$")
"""The pages Discord may frame: the Activity's entry and the live tables."""
FRAME_ANCESTORS = (
    "frame-ancestors 'self' https://discord.com https://ptb.discord.com https://canary.discord.com"
)
_CODE = re.compile(r"^[A-Za-z0-9._~-]{1,200}$")
MAX_EXCHANGES = 16
"""Code exchanges with Discord under way at once, at most; more are answered 503 `busy`."""
_NEXT = re.compile(r"^/t/([A-Za-z0-9_-]{1,100})$")

AUTH: web.AppKey[Auth] = web.AppKey("auth")


def framed(path: str) -> bool:
    """Whether the page at `path` may be shown in Discord's frame."""
    return FRAMED.match(path) is not None


async def who(request: web.Request) -> int | None:
    """The user a request acts for: the one its good session (`Authorization: Session
    <token>`) names; None without one, with a bad or expired one, or with sign-in off."""
    try:
        return await signed_in(request)
    except NoSession:
        return None


async def acting(request: web.Request) -> int:
    """`who(request)` for a handler that needs someone: without a good session, a 401 whose
    JSON says why (`session_missing`, `session_invalid`, `session_expired`). A session from
    a sign-in before the person's erasure (`/ohhell forget-me`) is expired."""
    try:
        return await signed_in(request)
    except NoSession as nobody:
        raise web.HTTPUnauthorized(
            text=json.dumps({"error": nobody.code}),
            content_type="application/json",
            headers={"WWW-Authenticate": "Session", "Cache-Control": "no-store"},
        ) from None


class NoSession(Exception):
    """A request without a good session: `code` says why (`session_missing`,
    `session_invalid`, `session_expired`)."""

    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code


async def signed_in(request: web.Request) -> int:
    """The user the request's good session names; else `NoSession`."""
    auth = request.app.get(AUTH)
    header = request.headers.get("Authorization", "")
    if auth is None or auth.sessions is None or not header.startswith("Session "):
        raise NoSession("session_missing")
    try:
        token = await auth.good(SESSION, header[len("Session ") :].strip())
    except Refused as refused:
        raise NoSession(f"session_{refused.code}") from None
    return token.user_id


def no_session(nobody: NoSession) -> web.Response:
    """The 401 of a move made without a good session: its code, and a sentence for the person
    (in the language being spoken) saying what to do."""
    words = NOT_SIGNED_IN if nobody.code == "session_missing" else SIGN_IN_ENDED
    return json_answer(
        {"error": nobody.code, "message": _(words)}, 401, {"WWW-Authenticate": "Session"}
    )


def add_auth(app: web.Application, room: WebRoom) -> None:
    """The sign-in routes, served for `room` when sign-in is on."""
    auth = Auth(room)
    app[AUTH] = auth
    app.on_startup.append(auth.startup)
    app.on_cleanup.append(auth.cleanup)
    if not auth.enabled:
        return
    app.router.add_get("/", auth.entry)
    app.router.add_post("/activity/session", auth.activity_session)
    app.router.add_post("/activity/renew", auth.renew)
    app.router.add_get("/login", auth.login)
    app.router.add_get(CALLBACK, auth.callback)
    app.router.add_post("/login/session", auth.login_session)
    app.router.add_post("/logout", auth.logout)


class Busy(Exception):
    """As many code exchanges as allowed are under way."""


def refusal(code: str, status: int = 401) -> web.Response:
    headers = {"WWW-Authenticate": "Session"} if status == 401 else {}
    return json_answer({"error": code}, status, headers)


class Auth:
    def __init__(self, room: WebRoom) -> None:
        self.room = room
        settings = room.settings
        secret = settings.discord_client_secret
        self.public_url = settings.public_url or ""
        self.enabled = bool(settings.public_url) and secret is not None
        self.secure = self.public_url.startswith("https://")
        self.site_path = urlsplit(self.public_url).path
        """Where the site is in the browser's addresses (PUBLIC_URL's path): its cookies'."""
        self.exchanging = 0
        """Code exchanges under way: at most `MAX_EXCHANGES`, so a flood of codes is not a
        flood of calls to Discord."""
        self.authorize_url = settings.discord_authorize_url or DISCORD_AUTHORIZE
        self.sessions: Sessions | None = None
        self.oauth: OAuthClient | None = None
        if secret is not None:
            self.oauth = OAuthClient(
                settings.discord_api_base or DISCORD_API,
                lambda: room.application_id,
                secret.get_secret_value(),
            )

    async def startup(self, app: web.Application) -> None:
        if self.enabled:
            self.sessions = Sessions(await self.room.service.keys.link_key())
            log.info("sign-in at the pages on: OAuth2 redirect %s", self.public_url + CALLBACK)

    async def cleanup(self, app: web.Application) -> None:
        if self.oauth is not None:
            await self.oauth.close()

    async def good(self, purpose: Purpose, token: str) -> Token:
        """What a good session or login says; `Refused` for a bad one, an expired one, or one
        from a sign-in before the person's erasure (then it is expired: the erasure ended it)."""
        assert self.sessions is not None, "served only when on"
        read = self.sessions.read(purpose, token)
        privacy = self.room.service.privacy
        if await privacy.signed_in_before_erasure(read.user_id, read.signed_in):
            raise Refused("expired")
        return read

    def _ready(self) -> tuple[Sessions, OAuthClient]:
        assert self.sessions is not None and self.oauth is not None, "served only when on"
        return self.sessions, self.oauth

    # The Activity

    async def entry(self, request: web.Request) -> web.StreamResponse:
        """The page Discord's client frames, with the SDK's query; nothing at `/` otherwise."""
        query = request.query
        if "instance_id" not in query or "frame_id" not in query:
            raise web.HTTPNotFound()
        with speaking(await self._language(request)):
            page = entry_page(self.room.application_id or 0)
        return web.Response(
            text=page,
            content_type="text/html",
            charset="utf-8",
            headers={"Cache-Control": "no-store"},
        )

    async def activity_session(self, request: web.Request) -> web.Response:
        sessions, oauth = self._ready()
        try:
            code = (await json_body(request)).get("code")
        except BadBody:
            code = None
        if not isinstance(code, str) or not _CODE.match(code):
            return refusal("bad_request", 400)
        try:
            person, access = await self._sign_in(oauth, code)
        except CodeRefused:
            return refusal("code_refused")
        except Busy:
            return refusal("busy", 503)
        except Unavailable:
            return refusal("discord_unavailable", 502)
        return json_answer(
            {
                "access_token": access,
                "session": sessions.session(person.id),
                "expires_in": SESSION_LIFETIME,
                "user": {"id": str(person.id), "name": person.name},
            }
        )

    async def renew(self, request: web.Request) -> web.Response:
        sessions, _oauth = self._ready()
        header = request.headers.get("Authorization", "")
        if not header.startswith("Session "):
            return refusal("session_missing")
        try:
            token = await self.good(SESSION, header[len("Session ") :].strip())
            session = sessions.session(token.user_id, token.signed_in)
        except Refused as refused:
            return refusal(f"session_{refused.code}")
        return json_answer(
            {
                "session": session,
                "expires_in": SESSION_LIFETIME,
                "user": {"id": str(token.user_id)},
            }
        )

    # A plain browser

    def _next(self, request: web.Request) -> str | None:
        """The table's page to come back to: the path of a good table link, nothing else."""
        found = _NEXT.match(request.query.get("next", ""))
        if found is None or self.room.links.read("t", found.group(1)) is None:
            return None
        return found.group(0)

    async def login(self, request: web.Request) -> web.StreamResponse:
        sessions, _oauth = self._ready()
        back = self._next(request)
        if back is None or self.room.application_id is None:
            raise web.HTTPNotFound()
        nonce = secrets.token_urlsafe(16)
        state = sessions.sign(STATE, 0, STATE_LIFETIME, payload=f"{nonce} {back}".encode())
        fields = {
            "client_id": str(self.room.application_id),
            "response_type": "code",
            "scope": "identify",
            "redirect_uri": self.public_url + CALLBACK,
            "state": state,
            "prompt": "none",
        }
        response = web.HTTPFound(f"{self.authorize_url}?{urlencode(fields)}")
        self._cookie(response, STATE_COOKIE, nonce, STATE_LIFETIME, "/login")
        response.headers["Cache-Control"] = "no-store"
        raise response

    async def callback(self, request: web.Request) -> web.StreamResponse:
        sessions, oauth = self._ready()
        query = request.query
        try:
            state = sessions.read(STATE, query.get("state", ""))
        except Refused:
            return await self._page(request, EXPIRED, 400)
        nonce, _space, back = state.payload.decode().partition(" ")
        kept = request.cookies.get(STATE_COOKIE, "")
        if not kept or not secrets.compare_digest(kept.encode(), nonce.encode()):
            return await self._page(request, EXPIRED, 400)
        if "error" in query:
            return await self._page(request, DECLINED, 400)
        code = query.get("code", "")
        if not _CODE.match(code):
            return await self._page(request, EXPIRED, 400)
        try:
            person, _access = await self._sign_in(oauth, code, self.public_url + CALLBACK)
        except CodeRefused:
            return await self._page(request, EXPIRED, 400)
        except (Busy, Unavailable):
            return await self._page(request, UNAVAILABLE, 502)
        name = person.name.encode()[:120].decode(errors="ignore").encode()
        login = sessions.sign(LOGIN, person.id, LOGIN_LIFETIME, payload=name)
        response = web.HTTPSeeOther(self.public_url + back)
        self._cookie(response, LOGIN_COOKIE, login, LOGIN_LIFETIME, "/")
        response.del_cookie(STATE_COOKIE, path=self.site_path + "/login")
        response.headers["Cache-Control"] = "no-store"
        raise response

    async def login_session(self, request: web.Request) -> web.Response:
        sessions, _oauth = self._ready()
        if request.headers.get("Sec-Fetch-Site", "same-origin") not in ("same-origin", "none"):
            return refusal("cross_site", 403)
        cookie = request.cookies.get(LOGIN_COOKIE)
        if not cookie:
            return refusal("login_missing")
        try:
            login = await self.good(LOGIN, cookie)
        except Refused as refused:
            refused_login = refusal(f"login_{refused.code}")
            refused_login.del_cookie(LOGIN_COOKIE, path=self.site_path + "/")
            return refused_login
        name = login.payload.decode(errors="replace")
        return json_answer(
            {
                "session": sessions.session(login.user_id),
                "expires_in": SESSION_LIFETIME,
                "user": {"id": str(login.user_id), "name": name},
            }
        )

    async def logout(self, request: web.Request) -> web.Response:
        if request.headers.get("Sec-Fetch-Site", "same-origin") not in ("same-origin", "none"):
            return refusal("cross_site", 403)
        response = web.Response(status=204, headers={"Cache-Control": "no-store"})
        response.del_cookie(LOGIN_COOKIE, path=self.site_path + "/")
        return response

    # Helpers

    async def _sign_in(
        self, oauth: OAuthClient, code: str, redirect_uri: str | None = None
    ) -> tuple[Person, str]:
        if self.exchanging >= MAX_EXCHANGES:
            raise Busy()
        self.exchanging += 1
        try:
            return await oauth.sign_in(code, redirect_uri)
        finally:
            self.exchanging -= 1

    def _cookie(
        self, response: web.StreamResponse, name: str, value: str, lifetime: int, path: str
    ) -> None:
        response.set_cookie(
            name,
            value,
            max_age=lifetime,
            path=self.site_path + path,
            httponly=True,
            secure=self.secure,
            samesite="Lax",
        )

    async def _language(self, request: web.Request) -> Language:
        """The channel's language for the Activity (Discord's query names it), else the
        browser's, else English (the server of guild 0 is none)."""
        guild, channel = request.query.get("guild_id", ""), request.query.get("channel_id", "")
        if guild.isdigit() and channel.isdigit() and len(guild) < 21 and len(channel) < 21:
            return await self.room.language_for(request, int(guild), int(channel))
        return await self.room.language_for(request, 0)

    async def _page(self, request: web.Request, sentence: str, status: int) -> web.Response:
        with speaking(await self._language(request)):
            page = document(_("Log in with Discord"), f"<p>{text(_(sentence))}</p>")
        return web.Response(
            text=page,
            status=status,
            content_type="text/html",
            charset="utf-8",
            headers={"Cache-Control": "no-store"},
        )


EXPIRED = N_(
    "This sign-in has expired or did not start here. Go back to the table and log in again."
)
DECLINED = N_(
    "You did not allow the sign-in. Go back to the table to log in again, or watch without "
    "logging in."
)
UNAVAILABLE = N_("Discord cannot be reached to sign you in just now. Try again in a minute.")
NOT_SIGNED_IN = N_("This page is not signed in: reload it to sign in with Discord.")
SIGN_IN_ENDED = N_(
    "This page's sign-in has ended or is not valid: reload the page to sign in again."
)
