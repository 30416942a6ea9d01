"""A whole game from the Activity, in a real browser (headless Chromium, the stand-in's Discord
client framing the Activity, each person in a browser of their own): Ann opens the table from
her Activity, Cat joins from hers, Bob by the table message's Join button; Ann adds a computer
player and starts. Ann and Cat bid and play by clicking their pages (Ann with auto-play of a
forced card off), Bob with his DM buttons. In the middle of a hand Ann closes her Activity: she
has left the table's page at once, and her hand DM, held back while she was there, catches up;
she plays a card from it, opens the Activity again and plays on from the page. The table
message shows the final standings, and `/ohhell record` gives a record that replays to them.
Every page passed axe-core's check mid-game and asked nothing of anyone but the bot (through
Discord's proxy). Every byte the pages received, as Discord's proxy passed it, is scanned: each
seat's stream names no card but its person's own and those everyone saw, no other answer any
card; the application's secret is in none, and each access token only in its own person's
sign-in; no log holds the secret, an access token, a code or a session."""

from __future__ import annotations

import asyncio
import base64
import json
import logging
import re
import struct
import time
from typing import Any

import pytest

from bot.engine.records import replay
from standin.activity_client import ActivityClient
from standin.activity_rpc import Frame
from standin.driver import Person
from standin.server import StandIn
from standin.world import Channel, Perm
from tests.browsers import chromium, needs_chromium, serious_violations
from tests.end_to_end.conftest import BotFactory
from tests.end_to_end.page_leaks import cards_named, check_stream
from tests.end_to_end.test_web_seat import _dm_bid
from tests.end_to_end.test_web_sign_in import sign_in_settings
from tests.end_to_end.test_web_sign_in_browser import refusal
from tools.simulated_people import (
    game_over,
    my_turn_controls,
    table_embed,
    table_id_of,
    take_turn,
)

pytestmark = [
    needs_chromium,
    pytest.mark.timeout(300),
    pytest.mark.parametrize("database_url", ["sqlite"], indirect=True),
]

COUNT_HANDS = """
window.__hands = 0;
document.addEventListener("ohhell:hand", () => { window.__hands += 1; });
"""
"""Counts the hands the seat's stream pushed (in every frame of the page)."""
SEATED = "#my-seat:not([hidden])"
"""The person's seat, shown while they have a hand (a finished game's is hidden as it was)."""
MY_TURN = f"{SEATED}.turn"
BID = f"{SEATED} #my-bids button:not([aria-disabled])"
TRUMP = f"{SEATED} #my-trumps button:not([aria-disabled])"
CARD = f"{SEATED} #my-cards button.card:not(.dim)"
AUTO = f"{SEATED} #seat-tools button[aria-pressed]"
OFFERED = f"""() => {{
  if (!document.querySelector({json.dumps(MY_TURN)})) return null;
  const offered = {json.dumps([BID, TRUMP, CARD])}.find(s => document.querySelector(s));
  return offered ? [offered, document.querySelectorAll("#my-cards button.card").length] : null;
}}"""
"""What the page offers its person at one moment: the selector of their choices, and how many
cards they hold (null when it is not their turn)."""


def seats(message: Any) -> list[str]:
    return table_embed(message)["fields"][0]["value"].splitlines()


def field(message: Any, name: str) -> str | None:
    return next(
        (f["value"] for f in table_embed(message).get("fields", []) if f["name"] == name), None
    )


