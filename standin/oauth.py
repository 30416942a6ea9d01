"""The stand-in's OAuth2, as Discord's for an application's users (`OAuthHandlers`, a part of
`StandIn`): authorization codes a person's client issues when they approve the application
(`authorize`), their exchange for an access token at `POST /oauth2/token` with the
application's secret, refreshing and revoking tokens, and `GET /users/@me` read with a token
(`Authorization: Bearer …`).

Errors are OAuth2's (RFC 6749 §5.2), as Discord answers them: `{"error": "invalid_grant",
"error_description": …}` with 400, or 401 for a client that did not authenticate. Discord's
OpenAPI description leaves these routes out, so their bodies are checked here, not by it."""

from __future__ import annotations

import base64
import binascii
import secrets
from dataclasses import dataclass, field
from typing import Any

from standin import payloads
from standin.base import StandInBase
from standin.rest import JSON, ApiError, Request
from standin.world import User

CODE_LIFETIME = 10 * 60.0
"""How long an authorization code may wait for its exchange (RFC 6749 §4.1.2: ten minutes at
most)."""
TOKEN_LIFETIME = 7 * 24 * 3600
"""An access token's `expires_in`: a week, as Discord's."""
SCOPES = frozenset(
    {
        "identify",
        "email",
        "connections",
        "guilds",
        "guilds.join",
        "guilds.members.read",
        "gdm.join",
        "bot",
        "rpc",
        "rpc.activities.write",
        "applications.commands",
        "activities.read",
        "activities.write",
        "relationships.read",
        "role_connections.write",
        "dm_channels.read",
        "voice",
        "openid",
    }
)
"""The scopes a person may grant (the subset of Discord's the stand-in knows)."""
UNDESCRIBED = frozenset({"POST /oauth2/token", "POST /oauth2/token/revoke"})
"""Routes Discord's OpenAPI description leaves out: their bodies are not checked against it."""


@dataclass
class Grant:
    """An authorization code: who approved what, for which redirect (None: none was asked, as
    in an Activity's `authorize`)."""

    code: str
    user: User
    scopes: tuple[str, ...]
    redirect_uri: str | None
    issued_at: float
    used: bool = False


@dataclass
class Token:
    """An access token and its refresh token, both living until revoked or refreshed; the
    access token also until `expires_at`."""

    access: str
    refresh: str
    user: User
    scopes: tuple[str, ...]
    expires_at: float
    revoked: bool = False
    grant: Grant | None = field(default=None, repr=False)


def _error(error: str, description: str, status: int = 400) -> tuple[int, JSON]:
    return status, {"error": error, "error_description": description}


