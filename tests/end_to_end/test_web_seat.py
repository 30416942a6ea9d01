"""A person's seat at the table's page, through the real client and the stand-in: Ann plays a
whole hand from the page's endpoint while Bob plays from his DM buttons; her page follows his
moves; her DM waits while she is at the page, catches up when she leaves it mid-hand, takes one
card, and the page she comes back to shows it; her seat's stream carries her own hand and no other
card anyone holds; every move the page sends is checked as a click is — another's seat, not her
turn, a card never dealt, a bid out of range, the dealer's forbidden bid, a forged or expired
session, a flood — each refused with its code and its sentence, and nothing changed."""

from __future__ import annotations

import asyncio
import base64
import struct
import time
from typing import Any

import aiohttp
import pytest

from bot.engine import Game
from bot.engine.records import record_from_game
from cogs.client import OhHellBot
from cogs.web.actions import PER_SECOND
from cogs.web.sessions import Sessions
from standin.driver import Person
from standin.server import StandIn
from tests.end_to_end.conftest import BotFactory
from tests.end_to_end.page_leaks import CODE, check_stream
from tests.end_to_end.seats import Seat, session_of
from tests.end_to_end.test_web_sign_in import sign_in_settings
from tools.page_people import page_move
from tools.simulated_people import (
    add_computer,
    hand_message,
    my_turn_controls,
    open_table,
    take_turn,
)

pytestmark = [
    pytest.mark.timeout(120),
    pytest.mark.parametrize("database_url", ["sqlite"], indirect=True),
]


async def version_of(bot: OhHellBot, table_id: int) -> int:
    return (await bot.tables.service.lookups.table_view(table_id)).version


async def game_of(bot: OhHellBot, table_id: int) -> Game:
    row = await bot.tables.service.db.tables.load(table_id)
    return Game.from_json(row.document["game"])


SIGN_IN_ENDED = "This page's sign-in has ended or is not valid: reload the page to sign in again."
"""What a move from a page with a forged, altered or expired session is told."""


def renamed_session(session: str, user_id: int) -> str:
    """`session` with the user it names replaced by `user_id`, its signature as it was."""
    raw = base64.urlsafe_b64decode(session + "=" * (-len(session) % 4))
    raw = struct.pack(">Q", user_id) + raw[8:]
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


async def table_at_page(
    standin: StandIn, bot: OhHellBot, http: aiohttp.ClientSession, people: list[Person]
) -> tuple[Any, int, Seat]:
    assert bot.links is not None
    table, table_id = await open_table(standin, people, preset="classic", max_cards=3)
    await add_computer(standin, people[0], table, table_id, "easy")
    path = bot.links.table(standin.guild.id, table_id).removeprefix(bot.links.public_url)
    seat = Seat(bot, http, path, await session_of(standin, bot, http, people[0]))
    return table, table_id, seat


