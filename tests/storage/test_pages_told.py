"""Who is at the pages, told by one process to the others over PostgreSQL's NOTIFY: however
many seats, each notice fits NOTIFY's limit, and every seat reaches each listening process."""

from __future__ import annotations

import asyncio

from bot.storage import Database, PagesTold
from bot.storage.pages import MAX_PAYLOAD, pages_payloads, read_pages

MANY = tuple((table, 10**18 + user) for table in range(1, 40) for user in range(12))
"""More seats than one notice carries (people's ids are as long as Discord's)."""


def test_many_seats_are_told_in_notices_not_too_long_for_notify() -> None:
    told = PagesTold("a1b2", "=", MANY)
    payloads = pages_payloads(told)
    assert len(payloads) > 1 and all(len(p.encode()) <= MAX_PAYLOAD for p in payloads)
    read = [read_pages(payload) for payload in payloads]
    assert all(r is not None and r.process == "a1b2" and r.told == "=" for r in read)
    assert tuple(seat for r in read if r is not None for seat in r.seats) == MANY
    assert pages_payloads(PagesTold("a1b2", "-", ())) == []
    assert read_pages("a1b2 + 3:4") == PagesTold("a1b2", "+", ((3, 4),))
    for other in ("", "a1b2 +", "a1b2 ? 3:4", "a1b2 + 3", "a1b2 + x:4", "7 2"):
        assert read_pages(other) is None, other


async def test_what_one_process_tells_every_process_hears(postgres_url: str) -> None:
    one, other = await asyncio.gather(Database.open(postgres_url), Database.open(postgres_url))
    heard: list[PagesTold] = []
    try:
        await other.pages.hear(heard.append)
        await one.pages.tell(PagesTold("a1b2", "+", MANY))
        await one.pages.tell(PagesTold("a1b2", "-", ((1, 10**18),)))
        for _ in range(200):
            if heard and heard[-1].told == "-":
                break
            await asyncio.sleep(0.02)
    finally:
        await one.close()
        await other.close()
    assert tuple(seat for told in heard[:-1] for seat in told.seats) == MANY
    assert heard[-1] == PagesTold("a1b2", "-", ((1, 10**18),))
