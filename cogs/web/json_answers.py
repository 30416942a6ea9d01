"""The one way the pages' JSON endpoints (sign-in, moves, the lobby) read a request's body and
answer: a body is one JSON object, of at most the size the endpoint takes (and never more than
the web room takes of any request, cogs/web/server.py); an answer is a JSON body that no cache
keeps, since each answer is one person's."""

from __future__ import annotations

import json
from typing import Any

from aiohttp import web


class BadBody(Exception):
    """A request's body the endpoint does not take: not one JSON object of at most the size
    allowed (`json_body`), or not of the shape the endpoint takes (raised by the endpoint)."""


async def json_body(request: web.Request, limit: int | None = None) -> dict[str, Any]:
    """The request's body as a JSON object, if it is one of at most `limit` bytes (any the web
    room takes, without); else `BadBody`. A longer body is not read."""
    if limit is not None and (request.content_length or 0) > limit:
        raise BadBody()
    try:
        raw = await request.read()
    except web.HTTPRequestEntityTooLarge:
        raise BadBody() from None
    if limit is not None and len(raw) > limit:
        raise BadBody()
    try:
        body = json.loads(raw)
    except (ValueError, UnicodeDecodeError):
        raise BadBody() from None
    if not isinstance(body, dict):
        raise BadBody()
    return body


def json_answer(
    body: dict[str, Any], status: int = 200, headers: dict[str, str] | None = None
) -> web.Response:
    return web.json_response(
        body, status=status, headers={"Cache-Control": "no-store", **(headers or {})}
    )
