"""The lobby at the page, through the real client and the stand-in: the Activity opened in a
channel finds the channel's table, or opens one whose table message appears in the channel;
Join, Add computer player, Start and Leave from the page go through the lobby's service calls
and the table message follows; refusals (not the host starting, a forged session, a channel of
another server, a server the bot is not in, a server the person is not in) change nothing and
say why in the page's language."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import aiohttp
import pytest

from bot.storage import TableStatus
from cogs.client import OhHellBot
from cogs.web import lobby
from cogs.web.links import Signed
from standin.driver import Person
from standin.server import StandIn
from standin.world import Channel, Message, Perm
from tests.end_to_end.conftest import BotFactory
from tests.end_to_end.test_web_sign_in import sign_in_settings
from tools.simulated_people import open_table, table_embed, table_id_of

pytestmark = pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)

SIGN_IN_ENDED = "This page's sign-in has ended or is not valid: reload the page to sign in again."
"""What a move from a page with a forged, altered or expired session is told."""


class Page:
    """One person's page: their session, and the bot's answers."""

    def __init__(
        self, bot: OhHellBot, http: aiohttp.ClientSession, session: str, person: Person
    ) -> None:
        assert bot.web is not None
        self.bot = bot
        self.person = person
        self.standin: StandIn = person.standin  # type: ignore[assignment]
        self.base = f"http://127.0.0.1:{bot.web.port}/"
        self.http = http
        self.session = session

    async def post(self, path: str, body: Any, **headers: str) -> tuple[int, Any]:
        headers = {"Authorization": f"Session {self.session}", **headers}
        async with self.http.post(self.base + path, json=body, headers=headers) as answer:
            text = await answer.text()
            try:
                return answer.status, json.loads(text)
            except ValueError:
                return answer.status, text

    def launch(self, channel: Channel, **more: Any) -> dict[str, str]:
        """The person opens the Activity in `channel`: what the page's query says."""
        assert channel.guild is not None
        instance = self.standin.launch_activity(self.person, channel)
        return {"instance_id": instance.id, **place(channel), **more}

    async def find(self, channel: Channel) -> tuple[int, Any]:
        return await self.post("activity/table", self.launch(channel))

    async def open(self, channel: Channel) -> tuple[int, Any]:
        return await self.post("activity/open", self.launch(channel))

    async def lobby(self, table: str, action: str, **more: str) -> tuple[int, Any]:
        return await self.post(f"{table}/lobby", {"action": action, **more})


def place(channel: Channel, guild_id: int | None = None) -> dict[str, str]:
    assert channel.guild is not None
    return {"guild_id": str(guild_id or channel.guild.id), "channel_id": str(channel.id)}


@asynccontextmanager
async def pages(
    start_bot: BotFactory, standin: StandIn, settings: dict[str, Any] | None = None
) -> AsyncIterator[Any]:
    async with (
        start_bot(settings=settings or sign_in_settings(standin)) as bot,
        aiohttp.ClientSession() as http,
    ):

        async def page_of(person: Person) -> Page:
            assert bot.web is not None
            url = f"http://127.0.0.1:{bot.web.port}/activity/session"
            async with http.post(url, json={"code": standin.authorize(person)}) as answer:
                assert answer.status == 200
                return Page(bot, http, (await answer.json())["session"], person)

        yield bot, page_of


def seats(table: Message) -> list[str]:
    return table_embed(table)["fields"][0]["value"].splitlines()


def named(bot: OhHellBot, path: str) -> Signed | None:
    assert bot.links is not None
    return bot.links.read("t", path.removeprefix("t/"))


