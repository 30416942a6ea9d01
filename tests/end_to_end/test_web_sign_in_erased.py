"""`/ohhell forget-me` signs the person out of the pages everywhere: with two bot processes on
one PostgreSQL, the erasure confirmed at one makes the other refuse, at once, every session and
login cookie of theirs given before it (as expired), renewed or not, at every route that needs
someone; everyone else's stay good, and a sign-in after the erasure is good again."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest

from cogs.web import seat
from cogs.web.sessions import LOGIN, LOGIN_LIFETIME, Sessions
from standin.server import StandIn
from tests.end_to_end.seats import Seat, session_of
from tests.end_to_end.test_web_seat_processes import two_shards
from tools.simulated_people import open_table

EXPIRED = {"error": "session_expired"}
SAID = {
    "message": "This page's sign-in has ended or is not valid: reload the page to sign in again."
}


async def test_forget_me_at_one_process_ends_the_sign_ins_before_it_at_the_other(
    standin: StandIn, postgres_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(seat, "KEEP_ALIVE", 0.2)  # how often an open stream checks its session
    async with two_shards(standin, postgres_url) as shards:
        ann, bob = standin.person("Ann"), standin.person("Bob")
        owner, other, http, hall = shards.owner, shards.other, shards.http, shards.hall
        assert owner.links is not None and other.web is not None
        base = f"http://127.0.0.1:{other.web.port}"
        _table, table_id = await open_table(standin, [ann, bob], channel=hall, preset="classic")
        path = owner.links.table(shards.here.id, table_id).removeprefix(owner.links.public_url)

        async def post(route: str, session: str | None = None, **options: Any) -> Any:
            headers = {} if session is None else {"Authorization": f"Session {session}"}
            async with http.post(base + route, headers=headers, **options) as answer:
                return answer.status, await answer.json(content_type=None), answer.cookies

        # Ann signed in at the other process: the Activity's session, renewed; a browser's
        # login cookie; Bob too.
        anns = Seat(other, http, path, await session_of(standin, other, http, ann))
        status, renewal, _ = await post("/activity/renew", anns.session)
        assert status == 200
        renewed = renewal["session"]
        key = await other.tables.service.keys.link_key()
        cookie = Sessions(key).sign(LOGIN, ann.id, LOGIN_LIFETIME, payload=b"Ann")
        status, traded, _ = await post("/login/session", cookies={"ohhell_login": cookie})
        assert status == 200 and traded["user"]["id"] == str(ann.id)
        bobs = Seat(other, http, path, await session_of(standin, other, http, bob))
        async with anns.stream() as seat_stream, bobs.stream() as bobs_stream:
            assert seat_stream.status == bobs_stream.status == 200

            # She erases herself at the process that runs her server.
            asked = await ann.slash(hall, "ohhell forget-me")
            assert asked.reply is not None
            (button,) = asked.reply.custom_ids()
            await ann.click(asked.reply, button)
            await standin.wait_for(
                lambda: asked.reply is not None and "Done" in asked.reply.content
            )
            erased = time.time()
            # Her seat's stream, open at the other process, ends by itself; Bob's goes on.
            await seat_stream.wait(lambda: seat_stream.ended)
            assert not bobs_stream.ended

        # At once, at the other process: every sign-in of hers from before, refused.
        for session in (anns.session, renewed, traded["session"]):
            assert (await post("/activity/renew", session))[:2] == (401, EXPIRED)
            assert await anns.act({"do": "back"}, session) == (401, EXPIRED | SAID)
        async with anns.stream() as stream:
            assert stream.status == 401
        status, answer, cookies = await post("/login/session", cookies={"ohhell_login": cookie})
        assert (status, answer) == (401, {"error": "login_expired"})
        assert cookies["ohhell_login"].value == ""  # the browser drops it
        # Bob's stay good.
        assert (await post("/activity/renew", bobs.session))[0] == 200
        assert (await bobs.act({"do": "back"}))[0] != 401

        # Signed in again, later than the erasure (a sign-in's time is a whole second): good.
        await asyncio.sleep(max(0.0, int(erased) + 1 - time.time()))
        again = await session_of(standin, other, http, ann)
        assert (await post("/activity/renew", again))[0] == 200
        assert (await anns.act({"do": "back"}, again))[0] != 401
