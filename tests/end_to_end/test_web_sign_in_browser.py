"""Signing in at the pages in a real browser (headless Chromium, async Playwright, the bot on
the same event loop): inside the stand-in's Discord client, the vendored Embedded App SDK,
unmodified, signs the person in through the bot's Activity entry and ends with a session for
them, which the page renews before it ends; in a plain browser, "Log in with Discord" goes
through the stand-in's OAuth2 page and back to the table, where the page's login cookie gives a
session."""

from __future__ import annotations

import socket
from typing import Any

import pytest

from standin.activity_client import ActivityClient
from standin.server import StandIn
from tests.browsers import chromium, needs_chromium, serious_violations
from tests.end_to_end.conftest import BotFactory
from tests.end_to_end.test_web_sign_in import acting, sign_in_settings
from tools.simulated_people import open_table

pytestmark = [
    needs_chromium,
    pytest.mark.timeout(300),
    pytest.mark.parametrize("database_url", ["sqlite"], indirect=True),
]

SESSION = """async () => {
  const answer = await fetch("/login/session", {method: "POST"});
  return {status: answer.status, body: await answer.json()};
}"""
RENEW = """async () => {
  const answer = await fetch("/activity/renew",
                             {method: "POST", headers: window.ohhellSession.headers()});
  return {status: answer.status, body: await answer.json()};
}"""

HEADER = "() => window.ohhellSession.headers().Authorization"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def refusal(message: Any) -> bool:
    return bool(message.type == "error" and "Failed to load resource" not in message.text)


async def signed_in(frame: Any) -> dict[str, str]:
    """The Activity's body `data-*` once its sign-in ended, either way."""
    await frame.wait_for_selector(
        "body[data-session-user], body[data-session-error]", state="attached", timeout=15_000
    )
    state: dict[str, str] = await frame.evaluate("Object.assign({}, document.body.dataset)")
    return state


async def test_the_activity_signs_its_person_in_through_the_sdk(
    standin: StandIn, start_bot: BotFactory
) -> None:
    ann, bob = standin.person("Ann"), standin.person("Bob")
    async with start_bot(settings=sign_in_settings(standin)) as bot:
        assert bot.web is not None
        served = f"http://127.0.0.1:{bot.web.port}"
        async with ActivityClient(standin, {"/": served}) as client, chromium() as browser:
            frames, pages = [], []
            for person in (ann, bob):
                frame = client.open(person, standin.channel)
                page = await browser.new_page()
                errors: list[str] = []
                # A refusal of the page's policy is a console error; a failed request of the
                # page's is a response (the browser's own /favicon.ico for Discord's client
                # page is neither).
                page.on("console", lambda m, e=errors: e.append(m.text) if refusal(m) else 0)
                page.on("response", lambda r, e=errors: e.append(r.url) if r.status >= 400 else 0)
                await page.goto(client.frame_url(frame))
                await page.wait_for_selector("iframe")
                frames.append(frame)
                pages.append((page, errors))
            for (page, errors), frame, person in zip(pages, frames, (ann, bob), strict=True):
                activity = page.frames[1]
                state = await signed_in(activity)
                assert "sessionError" not in state, state
                assert state["sessionUser"] == str(person.user.id)
                assert frame.authenticated is person.user and len(frame.codes) == 1
                assert frame.commands == ["AUTHORIZE", "AUTHENTICATE"]
                assert frame.unanswered == [] and frame.logs == [] and errors == []
                status = await activity.text_content("#session-status")
                assert status == f"Signed in as {person.user.display_name}."
                assert await serious_violations(activity) == []
                renewed = await activity.evaluate(RENEW)
                assert renewed == {
                    "status": 200,
                    "body": {
                        "session": renewed["body"]["session"],
                        "expires_in": 900,
                        "user": {"id": str(person.user.id)},
                    },
                }


async def test_log_in_with_discord_in_a_browser_ends_at_the_table_with_a_session(
    standin: StandIn, start_bot: BotFactory
) -> None:
    port = free_port()
    public = f"http://127.0.0.1:{port}"
    standin.redirect_uris.add(f"{public}/login/callback")
    ann = standin.person("Ann")
    settings = sign_in_settings(standin, public_url=public, web_port=port)
    async with start_bot(settings=settings) as bot, chromium() as browser:
        assert bot.links is not None
        _, table_id = await open_table(standin, [ann])
        table = bot.links.table(standin.guild.id, table_id)
        context = await browser.new_context()
        await context.add_cookies([standin.login_cookie(ann)])
        page = await context.new_page()
        # Not logged in yet: the table's page has no session to give.
        await page.goto(table)
        assert await page.evaluate(SESSION) == {
            "status": 401,
            "body": {"error": "login_missing"},
        }
        await page.goto(f"{public}/login?next={table.removeprefix(public)}")
        assert page.url.startswith(f"{standin.base_url}/oauth2/authorize?")
        await page.click("#authorize")
        await page.wait_for_url(table)
        cookies = {c["name"]: c for c in await context.cookies(public)}
        assert cookies["ohhell_login"]["httpOnly"] and cookies["ohhell_login"]["sameSite"] == "Lax"
        assert "ohhell_login_state" not in cookies
        # The page's script cannot read the cookie; it trades it for a session.
        assert "ohhell_login" not in await page.evaluate("document.cookie")
        got = await page.evaluate(SESSION)
        assert got["status"] == 200
        assert got["body"]["user"] == {"id": str(ann.user.id), "name": ann.user.display_name}
        # Logged in once: "Log in with Discord" again comes straight back (prompt=none).
        await page.goto(f"{public}/login?next={table.removeprefix(public)}")
        await page.wait_for_url(table)
        await context.close()


async def test_the_activitys_page_renews_its_session_before_it_ends(
    standin: StandIn, start_bot: BotFactory
) -> None:
    ann = standin.person("Ann")
    async with start_bot(settings=sign_in_settings(standin)) as bot:
        assert bot.web is not None
        served = f"http://127.0.0.1:{bot.web.port}"
        async with ActivityClient(standin, {"/": served}) as client, chromium() as browser:
            context = await browser.new_context()
            await context.clock.install()  # the page's own clock, to be moved on below
            page = await context.new_page()
            renewals: list[int] = []
            page.on(
                "response",
                lambda r: renewals.append(r.status) if r.url.endswith("/activity/renew") else 0,
            )
            await page.goto(client.frame_url(client.open(ann, standin.channel)))
            await page.wait_for_selector("iframe")
            activity = page.frames[1]
            assert (await signed_in(activity))["sessionUser"] == str(ann.user.id)
            first = await activity.evaluate(HEADER)
            # Not before its time: a session is good for 15 minutes.
            await context.clock.run_for("10:00")
            assert renewals == [] and await activity.evaluate(HEADER) == first
            # Two minutes before it ends, the page asks for the next one and acts with it.
            await context.clock.run_for("03:01")
            await standin.wait_for(lambda: renewals == [200])
            # (The same token when renewed within the second it was given.)
            renewed = await activity.evaluate(HEADER)
            assert await acting(bot, renewed) == ann.user.id
            await context.close()