async def test_a_hand_played_at_the_page_beside_the_dm(
    standin: StandIn, start_bot: BotFactory
) -> None:
    ann, bob = standin.person("Ann"), standin.person("Bob")
    async with (
        start_bot(settings=sign_in_settings(standin)) as bot,
        aiohttp.ClientSession() as http,
    ):
        assert bot.web is not None
        table, table_id, page = await table_at_page(standin, bot, http, [ann, bob])
        counts = {"page": 0, "dm": 0}

        async def play_at_page(stream: Any, switch: bool) -> None:
            """Ann plays from the page, Bob from his DM, until the game is past hand 3 (or,
            with `switch`, until Ann could play a card: she then goes to her DM)."""
            while True:
                state = stream.latest("table")
                if state["status"] != "playing" or state.get("hand", 1) > 3:
                    return
                move = page_move(stream.latest("hand"))
                if move is not None and move["do"] == "play" and switch:
                    return
                if move is not None:
                    before = stream.count("hand")
                    status, answer = await page.act(move)
                    assert status == 200, answer
                    counts["page"] += 1
                    await stream.more("hand", before)
                    continue
                bobs = my_turn_controls(bob)
                if bobs is not None:
                    seen = stream.latest("table")["version"]
                    message, ids = bobs
                    result = await take_turn(bob, message, ids[0])
                    assert result.response_type == 7, result.content
                    counts["dm"] += 1
                    await stream.newer(seen)  # Ann's page follows Bob's DM
                    continue
                await standin.wait_for(
                    lambda: (
                        page_move(stream.latest("hand"))
                        or my_turn_controls(bob)
                        or stream.latest("table").get("hand", 1) > 3
                        or stream.latest("table")["status"] != "playing"
                    ),
                    timeout=10,
                )

        raw = b""
        async with page.stream() as stream:
            assert stream.status == 200
            await stream.wait(lambda: stream.latest("table"))
            assert bot.web.presence.at_page(table_id, ann.id)
            assert stream.latest("hand") is None  # the lobby: no hand yet
            await ann.click(table, f"oh:start:{table_id}")
            await stream.wait(lambda: stream.latest("hand"))
            await play_at_page(stream, switch=True)
            shown = stream.latest("hand")
            raw += bytes(stream.raw)
        # Ann leaves the page mid-hand: her DM catches up with what she did there, and she
        # plays her card from it.
        await standin.wait_for(lambda: not bot.web.presence.at_page(table_id, ann.id))
        controls = await standin.wait_for(lambda: my_turn_controls(ann))
        stored = await bot.tables.service.lookups.hand_state(table_id, ann.id)
        assert stored.bid is not None and _dm_bid(ann) == stored.bid
        message, ids = controls
        card_ids = [i for i in ids if i.split(":")[1] == "play"]
        result = await take_turn(ann, message, card_ids[0])
        assert result.response_type == 7, result.content
        # And back to the page, which shows the card she played from her DM.
        async with page.stream() as stream:
            await stream.wait(lambda: stream.latest("hand"))
            now = stream.latest("hand")
            assert (now["hand"], -len(now["cards"])) > (shown["hand"], -len(shown["cards"]))
            await play_at_page(stream, switch=False)
            assert counts["page"] >= 3 and counts["dm"] >= 3
            await bot.presenter.ground.idle()
            raw += bytes(stream.raw)
        await standin.wait_for(lambda: not bot.web.presence.at_page(table_id, ann.id))
        game = await game_of(bot, table_id)
        seat = list(game.names).index(ann.name) if ann.name in game.names else 0
    assert check_stream(raw, record_from_game(game), seat) >= 3


def _dm_field(person: Person, name: str) -> str:
    message = hand_message(person)
    if message is None:
        return ""
    for embed in message.embeds:
        for found in embed.get("fields", []):
            if found["name"] == name:
                return str(found["value"])
    return ""


def _dm_cards(person: Person) -> str:
    return _dm_field(person, "Cards")


def _dm_bid(person: Person) -> int | None:
    value = _dm_field(person, "Your bid").split(" ")[0]
    return int(value) if value.isdigit() else None