async def test_the_activity_finds_the_channels_table_or_opens_one(
    standin: StandIn, start_bot: BotFactory
) -> None:
    async with pages(start_bot, standin) as (bot, page_of):
        ann, bob = standin.person("Ann"), standin.person("Bob")
        ann_page = await page_of(ann)
        # No table in the channel: none found.
        assert await ann_page.find(standin.channel) == (200, {"table": None})

        # Opened from the page: its table message appears in the channel, Ann its host.
        before = len(ann.visible_messages(standin.channel))
        status, opened = await ann_page.open(standin.channel)
        assert status == 200, opened
        await standin.wait_for(lambda: len(ann.visible_messages(standin.channel)) > before)
        table = ann.visible_messages(standin.channel)[-1]
        table_id = table_id_of(table)
        assert named(bot, opened["table"]) == Signed("t", standin.guild.id, table_id)
        assert seats(table) == ["1. Ann"]
        view = await bot.tables.service.lookups.table_view(table_id)
        assert view.host_id == ann.id and view.message_id == table.id

        # Found by anyone who opens the Activity there; a second one is refused.
        bob_page = await page_of(bob)
        assert await bob_page.find(standin.channel) == (200, {"table": opened["table"]})
        status, refused = await bob_page.open(standin.channel)
        assert status == 409 and refused["error"] == "channel_busy"
        assert refused["message"].startswith("This channel already has an open table")

        # A table opened by /ohhell start is found as well, in another channel.
        side = await standin.add_text_channel("side")
        _message, side_id = await open_table(standin, [bob], channel=side)
        status, found = await ann_page.find(side)
        assert named(bot, found["table"]) == Signed("t", standin.guild.id, side_id)


async def test_the_lobby_from_the_page_and_the_table_message_follows(
    standin: StandIn, start_bot: BotFactory
) -> None:
    async with pages(start_bot, standin) as (bot, page_of):
        ann, bob = standin.person("Ann"), standin.person("Bob", locale="de")
        table, table_id = await open_table(standin, [ann])
        ann_page, bob_page = await page_of(ann), await page_of(bob)
        _status, found = await ann_page.find(standin.channel)
        path = found["table"]

        # Bob joins from the page; the table message shows him.
        status, joined = await bob_page.lobby(path, "join")
        assert status == 200 and joined["ok"], joined
        await standin.wait_for(lambda: seats(table) == ["1. Ann", "2. Bob"])
        # He leaves, and comes back.
        status, left = await bob_page.lobby(path, "leave")
        assert status == 200, left
        await standin.wait_for(lambda: seats(table) == ["1. Ann"])
        status, joined = await bob_page.lobby(path, "join")
        assert status == 200, joined
        await standin.wait_for(lambda: seats(table) == ["1. Ann", "2. Bob"])
        status, again = await bob_page.lobby(path, "join")
        assert (status, again["error"]) == (409, "already_seated")
        # Bob is not the host: his start is refused, in German (his browser's language),
        # and nothing changes.
        status, refused = await bob_page.post(
            f"{path}/lobby", {"action": "start"}, **{"Accept-Language": "de-DE,de;q=0.9"}
        )
        assert status == 409 and refused["error"] == "host_only"
        assert refused["message"].startswith("Nur der Spielleiter")
        view = await bot.tables.service.lookups.table_view(table_id)
        assert view.status is TableStatus.LOBBY
        # A computer player, then the host's start: the game begins, the message follows.
        status, added = await ann_page.lobby(path, "computer", level="easy")
        assert status == 200, added
        await standin.wait_for(lambda: len(seats(table)) == 3)
        status, started = await ann_page.lobby(path, "start")
        assert status == 200, started
        await standin.wait_for(lambda: "Hand 1" in (table_embed(table).get("description") or ""))
        view = await bot.tables.service.lookups.table_view(table_id)
        assert view.status is TableStatus.PLAYING


