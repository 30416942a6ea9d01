"""What every job of the service shares: the caches of one process, and the unit of work each
change goes through (one load, one save with the version check, the views it hands back)."""

from __future__ import annotations

import asyncio
import contextlib
import random
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from bot.config import BotSettings
from bot.engine import Action, EngineError, Event, Game, HandDealt, Phase
from bot.service.document import MAX_SEATS, DmRef, TableDocument, TurnClock
from bot.service.errors import Refused, TableGone
from bot.service.outbox import PostOffice
from bot.service.players import player_range
from bot.service.posts import new_post, posts_of
from bot.service.refusals import (
    AlreadyStarted,
    Conflict,
    HostDoing,
    HostOnly,
    NoSuchTable,
    NotStarted,
    TableClosed,
    TableFull,
    TooMany,
)
from bot.service.results import announce, event_name, event_payload, rated_as, results_of
from bot.service.seat_views import hand_state, public_game
from bot.service.turns import (
    Decider,
    computer_to_move,
    decode_game,
    forced_card_waiting,
    load_document,
    run_in_thread,
    running_deadline,
    settings_of,
    start_problem,
    waiting_for,
    waiting_for_someone_away,
)
from bot.service.views import HandState, Notice, Outcome, Post, Reason, SeatView, TableView
from bot.storage import Event as StoredEvent
from bot.storage import (
    PlayerResult,
    TableRow,
    TableStatus,
    VersionConflict,
)
from bot.storage.tables import Tables

T = TypeVar("T")

CONFLICT_ATTEMPTS = 3
"""Tries of a change that meets another process's change to the same table."""


@dataclass(frozen=True)
class Change:
    """What a save stores besides the table's document: its events and, as the change needs,
    a new status, host or preset, a finished game's results, and posts for the channel (with
    whom they may mention)."""

    events: Sequence[StoredEvent] = ()
    status: TableStatus | None = None
    host_id: int | None = None
    preset: str | None = None
    results: Sequence[PlayerResult] = ()
    notices: Sequence[Notice] = ()
    mention: Sequence[int] = ()


@dataclass(frozen=True)
class Saved:
    """A stored change, as its outcome shows it: the table's view, where the hand DMs are, the
    posts stored with it."""

    view: TableView
    dm_refs: Mapping[int, DmRef]
    posts: tuple[Post, ...]

    def outcome(
        self,
        reply: Reason | None = None,
        *,
        hands: Mapping[int, HandState] | None = None,
        every_hand: Mapping[int, HandState] | None = None,
        new_hand: bool = False,
        finished: bool = False,
        nudge: tuple[int, ...] = (),
    ) -> Outcome:
        """The change's outcome: the stored view, hand DMs and posts, with what the job adds."""
        return Outcome(
            table=self.view,
            reply=reply,
            hands=hands or {},
            every_hand=every_hand,
            dm_refs=self.dm_refs,
            new_hand=new_hand,
            finished=finished,
            nudge=nudge,
            posts=self.posts,
        )


def dm_refs_of(document: TableDocument) -> dict[int, DmRef]:
    """Every person's hand DM at the table, by user id."""
    return {int(user): ref for user, ref in document.dms.items()}