async def test_moves_from_the_page_are_checked_as_clicks_are(
    standin: StandIn, start_bot: BotFactory
) -> None:
    ann, bob, cat = standin.person("Ann"), standin.person("Bob"), standin.person("Cat")
    async with (
        start_bot(settings=sign_in_settings(standin)) as bot,
        aiohttp.ClientSession() as http,
    ):
        assert bot.web is not None
        table, table_id, anns = await table_at_page(standin, bot, http, [ann, bob])
        bobs = Seat(bot, http, anns.path, await session_of(standin, bot, http, bob))
        cats = await session_of(standin, bot, http, cat)
        pages = {"Ann": anns, "Bob": bobs}
        await ann.click(table, f"oh:start:{table_id}")
        # Without a session, no seat stream; someone without a seat has the table's alone.
        async with anns.stream(headers={}) as nobody:
            assert nobody.status == 401
        # A seat stream lasts as long as its session: the page connects again with the next.
        short = Sessions(await bot.tables.service.keys.link_key()).sign("session", ann.id, 2)
        async with anns.stream(headers={"Authorization": f"Session {short}"}) as brief:
            await brief.wait(lambda: brief.count("hand"))
            await brief.wait(lambda: brief.ended, timeout=6)
        async with Seat(bot, http, anns.path, cats).stream() as cat_stream:
            await cat_stream.wait(lambda: cat_stream.count("hand") and cat_stream.count("table"))
            assert cat_stream.latest("table")["status"] == "playing"
            assert cat_stream.latest("hand") is None
            assert not CODE.findall(bytes(cat_stream.raw).decode().split("event: hand")[1])
        async with anns.stream() as ann_stream, bobs.stream() as bob_stream:
            streams = {"Ann": ann_stream, "Bob": bob_stream}

            async def refused(
                page: Seat, move: Any, code: str, status: int, session: str | None = None
            ) -> str:
                await bot.presenter.ground.idle()
                before = await version_of(bot, table_id)
                got, answer = await page.act(move, session)
                assert (got, answer.get("error")) == (status, code), answer
                assert await version_of(bot, table_id) == before
                message: str = answer.get("message", "")
                return message

            async def turn() -> str:
                """Whose turn it is once the computer has moved: Ann's or Bob's."""
                for _ in range(100):
                    await bot.presenter.ground.idle()
                    view = await bot.tables.service.lookups.table_view(table_id)
                    assert view.game is not None
                    name = view.seats[view.game.to_act[0]].name
                    if name in pages:
                        hand = streams[name].latest("hand")
                        if hand and hand["turn"]:
                            return name
                    await asyncio.sleep(0.05)
                raise AssertionError("nobody's turn")

            mover = await turn()
            waiter = "Bob" if mover == "Ann" else "Ann"
            number = streams[mover].latest("hand")["hand"]
            bid = {"do": "bid", "hand": number, "bid": 0}
            # Someone without a seat; a session forged, or expired.
            message = await refused(anns, bid, "not_seated", 403, cats)
            assert message.startswith("You")
            message = await refused(anns, bid, "session_invalid", 401, "forged.token")
            assert message == SIGN_IN_ENDED
            expired = Sessions(await bot.tables.service.keys.link_key()).sign(
                "session", ann.id, -10
            )
            got, answer = await anns.act(bid, expired)
            assert (got, answer) == (401, {"error": "session_expired", "message": SIGN_IN_ENDED})
            # No session at all.
            async with http.post(anns.base + anns.path + "/act", json=bid) as answer:
                assert answer.status == 401
                assert await answer.json() == {
                    "error": "session_missing",
                    "message": "This page is not signed in: reload it to sign in with Discord.",
                }
            # The waiter's own session altered to name the mover (its signature kept): the
            # mover's good move, sent with it, is refused.
            good = page_move(streams[mover].latest("hand"))
            assert good is not None
            renamed = renamed_session(pages[waiter].session, standin.person(mover).id)
            await refused(pages[mover], good, "session_invalid", 401, renamed)
            # Not their turn: refused with the words a click gets.
            message = await refused(pages[waiter], bid, "illegal", 409)
            assert f"{mover}'s turn" in message, message
            # A bid out of range, a card never dealt to them, a card past the pack, another
            # hand's move.
            message = await refused(pages[mover], bid | {"bid": 9}, "illegal", 409)
            assert "bid from 0 to" in message.lower(), message
            game = await game_of(bot, table_id)
            held = set(game.hand(list(game.names).index(mover)))
            never = next(i for i, c in enumerate(game.pack.cards) if c not in held)
            card = {"do": "play", "hand": number, "card": never}
            await refused(pages[mover], card, "illegal", 409)
            await refused(pages[mover], card | {"card": 4000}, "no_card", 409)
            await refused(pages[mover], bid | {"hand": number + 5}, "earlier_hand", 409)
            # Not a move at all.
            bodies: list[Any] = [{"do": "steal"}, bid | {"hand": "1"}, {"do": "leave"}, []]
            for body in bodies:
                got, answer = await anns.act(body)
                assert got == 400 and answer["error"] == "bad_request", (body, answer)
            # The dealer's forbidden bid: the others bid from their pages until a bid row
            # disables a number, which is then sent anyway.
            forbidden = None
            for _ in range(6):
                mover = await turn()
                hand = streams[mover].latest("hand")
                blocked = [b for b in hand["bids"] if not b["allowed"]]
                if blocked:
                    forbidden = (mover, hand["hand"], blocked[0])
                    break
                before = streams[mover].count("hand")
                move = page_move(hand)
                assert move is not None
                status, answer = await pages[mover].act(move)
                assert status == 200, answer
                await streams[mover].more("hand", before)
            assert forbidden is not None, "no dealer's bid was forbidden"
            who, number, option = forbidden
            message = await refused(
                pages[who], bid | {"hand": number, "bid": option["n"]}, "illegal", 409
            )
            assert "dealer" in message and "hook" in option["reason"], (message, option)
            # A flood: more than ten moves a second are 429, and change nothing.
            await bot.presenter.ground.idle()
            before = await version_of(bot, table_id)
            answers = await asyncio.gather(*(anns.act(bid | {"hand": 999}) for _ in range(12)))
            flooded = [answer for code, answer in answers if code == 429]
            assert len(flooded) >= 2, answers
            assert flooded[0] == {
                "error": "too_many",
                "message": "Too many moves at once: wait a moment and try again.",
            }
            assert await version_of(bot, table_id) == before
            # Past the allowance even a good move is refused and not made; a second later it
            # is made (the bot's clock held, so the second is exact).
            assert bot.web is not None
            now = [time.monotonic() + 10]
            bot.web.actions.clock = lambda: now[0]
            good = page_move(streams[who].latest("hand"))
            assert good is not None and good["do"] == "bid", good
            for _ in range(PER_SECOND):
                assert (await pages[who].act(bid | {"hand": 999}))[0] == 409
            message = await refused(pages[who], good, "too_many", 429)
            assert message == "Too many moves at once: wait a moment and try again."
            stored = await bot.tables.service.lookups.hand_state(table_id, standin.person(who).id)
            assert stored.bid is None
            now[0] += 1.0
            status, answer = await pages[who].act(good)
            assert status == 200, answer


