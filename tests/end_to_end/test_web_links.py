"""The links to the web pages in Discord, through the real client and the stand-in (which checks
every body against Discord's OpenAPI description): with PUBLIC_URL set, Watch on the table
message, Replay on the finished table and on the final standings, each game of /ohhell history
linked to its replay, /leaderboard to the server's page and /ohhell stats to the player's. They
ride on messages the bot sends anyway: a whole game makes the same REST calls with the links as
without them, and without PUBLIC_URL no message carries one."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any
from urllib.parse import urlsplit

import pytest

from cogs.client import OhHellBot
from cogs.web.links import Kind, Links, Signed
from standin.driver import Person
from standin.rest import Call
from standin.server import StandIn
from standin.world import Message, Perm
from tests.end_to_end.conftest import BotFactory
from tools.simulated_people import game_over, my_turn_controls, open_table, take_turn

WEB = {"public_url": "https://ohhell.example.org", "web_port": 0}
CALM = 0.3
"""Seconds the table message waits before an edit, in the count of a game's calls."""
pytestmark = pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)


def links_on(message: Message) -> list[tuple[str, str]]:
    """A message's link buttons: (label, url)."""
    return [(c["label"], c["url"]) for c in message.iter_components() if c.get("style") == 5]


def named(links: Links, kind: Kind, url: str) -> Signed | None:
    """What a page's address names, read back by the bot's own key."""
    path = urlsplit(url).path
    assert url.startswith(links.public_url + f"/{kind}/"), url
    return links.read(kind, path.rsplit("/", 1)[1])


def link_buttons_sent(standin: StandIn, since: int = 0) -> list[Any]:
    """Every link button in a body the bot sent to Discord (messages, edits, answers)."""
    return link_buttons_in(standin.calls[since:])


def link_buttons_in(calls: list[Call]) -> list[Any]:
    """Every link button in the bodies of `calls`."""

    def buttons(value: Any) -> list[Any]:
        if isinstance(value, dict):
            found = [value] if value.get("type") == 2 and value.get("style") == 5 else []
            return found + [b for v in value.values() for b in buttons(v)]
        if isinstance(value, list):
            return [b for v in value for b in buttons(v)]
        return []

    return [b for call in calls for b in buttons(call.body)]


async def start_calmly(
    standin: StandIn, bot: OhHellBot, people: list[Person], table: Message, table_id: int
) -> None:
    """The host starts the game; back once everyone has their new hand message and everything
    the start set off has landed."""
    before = {person.id: len(person.dms()) for person in people}
    started = await people[0].click(table, f"oh:start:{table_id}")
    assert started.response_type == 7
    await standin.wait_for(lambda: all(len(p.dms()) > before[p.id] for p in people))
    await bot.presenter.ground.idle()


async def play_calmly(
    standin: StandIn, bot: OhHellBot, people: list[Person], table: Message
) -> None:
    """Each person, on their turn, clicks their first allowed control, once the table message
    shows the last click and everything it set off has landed: the same game makes the same
    calls, whatever the timing (with an edit delay longer than a click's forced moves take)."""
    while True:
        found = await standin.wait_for(
            lambda: game_over(table) or next((p for p in people if my_turn_controls(p)), None)
        )
        if found is True:
            return
        controls = my_turn_controls(found)
        assert controls is not None
        message, ids = controls
        shown = len(table.history)
        result = await take_turn(found, message, ids[0])
        assert result.response_type == 7, result.content
        await standin.wait_for(lambda: len(table.history) > shown)  # noqa: B023
        await bot.presenter.ground.idle()


async def a_whole_game(
    standin: StandIn, bot: OhHellBot, people: list[Person]
) -> tuple[Message, int, Counter[str]]:
    """A game of three people from /ohhell start to its end, dealt from the same seed each
    time: its table message, its number and the REST calls it made, by route and whether in
    the channel or a DM."""
    await bot.presenter.ground.idle()
    bot.tables.service.session.rng = random.Random(42)
    since = len(standin.calls)
    table, table_id = await open_table(standin, people, preset="classic", max_cards=2)
    await start_calmly(standin, bot, people, table, table_id)
    await play_calmly(standin, bot, people, table)
    calls = Counter(
        call.route + (" in a DM" if in_a_dm(standin, call) else "")
        for call in standin.calls[since:]
    )
    return table, table_id, calls


def in_a_dm(standin: StandIn, call: Call) -> bool:
    """Whether a call is to a message outside the game's channel: a hand DM."""
    return "/channels/" in call.path and f"/channels/{standin.channel.id}/" not in call.path


def standings_post(person: Person, standin: StandIn, table_id: int) -> Message:
    (post,) = [
        m
        for m in person.visible_messages(standin.channel)
        if "Game over" in m.content and f"#{table_id}" in m.content
    ]
    return post


