"""The seat at the table's page in a real browser (headless Chromium, async Playwright, the bot
on the same event loop): Ann logs in with Discord through the stand-in, bids with the keyboard
and plays a card with a click on a 360-pixel-wide phone's page (a card she may not play dimmed,
its reason on hover and said when tapped), while Bob plays from his DM buttons; her DM follows;
the page has no serious accessibility violation and no sideways scroll."""

from __future__ import annotations

import json
from functools import partial
from typing import Any

import pytest

from standin.driver import Person
from standin.server import StandIn
from tests.browsers import chromium, needs_chromium, serious_violations
from tests.end_to_end.conftest import BotFactory
from tests.end_to_end.test_web_seat import _dm_bid
from tests.end_to_end.test_web_sign_in import sign_in_settings
from tests.end_to_end.test_web_sign_in_browser import free_port, refusal
from tools.simulated_people import add_computer, my_turn_controls, open_table, take_turn

pytestmark = [
    needs_chromium,
    pytest.mark.timeout(300),
    pytest.mark.parametrize("database_url", ["sqlite"], indirect=True),
]

SHOWN = (
    "() => ['my-seat-title', 'seat-line']"
    ".map(id => document.getElementById(id).textContent).join('|')"
)
"""What the seat shows of the hand: its title (its number) and the bid line."""
MY_TURN = "#my-seat.turn"
BID = "#my-bids button:not([aria-disabled])"
CARD = "#my-cards button.card:not(.dim)"
DIMMED = "#my-cards button.card.dim"
TAP = f"""() => {{
  const card = document.querySelector({json.dumps(DIMMED)});
  if (!card) return null;
  const why = document.getElementById(card.getAttribute("aria-describedby"));
  card.click();
  return [card.title, why ? why.textContent : null];
}}"""
"""Taps the first dimmed card: its reason (title), and what is read out with it."""


def dm_shows_bid(person: Person, bid: int) -> bool:
    """The person's DM shows `bid` as theirs (or has gone on to a hand not bid yet)."""
    return _dm_bid(person) in (bid, None)


async def wide(page: Any) -> int:
    width: int = await page.evaluate("document.documentElement.scrollWidth")
    return width


async def test_a_person_bids_and_plays_by_clicking_the_page(
    standin: StandIn, start_bot: BotFactory
) -> None:
    port = free_port()
    public = f"http://127.0.0.1:{port}"
    standin.redirect_uris.add(f"{public}/login/callback")
    ann, bob = standin.person("Ann"), standin.person("Bob")
    settings = sign_in_settings(standin, public_url=public, web_port=port)
    async with start_bot(settings=settings) as bot, chromium() as browser:
        assert bot.links is not None and bot.web is not None
        table_message, table_id = await open_table(
            standin, [ann, bob], preset="classic", max_cards=3
        )
        await add_computer(standin, ann, table_message, table_id, "easy")
        table = bot.links.table(standin.guild.id, table_id)
        context = await browser.new_context(viewport={"width": 360, "height": 740})
        await context.add_cookies([standin.login_cookie(ann)])
        page = await context.new_page()
        errors: list[str] = []
        page.on("console", lambda m: errors.append(m.text) if refusal(m) else 0)
        moves: list[str] = []
        page.on("request", lambda r: moves.append(r.url) if r.url.endswith("/act") else 0)
        await page.goto(table)
        # Not signed in: a link to log in, and the table to watch.
        login = page.locator("#login a")
        assert await login.text_content() == "Log in with Discord to play"
        await login.click()
        await page.click("#authorize")
        await page.wait_for_url(table)
        await page.wait_for_selector("body[data-session-user]", state="attached")
        assert await page.locator("#login").is_hidden()
        await standin.wait_for(
            lambda: bot.web is not None and bot.web.presence.at_page(table_id, ann.id)
        )
        await ann.click(table_message, f"oh:start:{table_id}")
        await page.wait_for_selector("#my-seat:not([hidden])")
        bid_by_page = played_by_page = tapped = False
        for _ in range(120):
            if bid_by_page and played_by_page and tapped:
                break
            if not tapped and await page.locator(DIMMED).count():
                # A card she may not play now: its reason on hover, read out with it, and
                # said when she taps it anyway; nothing is played.
                sent = len(moves)
                seen = await page.evaluate(TAP)
                if seen is not None:
                    reason, described = seen
                    assert reason and described == reason, seen
                    await page.wait_for_function(
                        "() => document.getElementById('seat-error').textContent"
                        f" === {json.dumps(reason)}"
                    )
                    assert len(moves) == sent  # the page sent no move
                    tapped = True
            if await page.locator(MY_TURN).count():
                if await page.locator(BID).count():
                    assert await serious_violations(page) == []
                    assert await wide(page) <= 360
                    chosen = page.locator(BID).first
                    bid = int(await chosen.text_content() or "")
                    before = await page.evaluate(SHOWN)
                    await chosen.focus()
                    await page.keyboard.press("Enter")
                    await standin.wait_for(partial(dm_shows_bid, ann, bid))
                    bid_by_page = True
                    # The page shows the bid (or, the hand played out by it, the next hand).
                    await page.wait_for_function(f"() => ({SHOWN})() !== {json.dumps(before)}")
                    continue
                if await page.locator(CARD).count():
                    assert await serious_violations(page) == []
                    assert await wide(page) <= 360
                    # A card she may not play is dimmed with its reason, read out with it.
                    dimmed = page.locator("#my-cards button.dim")
                    if await dimmed.count():
                        why = await dimmed.first.get_attribute("aria-describedby")
                        assert why and await page.locator(f"#{why}").text_content()
                    card = page.locator(CARD).first
                    card_id = await card.get_attribute("data-id")
                    title = await page.text_content("#my-seat-title")
                    await card.click()
                    # The card leaves her hand (or the hand played out, and the next is shown).
                    await page.wait_for_function(
                        f"() => !document.querySelector('#my-cards button[data-id=\"{card_id}\"]')"
                        " || document.getElementById('my-seat-title').textContent"
                        f" !== {json.dumps(title)}"
                    )
                    played_by_page = True
                    continue
            bobs = my_turn_controls(bob)
            if bobs is not None:
                await take_turn(bob, bobs[0], bobs[1][0])
                continue
            await page.wait_for_timeout(100)
        assert bid_by_page and played_by_page and tapped
        # Leave asks first; the question is read with its Yes, and No puts it away.
        await page.click("#seat-leave")
        assert await page.locator("#leave-question").is_visible()
        assert await serious_violations(page) == []
        await page.click("#seat-tools button:has-text('No, stay')")
        assert await page.locator("#leave-question").count() == 0
        assert errors == []
        await context.close()
