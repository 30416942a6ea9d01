"""Opening a database by its URL: the one place that picks the backend."""

from __future__ import annotations

import re
from urllib.parse import unquote

from bot.storage import postgres, sqlite
from bot.storage.connection import Backend
from bot.storage.postgres import PostgresBackend
from bot.storage.sqlite import SqliteBackend

_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.\-]+:")
"""What starts a URL (a scheme of two letters or more)."""

UNUSABLE = (*sqlite.ERRORS, *postgres.ERRORS)
"""What either backend raises when its database cannot be opened or migrated."""


async def open_backend(url: str, *, pool_size: int = 10) -> Backend:
    """Open `sqlite:///path` (or a bare path) or `postgresql://…`."""
    if is_postgres(url):
        _check_userinfo(url)
        return await PostgresBackend.open(url, pool_size=pool_size)
    return await SqliteBackend.open(sqlite_path(url))


def is_postgres(url: str) -> bool:
    # Not `urlsplit`: it raises on some malformed URLs (an unclosed "[").
    scheme, slashes, _ = url.partition("://")
    return bool(slashes) and scheme.lower() in ("postgres", "postgresql")


def _check_userinfo(url: str) -> None:
    """A user or password holding an `@` or a `/` as it is: drivers split the URL there, and
    would take part of the password for the host (and quote it in their error)."""
    start = url.index("://") + 3
    query = url.find("?", start)
    userinfo = url[start : len(url) if query == -1 else query].rpartition("@")[0]
    for mark, escaped in (("@", "%40"), ("/", "%2F")):
        if mark in userinfo:
            raise ValueError(f"the user or password holds a {mark!r}: write it as {escaped}")


def sqlite_path(url: str) -> str:
    """The file of `sqlite:///relative/path`, `sqlite:////absolute/path` or a bare path."""
    if url.startswith("sqlite:"):
        rest = url[len("sqlite:") :]
        if rest.startswith("///"):
            return unquote(rest[3:])
        if rest.startswith("//"):
            raise ValueError("write sqlite:///path (three slashes) for a file")
        return unquote(rest)
    if "://" in url or _SCHEME.match(url):  # `C:\…` is a path, `postgres:/…` a mistake
        raise ValueError("a database URL starts with sqlite:/// or postgresql://")
    return url
