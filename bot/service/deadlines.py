"""Deadlines: the scheduler's questions and what happens when one falls due."""

from __future__ import annotations

import asyncio
import contextlib

from bot import storage
from bot.engine import Bid, EngineError
from bot.service.document import ClosedReason, TableDocument
from bot.service.errors import Refused, TableGone
from bot.service.notices import Closure, ComputerPlaysFor, Notice, TimedOut
from bot.service.session import Change, Session
from bot.service.turns import decode_game, hand_to_computer, load_document, play_forced_cards
from bot.service.views import Outcome
from bot.storage import CorruptRow, TableRow, TableStatus, VersionConflict
from bot.storage import Event as StoredEvent

DEADLINE_LEASE = 30.0
"""Seconds a process holds a deadline it took (`claim`): if it dies before handling it, the
deadline falls due again then, for any process."""


class Deadlines:
    """Turn timers, nudges, lobby expiry and abandonment, handled once each from the database."""

    def __init__(self, session: Session, deadlines: storage.Deadlines) -> None:
        self.session = session
        self._deadlines = deadlines

    @property
    def due_changed(self) -> asyncio.Event:
        """Set when a table's deadline may now come before `watching`: the scheduler looks
        again."""
        return self.session.due_changed

    @property
    def watching(self) -> float:
        """The deadline the scheduler sleeps until (infinity: it is looking)."""
        return self.session.watching

    @watching.setter
    def watching(self, due: float) -> None:
        self.session.watching = due

    async def next_due(self) -> tuple[int, float] | None:
        """The table whose deadline comes first, and when."""
        return await self._deadlines.next_due()

    async def claim(self, table_id: int, due_at: float) -> float | None:
        """Take a due deadline before handling it (`tick`), so that of several bot processes
        on one database only one handles it: when the claim's lease ends. None: another took
        it first."""
        until = self.session.clock() + DEADLINE_LEASE
        return until if await self._deadlines.claim(table_id, due_at, until) else None

    async def postpone(self, table_id: int, claimed: float, seconds: float) -> None:
        """A claimed deadline that could not be handled: due again in `seconds`, unless a
        change saved meanwhile set another."""
        await self._deadlines.postpone(table_id, claimed, self.session.clock() + seconds)

    async def allow_grace(self) -> int:
        """At start-up: deadlines that passed while the bot was down fall due again after the
        grace period, in their order, so nobody loses a turn to the bot's own downtime.
        Returns how many tables were given grace."""
        now = self.session.clock()
        overdue = await self._deadlines.due_before(now + self.session.settings.deadline_grace)
        position = {table_id: index for index, (table_id, _) in enumerate(overdue)}
        for table_id in await self.session.tables.open_ids():
            async with self.session.lock(table_id):
                try:
                    row = await self.session.open_row(table_id)
                    document = load_document(row)
                except (Refused, CorruptRow):
                    continue
                if table_id in position:
                    # A thousandth of a second apart: handled in the order they fell due.
                    document.grace_until = (
                        now + self.session.settings.deadline_grace + position[table_id] / 1000
                    )
                elif row.due_at is not None:
                    continue
                else:
                    # Opened before deadlines were kept: start its timers now. A game that
                    # does not load is a corrupt row, left as it is like the others above:
                    # one bad table must not keep every other from its grace (the scheduler
                    # starts only after this).
                    document.grace_until = now + self.session.settings.deadline_grace
                    if row.status is TableStatus.PLAYING and document.game is not None:
                        try:
                            game = decode_game(row, document)
                        except CorruptRow:
                            continue
                        self.session.sync_turn(document, game)
                try:
                    await self.session.tables.save(
                        row,
                        document=document.model_dump(),
                        due_at=self.session.due_at(document, row.status),
                    )
                except VersionConflict:
                    continue
        self.session.due_changed.set()
        return len(overdue)

    async def tick(self, table_id: int) -> Outcome | None:
        """Handle what is due at a table now: lobby expiry, abandonment, a halfway nudge, or a
        turn deadline (a normal computer decides for whoever ran out of time).

        Another bot process may store a change between the load and the save (a hand DM's id,
        a click): what is due is then looked at again on the newer state, as for a person's
        action (`Playing.act`), instead of failing the scheduler's look."""
        return await self.session.on_newest(lambda: self._tick_once(table_id))

    async def _tick_once(self, table_id: int) -> Outcome | None:
        async with self.session.lock(table_id):
            try:
                row = await self.session.open_row(table_id)
                document = load_document(row)
            except TableGone:
                return None
            now = self.session.clock()
            if now < document.grace_until:
                await self._reschedule(row, document)
                return None
            if row.status is TableStatus.LOBBY:
                if (
                    self.session.settings.lobby_timeout > 0
                    and now >= document.last_activity + self.session.settings.lobby_timeout
                ):
                    return await self._close(
                        row,
                        document,
                        ClosedReason(kind="expired", after=self.session.settings.lobby_timeout),
                    )
                await self._reschedule(row, document)
                return None
            if (
                self.session.settings.abandon_after > 0
                and now >= document.last_activity + self.session.settings.abandon_after
            ):
                return await self._close(
                    row,
                    document,
                    ClosedReason(kind="abandoned", after=self.session.settings.abandon_after),
                )
            turn = document.turn
            if turn is None or document.paused or document.game is None:
                await self._reschedule(row, document)
                return None
            if turn.deadline is None or now < turn.deadline:
                if not turn.nudged and now >= turn.nudge_at:
                    turn.nudged = True
                    saved = await self.session.save(row, document, Change())
                    return saved.outcome(
                        nudge=tuple(
                            uid
                            for s in turn.waiting
                            if (uid := document.seats[s].user_id) is not None
                        )
                    )
                await self._reschedule(row, document)
                return None
            seat = turn.waiting[0]
            game_json = document.game
            version = row.version
        action = await self.session.run_blocking(
            self.session.decide, game_json, seat, "normal", document.seed + version
        )
        async with self.session.lock(table_id):
            try:
                row, document, game = await self.session.playing_row(table_id)
            except TableGone:
                return None  # closed while the move was decided: nothing is due any more
            if row.version != version:
                # Something was saved meanwhile (a DM's id, say): the deadline is looked at
                # again at once, not when the claim's lease runs out.
                await self._reschedule(row, document, at_once=True)
                return None
            before = self.session.hands_before(row, document, game)
            try:
                events = game.apply(seat, action)
            except EngineError:
                return None
            person = document.seats[seat]
            person.missed += 1
            secret = isinstance(action, Bid) and game.rules.bidding in ("secret", "knock")
            lines: list[Notice] = [TimedOut(name=person.name, action=None if secret else action)]
            if person.missed >= 2:
                hand_to_computer(person, "timeout")
                lines.append(ComputerPlaysFor(name=person.name))
            events += play_forced_cards(document, game)
            return await self.session.commit_game(
                row, document, game, events, None, before, notices=lines
            )

    async def _reschedule(
        self, row: TableRow, document: TableDocument, *, at_once: bool = False
    ) -> None:
        """Nothing is due after all (e.g. a deadline moved): store the right next deadline.
        `at_once`: a deadline that has passed stays due now (the table moved while it was being
        handled) instead of a little later."""
        due = self.session.due_at(document, row.status)
        if not at_once and due is not None and due <= self.session.clock():
            # Due by the document, but nothing to do: look again a little later, not in a loop.
            due = self.session.clock() + 1
        if due != row.due_at:
            with contextlib.suppress(VersionConflict):
                await self.session.tables.save(row, document=row.document, due_at=due)
        self.session.due_changed.set()

    async def _close(self, row: TableRow, document: TableDocument, reason: ClosedReason) -> Outcome:
        document.closed_reason = reason
        document.turn = None
        change = Change(
            events=[StoredEvent(reason.kind, {"after": reason.after}, None)],
            status=TableStatus.ABANDONED,
            notices=[Closure(reason=reason)],
        )
        return (await self.session.save(row, document, change)).outcome(finished=True)