class OAuthHandlers(StandInBase):
    """The OAuth2 routes of `StandIn` and what a test does as a person approving the app."""

    client_secret: str
    redirect_uris: set[str]
    _grants: dict[str, Grant]
    _access_tokens: dict[str, Token]
    _refresh_tokens: dict[str, Token]

    def _init_oauth(self) -> None:
        self.client_secret = secrets.token_urlsafe(24)
        """The application's OAuth2 secret (the Developer Portal's "Client Secret")."""
        self.redirect_uris = set()
        """The redirects registered for the application (Developer Portal, OAuth2)."""
        self._grants = {}
        self._access_tokens = {}
        self._refresh_tokens = {}

    # --- what a test does as the person -------------------------------------------------------

    def authorize(
        self,
        person: Any,
        client_id: int | str | None = None,
        scopes: tuple[str, ...] | list[str] = ("identify",),
        *,
        redirect_uri: str | None = None,
    ) -> str:
        """The authorization code `person` (a `Person` or `User`) gets by approving the
        application for `scopes`, as their Discord client obtains it (an Activity's
        `authorize`, or the OAuth2 page before its redirect). What Discord would refuse to
        show — another application, an unknown scope, a redirect not registered — raises
        `ValueError`."""
        user: User = getattr(person, "user", person)
        if str(client_id if client_id is not None else self.application_id) != str(
            self.application_id
        ):
            raise ValueError(f"unknown application {client_id}")
        unknown = [s for s in scopes if s not in SCOPES]
        if unknown or not scopes:
            raise ValueError(f"invalid scopes {unknown or list(scopes)}")
        if redirect_uri is not None and redirect_uri not in self.redirect_uris:
            raise ValueError(f"redirect_uri {redirect_uri!r} is not registered")
        code = secrets.token_urlsafe(20)
        self._grants[code] = Grant(code, user, tuple(scopes), redirect_uri, self.clock())
        return code

    def access_token(self, access_token: str) -> Token | None:
        """The valid token `access_token` names (its user, scopes, expiry), or None."""
        token = self._access_tokens.get(access_token)
        if token is None or token.revoked or self.clock() >= token.expires_at:
            return None
        return token

    # --- the routes ---------------------------------------------------------------------------

    def _client(self, req: Request) -> str | None:
        """What is wrong with the client's authentication (form fields or HTTP Basic), or None."""
        form = req.body if isinstance(req.body, dict) else {}
        client_id, secret = form.get("client_id"), form.get("client_secret")
        basic = str(req.headers.get("Authorization", ""))
        if basic.startswith("Basic "):
            try:
                client_id, _, secret = base64.b64decode(basic[6:]).decode().partition(":")
            except (binascii.Error, UnicodeDecodeError):
                return "the Basic credentials are not base64"
        if client_id is None or secret is None:
            return "no client credentials"
        if str(client_id) != str(self.application_id) or not secrets.compare_digest(
            str(secret), self.client_secret
        ):
            return "unknown client or wrong secret"
        return None

    def _form(self, req: Request, route: str) -> dict[str, str] | None:
        form = str(req.headers.get("Content-Type", "")).startswith(
            "application/x-www-form-urlencoded"
        )
        if form and isinstance(req.body, dict):
            return {k: v for k, v in req.body.items() if isinstance(v, str)}
        self._violate(route, "", "OAuth2 takes application/x-www-form-urlencoded fields")
        return None

    async def _token(self, req: Request) -> tuple[int, Any]:
        form = self._form(req, "POST /oauth2/token")
        if form is None:
            return _error("invalid_request", "the body must be form fields")
        if self._client(req) is not None:
            return _error("invalid_client", "Invalid client", 401)
        kind = form.get("grant_type")
        if kind == "authorization_code":
            return self._exchange_code(form)
        if kind == "refresh_token":
            return self._refresh(form)
        if kind is None:
            return _error("invalid_request", 'Missing "grant_type"')
        return _error("unsupported_grant_type", f'Unsupported grant type "{kind}"')

    def _exchange_code(self, form: dict[str, str]) -> tuple[int, Any]:
        grant = self._grants.get(form.get("code", ""))
        if grant is None or grant.used:
            if grant is not None:
                # A code used twice: what it gave is revoked too (RFC 6749 §4.1.2).
                for token in self._access_tokens.values():
                    if token.grant is grant:
                        token.revoked = True
            return _error("invalid_grant", 'Invalid "code" in request.')
        if self.clock() - grant.issued_at > CODE_LIFETIME:
            return _error("invalid_grant", 'Invalid "code" in request.')
        if form.get("redirect_uri") != grant.redirect_uri:
            return _error("invalid_grant", 'Invalid "redirect_uri" in request.')
        grant.used = True
        return 200, self._issue(grant.user, grant.scopes, grant)

    def _refresh(self, form: dict[str, str]) -> tuple[int, Any]:
        old = self._refresh_tokens.pop(form.get("refresh_token", ""), None)
        if old is None or old.revoked:
            return _error("invalid_grant", 'Invalid "refresh_token" in request.')
        return 200, self._issue(old.user, old.scopes, old.grant)

    def _issue(self, user: User, scopes: tuple[str, ...], grant: Grant | None) -> JSON:
        token = Token(
            secrets.token_urlsafe(24),
            secrets.token_urlsafe(24),
            user,
            scopes,
            self.clock() + TOKEN_LIFETIME,
            grant=grant,
        )
        self._access_tokens[token.access] = token
        self._refresh_tokens[token.refresh] = token
        return {
            "access_token": token.access,
            "token_type": "Bearer",
            "expires_in": TOKEN_LIFETIME,
            "refresh_token": token.refresh,
            "scope": " ".join(scopes),
        }

    async def _revoke(self, req: Request) -> tuple[int, Any]:
        form = self._form(req, "POST /oauth2/token/revoke")
        if form is None:
            return _error("invalid_request", "the body must be form fields")
        if self._client(req) is not None:
            return _error("invalid_client", "Invalid client", 401)
        if "token" not in form:
            return _error("invalid_request", 'Missing "token"')
        given = form["token"]
        token = self._access_tokens.get(given) or self._refresh_tokens.get(given)
        if token is not None:
            # Either of the pair revokes both.
            token.revoked = True
            self._refresh_tokens.pop(token.refresh, None)
        return 200, {}

    def _bearer_user(self, req: Request) -> User | None:
        """The person a `Bearer` token with the `identify` scope is for; None for the bot's
        own token. A bad, expired or revoked token, or one without `identify`: 401."""
        header = str(req.headers.get("Authorization", ""))
        if not header.startswith("Bearer "):
            return None
        token = self.access_token(header[7:])
        if token is None or "identify" not in token.scopes:
            raise ApiError(401, 0, "401: Unauthorized")
        return token.user

    @staticmethod
    def _person_me(user: User) -> JSON:
        """`GET /users/@me` for a person's token with the `identify` scope (no e-mail)."""
        return {**payloads.user(user), "mfa_enabled": False, "locale": user.locale}
