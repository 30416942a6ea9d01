"""Who is watching which table's page, and what each is sent: each committed change's public
view, rendered once for each language watched and handed to every watcher of the table.

A watcher keeps only the newest frame, never a backlog: a slow page skips to the newest state
rather than making the bot hold every state it missed, so many watchers or one stuck reader
cost the bot the same."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass, field
from typing import Any

from bot.service import Post, TableChange, TableView
from bot.service.notices import HandScore

log = logging.getLogger(__name__)

Render = Callable[[TableView, str, HandScore | None], bytes]
"""A view as the frame its watchers are sent, in the language of the catalog name given, with
the newest hand's scores the channel was sent (its tricks, the last one of which no view
shows: the hand is scored and the next dealt by the same move)."""


class Watcher:
    """One open page: the newest frame it has not been sent yet, and a wake-up for its
    sender."""

    def __init__(self, table_id: int, code: str) -> None:
        self.table_id = table_id
        self.code = code
        self._frame: bytes | None = None
        self._offered = -1
        self.version = -1
        """The table's version the frame `next_frame` last gave shows."""
        self._ready = asyncio.Event()
        self.closed = False
        self.write_now: Callable[[bytes], bool] | None = None
        """Set by a sender that can write a frame at once, from the change's own step, when
        its page's connection takes it without waiting (True): no task woken a frame. A frame
        it does not take waits for the sender."""

    def offer(self, frame: bytes, version: int) -> None:
        """The newest frame, showing the table at `version`."""
        self._offered = version
        if self._frame is None and self.write_now is not None and self.write_now(frame):
            return
        self._frame = frame
        self._ready.set()

    def close(self) -> None:
        """Stop the page's stream (the table closed for good, or the bot is stopping)."""
        self.closed = True
        self._ready.set()

    async def next_frame(self, timeout: float) -> bytes | None:
        """The newest frame once there is one; None after `timeout` seconds without (a
        keep-alive is due) or once closed."""
        if self._frame is None and not self.closed:
            try:
                # asyncio.timeout, not wait_for: no task of its own for every frame.
                async with asyncio.timeout(timeout):
                    await self._ready.wait()
            except TimeoutError:
                return None
        self._ready.clear()
        frame, self._frame = self._frame, None
        if frame is not None:
            self.version = self._offered
        return frame


@dataclass
class _Watched:
    watchers: set[Watcher] = field(default_factory=set)
    version: int = 0
    """The newest version sent."""
    frames: dict[str, bytes] = field(default_factory=dict)
    """The newest version's frame in each language watched."""
    view: TableView | None = None
    """The newest version's view."""
    scored: HandScore | None = None
    """The newest hand scored while the table was watched."""
    told: int = 0
    """The newest version another process is known to have stored (`changed_elsewhere`)."""
    loading: bool = False
    """Whether a load of the table for its watchers is on its way: one at a time."""


def _stored_scores(watched: _Watched, view: TableView, scored: HandScore | None) -> None:
    """The newest hand's scores as loaded with `view` (the service rebuilds them from the
    stored game: the channel's post of them is handed only to the process that stored the
    move), unless the watchers were sent a newer view, or newer scores, meanwhile."""
    if scored is None or view.version < watched.version:
        return
    if watched.scored is None or scored.hand >= watched.scored.hand:
        watched.scored = scored


