"""The served pages in a real browser (Debian's headless Chromium through async Playwright, on
the bot's own event loop): the replay stepped from its first trick to its last, each checked
against the game's record; the leaderboard, a link to a player's page and back; hostile names
as text (no dialog); screenshots at desktop and phone width, not blank and without sideways
scroll on the phone; no serious accessibility violation (axe-core); no request outside the bot
and nothing the page's policy refused."""

from __future__ import annotations

from typing import Any

import pytest

from bot.engine.records import replay
from standin.server import StandIn
from tests.browsers import chromium, needs_chromium, not_blank, serious_violations
from tests.cogs.web.pages import HOSTILE, SHOWN_TRICK, plays
from tests.end_to_end.conftest import BotFactory
from tests.end_to_end.test_web_pages import WEB
from tests.finished_games import people, store_finished

pytestmark = [needs_chromium, pytest.mark.timeout(300)]


class Tab:
    """A browser tab, with every address it asked for, its dialogs and its errors (a refusal of
    the page's policy is a console error)."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.requests: list[str] = []
        self.dialogs: list[str] = []
        self.errors: list[str] = []
        page.on("request", lambda r: self.requests.append(r.url))
        page.on("dialog", self._dialog)
        page.on("pageerror", lambda e: self.errors.append(str(e)))
        page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)

    async def _dialog(self, dialog: Any) -> None:
        self.dialogs.append(dialog.message)
        await dialog.dismiss()

    async def fits(self, width: int) -> None:
        """At `width`: no sideways scroll, a screenshot that shows something."""
        await self.page.set_viewport_size({"width": width, "height": 800})
        assert await self.page.evaluate("document.documentElement.scrollWidth") <= width
        assert not_blank(await self.page.screenshot(full_page=True))


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
async def test_the_served_pages_in_a_browser(standin: StandIn, start_bot: BotFactory) -> None:
    async with start_bot(settings=WEB) as bot:
        assert bot.web is not None and bot.links is not None
        links, db = bot.links, bot.tables.service.db
        guild = standin.guild.id
        base = f"http://127.0.0.1:{bot.web.port}"

        def url(link: str) -> str:
            return base + link.removeprefix(links.public_url)

        seats = people("Ann", *HOSTILE, "Bea")
        await store_finished(db, guild, 10, seats, seed=4, max_cards=2)
        game, _ = await store_finished(db, guild, 10, seats, seed=7, max_cards=5)
        record = (await bot.tables.service.finished_games.game_record(guild, 10, game)).record
        summary = replay(record)
        expected = []
        for h, (hand, played) in enumerate(zip(summary["hands"], plays(record), strict=True), 1):
            for t, trick in enumerate(hand["tricks"], 1):
                laid, played = played[: len(trick["cards"])], played[len(trick["cards"]) :]
                expected.append((h, t, laid, trick["winner"]))
        assert len(expected) > 20
        names = record["players"]

        async with chromium() as browser:
            tab = Tab(await browser.new_page(viewport={"width": 1280, "height": 800}))

            # The replay, stepped with → from the first trick to the last.
            await tab.page.goto(url(links.game(guild, game)))
            for step, (h, t, laid, winner) in enumerate(expected):
                shown = await tab.page.evaluate(SHOWN_TRICK)
                assert (shown["hand"], shown["trick"]) == (h, t), step
                assert shown["cards"] == [card for _, card in laid]
                assert shown["names"] == [names[seat] for seat, _ in laid]
                assert shown["winner"] == f"{names[winner]} wins the trick"
                await tab.page.keyboard.press("ArrowRight")
            assert await tab.page.is_disabled("#next")
            await tab.page.click("#prev")
            assert (await tab.page.evaluate(SHOWN_TRICK))["trick"] == expected[-2][1]
            text = await tab.page.inner_text("body")
            assert all(name in text for name in HOSTILE)
            assert await tab.page.evaluate("document.querySelectorAll('img').length") == 0
            assert await serious_violations(tab.page) == []
            for width in (1280, 360):
                await tab.fits(width)
            # The cards big enough to read on a phone.
            box = await tab.page.locator("#trick .card").first.bounding_box()
            assert box is not None and box["width"] >= 44

            # The leaderboard, from the replay's link; a person's page and back.
            await tab.page.set_viewport_size({"width": 1280, "height": 800})
            await tab.page.click("header nav.pages a")
            await tab.page.wait_for_selector("ol.board")
            assert tab.page.url == url(links.board(guild))
            board_text = await tab.page.inner_text("ol.board")
            assert all(name in board_text for name in HOSTILE)
            assert await serious_violations(tab.page) == []
            for width in (1280, 360):
                await tab.fits(width)
            await tab.page.get_by_role("link", name=HOSTILE[1], exact=True).click()
            await tab.page.wait_for_selector("dl.stats")
            assert tab.page.url == url(links.player(guild, 1002))
            assert HOSTILE[1] in await tab.page.inner_text("h1")
            assert await tab.page.locator("svg.chart polyline").count() >= 1
            assert await serious_violations(tab.page) == []
            for width in (1280, 360):
                await tab.fits(width)
            await tab.page.click("header nav.pages a")
            await tab.page.wait_for_selector("ol.board")
            assert tab.page.url == url(links.board(guild))

            # The recent games, and a game's replay from there.
            await tab.page.click("header nav.pages a")
            await tab.page.wait_for_selector("ol.games")
            games_text = await tab.page.inner_text("ol.games")
            assert all(name in games_text for name in HOSTILE)
            assert await serious_violations(tab.page) == []
            for width in (360, 1280):
                await tab.fits(width)
            await tab.page.get_by_role("link", name=f"#{game}", exact=True).click()
            await tab.page.wait_for_selector("#trick .card")
            assert tab.page.url == url(links.game(guild, game))

            assert tab.dialogs == [] and tab.errors == []
            assert tab.requests and all(r.startswith(base + "/") for r in tab.requests), (
                tab.requests
            )
