"""The web pages' links: each names one thing of one server (a table, a finished game, the
server's leaderboard, a player there) by a token signed with the bot's link key, so a link
cannot be guessed, altered or walked to another server's games. A token is the kind, the
server, the thing's number and an HMAC-SHA256 tag over the three, in URL-safe base64 without
padding."""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import struct
from dataclasses import dataclass
from typing import Literal

Kind = Literal["t", "g", "s", "p"]
"""t: a table, live; g: a finished game's replay; s: a server's leaderboard; p: a player."""

_BODY = struct.Struct(">cQQ")
TAG_BYTES = 12
"""96 bits of tag: far beyond guessing, and a link short enough to paste."""
TOKEN_CHARS = -(-(_BODY.size + TAG_BYTES) * 4 // 3)
"""Base64 without its `=` padding."""


@dataclass(frozen=True)
class Signed:
    """What a valid token names: the server, and the table, game or person in it."""

    kind: Kind
    guild_id: int
    number: int


class Links:
    """Signs and reads tokens, and writes the pages' addresses under `public_url`."""

    def __init__(self, key: bytes, public_url: str) -> None:
        self._key = key
        self.public_url = public_url.rstrip("/")

    def token(self, kind: Kind, guild_id: int, number: int) -> str:
        body = _BODY.pack(kind.encode(), guild_id, number)
        tag = hmac.new(self._key, body, hashlib.sha256).digest()[:TAG_BYTES]
        return base64.urlsafe_b64encode(body + tag).decode().rstrip("=")

    def read(self, kind: Kind, token: str) -> Signed | None:
        """What `token` names, if it is a valid token of `kind`; None for anything else (a
        wrong length, an altered byte, another kind, another key)."""
        if len(token) != TOKEN_CHARS or not token.isascii():
            return None
        try:
            raw = base64.urlsafe_b64decode(token.encode() + b"=" * (-len(token) % 4))
        except (binascii.Error, ValueError):
            return None
        # Base64 leaves the last character's low bits unused: two spellings decode alike, and
        # only the one `token` writes is the link.
        if base64.urlsafe_b64encode(raw).decode().rstrip("=") != token:
            return None
        body, tag = raw[: _BODY.size], raw[_BODY.size :]
        expected = hmac.new(self._key, body, hashlib.sha256).digest()[:TAG_BYTES]
        if len(body) != _BODY.size or not hmac.compare_digest(tag, expected):
            return None
        named, guild_id, number = _BODY.unpack(body)
        if named != kind.encode():
            return None
        return Signed(kind, guild_id, number)

    def table(self, guild_id: int, table_id: int) -> str:
        """The live table's page (the Watch link)."""
        return f"{self.public_url}/t/{self.token('t', guild_id, table_id)}"

    def game(self, guild_id: int, table_id: int) -> str:
        """A finished game's replay (the Replay link)."""
        return f"{self.public_url}/g/{self.token('g', guild_id, table_id)}"

    def board(self, guild_id: int) -> str:
        """The server's leaderboard."""
        return f"{self.public_url}/s/{self.token('s', guild_id, 0)}"

    def player(self, guild_id: int, user_id: int) -> str:
        """A player's page on the server: their stats and rating chart."""
        return f"{self.public_url}/p/{self.token('p', guild_id, user_id)}"
