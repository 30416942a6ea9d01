"""The one way the pages' JSON endpoints answer (sign-in, moves, the lobby): a JSON body that
no cache keeps, since each answer is one person's."""

from __future__ import annotations

from typing import Any

from aiohttp import web


def json_answer(
    body: dict[str, Any], status: int = 200, headers: dict[str, str] | None = None
) -> web.Response:
    return web.json_response(
        body, status=status, headers={"Cache-Control": "no-store", **(headers or {})}
    )