class Screen:
    """One person's Activity in a tab of their own browser: the framed page, what it asked
    of the network, and its errors."""

    def __init__(self, client: ActivityClient, person: Person, frame: Frame, page: Any) -> None:
        self.client = client
        self.person = person
        self.frame = frame
        self.page = page
        self.requests: list[tuple[str, bool]] = []
        """Each request's address, and whether the Activity's frame made it."""
        self.errors: list[str] = []
        self.checked = False
        self.moves = 0
        page.on("request", lambda r: self.requests.append((r.url, r.frame != page.main_frame)))
        page.on("console", lambda m: self.errors.append(m.text) if refusal(m) else 0)
        page.on("pageerror", lambda e: self.errors.append(str(e)))
        page.on(
            "response",
            lambda r: self.errors.append(f"{r.status} {r.url}") if r.status >= 400 else 0,
        )

    @classmethod
    async def open(
        cls, client: ActivityClient, context: Any, person: Person, channel: Channel
    ) -> Screen:
        frame = client.open(person, channel)
        page = await context.new_page()
        screen = cls(client, person, frame, page)
        await page.goto(client.frame_url(frame))
        await page.wait_for_selector("iframe")
        return screen

    @property
    def activity(self) -> Any:
        """The Activity's frame in Discord's client page."""
        return self.page.frames[1]

    async def table(self) -> None:
        """The Activity has gone on from its entry to the channel's table's page."""
        await self.activity.wait_for_url("**/t/**", timeout=15_000)

    async def move(self, *, unless_cards: int = 0) -> str:
        """On the person's turn, click the first choice the page offers and wait for the seat's
        stream to push the hand that follows: "moved". "waiting" when it is not their turn;
        "cards" (nothing clicked) when it is their turn to play and they hold `unless_cards`
        cards or more."""
        activity = self.activity
        seen = await activity.evaluate(OFFERED)
        if seen is None:
            return "waiting"
        selector, held = seen
        if unless_cards and selector == CARD and held >= unless_cards:
            return "cards"
        if not self.checked:
            assert await serious_violations(activity) == []
            self.checked = True
        before = await activity.evaluate("window.__hands")
        await activity.locator(selector).first.click()
        await activity.wait_for_function(f"() => window.__hands > {before}", timeout=15_000)
        self.moves += 1
        return "moved"

    async def cards(self) -> list[str]:
        ids: list[str] = await self.activity.evaluate(
            "() => [...document.querySelectorAll('#my-cards button.card')].map(b => b.dataset.id)"
        )
        return ids

    def only_the_bot(self) -> None:
        """Everything the tab asked went to Discord's client page, and everything the
        Activity asked to Discord's proxy of the bot; it signed in once."""
        base = self.client.base_url + "/"
        client = base + ".standin/"
        strays = [
            url
            for url, activity in self.requests
            if not url.startswith(base) or activity == url.startswith(client)
        ]
        assert any(activity for _, activity in self.requests) and strays == [], strays
        assert self.errors == [], self.errors
        assert self.frame.commands == ["AUTHORIZE", "AUTHENTICATE"]
        assert self.frame.authenticated is self.person.user  # with their own access token
        assert self.frame.unanswered == [] and self.frame.logs == []