class Watchers:
    """Every open page of this process, by table. `published` is told each change this
    process commits (in commit order), `changed_elsewhere` each change another process
    stored (PostgreSQL), which is loaded once for all its watchers."""

    def __init__(
        self,
        render: Render,
        load: Callable[[int], Awaitable[tuple[TableView, HandScore | None]]],
        spawn: Callable[[Coroutine[Any, Any, None]], object],
        *,
        per_table: int = 64,
        in_all: int = 4096,
    ) -> None:
        self._render = render
        self._load = load
        self._spawn = spawn
        self._tables: dict[int, _Watched] = {}
        self.per_table = per_table
        self.in_all = in_all
        self.count = 0

    def tables(self) -> set[int]:
        """The tables watched (held in memory only while someone watches)."""
        return set(self._tables)

    def of(self, table_id: int) -> frozenset[Watcher]:
        """The open pages of a table."""
        watched = self._tables.get(table_id)
        return frozenset(() if watched is None else watched.watchers)

    def add(self, view: TableView, code: str, scored: HandScore | None = None) -> Watcher | None:
        """A new watcher of `view`'s table, in language `code`, offered the newest view at once
        (rendered for it: a frame says when it was made, for the page's turn timer); None when
        the table or the process has as many watchers as it takes. `scored`: the newest hand's
        scores stored with `view` (`lookups.scored_view`)."""
        watched = self._tables.get(view.table_id)
        if self.count >= self.in_all or (
            watched is not None and len(watched.watchers) >= self.per_table
        ):
            return None
        if watched is None:
            watched = self._tables[view.table_id] = _Watched()
        _stored_scores(watched, view, scored)
        if view.version > watched.version:
            self._send(watched, view)
        watcher = Watcher(view.table_id, code)
        watched.watchers.add(watcher)
        self.count += 1
        newest = watched.view if watched.view is not None else view
        watcher.offer(self._render(newest, code, watched.scored), newest.version)
        if not newest.status.is_open:
            watcher.close()
        return watcher

    def remove(self, watcher: Watcher) -> None:
        watched = self._tables.get(watcher.table_id)
        if watched is None or watcher not in watched.watchers:
            return
        watched.watchers.discard(watcher)
        self.count -= 1
        if not watched.watchers:
            del self._tables[watcher.table_id]

    def published(self, view: TableView, posts: tuple[Post, ...] = ()) -> None:
        """A change this process committed, with the posts it sends the channel: its watchers
        are sent it (nothing to do, and nothing rendered, for a table nobody watches)."""
        watched = self._tables.get(view.table_id)
        if watched is None:
            return
        for post in posts:
            notice = post.notice
            if isinstance(notice, HandScore) and (
                watched.scored is None or notice.hand >= watched.scored.hand
            ):
                watched.scored = notice
        if view.version > watched.version:
            self._send(watched, view)

    def changed_elsewhere(self, change: TableChange) -> None:
        """A change another process stored: the table is loaded for its watchers, one load at
        a time however many changes are told meanwhile (the next load takes them all)."""
        watched = self._tables.get(change.table_id)
        if watched is None or change.version <= watched.version:
            return
        self._load_until(change.table_id, watched, change.version)

    def _load_until(self, table_id: int, watched: _Watched, version: int) -> None:
        """Load the table for its watchers until they have `version`: one load at a time."""
        watched.told = max(watched.told, version)
        if not watched.loading:
            watched.loading = True
            self._spawn(self._catch_up(table_id, watched))

    async def _catch_up(self, table_id: int, watched: _Watched) -> None:
        try:
            while self._tables.get(table_id) is watched and watched.told > watched.version:
                told = watched.told
                try:
                    view, scored = await self._load(table_id)
                except Exception:
                    log.warning("table %s: its watchers could not be brought up to date", table_id)
                    return
                _stored_scores(watched, view, scored)
                self.published(view)
                if view.version < told:
                    return  # not readable yet: the change's own notice comes after its commit
        finally:
            watched.loading = False

    def _send(self, watched: _Watched, view: TableView) -> None:
        watched.version = view.version
        watched.view = view
        watched.frames = {}
        for watcher in watched.watchers:
            frame = watched.frames.get(watcher.code)
            if frame is None:
                frame = self._render(view, watcher.code, watched.scored)
                watched.frames[watcher.code] = frame
            watcher.offer(frame, view.version)
        if not view.status.is_open:
            for watcher in watched.watchers:
                watcher.close()

    def listening(self) -> None:
        """This process hears other processes' changes from now on (it started listening after
        its pages were first served): every watched table is loaded once for its watchers, who
        may have missed a change meanwhile, as a change told by another process is."""
        for table_id, watched in self._tables.items():
            self._load_until(table_id, watched, watched.version + 1)

    def close_all(self) -> None:
        for watched in self._tables.values():
            for watcher in watched.watchers:
                watcher.close()
