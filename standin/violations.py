"""Where a body broke a rule, in the terms both checks (`standin.limits`, `standin.openapi`)
report it: `Violation(route, field, message)`, the route named by Discord's path template
(``POST /channels/{channel_id}/messages``, matched from a concrete path by `RouteTable`), the
field by its path in the body (``components[0].components[1].custom_id``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from urllib.parse import urlsplit


@dataclass(frozen=True)
class Violation:
    """One broken rule in one body."""

    route: str  # "POST /channels/{channel_id}/messages"
    field: str  # "components[0].components[1].custom_id"; "" for the whole body
    message: str

    def __str__(self) -> str:
        if self.field:
            return f"{self.route}: {self.field}: {self.message}"
        return f"{self.route}: {self.message}"


_API_PREFIX = re.compile(r"^/api(?:/v\d+)?(?=/|$)")


def normalise_path(path: str) -> str:
    """``http://h/api/v10/channels/1/messages?wait=1`` -> ``/channels/1/messages``."""
    if "://" in path:
        path = urlsplit(path).path
    path = path.split("?", 1)[0].split("#", 1)[0]
    path = _API_PREFIX.sub("", path)
    if not path.startswith("/"):
        path = "/" + path
    if len(path) > 1:
        path = path.rstrip("/")
    return path


class RouteTable:
    """Matches concrete paths to OpenAPI path templates; literal segments beat parameters."""

    def __init__(self, templates: Mapping[str, Iterable[str]]) -> None:
        self._by_len: dict[int, list[tuple[str, tuple[str | None, ...], frozenset[str]]]] = {}
        for template, methods in templates.items():
            segments = tuple(None if "{" in seg else seg for seg in template.strip("/").split("/"))
            entry = (template, segments, frozenset(m.upper() for m in methods))
            self._by_len.setdefault(len(segments), []).append(entry)

    def match(self, method: str, path: str) -> str | None:
        parts = normalise_path(path).strip("/").split("/")
        if not all(parts):
            return None
        method = method.upper()
        best: tuple[tuple[bool, tuple[bool, ...]], str] | None = None
        for template, segments, methods in self._by_len.get(len(parts), ()):
            if all(seg is None or seg == part for seg, part in zip(segments, parts, strict=True)):
                # Prefer a template that defines the method, then literals earliest.
                key = (method in methods, tuple(seg is not None for seg in segments))
                if best is None or key > best[0]:
                    best = (key, template)
        return None if best is None else best[1]


# Routes a bot uses, for route names when the spec is absent (and for check_limits).
_BUILTIN_ROUTES: dict[str, tuple[str, ...]] = {
    "/gateway": ("GET",),
    "/gateway/bot": ("GET",),
    "/users/@me": ("GET", "PATCH"),
    "/users/{user_id}": ("GET",),
    "/users/@me/channels": ("POST",),
    "/oauth2/applications/@me": ("GET",),
    "/applications/@me": ("GET", "PATCH"),
    "/applications/{application_id}/activity-instances/{instance_id}": ("GET",),
    "/applications/{application_id}/commands": ("GET", "PUT", "POST"),
    "/applications/{application_id}/commands/{command_id}": ("GET", "DELETE", "PATCH"),
    "/applications/{application_id}/guilds/{guild_id}/commands": ("GET", "PUT", "POST"),
    "/applications/{application_id}/guilds/{guild_id}/commands/{command_id}": (
        "GET",
        "DELETE",
        "PATCH",
    ),
    "/channels/{channel_id}": ("GET", "DELETE", "PATCH"),
    "/channels/{channel_id}/messages": ("GET", "POST"),
    "/channels/{channel_id}/messages/bulk-delete": ("POST",),
    "/channels/{channel_id}/messages/{message_id}": ("GET", "DELETE", "PATCH"),
    "/channels/{channel_id}/messages/{message_id}/threads": ("POST",),
    "/channels/{channel_id}/messages/{message_id}/reactions/{emoji_name}/@me": ("PUT", "DELETE"),
    "/channels/{channel_id}/pins/{message_id}": ("PUT", "DELETE"),
    "/channels/{channel_id}/threads": ("POST",),
    "/channels/{channel_id}/typing": ("POST",),
    "/guilds/{guild_id}": ("GET", "PATCH"),
    "/guilds/{guild_id}/channels": ("GET", "POST", "PATCH"),
    "/guilds/{guild_id}/members/{user_id}": ("GET", "PUT", "DELETE", "PATCH"),
    "/interactions/{interaction_id}/{interaction_token}/callback": ("POST",),
    "/webhooks/{webhook_id}/{webhook_token}": ("GET", "POST", "DELETE", "PATCH"),
    "/webhooks/{webhook_id}/{webhook_token}/messages/@original": ("GET", "DELETE", "PATCH"),
    "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}": ("GET", "DELETE", "PATCH"),
}
BUILTIN_TABLE = RouteTable(_BUILTIN_ROUTES)


def subfield(prefix: str, key: str | int) -> str:
    """A field path one step deeper: ("components", 0) -> "components[0]", ("a", "b") -> "a.b"."""
    if isinstance(key, int):
        return f"{prefix}[{key}]"
    return f"{prefix}.{key}" if prefix else key


def field_path(path: Iterable[str | int]) -> str:
    """The field path of a JSON-schema error's path (``["embeds", 0, "title"]``)."""
    out = ""
    for key in path:
        out = subfield(out, key)
    return out