async def test_a_game_played_from_the_activity_and_a_dm(
    standin: StandIn, start_bot: BotFactory, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    ann, bob, cat = (standin.person(n) for n in ("Ann", "Bob", "Cat"))
    standin.guild.members[ann.id].granted = Perm.MANAGE_CHANNELS
    async with start_bot(settings=sign_in_settings(standin)) as bot:
        assert bot.web is not None
        side = await standin.add_text_channel("cards")
        # A short game: the channel's rules, which the Activity's table opens with.
        ruled = await ann.slash(side, "ohhell settings", preset="classic", max_cards=2)
        assert ruled.ephemeral
        served = f"http://127.0.0.1:{bot.web.port}"
        async with (
            ActivityClient(standin, {"/": served}, record=True) as client,
            chromium() as browser,
        ):
            contexts = {p.name: await browser.new_context() for p in (ann, cat)}
            for context in contexts.values():
                await context.add_init_script(COUNT_HANDS)
            screens: list[Screen] = []

            # Ann opens the table from her Activity.
            anns = await Screen.open(client, contexts["Ann"], ann, side)
            screens.append(anns)
            opener = await anns.activity.wait_for_selector("#open-table", timeout=15_000)
            await opener.click()
            await anns.table()
            await anns.activity.wait_for_selector("#lobby-start", timeout=15_000)
            (table,) = [
                m for m in ann.visible_messages(side) if "oh:join:" in " ".join(m.custom_ids())
            ]
            table_id = table_id_of(table)
            # Cat opens the Activity in the channel: it finds the table, and she joins.
            cats = await Screen.open(client, contexts["Cat"], cat, side)
            screens.append(cats)
            await cats.table()
            await (await cats.activity.wait_for_selector("#lobby-join", timeout=15_000)).click()
            await standin.wait_for(lambda: seats(table) == ["1. Ann", "2. Cat"])
            # Bob joins by the table message's button.
            joined = await bob.click(table, f"oh:join:{table_id}")
            assert joined.response_type == 7, joined.content
            await standin.wait_for(lambda: len(seats(table)) == 3)
            # Ann adds a computer player and starts.
            await anns.activity.select_option("#lobby-level", "easy")
            await anns.activity.click("#lobby-computer")
            await standin.wait_for(lambda: len(seats(table)) == 4)
            await anns.activity.wait_for_selector("#lobby-start:not([disabled])", timeout=15_000)
            await anns.activity.click("#lobby-start")
            for screen in (anns, cats):
                await screen.activity.wait_for_selector(SEATED, timeout=15_000)
            assert bot.web.presence.at_page(table_id, ann.id)
            assert bot.web.presence.at_page(table_id, cat.id)
            # Ann turns off the auto-play of a forced card: every card of hers is hers to play.
            await anns.activity.click(f"{AUTO}[aria-pressed=true]")
            await anns.activity.wait_for_selector(f"{AUTO}[aria-pressed=false]", timeout=15_000)

            switched = False
            moves = {"Ann": 0, "Cat": 0, "Bob": 0}
            ends = time.monotonic() + 300
            while not game_over(table):
                assert time.monotonic() < ends, "the game did not finish"
                moved = False
                for screen in (anns, cats):
                    done = await screen.move(unless_cards=0 if switched or screen is cats else 2)
                    if done == "cards":
                        # Mid-hand, Ann goes to her DM for a card, and comes back.
                        anns = await switch_to_the_dm_and_back(
                            standin, bot, client, contexts["Ann"], anns, table_id, side
                        )
                        screens.append(anns)
                        switched = True
                    if done != "waiting":
                        moves[screen.person.name] += 1
                        moved = True
                bobs = my_turn_controls(bob)
                if bobs is not None:
                    result = await take_turn(bob, bobs[0], bobs[1][0])
                    assert result.response_type == 7, result.content
                    moves["Bob"] += 1
                    moved = True
                if not moved:
                    await asyncio.sleep(0.05)
            assert switched, "Ann never had two cards on her turn to play"
            assert all(count >= 3 for count in moves.values()), moves
            # Ann bid from her page before she went to her DM, and played on from it after.
            assert screens[0].moves >= 1 and screens[-1].moves >= 1

            # The table message shows the final standings.
            await bot.presenter.ground.idle()
            standings = await standin.wait_for(lambda: field(table, "Final standings"))
            shown = {}
            for line in standings.splitlines():
                name, total = line.split(". ", 1)[1].rsplit(" — ", 1)
                shown[name] = int(total)
            for screen in screens:
                assert screen.checked, f"{screen.person.name}'s page was never checked"
                screen.only_the_bot()
            for context in contexts.values():
                await context.close()

        # The game's record replays to those standings.
        recorded = await ann.slash(side, "ohhell record")
        assert recorded.reply is not None, recorded.content
        record = json.loads(recorded.reply.attachments[0].data)
        scored = replay(record)
        assert scored["game_over"] is True
        assert dict(zip(scored["players"], scored["totals"], strict=True)) == shown
        assert {"Ann", "Bob", "Cat"} <= set(shown)

    # Every byte the Activities received: each seat's stream its own person's hand and what
    # everyone saw; no answer the application's secret; each access token its own person's
    # sign-in alone. No log holds the secret, an access token, a code or a session.
    people = {ann.id: "Ann", cat.id: "Cat"}
    signed = every_byte_the_pages_received(client, record, people, standin)
    codes = [code for screen in screens for code in screen.frame.codes]
    assert len(signed["tokens"]) == len(screens) and len(codes) == len(screens)
    assert "sign-in at the pages on" in caplog.text  # the bot's own logs, captured
    for secret in (standin.client_secret, *signed["tokens"], *codes, *signed["sessions"]):
        assert secret not in caplog.text


SEAT_STREAM = re.compile(r"^/t/[^/]+/seat$")
PUBLIC_STREAM = re.compile(r"^/t/[^/]+/events$")


def session_user(authorization: str | None) -> int:
    """The user a page's `Authorization: Session …` names (its signature the bot checked)."""
    assert authorization is not None and authorization.startswith("Session ")
    token = authorization[len("Session ") :]
    raw = base64.urlsafe_b64decode(token + "=" * (-len(token) % 4))
    user: int = struct.unpack(">Q", raw[:8])[0]
    return user


def every_byte_the_pages_received(
    client: ActivityClient, record: dict[str, Any], people: dict[int, str], standin: StandIn
) -> dict[str, set[str]]:
    """Checks every answer Discord's proxy passed the Activities (`client.answers`, with the
    bytes each page got) and returns the access tokens and sessions they carried."""
    seats = {user: record["players"].index(name) for user, name in people.items()}
    hands = dict.fromkeys(people.values(), 0)
    tokens: set[str] = set()
    sessions: set[str] = set()
    for answer in client.answers:
        body = answer.content()
        text = body.decode()
        assert standin.client_secret not in text, answer.path
        if answer.authorization is not None:
            sessions.add(answer.authorization.removeprefix("Session "))
        if SEAT_STREAM.match(answer.path) and answer.status == 200:
            user = session_user(answer.authorization)
            hands[people[user]] += check_stream(body, record, seats[user])
        elif PUBLIC_STREAM.match(answer.path):
            check_stream(body, record, None)
        elif not answer.path.startswith("/static/"):
            assert not cards_named(text), (answer.path, text[:300])
        if answer.path == "/activity/session":
            signed_in = json.loads(text)
            token = signed_in["access_token"]
            # The access token of the person the page signed in, in their own answer alone.
            assert standin.access_token(token).user.id == int(signed_in["user"]["id"])
            assert sum(token in a.content().decode() for a in client.answers) == 1
            tokens.add(token)
            sessions.add(signed_in["session"])
    assert all(count >= 3 for count in hands.values()), hands
    return {"tokens": tokens, "sessions": sessions}


async def switch_to_the_dm_and_back(
    standin: StandIn,
    bot: Any,
    client: ActivityClient,
    context: Any,
    screen: Screen,
    table_id: int,
    channel: Channel,
) -> Screen:
    """Ann, on her turn to play with two cards or more, closes her Activity; her DM catches up
    with what she did at the page; she plays a card from it and opens the Activity again,
    which shows her hand without it. Returns her new Activity."""
    ann = screen.person
    assert my_turn_controls(ann) is None  # held back while she is at the page
    assert await serious_violations(screen.activity) == []
    screen.checked = True
    held = await screen.cards()
    screen.only_the_bot()
    await screen.page.close()
    # Discord's proxy ends its request to the bot as the tab goes: she has left the page at once.
    await standin.wait_for(lambda: not bot.web.presence.at_page(table_id, ann.id), timeout=3)
    message, ids = await standin.wait_for(lambda: my_turn_controls(ann), timeout=10)
    stored = await bot.tables.service.lookups.hand_state(table_id, ann.id)
    assert stored.bid is not None and _dm_bid(ann) == stored.bid  # her bid from the page
    card_ids = [i for i in ids if i.split(":")[1] == "play"]
    assert card_ids, ids
    played = card_ids[0].split(":")[-1]
    assert played in held
    result = await take_turn(ann, message, card_ids[0])
    assert result.response_type == 7, result.content
    again = await Screen.open(client, context, ann, channel)
    await again.table()
    await again.activity.wait_for_selector(SEATED, timeout=15_000)
    await standin.wait_for(lambda: bot.web.presence.at_page(table_id, ann.id))
    now = await again.cards()
    assert played not in now and len(now) == len(held) - 1, (played, held, now)
    return again
