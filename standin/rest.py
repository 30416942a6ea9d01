"""What the stand-in's REST handlers share: the request as a handler sees it, Discord's error
answers (`ApiError`) and the entries of the call log (`Call`)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from standin.world import Attachment

JSON = dict[str, Any]
API_VERSION = 10


class ApiError(Exception):
    """An error answer, in Discord's shape: `{"message": ..., "code": ...}`."""

    def __init__(self, status: int, code: int, message: str, errors: JSON | None = None) -> None:
        super().__init__(f"{status} {code} {message}")
        self.status = status
        self.body: JSON = {"message": message, "code": code}
        if errors:
            self.body["errors"] = errors


def unknown(what: str, code: int) -> ApiError:
    """404 "Unknown <what>", with Discord's code for it (10003 a channel, 10008 a message...)."""
    return ApiError(404, code, f"Unknown {what}")


@dataclass
class Call:
    """One REST request the bot made, as logged."""

    method: str
    route: str
    """"POST /channels/{channel_id}/messages": the method and the spec's path template."""
    path: str
    body: Any
    status: int
    time: float
    interaction_id: int | None
    response: Any = None
    params: dict[str, str] = field(default_factory=dict)


@dataclass
class Request:
    """One REST request as its handler gets it: `params` from the route's template."""

    method: str
    path: str
    params: dict[str, str]
    query: dict[str, str]
    body: Any
    files: list[Attachment]
    headers: Any


Handler = Callable[[Request], Awaitable[tuple[int, Any]]]