async def test_refusals_at_the_page_change_nothing(
    standin: StandIn, start_bot: BotFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(lobby, "ALLOWANCE", 1000)  # many refusals, one after the other
    async with pages(start_bot, standin) as (bot, page_of):
        ann, bob = standin.person("Ann"), standin.person("Bob")
        table, table_id = await open_table(standin, [ann])
        bob_page = await page_of(bob)
        _status, found = await bob_page.find(standin.channel)
        path = found["table"]
        elsewhere = standin.world.add_guild("Elsewhere")  # Bob is not a member
        hall = standin.world.add_text_channel(elsewhere, "hall")
        calls, version = (
            len(standin.calls),
            (await bot.tables.service.lookups.table_view(table_id)).version,
        )

        # A forged or missing session.
        forged = Page(bot, bob_page.http, bob_page.session[:-2] + "xx", bob)
        status, got = await forged.lobby(path, "join")
        assert status == 401 and got["error"] == "session_invalid"
        assert got["message"] == SIGN_IN_ENDED
        status, got = await forged.find(standin.channel)
        assert (status, got["message"]) == (401, SIGN_IN_ENDED)
        # A channel of another server, a server the bot is not in, a server Bob is not in,
        # an instance that runs elsewhere, or without Bob, or none.
        here = bob_page.launch(standin.channel)
        side = await standin.add_text_channel("side")
        cat = standin.person("Cat")
        cats = standin.launch_activity(cat, side)
        for body in (
            here | {"guild_id": str(elsewhere.id)},
            here | place(hall, guild_id=standin.guild.id),
            here | {"guild_id": "123456789012345678"},
            here | place(hall),
            here | place(side),
            here | place(side) | {"instance_id": cats.id},
            here | {"instance_id": "i-1-gc-2-3"},
        ):
            for route in ("activity/table", "activity/open"):
                status, got = await bob_page.post(route, body)
                assert (status, got["error"]) == (404, "unknown_channel"), (route, body)
                assert got["message"] == "The bot does not see that channel"
        # Not seated: Bob may not add a computer, nor start.
        status, got = await bob_page.lobby(path, "computer", level="easy")
        assert status == 409 and got["error"] == "join_first"
        # Bad bodies.
        for body in ({"action": "dance"}, {"guild_id": 1}, [], "x"):
            status, got = await bob_page.post(f"{path}/lobby", body)
            assert (status, got["error"]) == (400, "bad_request")
        for wrong in ({"guild_id": "x"}, {"instance_id": "a/b"}, {"channel_id": 1}):
            status, got = await bob_page.post("activity/table", here | wrong)
            assert (status, got["error"]) == (400, "bad_request")
        # An altered table link is no page.
        status, _got = await bob_page.lobby(path[:-3] + "AAA", "join")
        assert status == 404

        await bot.presenter.ground.idle()
        view = await bot.tables.service.lookups.table_view(table_id)
        assert view.version == version and seats(table) == ["1. Ann"]
        assert bot.tables.service is not None
        assert [c for c in standin.calls[calls:] if c.method != "GET"] == []
        assert await bot.tables.service.lookups.table_in_channel(hall.id) is None
        assert await bot.tables.service.lookups.table_in_channel(side.id) is None


async def test_the_lobby_controls_say_what_each_person_may_do(
    standin: StandIn, start_bot: BotFactory
) -> None:
    async with pages(start_bot, standin) as (_bot, page_of):
        ann, bob = standin.person("Ann"), standin.person("Bob")
        _table, _table_id = await open_table(standin, [ann])
        ann_page, bob_page = await page_of(ann), await page_of(bob)
        _status, found = await ann_page.find(standin.channel)
        path = found["table"]

        async def controls(page: Page, **headers: str) -> Any:
            async with page.http.get(f"{page.base}{path}/lobby", headers=headers) as answer:
                assert answer.status == 200
                return await answer.json()

        # Without a session (a page that watches): sign-in is on, nothing offered.
        assert await controls(ann_page) == {"signin": True}
        ann_may = await controls(ann_page, Authorization=f"Session {ann_page.session}")
        assert ann_may["lobby"] and ann_may["seated"] and ann_may["host"]
        assert ann_may["start_problem"]  # one player cannot start
        assert [value for value, _label in ann_may["levels"]] == ["easy", "normal", "hard"]
        bob_may = await controls(
            bob_page, Authorization=f"Session {bob_page.session}", **{"Accept-Language": "fr"}
        )
        assert not bob_may["seated"] and not bob_may["host"]
        assert bob_may["words"]["join"] == "Rejoindre"


async def test_the_lobby_controls_say_sign_in_is_off_without_the_secret(
    standin: StandIn, start_bot: BotFactory
) -> None:
    settings = sign_in_settings(standin)
    del settings["discord_client_secret"]
    async with start_bot(settings=settings) as bot, aiohttp.ClientSession() as http:
        assert bot.web is not None and bot.links is not None
        _table, table_id = await open_table(standin, [standin.person("Ann")])
        base = (
            f"http://127.0.0.1:{bot.web.port}/t/{bot.links.token('t', standin.guild.id, table_id)}"
        )
        async with http.get(f"{base}/lobby") as answer:
            assert (answer.status, await answer.json()) == (200, {"signin": False})
        async with http.post(f"{base}/lobby", json={"action": "join"}) as answer:
            assert answer.status in (404, 405)
        async with http.post(f"http://127.0.0.1:{bot.web.port}/activity/table", json={}) as answer:
            assert answer.status in (404, 405)


async def test_a_server_the_person_is_not_in_is_refused_though_the_bot_is_there(
    standin: StandIn, start_bot: BotFactory
) -> None:
    bob = standin.person("Bob")
    elsewhere = standin.world.add_guild("Elsewhere")  # after Bob: he is not a member
    hall = standin.world.add_text_channel(elsewhere, "hall")
    cat = standin.person("Cat")  # a member of both
    async with pages(start_bot, standin) as (bot, page_of):
        assert bot.get_guild(elsewhere.id) is not None  # the bot is there
        bob_page, cat_page = await page_of(bob), await page_of(cat)
        bobs = bob_page.launch(standin.channel)
        for route in ("activity/table", "activity/open"):
            status, got = await bob_page.post(route, bobs | place(hall))
            assert (status, got["error"]) == (404, "unknown_channel")
        assert await bot.tables.service.lookups.table_in_channel(hall.id) is None
        # Cat, a member, opens a table there; Bob still cannot join it from its page.
        status, opened = await cat_page.open(hall)
        assert status == 200, opened
        status, got = await bob_page.lobby(opened["table"], "join")
        assert (status, got["error"]) == (404, "unknown_channel")
        assert await cat_page.find(hall) == (200, {"table": opened["table"]})


async def test_no_table_is_opened_from_the_page_where_the_bot_may_not_post(
    standin: StandIn, start_bot: BotFactory
) -> None:
    async with pages(start_bot, standin) as (bot, page_of):
        ann = standin.person("Ann")
        ann_page = await page_of(ann)
        await standin.deny_bot(standin.channel, Perm.EMBED_LINKS)
        guild = bot.get_guild(standin.guild.id)
        assert guild is not None
        await standin.wait_for(
            lambda: (
                not guild.get_channel(standin.channel.id)  # type: ignore[union-attr]
                .permissions_for(guild.me)
                .embed_links
            )
        )
        status, got = await ann_page.open(standin.channel)
        assert (status, got["error"]) == (409, "missing_permissions"), got
        assert "Embed Links" in got["message"]
        assert await bot.tables.service.lookups.table_in_channel(standin.channel.id) is None
        await standin.allow_bot(standin.channel, Perm.EMBED_LINKS)
        status, got = await ann_page.open(standin.channel)
        assert status == 200, got


async def test_a_flood_from_one_persons_page_is_refused_and_asks_discord_nothing(
    standin: StandIn, start_bot: BotFactory
) -> None:
    async with pages(start_bot, standin) as (bot, page_of):
        ann, bob = standin.person("Ann"), standin.person("Bob")
        ann_page, bob_page = await page_of(ann), await page_of(bob)
        here = ann_page.launch(standin.channel)
        answers = [await ann_page.post("activity/table", here) for _ in range(lobby.ALLOWANCE)]
        assert answers == [(200, {"table": None})] * lobby.ALLOWANCE
        calls = len(standin.calls)
        for route in ("activity/table", "activity/open"):
            status, got = await ann_page.post(route, here)
            assert (status, got["error"]) == (429, "slow_down")
            assert got["message"].startswith("Too many requests from this page")
        assert standin.calls[calls:] == []
        assert await bot.tables.service.lookups.table_in_channel(standin.channel.id) is None
        # Another person is not held back.
        assert await bob_page.find(standin.channel) == (200, {"table": None})
