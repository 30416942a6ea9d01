"""The pages' JSON bodies, read one way for every endpoint: one JSON object of at most the size
the endpoint takes, anything else `BadBody`; and their answers, kept by no cache."""

from __future__ import annotations

import json
from typing import Any

from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer

from cogs.web.json_answers import BadBody, json_answer, json_body


async def read(body: bytes, limit: int | None = None, **headers: str) -> Any:
    """What `json_body` makes of `body` (posted with `headers`), through a real server."""

    async def endpoint(request: web.Request) -> web.Response:
        try:
            return json_answer({"body": await json_body(request, limit)})
        except BadBody:
            return json_answer({"error": "bad_request"}, 400)

    app = web.Application(client_max_size=1024)
    app.router.add_post("/", endpoint)
    async with TestClient(TestServer(app)) as client:
        answer = await client.post("/", data=body, headers=headers)
        assert answer.headers["Cache-Control"] == "no-store"
        return answer.status, await answer.json()


async def test_a_json_object_is_read_and_anything_else_is_a_bad_body() -> None:
    assert await read(b'{"do": "back"}') == (200, {"body": {"do": "back"}})
    assert await read(b'{"code": "' + b"a" * 200 + b'"}', 256) == (
        200,
        {"body": {"code": "a" * 200}},
    )
    bad = (400, {"error": "bad_request"})
    for body in (b"", b"[1, 2]", b'"text"', b"3", b"null", b"{", b"\xff\xfe", b"code=abc"):
        assert await read(body) == bad, body
    # Past the endpoint's size, or the server's: refused, whatever the body is.
    assert await read(json.dumps({"x": "a" * 300}).encode(), 256) == bad
    assert await read(json.dumps({"x": "a" * 2000}).encode()) == bad
