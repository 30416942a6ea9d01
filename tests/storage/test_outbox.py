"""The outbox on both backends: posts stored with their change (or not at all), leased to the
process that stored them, taken once by one process after the lease, set aside when their
channel refuses them, dropped with their channel; and every notice kind read back as written."""

from __future__ import annotations

import asyncio
import json
import logging
from typing import Any, get_args

import pytest

from bot.engine import Card, Play
from bot.service import ClosedReason, PostOffice
from bot.service.notices import (
    Closure,
    ComputerPlaysFor,
    FinalStandings,
    HandScore,
    HostChange,
    Notice,
    Pause,
    Rematch,
    Removal,
    Resumption,
    StartedWithout,
    TimedOut,
)
from bot.service.posts import new_post, stored_post
from bot.service.summaries import ScoreChart
from bot.storage import Database, NewPost, StoredPost, TableRow, VersionConflict
from tests.clocks import Clock
from tests.cogs.renders import NOTICES as EVERY_NOTICE


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def database_options(clock: Clock) -> dict[str, Any]:
    """The database on a clock the test moves by hand, holding a post a minute."""
    return {"clock": clock, "post_lease": 60.0}


@pytest.fixture
def timed(database: Database, clock: Clock) -> tuple[Database, Clock]:
    return database, clock


async def a_table(db: Database, channel_id: int = 10, guild_id: int = 1) -> TableRow:
    return await db.tables.create(
        guild_id=guild_id, channel_id=channel_id, host_id=100, preset="classic", document={}
    )


def post(text: str, channel_id: int = 10) -> NewPost:
    return NewPost(channel_id, "paused", text)


async def test_posts_are_stored_with_their_change_and_numbered_by_it(timed) -> None:
    db, clock = timed
    table = await a_table(db)
    saved = await db.tables.save(table, document={}, posts=[post("a"), post("b")])
    assert await db.outbox.waiting() == (2, clock.now)
    # The process that stored them holds them: nobody else takes them before the lease ends.
    assert await db.outbox.claim() == []
    clock.now += 61
    taken = await db.outbox.claim()
    assert [(p.table_id, p.version, p.index, p.payload) for p in taken] == [
        (table.id, saved.version, 0, "a"),
        (table.id, saved.version, 1, "b"),
    ]
    # Taken: not again until this lease runs out too.
    assert await db.outbox.claim() == []
    await db.outbox.done(p.key for p in taken)
    assert await db.outbox.waiting() == (0, None)


async def test_a_change_that_is_not_stored_stores_no_post(timed) -> None:
    db, clock = timed
    table = await a_table(db)
    await db.tables.save(table, document={"moved": 1})
    with pytest.raises(VersionConflict):
        await db.tables.save(table, document={}, posts=[post("lost with its change")])
    clock.now += 61
    assert await db.outbox.claim() == []


async def test_posts_of_a_new_table_are_its_first_version(timed) -> None:
    db, clock = timed
    table = await db.tables.create(
        guild_id=1, channel_id=11, host_id=100, preset="classic", document={}, posts=[post("r")]
    )
    clock.now += 61
    (taken,) = await db.outbox.claim()
    assert taken.key == (table.id, 1, 0)


async def test_a_refused_post_waits_for_its_channel(timed) -> None:
    db, clock = timed
    table = await a_table(db)
    await db.tables.save(table, document={}, posts=[post("x")])
    clock.now += 61
    (taken,) = await db.outbox.claim()
    await db.outbox.refused([taken.key])
    assert await db.outbox.has_refused(table.id)
    assert await db.outbox.refused_channels() == [10]
    clock.now += 600
    assert await db.outbox.claim() == []  # the sweep leaves it to the channel's catch-up
    assert await db.outbox.claim_refused(99) == []
    (again,) = await db.outbox.claim_refused(10)
    assert again.key == taken.key and not await db.outbox.has_refused(table.id)


