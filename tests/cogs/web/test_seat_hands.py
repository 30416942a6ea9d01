"""The seat streams' shared fetch of a table's hands: one load for the streams that ask at one
version, never a hand older than the push a stream follows, each person's own hand alone."""

from __future__ import annotations

import asyncio
from collections.abc import Collection
from typing import cast

from bot.service import HandState, Refused
from bot.service.refusals import NotStarted
from cogs.web.seat_hands import SeatHands

TABLE = 7


class Stored:
    """A table whose version the test moves on; each load is counted, and may be held."""

    def __init__(self) -> None:
        self.version = 1
        self.loads: list[frozenset[int]] = []
        self.hold: asyncio.Event | None = None
        self.refuse = False

    async def load(
        self, table_id: int, people: Collection[int]
    ) -> tuple[int, dict[int, HandState]]:
        assert table_id == TABLE
        self.loads.append(frozenset(people))
        version = self.version  # read as the load starts
        if self.hold is not None:
            await self.hold.wait()
        if self.refuse:
            raise Refused(NotStarted())
        return version, {p: cast(HandState, f"{p}'s hand at {version}") for p in people}


async def test_the_streams_at_one_version_share_one_load_each_sent_their_own() -> None:
    stored = Stored()
    hands = SeatHands(stored.load)
    for person in (1, 2, 3, 4):
        hands.arrive(TABLE, person)
    got = await asyncio.gather(*(hands.hand(TABLE, p, 1) for p in (1, 2, 3, 4)))
    assert got == [f"{p}'s hand at 1" for p in (1, 2, 3, 4)]
    assert stored.loads == [frozenset({1, 2, 3, 4})]
    # Asked again at that version: no load. At a newer one: one more for all.
    assert await hands.hand(TABLE, 3, 1) == "3's hand at 1"
    stored.version = 2
    got = await asyncio.gather(*(hands.hand(TABLE, p, 2) for p in (1, 2, 3, 4)))
    assert got == [f"{p}'s hand at 2" for p in (1, 2, 3, 4)]
    assert len(stored.loads) == 2
    # Someone not at a stream of the table is handed nothing, and costs no load.
    assert await hands.hand(TABLE, 9, 2) is None
    assert len(stored.loads) == 2


async def test_a_fetch_begun_before_a_push_is_not_taken_for_it() -> None:
    stored = Stored()
    hands = SeatHands(stored.load)
    hands.arrive(TABLE, 1)
    hands.arrive(TABLE, 2)
    stored.hold = asyncio.Event()
    first = asyncio.create_task(hands.hand(TABLE, 1, 1))
    while not stored.loads:  # its load reads version 1, and waits
        await asyncio.sleep(0)
    stored.version = 2  # a change is stored, and pushed: the second stream asks for it
    second = asyncio.create_task(hands.hand(TABLE, 2, 2))
    await asyncio.sleep(0)
    stored.hold.set()
    assert await first == "1's hand at 1"
    assert await second == "2's hand at 2"
    assert len(stored.loads) == 2


async def test_a_newcomer_is_fetched_for_and_the_cache_goes_with_the_last_stream() -> None:
    stored = Stored()
    hands = SeatHands(stored.load)
    hands.arrive(TABLE, 1)
    assert await hands.hand(TABLE, 1, 1) == "1's hand at 1"
    hands.arrive(TABLE, 2)  # a stream opens at the same version
    assert await hands.hand(TABLE, 2, 1) == "2's hand at 1"
    assert stored.loads == [frozenset({1}), frozenset({1, 2})]
    hands.arrive(TABLE, 2)  # a second tab
    hands.leave(TABLE, 2)
    hands.leave(TABLE, 1)
    assert hands.tables() == {TABLE}
    hands.leave(TABLE, 2)
    assert hands.tables() == set()


async def test_a_refused_load_is_no_hand() -> None:
    stored = Stored()
    stored.refuse = True
    hands = SeatHands(stored.load)
    hands.arrive(TABLE, 1)
    assert await hands.hand(TABLE, 1, 1) is None
    stored.refuse = False
    assert await hands.hand(TABLE, 1, 1) == "1's hand at 1"
