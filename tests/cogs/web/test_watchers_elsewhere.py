"""A table's page watchers told of changes another bot process stored (PostgreSQL's NOTIFY):
the table is loaded for them one load at a time, however many changes are told meanwhile, and
they are sent its newest state."""

from __future__ import annotations

import asyncio
import dataclasses
from typing import Any

from bot.service import TableChange, TableView
from bot.service.notices import HandScore
from cogs.web.watchers import Watchers
from tests.cogs.renders import a_table


def render(view: TableView, code: str, scored: HandScore | None) -> bytes:
    return f"{view.version}".encode()


async def test_a_flood_of_changes_elsewhere_is_one_load_at_a_time() -> None:
    stored = [a_table(version=1)]
    loads = 0
    loading = 0
    most_at_once = 0

    async def load(table_id: int) -> tuple[TableView, HandScore | None]:
        nonlocal loads, loading, most_at_once
        loads += 1
        loading += 1
        most_at_once = max(most_at_once, loading)
        await asyncio.sleep(0.01)
        loading -= 1
        return stored[-1], None

    tasks: list[asyncio.Task[Any]] = []
    watchers = Watchers(render, load, lambda work: tasks.append(asyncio.ensure_future(work)))
    watcher = watchers.add(stored[0], "en_US")
    assert watcher is not None
    assert await watcher.next_frame(0.1) == b"1"
    for version in range(2, 102):
        stored.append(dataclasses.replace(stored[0], version=version))
        watchers.changed_elsewhere(TableChange(7, version, None))
        if version % 10 == 0:
            await asyncio.sleep(0)
    while any(not task.done() for task in tasks):
        await asyncio.gather(*tasks)
    assert most_at_once == 1
    assert loads <= 3, loads
    assert await watcher.next_frame(0.1) == b"101"


async def test_a_change_already_shown_loads_nothing() -> None:
    loads: list[int] = []

    async def load(table_id: int) -> tuple[TableView, HandScore | None]:
        loads.append(table_id)
        return a_table(version=5), None

    tasks: list[asyncio.Task[Any]] = []
    watchers = Watchers(render, load, lambda work: tasks.append(asyncio.ensure_future(work)))
    assert watchers.add(a_table(version=5), "en_US") is not None
    watchers.changed_elsewhere(TableChange(7, 5, None))  # this process's own, echoed
    watchers.changed_elsewhere(TableChange(8, 9, None))  # a table nobody watches
    await asyncio.gather(*tasks)
    assert loads == []


async def test_once_listening_every_watched_table_is_brought_up_to_date() -> None:
    stored = [a_table(version=1)]

    async def load(table_id: int) -> tuple[TableView, HandScore | None]:
        return stored[-1], None

    tasks: list[asyncio.Task[Any]] = []
    watchers = Watchers(render, load, lambda work: tasks.append(asyncio.ensure_future(work)))
    watcher = watchers.add(stored[0], "en_US")
    assert watcher is not None
    assert await watcher.next_frame(0.1) == b"1"
    # Changed by another process before this one listened: nobody told the watchers.
    stored.append(a_table(version=3))
    watchers.listening()
    await asyncio.gather(*tasks)
    assert await watcher.next_frame(0.1) == b"3"


def render_scores(view: TableView, code: str, scored: HandScore | None) -> bytes:
    return f"{view.version}:{'-' if scored is None else scored.hand}".encode()


async def test_the_scores_stored_with_a_view_go_with_its_frames() -> None:
    # Only the process that stored a move is handed its post of the hand's scores: any other
    # (and any page opened later) is sent the scores the service rebuilds with the view.
    stored: list[tuple[TableView, HandScore | None]] = [(a_table(version=4), None)]

    async def load(table_id: int) -> tuple[TableView, HandScore | None]:
        return stored[-1]

    tasks: list[asyncio.Task[Any]] = []
    watchers = Watchers(render_scores, load, lambda work: tasks.append(asyncio.ensure_future(work)))
    opened = watchers.add(a_table(version=4), "en_US")
    assert opened is not None and await opened.next_frame(0.1) == b"4:-"
    stored.append((a_table(version=5), HandScore(hand=1, rows=())))
    watchers.changed_elsewhere(TableChange(7, 5, None))
    await asyncio.gather(*tasks)
    assert await opened.next_frame(0.1) == b"5:1"
    # A page opened later starts from what it loaded; an older load's scores replace none.
    later = watchers.add(a_table(version=6), "en_US", HandScore(hand=2, rows=()))
    stale = watchers.add(a_table(version=5), "en_US", HandScore(hand=1, rows=()))
    assert later is not None and stale is not None
    assert await later.next_frame(0.1) == b"6:2"
    assert await stale.next_frame(0.1) == b"6:2"
    assert await opened.next_frame(0.1) == b"6:2"