async def test_posts_go_with_their_channel_or_server(timed) -> None:
    db, clock = timed
    first = await a_table(db, channel_id=10, guild_id=1)
    second = await a_table(db, channel_id=20, guild_id=1)
    third = await a_table(db, channel_id=30, guild_id=2)
    for table, channel in ((first, 10), (second, 20), (third, 30)):
        await db.tables.save(table, document={}, posts=[post("p", channel)])
    assert await db.outbox.drop([10]) == 1
    assert await db.outbox.drop([], guild_id=1) == 1
    clock.now += 61
    assert [p.channel_id for p in await db.outbox.claim()] == [30]


async def test_two_processes_never_take_the_same_post(postgres_url: str) -> None:
    clock = Clock()
    one = await Database.open(postgres_url, clock)
    other = await Database.open(postgres_url, clock)
    try:
        for channel in range(40):
            table = await a_table(one, channel_id=100 + channel)
            await one.tables.save(table, document={}, posts=[post(str(channel), 100 + channel)])
        clock.now += 61
        first, second = await asyncio.gather(one.outbox.claim(20), other.outbox.claim(20))
        third = await one.outbox.claim(20)
        keys = [p.key for p in first + second + third]
        assert len(keys) == 40 and len(set(keys)) == 40
    finally:
        await one.close()
        await other.close()


CHART = ScoreChart(
    game=7, names=("Ann", "Bob"), hands=(1, 2), totals=((10, 21), (0, 11)),
    made=((True, True), (False, True)), target=None,
)  # fmt: skip

NOTICES: list[Notice] = [
    *EVERY_NOTICE,
    FinalStandings(
        standings=((1, "Ann", 40), (2, "Bob", 12)), game=7, chart=CHART, rated_as=(5, -3)
    ),
    TimedOut("Ann", Play(Card.parse("JOKER"), "H")),
]

WRITTEN = [
    (
        "hand_scored",
        '{"params":{"map":{"hand":3,"tiebreak":false,"rows":[["Ann",1,1,11,40]],"tricks":'
        '[[[["Ann",{"card":"QS"}],["Bob",{"card":"10H"}]],"Ann"]]}},"mention":[5]}',
        HandScore(
            hand=3,
            rows=(("Ann", 1, 1, 11, 40),),
            tricks=(((("Ann", Card.parse("QS")), ("Bob", Card.parse("10H"))), "Ann"),),
        ),
    ),
    (
        "game_over",
        '{"params":{"map":{"standings":[[1,"Ann",40],[2,"Bob",12]],"game":7,"chart":{"chart":'
        '{"map":{"game":7,"names":["Ann","Bob"],"hands":[1,2],"totals":[[10,21],[0,11]],'
        '"made":[[true,true],[false,true]],"target":null}}},"rated_as":[5,-3],"ratings":null}},'
        '"mention":[5]}',
        FinalStandings(
            standings=((1, "Ann", 40), (2, "Bob", 12)), game=7, chart=CHART, rated_as=(5, -3)
        ),
    ),
    (
        "timed_out",
        '{"params":{"map":{"name":"Ann","action":{"play":["JOKER","H"]}}},"mention":[5]}',
        TimedOut("Ann", Play(Card.parse("JOKER"), "H")),
    ),
    (
        "closed",
        '{"params":{"map":{"reason":{"closed":{"kind":"abandoned","after":86400.0}}}},'
        '"mention":[5]}',
        Closure(ClosedReason(kind="abandoned", after=86400.0)),
    ),
    (
        "computer_plays_for",
        '{"params":{"map":{"name":"Ann"}},"mention":[5]}',
        ComputerPlaysFor("Ann"),
    ),
    (
        "started_without",
        '{"params":{"map":{"names":["Ann","Bob"]}},"mention":[5]}',
        StartedWithout(("Ann", "Bob")),
    ),
    (
        "removed",
        '{"params":{"map":{"name":"Bob","in_game":true}},"mention":[5]}',
        Removal("Bob", in_game=True),
    ),
    ("new_host", '{"params":{"map":{"user_id":5}},"mention":[5]}', HostChange(5)),
    ("paused", '{"params":{"map":{}},"mention":[5]}', Pause()),
    ("resumed", '{"params":{"map":{}},"mention":[5]}', Resumption()),
    ("rematch", '{"params":{"map":{"user_ids":[5,6]}},"mention":[5]}', Rematch((5, 6))),
]
"""Posts of every kind as the outbox has always stored them: its code, and its fields by
name."""


