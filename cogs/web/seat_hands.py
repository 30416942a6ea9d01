"""The hands a table's open seat streams send, fetched once a change for all of them: after
each public push every seat stream of the table wants its person's hand as new as the push,
and one load of the table (`lookups.seat_hands`) gives each of them theirs.

Per table, only while a seat stream of it is open: a cache, which goes with the last stream.
A stream is handed its own person's hand, and only theirs."""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Awaitable, Callable, Collection

from bot.service import CorruptRow, HandState, Refused

Load = Callable[[int, Collection[int]], Awaitable[tuple[int, dict[int, HandState]]]]
"""The hands of those of the people given seated at a table, and the version they are at."""


class _Table:
    """One table's seat streams: who is at them, the newest hands fetched, the fetch on its
    way."""

    def __init__(self) -> None:
        self.people: Counter[int] = Counter()
        """The people with a seat stream of the table open (a person may open two)."""
        self.version = -1
        """The version `hands` are at (-1: none fetched yet)."""
        self.hands: dict[int, HandState] = {}
        self.fetched_for: frozenset[int] = frozenset()
        """The people `hands` were fetched for (someone seated without a hand there has
        none)."""
        self.fetches = 0
        """Fetches started so far: a stream knows from it whether a fetch began after the
        push it follows (and so shows that push's change or a newer one)."""
        self.fetching: asyncio.Task[dict[int, HandState] | None] | None = None


class SeatHands:
    """The seat streams' hands, by table."""

    def __init__(self, load: Load) -> None:
        self._load = load
        self._tables: dict[int, _Table] = {}

    def tables(self) -> set[int]:
        """The tables held (only while one of their seat streams is open)."""
        return set(self._tables)

    def arrive(self, table_id: int, user_id: int) -> None:
        """A seat stream of `user_id`'s opened at the table."""
        self._tables.setdefault(table_id, _Table()).people[user_id] += 1

    def leave(self, table_id: int, user_id: int) -> None:
        """A seat stream closed: the table's cache goes with its last."""
        table = self._tables.get(table_id)
        if table is None:
            return
        table.people[user_id] -= 1
        if table.people[user_id] <= 0:
            del table.people[user_id]
        if not table.people:
            del self._tables[table_id]

    async def hand(self, table_id: int, user_id: int, version: int) -> HandState | None:
        """`user_id`'s own hand at the table, as new as its `version` (the push the stream just
        sent) or newer; None when they have none there (not seated, the game not started, the
        table closed or unreadable). The streams that ask at one version share one fetch."""
        table = self._tables.get(table_id)
        if table is None or user_id not in table.people:
            return None  # a stream asks only while open (`arrive`)
        asked = table.fetches
        while True:
            if table.version >= version and user_id in table.fetched_for:
                return table.hands.get(user_id)
            fetching = table.fetching
            if fetching is None:
                table.fetches += 1
                fetching = asyncio.get_running_loop().create_task(self._fetch(table_id, table))
                table.fetching = fetching
            started = table.fetches
            # Shielded: a stream that goes does not cancel the others' fetch.
            hands = await asyncio.shield(fetching)
            if started > asked:
                # Begun after this stream's push: it shows that change, or a newer one.
                return None if hands is None else hands.get(user_id)

    async def _fetch(self, table_id: int, table: _Table) -> dict[int, HandState] | None:
        people = frozenset(table.people)
        try:
            version, hands = await self._load(table_id, people)
        except (Refused, CorruptRow):
            return None
        finally:
            table.fetching = None
        if version >= table.version:
            table.version, table.hands, table.fetched_for = version, hands, people
        return hands
