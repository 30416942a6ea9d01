"""Who is at a table's page, told by each bot process to the others (PostgreSQL's NOTIFY): a
person's seat stream is open on one process, while the moves that would edit their hand DM may
be stored by another. Nothing is stored: a process tells whenever one of its pages opens or
closes, and every little while who is still at its pages, so a process that died, a notice
lost, or a process that started later is right again within that while."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Literal

from bot.storage.store import Repository

PAGES_OPEN = "ohhell_pages"
"""The channel on which each bot process tells the others who is at the pages it serves."""

MAX_PAYLOAD = 7900
"""The most one notice carries (PostgreSQL takes up to 8000 bytes): more seats go in more."""

Told = Literal["+", "-", "="]
"""Arrived at a page, left the last page, still at a page."""


@dataclasses.dataclass(frozen=True)
class PagesTold:
    """What one process tells: `seats` ((table, person) pairs) arrived at one of its pages
    ("+"), left the last of them ("-"), or are still at one ("=")."""

    process: str
    """A word naming the telling process, as long as it runs (no space in it)."""
    told: Told
    seats: tuple[tuple[int, int], ...]


def pages_payloads(told: PagesTold) -> list[str]:
    """The notices that say `told`: "process told table:person table:person …", each short
    enough for NOTIFY."""
    head = f"{told.process} {told.told}"
    payloads: list[str] = []
    parts: list[str] = []
    size = len(head)
    for table_id, user_id in told.seats:
        part = f"{table_id}:{user_id}"
        if parts and size + 1 + len(part) > MAX_PAYLOAD:
            payloads.append(" ".join([head, *parts]))
            parts, size = [], len(head)
        parts.append(part)
        size += 1 + len(part)
    if parts:
        payloads.append(" ".join([head, *parts]))
    return payloads


def read_pages(payload: str) -> PagesTold | None:
    """What a notice tells; None for one that is not ours."""
    words = payload.split()
    if len(words) < 3 or words[1] not in ("+", "-", "="):
        return None
    seats = []
    try:
        for word in words[2:]:
            table_id, user_id = word.split(":")
            seats.append((int(table_id), int(user_id)))
    except ValueError:
        return None
    told: Told = "+" if words[1] == "+" else "-" if words[1] == "-" else "="
    return PagesTold(words[0], told, tuple(seats))


class Pages(Repository):
    """Telling and hearing who is at the pages (PostgreSQL; on SQLite one process serves every
    page, and neither is called)."""

    async def tell(self, told: PagesTold) -> None:
        for payload in pages_payloads(told):
            await self._db.notify(PAGES_OPEN, payload)

    async def hear(self, callback: Callable[[PagesTold], None]) -> None:
        """Call `callback` for what every process tells, this one's own too."""

        def received(payload: str) -> None:
            told = read_pages(payload)
            if told is not None:
                callback(told)

        await self._db.listen(PAGES_OPEN, received)