def test_every_kind_of_notice_is_read_back() -> None:
    assert {type(notice) for notice in NOTICES} == set(get_args(Notice))
    assert {type(notice) for _kind, _payload, notice in WRITTEN} == set(get_args(Notice))


@pytest.mark.parametrize("notice", NOTICES, ids=[n.code for n in NOTICES])
async def test_every_notice_reads_back_as_it_was_written(timed, notice: Notice) -> None:
    db, clock = timed
    table = await a_table(db)
    await db.tables.save(table, document={}, posts=[new_post(10, notice, (5,))])
    clock.now += 61
    (stored,) = await db.outbox.claim()
    read = stored_post(stored)
    assert read.notice == notice
    assert read.mention == (5,) and read.channel_id == 10 and read.guild_id == 1
    assert read.stored_at == clock.now - 61


async def test_a_notice_the_outbox_cannot_keep_is_refused_before_anything_is_stored() -> None:
    with pytest.raises(TypeError, match="cannot keep"):
        new_post(10, TimedOut("Ann", object()))  # type: ignore[arg-type]


@pytest.mark.parametrize(("kind", "payload", "notice"), WRITTEN, ids=[w[0] for w in WRITTEN])
async def test_a_post_reads_as_it_was_stored(
    timed, kind: str, payload: str, notice: Notice
) -> None:
    db, clock = timed
    table = await a_table(db)
    await db.tables.save(table, document={}, posts=[NewPost(10, kind, payload)])
    clock.now += 61
    (stored,) = await db.outbox.claim()
    assert stored_post(stored).notice == notice
    # And a notice is stored as it always was.
    written = new_post(10, notice, (5,))
    assert (written.kind, json.loads(written.payload)) == (kind, json.loads(payload))


UNREADABLE = [
    ("a kind no notice has", "lost_and_found", '{"params":{"map":{}},"mention":[]}'),
    ("a field missing", "timed_out", '{"params":{"map":{"name":"Ann"}},"mention":[]}'),
    ("a field of the wrong type", "new_host", '{"params":{"map":{"user_id":"Ann"}},"mention":[]}'),
    ("a card no pack has", "timed_out", '{"params":{"map":{"name":"A","action":{"card":"1Z"}}}}'),
    ("parameters not named", "paused", '{"params":[1,2],"mention":[]}'),
    ("a value of unknown kind", "paused", '{"params":{"map":{"x":{"what":1}}},"mention":[]}'),
    ("no parameters", "paused", '{"mention":[]}'),
    ("not JSON", "paused", "{"),
]


@pytest.mark.parametrize(("why", "kind", "payload"), UNREADABLE, ids=[u[0] for u in UNREADABLE])
def test_a_post_that_cannot_be_read_is_refused_clearly(why: str, kind: str, payload: str) -> None:
    row = StoredPost(1, 1, 0, 1, 10, kind, payload, 0.0)
    with pytest.raises((ValueError, KeyError, TypeError)):
        stored_post(row)


async def test_an_unreadable_post_is_logged_and_dropped_the_others_posted(
    timed, caplog: pytest.LogCaptureFixture
) -> None:
    db, clock = timed
    table = await a_table(db)
    good = new_post(10, Pause())
    await db.tables.save(
        table, document={}, posts=[NewPost(10, kind, payload) for _, kind, payload in UNREADABLE]
    )
    await db.tables.save(await db.tables.load(table.id), document={}, posts=[good])
    clock.now += 61
    with caplog.at_level(logging.ERROR, logger="bot.service.outbox"):
        waiting = await PostOffice(db.outbox, db.results).waiting()
    assert [post.notice for post in waiting] == [Pause()]
    dropped = [r for r in caplog.records if "could not be read, dropped" in r.getMessage()]
    assert len(dropped) == len(UNREADABLE)
    assert "Ann" not in caplog.text  # the kind of error alone: a post may name cards
    assert await db.outbox.waiting() == (1, clock.now - 61)
