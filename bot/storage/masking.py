"""No password in any message: `masked(url)` is the one way a database URL is shown (in a
message, a log line, an exception's text), whatever its form or its mistakes, and `scrubbed`
takes a URL's secrets out of any text that may quote them (an error raised while parsing it)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from urllib.parse import unquote

HIDDEN = "***"

_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.\-]*:/+")
"""A scheme and the slashes after it, however many (a typo may give one, or four); without a
slash, `user:` is no scheme."""
_PASSWORD_PARAMETER = re.compile(r"(?i)\b(pass(?:word|wd)?\s*=\s*)([^&;#\s]*)")
"""`password=…` as a URL's query parameter, or a libpq `key=value` string's."""


def masked(url: str) -> str:
    """`url` with every password in it as `***`: the one after `user:` in its authority (up
    to its last `@`, so that a password holding an unescaped `@` or `/` is hidden whole) and
    any `password=` parameter. A URL of a scheme nobody knows, or that does not parse, is
    masked the same way; a URL without a password comes back as it was."""
    text = _PASSWORD_PARAMETER.sub(lambda found: f"{found[1]}{HIDDEN}", url)
    scheme = _SCHEME.match(text)
    start = scheme.end() if scheme else 0
    query = text.find("?", start)
    end = len(text) if query == -1 else query
    at = text.rfind("@", start, end)
    if at == -1:
        return text
    user, colon, _ = text[start:at].partition(":")
    if not colon:
        return text
    return f"{text[:start]}{user}:{HIDDEN}{text[at:]}"


def secrets_of(url: str) -> list[str]:
    """The passwords `url` holds, as written and as decoded (longest first). One that holds an
    `@` or a `/` as it is never reaches a driver that would split it there and quote a piece
    (`bot.storage.backends`)."""
    found: set[str] = set()
    for parameter in _PASSWORD_PARAMETER.finditer(url):
        found.add(parameter[2])
    scheme = _SCHEME.match(url)
    start = scheme.end() if scheme else 0
    query = url.find("?", start)
    at = url.rfind("@", start, len(url) if query == -1 else query)
    if at != -1:
        _, colon, password = url[start:at].partition(":")
        if colon:
            found.add(password)
    found |= {unquote(secret) for secret in found}
    return sorted((secret for secret in found if secret), key=len, reverse=True)


def scrubbed(text: str, secrets: Iterable[str]) -> str:
    """`text` with each of `secrets` (passwords, a token) as `***`."""
    for secret in sorted(set(secrets), key=len, reverse=True):
        if secret:
            text = text.replace(secret, HIDDEN)
    return text


def scrubbed_of(text: str, *urls: str) -> str:
    """`text` with the URLs' passwords taken out (see `secrets_of`)."""
    secrets = [secret for url in urls for secret in secrets_of(url)]
    return scrubbed(text, secrets)
