"""The lobby at the page in a real browser (headless Chromium, the stand-in's Discord client
framing the Activity): Ann opens the Activity in a channel with no table, opens one from the
page (its table message appears in the channel), adds computer players and starts the game
from the table's page, signed in once: her session follows the frame from the Activity's
entry to the table's page."""

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


def seats(message: Any) -> list[str]:
    return table_embed(message)["fields"][0]["value"].splitlines()


async def test_ann_opens_a_table_from_the_activity_and_starts_it_from_the_page(
    standin: StandIn, start_bot: BotFactory
) -> None:
    ann = standin.person("Ann")
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

            # Computer players, added from the page until the game may start.
            for count in (2, 3):
                if not await activity.is_disabled("#lobby-start"):
                    break
                await activity.select_option("#lobby-level", "easy")
                await activity.click("#lobby-computer")
                await standin.wait_for(lambda c=count: len(seats(table)) == c)
                await activity.wait_for_function(
                    f"document.body.dataset.version >= {count}", timeout=15_000
                )
                await activity.wait_for_timeout(300)
            assert not await activity.is_disabled("#lobby-start")
            await activity.click("#lobby-start")

            # The game begins: the table message follows, the lobby's controls go.
            await standin.wait_for(
                lambda: "Hand 1" in (table_embed(table).get("description") or "")
            )
            await activity.wait_for_selector("#lobby-controls", state="hidden", timeout=15_000)
            view = await bot.tables.service.lookups.table_view(table_id)
            assert view.status is TableStatus.PLAYING and view.host_id == ann.id
            assert errors == [] and frame.unanswered == [] and frame.logs == []
