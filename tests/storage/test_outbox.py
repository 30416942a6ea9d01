"""The outbox on both backends: posts stored with their change (or not at all), leased to the
process that stored them, taken once by one process after the lease, set aside when their
channel refuses them, dropped with their channel; and every notice kind read back as written."""

from __future__ import annotations

import asyncio

import pytest

from bot.engine import Bid, Card, ChooseTrump, Play
from bot.service import ClosedReason, Notice
from bot.service.posts import new_post, stored_post
from bot.service.summaries import ScoreChart
from bot.storage import Database, NewPost, TableRow, VersionConflict
from tests.clocks import Clock


@pytest.fixture
async def timed(database_url: str):
    clock = Clock()
    database = await Database.open(database_url, clock, post_lease=60.0)
    yield database, clock
    await database.close()


async def a_table(db: Database, channel_id: int = 10, guild_id: int = 1) -> TableRow:
    return await db.create_table(
        guild_id=guild_id, channel_id=channel_id, host_id=100, preset="classic", document={}
    )


def post(text: str, channel_id: int = 10) -> NewPost:
    return NewPost(channel_id, "paused", text)


async def test_posts_are_stored_with_their_change_and_numbered_by_it(timed) -> None:
    db, clock = timed
    table = await a_table(db)
    saved = await db.save_table(table, document={}, posts=[post("a"), post("b")])
    assert await db.outbox_waiting() == (2, clock.now)
    # The process that stored them holds them: nobody else takes them before the lease ends.
    assert await db.claim_posts() == []
    clock.now += 61
    taken = await db.claim_posts()
    assert [(p.table_id, p.version, p.index, p.payload) for p in taken] == [
        (table.id, saved.version, 0, "a"),
        (table.id, saved.version, 1, "b"),
    ]
    # Taken: not again until this lease runs out too.
    assert await db.claim_posts() == []
    await db.post_done(p.key for p in taken)
    assert await db.outbox_waiting() == (0, None)


async def test_a_change_that_is_not_stored_stores_no_post(timed) -> None:
    db, clock = timed
    table = await a_table(db)
    await db.save_table(table, document={"moved": 1})
    with pytest.raises(VersionConflict):
        await db.save_table(table, document={}, posts=[post("lost with its change")])
    clock.now += 61
    assert await db.claim_posts() == []


async def test_posts_of_a_new_table_are_its_first_version(timed) -> None:
    db, clock = timed
    table = await db.create_table(
        guild_id=1, channel_id=11, host_id=100, preset="classic", document={}, posts=[post("r")]
    )
    clock.now += 61
    (taken,) = await db.claim_posts()
    assert taken.key == (table.id, 1, 0)


async def test_a_refused_post_waits_for_its_channel(timed) -> None:
    db, clock = timed
    table = await a_table(db)
    await db.save_table(table, document={}, posts=[post("x")])
    clock.now += 61
    (taken,) = await db.claim_posts()
    await db.post_refused([taken.key])
    assert await db.has_refused_posts(table.id)
    assert await db.refused_channels() == [10]
    clock.now += 600
    assert await db.claim_posts() == []  # the sweep leaves it to the channel's catch-up
    assert await db.claim_refused(99) == []
    (again,) = await db.claim_refused(10)
    assert again.key == taken.key and not await db.has_refused_posts(table.id)


async def test_posts_go_with_their_channel_or_server(timed) -> None:
    db, clock = timed
    first = await a_table(db, channel_id=10, guild_id=1)
    second = await a_table(db, channel_id=20, guild_id=1)
    third = await a_table(db, channel_id=30, guild_id=2)
    for table, channel in ((first, 10), (second, 20), (third, 30)):
        await db.save_table(table, document={}, posts=[post("p", channel)])
    assert await db.drop_posts([10]) == 1
    assert await db.drop_posts([], guild_id=1) == 1
    clock.now += 61
    assert [p.channel_id for p in await db.claim_posts()] == [30]


async def test_two_processes_never_take_the_same_post(postgres_url: str) -> None:
    clock = Clock()
    one = await Database.open(postgres_url, clock)
    other = await Database.open(postgres_url, clock)
    try:
        for channel in range(40):
            table = await a_table(one, channel_id=100 + channel)
            await one.save_table(table, document={}, posts=[post(str(channel), 100 + channel)])
        clock.now += 61
        first, second = await asyncio.gather(one.claim_posts(20), other.claim_posts(20))
        third = await one.claim_posts(20)
        keys = [p.key for p in first + second + third]
        assert len(keys) == 40 and len(set(keys)) == 40
    finally:
        await one.close()
        await other.close()


CHART = ScoreChart(
    game=7, names=("Ann", "Bob"), hands=(1, 2), totals=((10, 21), (0, 11)),
    made=((True, True), (False, True)), target=None,
)  # fmt: skip

NOTICES = [
    Notice(
        "hand_scored",
        {
            "hand": 3,
            "tiebreak": False,
            "rows": (("Ann", 1, 1, 11, 40), ("Bob", 0, 1, -1, 12)),
            "tricks": (((("Ann", Card.parse("QS")), ("Bob", Card.parse("10H"))), "Ann"),),
        },
    ),
    Notice(
        "game_over",
        {
            "standings": ((1, "Ann", 40), (2, "Bob", 12)),
            "game": 7,
            "chart": CHART,
            "rated_as": (5, -3),
            "ratings": None,
        },
    ),
    Notice("timed_out", {"name": "Ann", "action": Play(Card.parse("JOKER"), "H")}),
    Notice("timed_out", {"name": "Ann", "action": Bid(2)}),
    Notice("timed_out", {"name": "Ann", "action": ChooseTrump("S")}),
    Notice("timed_out", {"name": "Ann", "action": None}),
    Notice("closed", {"reason": ClosedReason(kind="abandoned", after=86400.0)}),
    Notice("rematch", {"user_ids": (5, 6)}),
    Notice("paused"),
]


@pytest.mark.parametrize("notice", NOTICES, ids=[n.code for n in NOTICES])
async def test_every_notice_reads_back_as_it_was_written(timed, notice: Notice) -> None:
    db, clock = timed
    table = await a_table(db)
    await db.save_table(table, document={}, posts=[new_post(10, notice, (5,))])
    clock.now += 61
    (stored,) = await db.claim_posts()
    read = stored_post(stored)
    assert read.notice == notice
    assert read.mention == (5,) and read.channel_id == 10 and read.guild_id == 1
    assert read.stored_at == clock.now - 61


async def test_a_notice_the_outbox_cannot_keep_is_refused_before_anything_is_stored() -> None:
    with pytest.raises(TypeError, match="cannot keep"):
        new_post(10, Notice("paused", {"what": object()}))