async def test_each_message_links_to_its_page_with_public_url_set(
    standin: StandIn, start_bot: BotFactory
) -> None:
    async with start_bot(settings=WEB) as bot:
        links = bot.links
        assert links is not None
        guild = standin.guild.id
        ann, bob, cat = (standin.person(n) for n in ("Ann", "Bob", "Cat"))

        # The lobby's table message: Watch, to this table of this server.
        table, table_id = await open_table(standin, [ann, bob, cat], preset="classic", max_cards=2)
        ((label, watch),) = links_on(table)
        assert label == "Watch"
        assert named(links, "t", watch) == Signed("t", guild, table_id)
        # While playing, the same.
        await start_calmly(standin, bot, [ann, bob, cat], table, table_id)
        assert links_on(table) == [("Watch", watch)]
        await play_calmly(standin, bot, [ann, bob, cat], table)

        # Finished: the table message's Replay and the final standings' Replay, one page.
        replay = links.game(guild, table_id)
        assert named(links, "g", replay) == Signed("g", guild, table_id)
        assert links_on(table) == [("Replay", replay)]
        post = standings_post(ann, standin, table_id)
        assert links_on(post) == [("Replay", replay)]
        await standin.wait_for(lambda: post.attachments, timeout=30)  # the chart kept it
        assert links_on(post) == [("Replay", replay)]

        # /ohhell history: the game's number is a link to its replay.
        listed = await ann.slash(standin.channel, "ohhell history")
        assert listed.reply is not None
        description = listed.reply.embeds[0]["description"]
        assert description.startswith(f"**[#{table_id}]({replay})** · ")
        assert not listed.reply.components

        # /leaderboard: the server's page.
        board = await ann.slash(standin.channel, "leaderboard")
        assert board.reply is not None
        ((label, page),) = links_on(board.reply)
        assert label == "Leaderboard page"
        assert named(links, "s", page) == Signed("s", guild, 0)

        # /ohhell stats: the player's page, for oneself and for another.
        for asker, about in ((ann, None), (ann, bob)):
            options = {} if about is None else {"player": about}
            asked = await asker.slash(standin.channel, "ohhell stats", **options)
            shown = await asked.wait_until_loaded()
            stats = asked.followups[0] if asked.followups else shown
            ((label, player),) = links_on(stats)
            assert label == "Player page"
            whose = (about or asker).id
            assert named(links, "p", player) == Signed("p", guild, whose)
        assert standin.take_violations() == []


async def test_without_public_url_no_message_carries_a_link(
    standin: StandIn, start_bot: BotFactory
) -> None:
    async with start_bot() as bot:
        assert bot.links is None
        people = [standin.person(n) for n in ("Ann", "Bob", "Cat")]
        table, table_id, _ = await a_whole_game(standin, bot, people)
        ann = people[0]
        assert links_on(table) == []
        assert links_on(standings_post(ann, standin, table_id)) == []
        listed = await ann.slash(standin.channel, "ohhell history")
        assert listed.reply is not None
        assert listed.reply.embeds[0]["description"].startswith(f"**#{table_id}** · ")
        board = await ann.slash(standin.channel, "leaderboard")
        assert board.reply is not None and board.reply.components == []
        asked = await ann.slash(standin.channel, "ohhell stats")
        shown = await asked.wait_until_loaded()
        stats = asked.followups[0] if asked.followups else shown
        assert stats.components == []
        assert link_buttons_sent(standin) == []


async def test_a_whole_game_makes_the_same_calls_with_the_links_as_without(
    standin: StandIn, start_bot: BotFactory
) -> None:
    people = [standin.person(n) for n in ("Ann", "Bob", "Cat")]
    # Changes made close together share one edit of the table message: with this long a
    # delay, a click's and the forced moves it sets off always do, with the links or without.
    async with start_bot(edit_delay=CALM) as bot:
        _, _, without = await a_whole_game(standin, bot, people)
    since = len(standin.calls)
    async with start_bot(settings=WEB, edit_delay=CALM) as bot:
        _, _, linked = await a_whole_game(standin, bot, people)
        assert len(link_buttons_sent(standin, since)) > 10  # each table edit carries its link
    assert sum(without.values()) > 20
    # Every call the same, route by route, in the channel and in the DMs (where no link goes).
    assert linked == without
    dms = [call for call in standin.calls[since:] if in_a_dm(standin, call)]
    assert dms and link_buttons_in(dms) == []


async def test_final_standings_caught_up_later_still_link_to_the_replay(
    standin: StandIn, start_bot: BotFactory
) -> None:
    """A game played to its end while the bot may not post in the channel: the catch-up post
    that brings its posts once it may carries the game's Replay."""
    async with start_bot(settings=WEB) as bot:
        assert bot.links is not None
        people = [standin.person(n) for n in ("Ann", "Bob", "Cat")]
        table, table_id = await open_table(standin, people, preset="classic", max_cards=2)
        await start_calmly(standin, bot, people, table, table_id)
        await standin.deny_bot(standin.channel, Perm.SEND_MESSAGES)
        await play_calmly(standin, bot, people, table)
        assert not [m for m in standin.messages(standin.channel) if "Game over" in m.content]
        await standin.allow_bot(standin.channel, Perm.SEND_MESSAGES)
        caught_up = await standin.wait_for(
            lambda: [m for m in standin.messages(standin.channel) if "Missed while" in m.content],
            timeout=10,
        )
        replay = bot.links.game(standin.guild.id, table_id)
        with_standings = [m for m in caught_up if "Game over" in m.content]
        assert [links_on(m) for m in with_standings] == [[(f"Replay #{table_id}", replay)]]
        assert all(links_on(m) == [] for m in caught_up if "Game over" not in m.content)