class Session:
    """The unit of work every action goes through: load the row once (its decoded game from a
    cache keyed by the row's version), check, change, save once with the version check, and
    return a frozen outcome with the views of what each seat may see."""

    def __init__(
        self,
        tables: Tables,
        posts: PostOffice,
        *,
        postgres: bool,
        decide: Decider,
        run_blocking: Callable[..., Awaitable[Any]] | None = None,
        rng: random.Random | None = None,
        clock: Callable[[], float] = time.time,
        settings: BotSettings | None = None,
    ) -> None:
        self.tables = tables
        """The stored tables, which each change loads and saves."""
        self.posts = posts
        """The outbox: posts stored with their changes, until they are posted."""
        self.decide = decide
        self.run_blocking = run_blocking or run_in_thread
        self.rng = rng or random.Random()
        self._locks: dict[int, asyncio.Lock] = {}
        self._closing: set[int] = set()
        self._games: dict[int, tuple[int, Game]] = {}
        """By table: the decoded game of the version last loaded or saved here, so an action
        replays nothing. A cache: the row's version decides, and a table that closes drops it."""
        self._rows: dict[int, TableRow] = {}
        """By open table: its row as last loaded or saved here, so a load that finds the same
        version reads no document (`Tables.load(known=)`)."""
        self._hands: dict[int, tuple[int, dict[int, HandState]]] = {}
        """By table: every hand message's state at the version last saved here, so the next
        action finds what changed without working out the states before it again."""
        self.clock = clock
        self.settings = settings or BotSettings.model_construct()
        """The bot's settings: lobby expiry, abandonment, the grace after a restart, turn
        nudges, the leaderboard's minimum of games."""
        self.due_changed = asyncio.Event()
        """Set when a table's deadline may now come before `watching`: the scheduler looks
        again."""
        self.watching = float("inf")
        """The deadline the scheduler sleeps until (infinity: it is looking, wake it for any)."""
        self.shared_database = self.settings.several_processes and postgres
        """Whether other bot processes share the database (PostgreSQL, and this process runs
        only some of the shards): then this one is not told of every change, and must look,
        and hold each message it writes. One process, on either database, knows every change."""

    @contextlib.asynccontextmanager
    async def lock(self, table_id: int) -> AsyncIterator[None]:
        """One change at a time per table in this process; a closed table's lock goes once
        it is released."""
        lock = self._locks.setdefault(table_id, asyncio.Lock())
        try:
            async with lock:
                yield
        finally:
            if table_id in self._closing and not lock.locked():
                if self._locks.get(table_id) is lock:
                    del self._locks[table_id]
                self._closing.discard(table_id)

    def game_of(self, row: TableRow, document: TableDocument, *, to_change: bool) -> Game:
        """The row's game, from the cache when it holds this version. A game about to change is
        taken out of the cache (a reader meanwhile decodes its own copy) and put back by
        `save` once the change is committed."""
        assert document.game is not None
        cached = self._games.get(row.id)
        if cached is not None and cached[0] == row.version:
            if to_change:
                del self._games[row.id]
            return cached[1]
        if cached is not None and cached[0] < row.version:
            # Another process moved the game on: replay only what it added.
            del self._games[row.id]
            with contextlib.suppress(EngineError):  # decoded whole below, and named corrupt
                if cached[1].catch_up(document.game):
                    if not to_change:
                        self._games[row.id] = (row.version, cached[1])
                    return cached[1]
        game = decode_game(row, document)
        if not to_change:
            self._games[row.id] = (row.version, game)
        return game

    def known_row(self, table_id: int) -> TableRow | None:
        """The table's row as last loaded or saved here (a load that finds its version
        unchanged reads no document)."""
        return self._rows.get(table_id)

    def drop_game(self, table_id: int) -> None:
        """The table's game is about to change: `save` puts it back once committed."""
        self._games.pop(table_id, None)

    def forget(self, table_id: int) -> None:
        """A table closed: its cached game and hands go, and its lock once released."""
        self._games.pop(table_id, None)
        self._rows.pop(table_id, None)
        self._hands.pop(table_id, None)
        lock = self._locks.get(table_id)
        if lock is not None and lock.locked():
            self._closing.add(table_id)  # the lock goes once released (`lock`)
        elif lock is not None:
            del self._locks[table_id]

    def cached_tables(self) -> set[int]:
        """The tables this service holds anything in memory for (tests check it empties)."""
        held = set(self._games) | set(self._rows) | set(self._hands) | set(self._locks)
        return held | self._closing

    @staticmethod
    async def on_newest(attempt: Callable[[], Awaitable[T]]) -> T:
        """Run `attempt` (a load, the change, a save), again on the newer state when another
        bot process stored a change to the table between its load and its save (a hand DM's
        id, another person's click), as one process would have applied the two one after the
        other; refused as a conflict after `CONFLICT_ATTEMPTS`."""
        for tried in range(1, CONFLICT_ATTEMPTS + 1):
            try:
                return await attempt()
            except Refused as refusal:
                if refusal.code != "conflict" or tried == CONFLICT_ATTEMPTS:
                    raise
        raise AssertionError("unreachable: the last attempt returns or raises")

    async def load(self, table_id: int, known: TableRow | None = None) -> TableRow:
        """The table's row, open or not; one that does not exist (a forged id, or a database
        replaced under the bot) is refused as gone, not an unexpected error. A table found
        closed (here, or by another process sharing the database) leaves nothing in memory."""
        try:
            row = await self.tables.load(table_id, known)
        except KeyError:
            self.forget(table_id)  # the lock its caller may have taken goes too
            raise TableGone(NoSuchTable()) from None
        if not row.status.is_open:
            self.forget(table_id)
        return row

    async def open_row(self, table_id: int) -> TableRow:
        row = await self.load(table_id, self._rows.get(table_id))
        if not row.status.is_open:
            # A click on a closed table's leftover button (`load` dropped it from memory).
            raise TableGone(TableClosed(status=row.status))
        self._rows[table_id] = row
        return row

    async def lobby_row(self, table_id: int) -> tuple[TableRow, TableDocument]:
        row = await self.open_row(table_id)
        if row.status is not TableStatus.LOBBY:
            raise Refused(AlreadyStarted())
        return row, load_document(row)

    async def playing_row(
        self, table_id: int, *, to_change: bool = True
    ) -> tuple[TableRow, TableDocument, Game]:
        row = await self.open_row(table_id)
        document = load_document(row)
        if row.status is not TableStatus.PLAYING or document.game is None:
            raise Refused(NotStarted())
        return row, document, self.game_of(row, document, to_change=to_change)

    @staticmethod
    def check_room(document: TableDocument) -> None:
        if len(document.seats) >= MAX_SEATS:
            raise Refused(TableFull(seats=MAX_SEATS))
        low, high = player_range(settings_of(document))
        # While the rules fit no player count (the host is still editing them), seats stay
        # open: Start says what to change.
        if low <= high and len(document.seats) >= high:
            raise Refused(TooMany(high=high))

    @staticmethod
    def check_host(row: TableRow, user_id: int, can_manage: bool, doing: HostDoing) -> None:
        if user_id != row.host_id and not can_manage:
            raise Refused(HostOnly(doing=doing))

    def hands_before(
        self, row: TableRow, document: TableDocument, game: Game
    ) -> dict[int, HandState]:
        """Every hand message's state at `row`'s version (unchanged `document` and `game`):
        kept from the save that made that version, else worked out."""
        cached = self._hands.get(row.id)
        if cached is not None and cached[0] == row.version:
            return cached[1]
        return self.all_hands(row.id, document, game)

    def all_hands(
        self,
        table_id: int,
        document: TableDocument,
        game: Game,
        before: dict[int, HandState] | None = None,
    ) -> dict[int, HandState]:
        """Every seated person's hand state; `before`, the states at the version changed, are
        kept where nothing they show has changed (`hand_state`)."""
        before = before or {}
        return {
            seat.user_id: hand_state(table_id, document, game, index, before.get(seat.user_id))
            for index, seat in document.people_seated()
            if seat.user_id is not None and seat.away != "kicked"
        }

    async def commit_game(
        self,
        row: TableRow,
        document: TableDocument,
        game: Game,
        events: list[Event],
        user_id: int | None,
        before: dict[int, HandState],
        *,
        action: tuple[int, Action] | None = None,
        notices: Sequence[Notice] = (),
    ) -> Outcome:
        """Save a changed game; `notices`: for the channel, before those of the game's events."""
        document.game = game.to_json()
        self.sync_turn(document, game)
        over = game.phase is Phase.GAME_OVER
        stored = []
        if action is not None:
            seat, taken = action
            stored.append(StoredEvent("action", {"seat": seat, "action": repr(taken)}, user_id))
        stored += [StoredEvent(event_name(e), event_payload(e), user_id) for e in events]
        identities = tuple(rated_as(seat) for seat in document.seats)
        change = Change(
            events=stored,
            status=TableStatus.FINISHED if over else None,
            results=results_of(document, game) if over else (),
            notices=[*notices, *(n for e in events for n in announce(game, e, row.id, identities))],
        )
        saved = await self.save(row, document, change, game=game)
        after = self.all_hands(row.id, document, game, before)
        if not over:
            self._hands[row.id] = (saved.view.version, after)
        automatic = (
            not over
            and not document.paused
            and not waiting_for_someone_away(document)
            and (
                computer_to_move(document, game) is not None or forced_card_waiting(document, game)
            )
        )
        return Outcome(
            table=saved.view,
            dm_refs=saved.dm_refs,
            posts=saved.posts,
            hands={u: s for u, s in after.items() if before.get(u) != s},
            every_hand=after,
            automatic=automatic,
            new_hand=any(isinstance(e, HandDealt) for e in events),
            finished=over,
        )

    async def save(
        self, row: TableRow, document: TableDocument, change: Change, *, game: Game | None = None
    ) -> Saved:
        """Commit a change with the version check; `game` is the changed game, kept decoded
        for the next action. The change's notices go to the table's channel through the
        outbox, which stores them in the same transaction."""
        if any(event.user_id is not None for event in change.events):
            document.last_activity = self.clock()
        try:
            saved = await self.tables.save(
                row,
                document=document.model_dump(),
                status=change.status,
                host_id=change.host_id,
                preset=change.preset,
                events=change.events,
                results=change.results,
                due_at=self.due_at(document, change.status or row.status),
                posts=[new_post(row.channel_id, n, change.mention) for n in change.notices],
            )
        except VersionConflict:
            raise Refused(Conflict()) from None
        self.due_moved(saved.due_at)
        if not saved.status.is_open:
            self.forget(saved.id)
        else:
            self._rows[saved.id] = saved
            if game is not None:
                self._games[saved.id] = (saved.version, game)
        posts = posts_of(saved, change.notices, change.mention)
        if change.results:
            # The standings show each player's rating after the game, stored with its results.
            posts = tuple([await self.posts.rated(post) for post in posts])
        return Saved(self.view_of(saved, document, game), dm_refs_of(document), posts)

    def due_moved(self, due: float | None) -> None:
        # Most saves leave the earliest deadline where it was: only an earlier one wakes the
        # scheduler (a later one it finds when it wakes and looks).
        if due is not None and due < self.watching:
            self.due_changed.set()

    def side_saved(self, row: TableRow, saved: TableRow, document: TableDocument) -> Outcome:
        """A save that left the game as it was (the table message's id, a DM's): the decoded
        game stays good for the new version, and the views say what changed. Stored at a
        table closed meanwhile (the presenter sends messages in the background), it leaves
        nothing of the table in memory."""
        if not saved.status.is_open:
            self.forget(saved.id)
            return Outcome(
                table=self.view_of(saved, document),
                dm_refs=dm_refs_of(document),
                same_game_as=row.version,
            )
        self._rows[saved.id] = saved
        cached = self._games.get(row.id)
        game = None
        if cached is not None and cached[0] == row.version:
            game = cached[1]
            self._games[row.id] = (saved.version, game)
        hands = self._hands.get(row.id)
        if hands is not None and hands[0] == row.version:
            # The hand messages' states do not hold what a side save changes.
            self._hands[row.id] = (saved.version, hands[1])
        view = self.view_of(saved, document, game)
        return Outcome(table=view, dm_refs=dm_refs_of(document), same_game_as=row.version)

    async def outcome_unchanged(self, row: TableRow) -> Outcome:
        """Nothing was done: the caller asks again (``automatic``)."""
        return Outcome(table=self.view_of(row, load_document(row)), automatic=True)

    def shown_game(self, row: TableRow, document: TableDocument) -> Game | None:
        """The row's game as its view shows it (an open table's from the cache)."""
        if not document.game:
            return None
        if row.status.is_open:
            return self.game_of(row, document, to_change=False)
        return decode_game(row, document)

    def view_of(
        self, row: TableRow, document: TableDocument, game: Game | None = None
    ) -> TableView:
        settings = settings_of(document)
        if game is None:
            game = self.shown_game(row, document)
        problem = None
        if row.status is TableStatus.LOBBY:
            problem = start_problem(settings, len(document.seats))
        return TableView(
            table_id=row.id,
            version=row.version,
            guild_id=row.guild_id,
            channel_id=row.channel_id,
            message_id=row.message_id,
            host_id=row.host_id,
            status=row.status,
            preset=row.preset,
            seats=tuple(
                SeatView(s.name, s.user_id, s.level, s.left, s.away, s.pending)
                for s in document.seats
            ),
            settings=settings,
            player_range=player_range(settings),
            game=None if game is None else public_game(game),
            dms_closed=tuple(document.dms_closed),
            start_problem=problem,
            turn_timer=document.turn_timer,
            deadline=running_deadline(document),
            paused=document.paused,
            rules_source=document.rules_source,
            closed_reason=document.closed_reason,
            place=document.place,
            committed=row.updated_at,
            expires=(
                document.last_activity + self.settings.lobby_timeout
                if row.status is TableStatus.LOBBY and self.settings.lobby_timeout > 0
                else None
            ),
        )

    def due_at(self, document: TableDocument, status: TableStatus) -> float | None:
        """When the scheduler must next look at this table."""
        due: list[float] = []
        if status is TableStatus.LOBBY and self.settings.lobby_timeout > 0:
            due.append(document.last_activity + self.settings.lobby_timeout)
        if status is TableStatus.PLAYING:
            if self.settings.abandon_after > 0:
                due.append(document.last_activity + self.settings.abandon_after)
            turn = document.turn
            if turn is not None and not document.paused:
                if not turn.nudged:
                    due.append(turn.nudge_at)
                if turn.deadline is not None:
                    due.append(turn.deadline)
        if not due:
            return None
        return max(min(due), document.grace_until)

    def sync_turn(self, document: TableDocument, game: Game) -> None:
        """Start a new turn timer when the game waits for other people than before."""
        waiting = [
            s
            for s in (waiting_for(game) if game.phase is not Phase.GAME_OVER else ())
            if not document.seats[s].is_computer
        ]
        timer = document.turn_timer
        if not waiting or (timer <= 0 and self.settings.turn_ping_after <= 0):
            document.turn = None
            return
        key = f"{game.hand_number}:{game.phase.value}:{game.played_mask()}"
        current = document.turn
        simultaneous = game.phase is Phase.BIDDING and game.rules.bidding not in ("hook", "open")
        if (
            current is not None
            and current.key == key
            and (
                current.waiting == waiting
                or (simultaneous and set(waiting) <= set(current.waiting))
            )
        ):
            current.waiting = waiting
            return
        now = self.clock()
        document.turn = TurnClock(
            key=key,
            waiting=waiting,
            deadline=now + timer if timer > 0 else None,
            # With a timer, halfway; without, after `ping_after`.
            nudge_at=now + (timer / 2 if timer > 0 else self.settings.turn_ping_after),
            paused_at=now if document.paused else None,
        )