async def test_auto_play_leave_and_back_from_the_page(
    standin: StandIn, start_bot: BotFactory
) -> None:
    ann, bob = standin.person("Ann"), standin.person("Bob")
    async with (
        start_bot(settings=sign_in_settings(standin)) as bot,
        aiohttp.ClientSession() as http,
    ):
        table, table_id, page = await table_at_page(standin, bot, http, [ann, bob])
        await ann.click(table, f"oh:start:{table_id}")
        async with page.stream() as stream:
            hand = await stream.wait(lambda: stream.latest("hand"))
            on = hand["auto"]
            await bot.presenter.ground.idle()
            before = await version_of(bot, table_id)
            got, answer = await page.act({"do": "auto", "on": not on})
            assert (got, answer) == (200, {"ok": True, "version": before + 1})
            await stream.wait(lambda: stream.latest("hand")["auto"] is not on)
            stored = await bot.tables.service.lookups.hand_state(table_id, ann.id)
            assert stored.auto_play is not on
            # Leaving asks first: a leave without its confirmation is no move.
            got, answer = await page.act({"do": "leave"})
            assert got == 400 and answer["error"] == "bad_request"
            status, _answer = await page.act({"do": "leave", "confirm": True})
            assert status == 200
            await stream.wait(lambda: stream.latest("hand")["away"] == "left")
            status, _answer = await page.act({"do": "back"})
            assert status == 200
            await stream.wait(lambda: stream.latest("hand")["away"] is None)
            # Back twice: refused as the DM's button would be.
            got, answer = await page.act({"do": "back"})
            assert (got, answer["error"]) == (409, "already_playing"), answer
