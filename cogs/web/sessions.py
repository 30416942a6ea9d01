"""Who is at a page: short signed tokens, kept by nobody but the page that holds them.

A token names one Discord user and when it stops being good; it is signed (HMAC-SHA256) with a
key of its own purpose, derived from the link key, so that a session is never a link, a login
cookie never a session, and a login's `state` neither. Nothing is stored: a token is checked by
its signature and its times (and the web room refuses one from a sign-in before the person's
erasure: `Auth.good` in cogs/web/auth.py).

- a **session** (`SESSION`): what a page sends with each action (`Authorization: Session …`),
  good for a quarter of an hour and renewed by the page while it is open; renewals keep the
  time of the sign-in, and none is given past `MAX_SIGNED_IN` after it;
- a **login** (`LOGIN`): the HttpOnly cookie a plain browser keeps after "Log in with
  Discord", which the page trades for a session; it also carries the person's name;
- a **state** (`STATE`): the OAuth2 `state` of one "Log in with Discord", binding the page to
  come back to and a nonce kept in the browser's cookie, for ten minutes."""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import struct
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

Purpose = Literal["session", "login", "state"]
SESSION: Purpose = "session"
LOGIN: Purpose = "login"
STATE: Purpose = "state"

SESSION_LIFETIME = 15 * 60
"""Seconds a session is good for: a page renews it well before."""
LOGIN_LIFETIME = 12 * 3600
"""Seconds a plain browser stays logged in: an evening at the table."""
STATE_LIFETIME = 10 * 60
"""Seconds between "Log in with Discord" and Discord's redirect back (as Discord's codes)."""
MAX_SIGNED_IN = 12 * 3600
"""Seconds after the sign-in past which a session is not renewed: the page signs in again."""

_HEAD = struct.Struct(">QQQ")
"""The user, the time of the sign-in, the end (seconds since 1970)."""
TAG_BYTES = 16
MAX_TOKEN_CHARS = 400
MAX_PAYLOAD_BYTES = 200


@dataclass(frozen=True)
class Token:
    """What a good token says."""

    user_id: int
    signed_in: int
    expires: int
    payload: bytes


class Refused(Exception):
    """A token that is not good: `code` says why (`invalid` — forged, altered, of another
    purpose or key; `expired`)."""

    def __init__(self, code: Literal["invalid", "expired"]) -> None:
        super().__init__(code)
        self.code = code


class Sessions:
    """Signs and reads the tokens of each purpose, with keys derived from `link_key`."""

    def __init__(self, link_key: bytes, clock: Callable[[], float] = time.time) -> None:
        self._keys = {
            purpose: hmac.new(link_key, f"ohhell web {purpose} v1".encode(), "sha256").digest()
            for purpose in (SESSION, LOGIN, STATE)
        }
        self.clock = clock

    def now(self) -> int:
        return int(self.clock())

    def sign(
        self,
        purpose: Purpose,
        user_id: int,
        lifetime: int,
        *,
        signed_in: int | None = None,
        payload: bytes = b"",
    ) -> str:
        now = self.now()
        if len(payload) > MAX_PAYLOAD_BYTES:
            raise ValueError("payload too long")
        body = _HEAD.pack(user_id, now if signed_in is None else signed_in, now + lifetime)
        body += payload
        tag = hmac.new(self._keys[purpose], body, hashlib.sha256).digest()[:TAG_BYTES]
        return base64.urlsafe_b64encode(body + tag).decode().rstrip("=")

    def read(self, purpose: Purpose, token: str) -> Token:
        """What `token` says, if it is a good one of `purpose`; else `Refused`."""
        if not token or len(token) > MAX_TOKEN_CHARS or not token.isascii():
            raise Refused("invalid")
        try:
            raw = base64.urlsafe_b64decode(token.encode() + b"=" * (-len(token) % 4))
        except (binascii.Error, ValueError):
            raise Refused("invalid") from None
        if len(raw) < _HEAD.size + TAG_BYTES:
            raise Refused("invalid")
        body, tag = raw[:-TAG_BYTES], raw[-TAG_BYTES:]
        expected = hmac.new(self._keys[purpose], body, hashlib.sha256).digest()[:TAG_BYTES]
        if not hmac.compare_digest(tag, expected):
            raise Refused("invalid")
        user_id, signed_in, expires = _HEAD.unpack(body[: _HEAD.size])
        if self.now() >= expires:
            raise Refused("expired")
        return Token(user_id, signed_in, expires, body[_HEAD.size :])

    # Sessions

    def session(self, user_id: int, signed_in: int | None = None) -> str:
        """A new session for `user_id` (signed in now, unless renewing one signed in then)."""
        if signed_in is not None:
            left = signed_in + MAX_SIGNED_IN - self.now()
            lifetime = min(SESSION_LIFETIME, left)
            if lifetime <= 0:
                raise Refused("expired")
        else:
            lifetime = SESSION_LIFETIME
        return self.sign(SESSION, user_id, lifetime, signed_in=signed_in)

    def user(self, session: str) -> int:
        """The user a good session is for; else `Refused`."""
        return self.read(SESSION, session).user_id
