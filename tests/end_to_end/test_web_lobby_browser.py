"""The lobby at the page in a real browser (headless Chromium, the stand-in's Discord client
framing the Activity): Ann opens the Activity in a channel with no table and opens one from
the page (its table message appears in the channel); Bob presses Play at the table on that
message, and Discord opens the Activity for him at the table, where he joins; Ann adds a
computer player and starts the game from the table's page. Each signs in once: the session
follows the frame from the Activity's entry to the table's page."""

from __future__ import annotations

from typing import Any

import pytest

from bot.storage import TableStatus
from standin.activity_client import ActivityClient
from standin.server import StandIn
from tests.browsers import chromium, needs_chromium, serious_violations
from tests.end_to_end.conftest import BotFactory
from tests.end_to_end.test_web_sign_in import sign_in_settings
from tests.end_to_end.test_web_sign_in_browser import refusal
from tools.simulated_people import table_embed, table_id_of

pytestmark = [
    needs_chromium,
    pytest.mark.timeout(300),
    pytest.mark.parametrize("database_url", ["sqlite"], indirect=True),
]


STYLED = """() => {
  const start = document.getElementById("lobby-start");
  return start !== null && getComputedStyle(start).minHeight === "44px";
}"""


def seats(message: Any) -> list[str]:
    return table_embed(message)["fields"][0]["value"].splitlines()


async def test_a_table_opened_joined_and_started_from_the_activity(
    standin: StandIn, start_bot: BotFactory
) -> None:
    ann, bob = standin.person("Ann"), standin.person("Bob")
    async with start_bot(settings=sign_in_settings(standin)) as bot:
        assert bot.web is not None
        side = await standin.add_text_channel("cards")
        served = f"http://127.0.0.1:{bot.web.port}"
        async with ActivityClient(standin, {"/": served}) as client, chromium() as browser:
            frame = client.open(ann, side)
            page = await browser.new_page()
            errors: list[str] = []
            page.on("console", lambda m: errors.append(m.text) if refusal(m) else 0)
            page.on("response", lambda r: errors.append(r.url) if r.status >= 400 else 0)
            await page.goto(client.frame_url(frame))
            await page.wait_for_selector("iframe")
            activity = page.frames[1]

            # No table in the channel: the page offers to open one.
            opener = await activity.wait_for_selector("#open-table", timeout=15_000)
            assert await activity.text_content("#channel-table p") == (
                "There is no table in this channel yet."
            )
            assert await serious_violations(activity) == []
            await opener.click()

            # The table's page, in the same frame, with Ann's session: her lobby controls.
            await activity.wait_for_url("**/t/**", timeout=15_000)
            await activity.wait_for_selector("#lobby-start", timeout=15_000)
            messages = ann.visible_messages(side)
            assert len(messages) == 1
            table = messages[0]
            table_id = table_id_of(table)
            assert seats(table) == ["1. Ann"]
            assert frame.commands == ["AUTHORIZE", "AUTHENTICATE"]  # signed in once
            assert await activity.is_disabled("#lobby-start")  # one player cannot start
            assert await activity.is_visible("#lobby-leave")
            assert not await activity.query_selector("#lobby-join")
            assert await serious_violations(activity) == []
            # The controls' own style sheet is loaded (the page's policy allows the bot's own).
            await activity.wait_for_function(STYLED)

            # Bob presses Play at the table on the table message: Discord opens the Activity
            # (the same instance as Ann's), straight at the table, where he joins.
            launched = await bob.click(table, f"oh:activity:{table_id}")
            assert launched.response_type == 12 and launched.activity is frame.instance
            bobs = client.open(bob, instance=launched.activity)
            bob_page = await browser.new_page()
            await bob_page.goto(client.frame_url(bobs))
            await bob_page.wait_for_selector("iframe")
            bob_activity = bob_page.frames[1]
            await bob_activity.wait_for_selector("#lobby-join", timeout=15_000)
            assert not await bob_activity.query_selector("#lobby-start")  # not the host
            await bob_activity.click("#lobby-join")
            await standin.wait_for(lambda: seats(table) == ["1. Ann", "2. Bob"])
            await bob_activity.wait_for_selector("#lobby-leave", timeout=15_000)

            # A computer player from Ann's page: three seated, the rules' least; she starts.
            await activity.select_option("#lobby-level", "easy")
            await activity.click("#lobby-computer")
            await standin.wait_for(lambda: len(seats(table)) == 3)
            await activity.wait_for_selector("#lobby-start:not([disabled])", timeout=15_000)
            await activity.click("#lobby-start")

            # The game begins: the table message follows, the lobby's controls go.
            await standin.wait_for(
                lambda: "Hand 1" in (table_embed(table).get("description") or "")
            )
            await activity.wait_for_selector("#lobby-controls", state="hidden", timeout=15_000)
            view = await bot.tables.service.lookups.table_view(table_id)
            assert view.status is TableStatus.PLAYING and view.host_id == ann.id
            await bob_activity.wait_for_selector("#lobby-controls", state="hidden", timeout=15_000)
            assert errors == [] and frame.unanswered == [] and frame.logs == []
            assert bobs.commands == ["AUTHORIZE", "AUTHENTICATE"]
