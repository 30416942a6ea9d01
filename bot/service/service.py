"""The one place that turns "person U did X at table T" into load → engine → save → what to show.

Every change runs under the table's lock, against the state loaded from the database, and is
committed (with a version check) before its effects are returned. Refusals raise `Refused` with
a message the person can act on, and change nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

from pydantic import ValidationError

from bot.engine import (
    HIDDEN,
    Action,
    Bid,
    ChooseTrump,
    EngineError,
    Event,
    Game,
    GameOver,
    HandScored,
    Phase,
    Play,
    Settings,
    SettingsError,
)
from bot.engine.cards import SUITS
from bot.service.document import (
    COMPUTER_LEVELS,
    DEFAULT_TURN_TIMER,
    MAX_SEATS,
    TURN_TIMERS,
    AwayReason,
    DmRef,
    Seat,
    TableDocument,
    TurnClock,
)
from bot.service.rules_text import describe, player_range
from bot.service.views import (
    BidOption,
    CardOption,
    HandState,
    Notice,
    Outcome,
    PublicGame,
    Reason,
    SeatView,
    TableView,
)
from bot.storage import (
    ChannelBusy,
    CorruptRow,
    Database,
    Leaderboard,
    PlayerResult,
    TableRow,
    TableStatus,
    VersionConflict,
)
from bot.storage import (
    Event as StoredEvent,
)

Decider = Callable[[str, int, str, int], Action]
"""(game JSON, seat, level, seed) -> the computer's action. Runs outside the event loop."""


class Refused(Exception):
    """An action that is not allowed now, and nothing was changed: a code and its parameters
    (cogs/render words it for people)."""

    def __init__(self, code: str, **params: Any) -> None:
        super().__init__(code, params)
        self.reason = Reason(code, params)

    @property
    def code(self) -> str:
        return self.reason.code

    def __str__(self) -> str:
        return f"{self.reason.code} {self.reason.params}" if self.reason.params else self.code


class TableGone(Refused):
    """The table does not exist or is no longer open."""


def _load_document(row: TableRow) -> TableDocument:
    try:
        document = TableDocument.model_validate(row.document)
    except ValidationError as error:
        raise CorruptRow(
            f"table #{row.id} could not be read: {error.error_count()} errors"
        ) from error
    if not document.last_activity:
        # Saved before tables kept this: the last save is the best guess (not the epoch, which
        # would expire the table at once).
        document.last_activity = row.updated_at
    return document


def _settings(document: TableDocument) -> Settings:
    return Settings.model_validate(document.settings)


def _sort_key(trump: str | None, card: Any, card_id: int) -> tuple[int, int, int]:
    if card.suit is None:  # the joker: the highest trump
        return (0, 0, -card_id)
    is_trump = card.suit == trump
    return (0 if is_trump else 1, SUITS.index(card.suit), -card_id)


class TableService:
    """Tables in channels: lobby, play, results. Knows nothing of Discord."""

    def __init__(
        self,
        database: Database,
        *,
        decide: Decider,
        run_blocking: Callable[..., Awaitable[Any]] | None = None,
        rng: random.Random | None = None,
        clock: Callable[[], float] = time.time,
        lobby_timeout: float = 15 * 60,
        abandon_after: float = 24 * 3600,
        grace: float = 60.0,
        ping_after: float = 20.0,
    ) -> None:
        self.db = database
        self._decide = decide
        self._run_blocking = run_blocking or _run_in_thread
        self._rng = rng or random.Random()
        self._locks: dict[int, asyncio.Lock] = {}
        self._closing: set[int] = set()
        self._games: dict[int, tuple[int, Game]] = {}
        """By table: the decoded game of the version last loaded or saved here, so an action
        replays nothing. A cache: the row's version decides, and a table that closes drops it."""
        self.clock = clock
        self.lobby_timeout = lobby_timeout
        self.abandon_after = abandon_after
        self.grace = grace
        self.ping_after = ping_after
        """With the turn timer off: seconds before a waiting person is nudged (0: never)."""
        self.due_changed = asyncio.Event()
        """Set when a table's deadline may now come before `watching`: the scheduler looks
        again."""
        self.watching = float("inf")
        """The deadline the scheduler sleeps until (infinity: it is looking, wake it for any)."""

    @contextlib.asynccontextmanager
    async def _lock(self, table_id: int) -> AsyncIterator[None]:
        """One change at a time per table in this process; a closed table's lock goes once
        it is released."""
        lock = self._locks.setdefault(table_id, asyncio.Lock())
        try:
            async with lock:
                yield
        finally:
            closed = table_id in self._closing and self._locks.get(table_id) is lock
            if closed and not lock.locked():
                del self._locks[table_id]
                self._closing.discard(table_id)

    def _game(self, row: TableRow, document: TableDocument, *, to_change: bool) -> Game:
        """The row's game, from the cache when it holds this version. A game about to change is
        taken out of the cache (a reader meanwhile decodes its own copy) and put back by
        `_save` once the change is committed."""
        assert document.game is not None
        cached = self._games.get(row.id)
        if cached is not None and cached[0] == row.version:
            if to_change:
                del self._games[row.id]
            return cached[1]
        game = Game.from_json(document.game)
        if not to_change:
            self._games[row.id] = (row.version, game)
        return game

    def _forget(self, table_id: int) -> None:
        """A table closed: its cached game goes, and its lock once released."""
        self._games.pop(table_id, None)
        self._closing.add(table_id)

    def cached_tables(self) -> set[int]:
        """The tables this service holds anything in memory for (tests check it empties)."""
        return set(self._games) | set(self._locks) | self._closing

    # -- reading ------------------------------------------------------------------------------

    async def _open_row(self, table_id: int) -> TableRow:
        try:
            row = await self.db.load_table(table_id)
        except KeyError:
            raise TableGone("table_gone") from None
        if not row.status.is_open:
            raise TableGone("table_closed", status=row.status.value)
        return row

    async def table_in_channel(self, channel_id: int) -> TableRow | None:
        return await self.db.open_table_in_channel(channel_id)

    async def table_view(self, table_id: int) -> TableView:
        row = await self.db.load_table(table_id)
        return self._table_view(row, _load_document(row))

    async def hand_state(self, table_id: int, user_id: int) -> HandState:
        row = await self._open_row(table_id)
        document = _load_document(row)
        seat = document.seat_of(user_id)
        if seat is None:
            raise Refused("not_seated")
        if document.game is None:
            raise Refused("not_started")
        return self._hand_state(row.id, document, self._game(row, document, to_change=False), seat)

    async def settings(self, table_id: int) -> Settings:
        """The table's rule settings (the host's overrides on its preset)."""
        return _settings(_load_document(await self.db.load_table(table_id)))

    async def leaderboard(
        self, guild_id: int, *, preset: str | None = None, caller_id: int | None = None
    ) -> Leaderboard:
        return await self.db.leaderboard(guild_id, preset=preset, caller_id=caller_id)

    async def open_table_ids(self) -> list[int]:
        return await self.db.open_table_ids()

    def _table_view(
        self, row: TableRow, document: TableDocument, game: Game | None = None
    ) -> TableView:
        settings = _settings(document)
        if game is None and document.game and row.status.is_open:
            game = self._game(row, document, to_change=False)
        elif game is None and document.game:
            game = Game.from_json(document.game)
        problem = None
        if row.status is TableStatus.LOBBY:
            problem = _start_problem(settings, len(document.seats))
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
            rules_summary=describe(settings, max(len(document.seats), 3)),
            player_range=player_range(settings),
            game=None if game is None else _public_game(game),
            dms_closed=tuple(document.dms_closed),
            start_problem=problem,
            turn_timer=document.turn_timer,
            deadline=_running_deadline(document),
            paused=document.paused,
            rules_source=document.rules_source,
            closed_reason=document.closed_reason,
            expires=(
                document.last_activity + self.lobby_timeout
                if row.status is TableStatus.LOBBY and self.lobby_timeout > 0
                else None
            ),
        )

    def _hand_state(
        self, table_id: int, document: TableDocument, game: Game, seat: int
    ) -> HandState:
        view = game.view(seat)
        waiting = _waiting_for(game)
        away = document.seats[seat].away if document.seats[seat].left else None
        my_turn = seat in waiting and away is None
        may_change = view.phase is Phase.BIDDING and seat in view.to_act and not my_turn
        trump = view.trump if view.trump_decided else None
        pack = game.pack
        cards: list[CardOption] = []
        if not view.blind and view.phase is not Phase.GAME_OVER:
            legal = game.legal_mask(seat) if view.phase is Phase.PLAYING and my_turn else 0
            mask = game.hand_mask(seat)
            ids = [i for i in range(pack.size) if mask >> i & 1]
            ids.sort(key=lambda i: _sort_key(trump, pack.cards[i], i))
            cards = [CardOption(pack.cards[i], i, bool(legal >> i & 1)) for i in ids]
        blind_cards = tuple(
            (view.names[s], hand[0])
            for s, hand in enumerate(view.visible_hands)
            if hand is not None and hand
        )
        bid_options: tuple[BidOption, ...] = ()
        trump_options: tuple[str, ...] = ()
        bids_so_far = on_table = None
        if (my_turn or may_change) and view.phase is Phase.BIDDING:
            legal_bids = {a.n for a in view.legal_actions if isinstance(a, Bid)}
            bid_options = tuple(
                BidOption(n, n in legal_bids, None if n in legal_bids else _hook_reason(view, n))
                for n in range(view.cards_each + 1)
            )
            bids_so_far = tuple(
                (view.names[s], bid) for s in view.seats if (bid := view.bids[s]) is not None
            )
        elif my_turn and view.phase is Phase.TRUMP_CHOICE:
            trump_options = tuple(a.suit for a in view.legal_actions if isinstance(a, ChooseTrump))
        elif my_turn and view.phase is Phase.PLAYING:
            on_table = tuple((view.names[s], card) for s, card in view.trick)
        return HandState(
            table_id=table_id,
            seat=seat,
            hand_number=view.hand_number,
            phase=view.phase,
            cards=tuple(cards),
            blind_cards=blind_cards,
            trump=view.trump,
            turned=view.turned,
            trump_decided=view.trump_decided,
            my_turn=my_turn,
            bid=view.bids[seat],
            tricks_won=view.tricks_won[seat],
            bid_options=bid_options,
            trump_options=trump_options,
            bids_so_far=bids_so_far,
            on_table=on_table,
            auto_play=document.seats[seat].auto_play,
            game_over=view.phase is Phase.GAME_OVER,
            away=away,
            deadline=_running_deadline(document) if my_turn else None,
        )

    # -- the lobby ----------------------------------------------------------------------------

    async def open_table(
        self,
        *,
        guild_id: int,
        channel_id: int,
        user_id: int,
        name: str,
        settings: dict[str, object],
        turn_timer: int | None = None,
    ) -> Outcome:
        """Open a lobby. The channel's defaults (see `set_channel_defaults`) come first; the
        options given here override them."""
        defaults = await self.db.channel_defaults(channel_id)
        merged: dict[str, object] = {}
        timer = DEFAULT_TURN_TIMER
        if defaults is not None:
            merged.update(defaults.settings)
            timer = int(str(merged.pop(TIMER_FIELD, timer)))
            if "preset" in settings and settings.get("preset") != merged.get("preset"):
                # Another preset: the channel's option choices were made for its own preset.
                merged = {}
        merged.update(settings)
        if turn_timer is not None:
            timer = turn_timer
        _check_timer(timer)
        try:
            parsed = Settings.model_validate(merged)
        except ValidationError as error:
            raise Refused("rules_invalid", problem=_first_error(error)) from None
        if defaults is None:
            source = f"the {parsed.preset} preset"
        elif settings or turn_timer is not None:
            source = (
                f"this channel's defaults (set by <@{defaults.set_by}>), with the host's changes"
            )
        else:
            source = f"this channel's defaults (set by <@{defaults.set_by}>)"
        document = TableDocument(
            settings=parsed.overrides(),
            seats=[Seat(user_id=user_id, name=name)],
            seed=self._rng.randrange(2**62),
            turn_timer=timer,
            rules_source=source,
            last_activity=self.clock(),
        )
        row = await self._create_lobby(
            guild_id,
            channel_id,
            user_id,
            parsed.preset,
            document,
            StoredEvent("opened", {"settings": parsed.overrides()}, user_id),
        )
        return Outcome(table=self._table_view(row, document), reply=Reason("opened"))

    async def _create_lobby(
        self,
        guild_id: int,
        channel_id: int,
        host_id: int,
        preset: str,
        document: TableDocument,
        event: StoredEvent,
    ) -> TableRow:
        try:
            row = await self.db.create_table(
                guild_id=guild_id,
                channel_id=channel_id,
                host_id=host_id,
                preset=preset,
                document=document.model_dump(),
                event=event,
                # The lobby's expiry is a deadline like any other.
                due_at=self._due_at(document, TableStatus.LOBBY),
            )
        except ChannelBusy as busy:
            raise Refused("channel_busy", table_id=busy.table_id) from None
        self._due_moved(row.due_at)
        return row

    async def set_message(self, table_id: int, message_id: int) -> Outcome | None:
        """Remember the table message (not an action: retried on a version conflict, which only
        another process writing the same table can cause). None: it could not be stored."""
        async with self._lock(table_id):
            for _ in range(5):
                row = await self.db.load_table(table_id)
                try:
                    saved = await self.db.save_table(
                        row, document=row.document, message_id=message_id
                    )
                except VersionConflict:
                    continue
                return self._side_saved(row, saved, _load_document(saved))
        return None

    def _side_saved(self, row: TableRow, saved: TableRow, document: TableDocument) -> Outcome:
        """A save that left the game as it was (the table message's id, a DM's): the decoded
        game stays good for the new version, and the views say what changed."""
        cached = self._games.get(row.id)
        game = None
        if cached is not None and cached[0] == row.version:
            game = cached[1]
            self._games[row.id] = (saved.version, game)
        view = self._table_view(saved, document, game)
        refs = {int(user): ref for user, ref in document.dms.items()}
        return Outcome(table=view, dm_refs=refs, same_game=True)

    async def join(self, table_id: int, user_id: int, name: str) -> Outcome:
        async with self._lock(table_id):
            row, document = await self._lobby(table_id)
            mine = document.seat_of(user_id)
            if mine is not None and document.seats[mine].pending:
                document.seats[mine].pending = False
                document.seats[mine].name = name
                return await self._save(
                    row,
                    document,
                    [StoredEvent("confirmed", {}, user_id)],
                    reply=Reason("confirmed"),
                )
            if mine is not None:
                raise Refused("already_seated")
            self._check_room(document)
            document.seats.append(Seat(user_id=user_id, name=name))
            return await self._save(
                row, document, [StoredEvent("joined", {}, user_id)], reply=Reason("joined")
            )

    async def add_computer(self, table_id: int, user_id: int, level: str) -> Outcome:
        async with self._lock(table_id):
            row, document = await self._lobby(table_id)
            if document.seat_of(user_id) is None:
                raise Refused("join_first")
            if level not in COMPUTER_LEVELS:
                raise Refused("no_level", level=level)
            self._check_room(document)
            taken = {s.name for s in document.seats}
            name = f"Computer ({level})"
            number = 2
            while name in taken:
                name = f"Computer {number} ({level})"
                number += 1
            document.seats.append(Seat.model_validate({"name": name, "level": level}))
            return await self._save(
                row,
                document,
                [StoredEvent("computer-added", {"level": level}, user_id)],
                reply=Reason("computer_added", {"name": name}),
            )

    async def leave(self, table_id: int, user_id: int) -> Outcome:
        """Leave a lobby (the seat goes), or a game: a normal computer plays the seat on, with
        its cards and score, and the game counts for the person as left."""
        async with self._lock(table_id):
            row = await self._open_row(table_id)
            document = _load_document(row)
            seat = document.seat_of(user_id)
            if seat is None or document.seats[seat].left:
                raise Refused("not_seated")
            if row.status is TableStatus.PLAYING:
                _hand_to_computer(document.seats[seat], "left")
                host = _host_after(document, row.host_id, user_id)
                game = Game.from_json(document.game) if document.game is not None else None
                if game is not None:
                    self._sync_turn(document, game)
                outcome = await self._save(
                    row,
                    document,
                    [StoredEvent("left", {"seat": seat}, user_id)],
                    host_id=host,
                    reply=Reason("left_game"),
                )
                if game is not None:
                    outcome.hands = {user_id: self._hand_state(row.id, document, game, seat)}
                return outcome
            del document.seats[seat]
            if not document.humans():
                return await self._save(
                    row,
                    document,
                    [StoredEvent("left", {}, user_id)],
                    status=TableStatus.CANCELLED,
                    reply=Reason("left_closed"),
                )
            return await self._save(
                row,
                document,
                [StoredEvent("left", {}, user_id)],
                host_id=_host_after(document, row.host_id, user_id),
                reply=Reason("left"),
            )

    async def set_rule(
        self, table_id: int, user_id: int, field: str, value: object, *, can_manage: bool = False
    ) -> Outcome:
        async with self._lock(table_id):
            row, document = await self._lobby(table_id)
            self._check_host(row, user_id, can_manage, "rules")
            if field not in Settings.model_fields:
                raise Refused("no_rule", field=field)
            merged = dict(document.settings)
            if value is None:
                merged.pop(field, None)
            else:
                merged[field] = value
            try:
                parsed = Settings.model_validate(merged)
            except ValidationError as error:
                raise Refused(
                    "rule_invalid", field=field, value=value, problem=_first_error(error)
                ) from None
            document.settings = parsed.overrides()
            return await self._save(
                row,
                document,
                [StoredEvent("rule", {field: value}, user_id)],
                preset=parsed.preset,
                reply=Reason("rule_set", {"field": field}),
            )

    async def start_game(self, table_id: int, user_id: int, *, can_manage: bool = False) -> Outcome:
        async with self._lock(table_id):
            row, document = await self._lobby(table_id)
            self._check_host(row, user_id, can_manage, "start")
            unconfirmed = [s.name for s in document.seats if s.pending]
            document.seats = [s for s in document.seats if not s.pending]
            settings = _settings(document)
            problem = _start_problem(settings, len(document.seats))
            if problem:
                raise Refused(problem.code, **problem.params)
            seed = document.seed
            game = Game.new(
                settings,
                players=len(document.seats),
                seed=seed,
                first_dealer=seed % len(document.seats),
                names=[s.name for s in document.seats],
            )
            document.game = game.to_json()
            self._sync_turn(document, game)
            outcome = await self._save(
                row,
                document,
                [StoredEvent("started", {}, user_id)],
                status=TableStatus.PLAYING,
                reply=Reason("begins"),
                game=game,
            )
            if unconfirmed:
                outcome.announcements.append(Notice("started_without", {"names": unconfirmed}))
            outcome.new_hand = True
            outcome.hands = outcome.every_hand = self._all_hands(row.id, document, game)
            return outcome

    async def cancel(self, table_id: int, user_id: int, *, can_manage: bool = False) -> Outcome:
        async with self._lock(table_id):
            row = await self._open_row(table_id)
            document = _load_document(row)
            self._check_host(row, user_id, can_manage, "cancel")
            document.turn = None
            outcome = await self._save(
                row,
                document,
                [StoredEvent("cancelled", {}, user_id)],
                status=TableStatus.CANCELLED,
                reply=Reason("cancelled"),
            )
            outcome.finished = True
            return outcome

    # -- the game -----------------------------------------------------------------------------

    async def act(
        self,
        table_id: int,
        user_id: int,
        hand_number: int,
        action: Action | int,
        *,
        dm_channel: int | None = None,
    ) -> Outcome:
        """A person's bid, trump choice or card. ``hand_number`` comes from the button, so a
        click on an earlier hand's message is refused instead of acting on this one. A card
        may be given by its id in the game's pack (what a play button carries). A click from a
        DM gives its channel: it must be this person's own hand DM."""
        async with self._lock(table_id):
            row, document, game = await self._playing(table_id)
            _check_dm(document, user_id, dm_channel)
            if isinstance(action, int):
                if not 0 <= action < game.pack.size:
                    raise Refused("no_card")
                action = Play(game.pack.cards[action])
            seat = document.seat_of(user_id)
            if seat is None:
                raise Refused("not_seated")
            if document.seats[seat].left:
                raise Refused(
                    "computer_has_seat" if document.seats[seat].away != "kicked" else "removed"
                )
            if document.paused:
                raise Refused("paused")
            if hand_number != game.hand_number:
                raise Refused("earlier_hand")
            if isinstance(action, Play) and action.card == HIDDEN:
                # A blind hand: the player plays the card they cannot see.
                legal = game.legal_actions(seat)
                if len(legal) == 1:
                    action = legal[0]
            before = self._all_hands(row.id, document, game)
            try:
                events = game.apply(seat, action)
            except EngineError as error:
                raise Refused("illegal", explanation=str(error)) from None
            events += _play_forced_cards(document, game)
            document.seats[seat].missed = 0
            return await self._commit_game(
                row, document, game, events, user_id, before, action=(seat, action)
            )

    async def set_auto_play(
        self, table_id: int, user_id: int, on: bool, *, dm_channel: int | None = None
    ) -> Outcome:
        async with self._lock(table_id):
            row = await self._open_row(table_id)
            document = _load_document(row)
            _check_dm(document, user_id, dm_channel)
            seat = document.seat_of(user_id)
            if seat is None:
                raise Refused("not_seated")
            document.seats[seat].auto_play = on
            return await self._save(
                row,
                document,
                [StoredEvent("auto-play", {"on": on}, user_id)],
                reply=Reason("auto_play", {"on": on}),
            )

    async def record_dm(self, table_id: int, user_id: int, ref: DmRef | None) -> Outcome | None:
        """Remember (or forget, with None: DMs closed) a person's hand message."""
        async with self._lock(table_id):
            for _ in range(5):
                row = await self.db.load_table(table_id)
                document = _load_document(row)
                key = str(user_id)
                if ref is None:
                    document.dms.pop(key, None)
                    if user_id not in document.dms_closed:
                        document.dms_closed.append(user_id)
                else:
                    document.dms[key] = ref
                    if user_id in document.dms_closed:
                        document.dms_closed.remove(user_id)
                try:
                    saved = await self.db.save_table(row, document=document.model_dump())
                except VersionConflict:
                    continue
                return self._side_saved(row, saved, document)
        return None

    async def dm_ref(self, table_id: int, user_id: int) -> DmRef | None:
        return (await self.dm_refs(table_id)).get(user_id)

    async def dm_refs(self, table_id: int) -> dict[int, DmRef]:
        """Every person's hand message at this table, by user id."""
        row = await self.db.load_table(table_id)
        return {int(user): ref for user, ref in _load_document(row).dms.items()}

    async def step(self, table_id: int) -> Outcome | None:
        """Make the next automatic move, if any: a computer's decision, or a forced card for a
        person with auto-play on. Returns None when people must act (or the game is over)."""
        async with self._lock(table_id):
            try:
                row, document, game = await self._playing(table_id, to_change=False)
            except Refused:
                return None
            if document.paused or _waiting_for_someone_away(document):
                return None
            if (
                not _forced_card_waiting(document, game)
                and _computer_to_move(document, game) is None
            ):
                return None  # people must act: the usual answer, so kept cheap
            before = self._all_hands(row.id, document, game)
            if _forced_card_waiting(document, game):  # e.g. left over from before a restart
                game = self._game(row, document, to_change=True)
                forced = _play_forced_cards(document, game)
                return await self._commit_game(row, document, game, forced, None, before)
            seat = _computer_to_move(document, game)
            if seat is None:
                return None
            level = document.seats[seat].level or "easy"
        # Decide outside the lock and off the event loop; then apply only if nothing moved.
        action = await self._run_blocking(
            self._decide, document.game, seat, level, document.seed + row.version
        )
        async with self._lock(table_id):
            current = await self.db.load_table(table_id)
            if current.version != row.version:
                # Only a DM's id stored meanwhile does not waste the decision; anything else
                # (a seat taken back, a pause, another move) does, and the next step looks again.
                if current.status is not row.status or _without_dms(current) != _without_dms(row):
                    return await self._outcome_unchanged(current)
                row, document = current, _load_document(current)
            game = self._game(row, document, to_change=True)
            events = game.apply(seat, action)
            events += _play_forced_cards(document, game)
            return await self._commit_game(row, document, game, events, None, before)

    async def _outcome_unchanged(self, row: TableRow) -> Outcome:
        """Nothing was done: the caller asks again (``automatic``)."""
        return Outcome(table=self._table_view(row, _load_document(row)), automatic=True)

    # -- table life: deadlines, coming back, host controls, rematch -------------------------------

    def _sync_turn(self, document: TableDocument, game: Game) -> None:
        """Start a new turn timer when the game waits for other people than before."""
        waiting = [
            s
            for s in (_waiting_for(game) if game.phase is not Phase.GAME_OVER else ())
            if not document.seats[s].is_computer
        ]
        timer = document.turn_timer
        if not waiting or (timer <= 0 and self.ping_after <= 0):
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
            nudge_at=now + (timer / 2 if timer > 0 else self.ping_after),
            paused_at=now if document.paused else None,
        )

    def _due_at(self, document: TableDocument, status: TableStatus) -> float | None:
        """When the scheduler must next look at this table."""
        due: list[float] = []
        if status is TableStatus.LOBBY and self.lobby_timeout > 0:
            due.append(document.last_activity + self.lobby_timeout)
        if status is TableStatus.PLAYING:
            if self.abandon_after > 0:
                due.append(document.last_activity + self.abandon_after)
            turn = document.turn
            if turn is not None and not document.paused:
                if not turn.nudged:
                    due.append(turn.nudge_at)
                if turn.deadline is not None:
                    due.append(turn.deadline)
        if not due:
            return None
        return max(min(due), document.grace_until)

    async def next_due(self) -> tuple[int, float] | None:
        """The table whose deadline comes first, and when."""
        return await self.db.next_due()

    async def postpone(self, table_id: int, seconds: float) -> None:
        await self.db.postpone(table_id, self.clock() + seconds)

    async def allow_grace(self) -> int:
        """At start-up: deadlines that passed while the bot was down fall due again after the
        grace period, in their order, so nobody loses a turn to the bot's own downtime.
        Returns how many tables were given grace."""
        now = self.clock()
        overdue = await self.db.due_before(now + self.grace)
        position = {table_id: index for index, (table_id, _) in enumerate(overdue)}
        for table_id in await self.db.open_table_ids():
            async with self._lock(table_id):
                try:
                    row = await self._open_row(table_id)
                    document = _load_document(row)
                except (Refused, CorruptRow):
                    continue
                if table_id in position:
                    # A thousandth of a second apart: handled in the order they fell due.
                    document.grace_until = now + self.grace + position[table_id] / 1000
                elif row.due_at is not None:
                    continue
                else:
                    # Opened before deadlines were kept: start its timers now.
                    document.grace_until = now + self.grace
                    if row.status is TableStatus.PLAYING and document.game is not None:
                        self._sync_turn(document, Game.from_json(document.game))
                try:
                    await self.db.save_table(
                        row,
                        document=document.model_dump(),
                        due_at=self._due_at(document, row.status),
                    )
                except VersionConflict:
                    continue
        self.due_changed.set()
        return len(overdue)

    async def tick(self, table_id: int) -> Outcome | None:
        """Handle what is due at a table now: lobby expiry, abandonment, a halfway nudge, or a
        turn deadline (a normal computer decides for whoever ran out of time)."""
        async with self._lock(table_id):
            try:
                row = await self._open_row(table_id)
                document = _load_document(row)
            except TableGone:
                return None
            now = self.clock()
            if now < document.grace_until:
                await self._reschedule(row, document)
                return None
            if row.status is TableStatus.LOBBY:
                if self.lobby_timeout > 0 and now >= document.last_activity + self.lobby_timeout:
                    return await self._close(
                        row,
                        document,
                        "expired",
                        f"nobody started the game within {duration_text(self.lobby_timeout)}",
                    )
                await self._reschedule(row, document)
                return None
            if self.abandon_after > 0 and now >= document.last_activity + self.abandon_after:
                return await self._close(
                    row,
                    document,
                    "abandoned",
                    f"nobody played for {duration_text(self.abandon_after)}",
                )
            turn = document.turn
            if turn is None or document.paused or document.game is None:
                await self._reschedule(row, document)
                return None
            if turn.deadline is None or now < turn.deadline:
                if not turn.nudged and now >= turn.nudge_at:
                    turn.nudged = True
                    outcome = await self._save(row, document, [])
                    outcome.nudge = tuple(
                        uid for s in turn.waiting if (uid := document.seats[s].user_id) is not None
                    )
                    return outcome
                await self._reschedule(row, document)
                return None
            seat = turn.waiting[0]
            game_json = document.game
            version = row.version
        action = await self._run_blocking(
            self._decide, game_json, seat, "normal", document.seed + version
        )
        async with self._lock(table_id):
            row, document, game = await self._playing(table_id)
            if row.version != version:
                return None  # something moved meanwhile: the scheduler looks again
            before = self._all_hands(row.id, document, game)
            try:
                events = game.apply(seat, action)
            except EngineError:
                return None
            person = document.seats[seat]
            person.missed += 1
            secret = isinstance(action, Bid) and game.rules.bidding in ("secret", "knock")
            lines = [
                Notice(
                    "timed_out",
                    {"name": person.name, "action": None if secret else action},
                )
            ]
            if person.missed >= 2:
                _hand_to_computer(person, "timeout")
                lines.append(Notice("computer_plays_for", {"name": person.name}))
            events += _play_forced_cards(document, game)
            outcome = await self._commit_game(row, document, game, events, None, before)
            outcome.announcements[:0] = lines
            return outcome

    async def _reschedule(self, row: TableRow, document: TableDocument) -> None:
        """Nothing is due after all (e.g. a deadline moved): store the right next deadline."""
        due = self._due_at(document, row.status)
        if due != row.due_at:
            with contextlib.suppress(VersionConflict):
                await self.db.save_table(row, document=row.document, due_at=due)
        elif due is not None and due <= self.clock():
            # Due by the row, but nothing to do: look again a little later, not in a loop.
            await self.db.save_table(row, document=row.document, due_at=self.clock() + 1)
        self.due_changed.set()

    async def _close(
        self, row: TableRow, document: TableDocument, kind: str, reason: str
    ) -> Outcome:
        document.closed_reason = reason
        document.turn = None
        outcome = await self._save(
            row,
            document,
            [StoredEvent(kind, {"reason": reason}, None)],
            status=TableStatus.ABANDONED,
        )
        outcome.announcements.append(Notice("closed", {"reason": reason}))
        outcome.finished = True
        return outcome

    async def come_back(
        self, table_id: int, user_id: int, *, dm_channel: int | None = None
    ) -> Outcome:
        """ "I'm back": take one's seat back from the computer player."""
        async with self._lock(table_id):
            row, document, game = await self._playing(table_id)
            _check_dm(document, user_id, dm_channel)
            seat = document.seat_of(user_id)
            if seat is None:
                raise Refused("not_seated")
            person = document.seats[seat]
            if not person.left:
                raise Refused("already_playing")
            if person.away == "kicked":
                raise Refused("removed")
            person.left = False
            person.away = None
            person.level = None
            person.missed = 0
            before = self._all_hands(row.id, document, game)
            before.pop(user_id, None)
            self._sync_turn(document, game)
            outcome = await self._save(
                row,
                document,
                [StoredEvent("back", {"seat": seat}, user_id)],
                reply=Reason("back"),
            )
            after = self._all_hands(row.id, document, game)
            outcome.hands = {u: h for u, h in after.items() if before.get(u) != h}
            return outcome

    async def kick(
        self, table_id: int, user_id: int, target: int, *, can_manage: bool = False
    ) -> Outcome:
        """The host removes a person: in the lobby the seat goes; in a game a computer plays it
        to the end."""
        async with self._lock(table_id):
            row = await self._open_row(table_id)
            document = _load_document(row)
            self._check_host(row, user_id, can_manage, "remove")
            seat = document.seat_of(target)
            if seat is None:
                raise Refused("not_seated_other")
            if target == user_id:
                raise Refused("remove_self")
            name = document.seats[seat].name
            if row.status is TableStatus.LOBBY:
                del document.seats[seat]
            else:
                if document.seats[seat].away == "kicked":
                    raise Refused("already_removed", name=name)
                _hand_to_computer(document.seats[seat], "kicked")
                if document.game is not None:
                    self._sync_turn(document, Game.from_json(document.game))
            outcome = await self._save(
                row,
                document,
                [StoredEvent("kicked", {"user": target}, user_id)],
                host_id=_host_after(document, row.host_id, target, fallback=user_id),
                reply=Reason("removed_player", {"name": name}),
            )
            outcome.announcements.append(
                Notice("removed", {"name": name, "in_game": row.status is TableStatus.PLAYING})
            )
            return outcome

    async def hand_over(
        self, table_id: int, user_id: int, target: int, *, can_manage: bool = False
    ) -> Outcome:
        async with self._lock(table_id):
            row = await self._open_row(table_id)
            document = _load_document(row)
            self._check_host(row, user_id, can_manage, "host")
            seat = document.seat_of(target)
            if seat is None or document.seats[seat].left or document.seats[seat].pending:
                raise Refused("host_must_play")
            if target == row.host_id:
                raise Refused("already_host")
            outcome = await self._save(
                row,
                document,
                [StoredEvent("host", {"user": target}, user_id)],
                host_id=target,
                reply=Reason("new_host", {"name": document.seats[seat].name}),
            )
            outcome.announcements.append(Notice("new_host", {"user_id": target}))
            outcome.mention = (target,)
            return outcome

    async def set_paused(
        self, table_id: int, user_id: int, paused: bool, *, can_manage: bool = False
    ) -> Outcome:
        """Pause (nobody plays, timers stop) or resume a game."""
        async with self._lock(table_id):
            row, document, game = await self._playing(table_id)
            self._check_host(row, user_id, can_manage, "pause")
            if document.paused == paused:
                raise Refused("already_paused" if paused else "already_running")
            now = self.clock()
            turn = document.turn
            document.paused = paused
            if turn is not None and paused:
                turn.paused_at = now
            elif turn is not None and turn.paused_at is not None:
                moved = now - turn.paused_at
                if turn.deadline is not None:
                    turn.deadline += moved
                turn.nudge_at += moved
                turn.paused_at = None
            outcome = await self._save(
                row,
                document,
                [StoredEvent("paused" if paused else "resumed", {}, user_id)],
                reply=Reason("paused_now" if paused else "resumed_now"),
            )
            outcome.announcements.append(Notice("paused" if paused else "resumed"))
            if not paused:
                outcome.hands = self._all_hands(row.id, document, game)
            return outcome

    async def set_turn_timer(
        self, table_id: int, user_id: int, seconds: int, *, can_manage: bool = False
    ) -> Outcome:
        async with self._lock(table_id):
            row = await self._open_row(table_id)
            document = _load_document(row)
            self._check_host(row, user_id, can_manage, "timer")
            _check_timer(seconds)
            document.turn_timer = seconds
            document.turn = None
            if document.game is not None and row.status is TableStatus.PLAYING:
                self._sync_turn(document, Game.from_json(document.game))
            return await self._save(
                row,
                document,
                [StoredEvent("timer", {"seconds": seconds}, user_id)],
                reply=Reason("timer_set", {"seconds": seconds}),
            )

    async def rematch(self, table_id: int, user_id: int) -> Outcome:
        """After a game: a new lobby in the same channel with the same rules and seats. The
        person who asked is seated; the others' seats wait for them to confirm."""
        row = await self.db.load_table(table_id)
        document = _load_document(row)
        if row.status is not TableStatus.FINISHED:
            raise Refused("rematch_not_over")
        mine = document.seat_of(user_id)
        if mine is None or document.seats[mine].away == "kicked":
            raise Refused("rematch_players_only")
        seats = []
        for index, seat in enumerate(document.seats):
            if seat.user_id is None:
                seats.append(Seat(name=seat.name, level=seat.level))
            elif seat.away != "kicked":
                seats.append(Seat(user_id=seat.user_id, name=seat.name, pending=index != mine))
        new = TableDocument(
            settings=document.settings,
            seats=seats,
            seed=self._rng.randrange(2**62),
            turn_timer=document.turn_timer,
            rules_source=f"a rematch of table #{table_id}",
            last_activity=self.clock(),
            rematch_of=table_id,
        )
        created = await self._create_lobby(
            row.guild_id,
            row.channel_id,
            user_id,
            row.preset,
            new,
            StoredEvent("rematch", {"of": table_id}, user_id),
        )
        others = tuple(s.user_id for s in seats if s.pending and s.user_id is not None)
        view = self._table_view(created, new)
        outcome = Outcome(table=self._table_view(row, document), reply=Reason("rematch_opened"))
        outcome.opened = view
        if others:
            outcome.announcements.append(Notice("rematch", {"user_ids": others}))
            outcome.mention = others
        return outcome

    async def channel_defaults(self, channel_id: int) -> dict[str, object] | None:
        defaults = await self.db.channel_defaults(channel_id)
        return None if defaults is None else dict(defaults.settings)

    async def set_channel_defaults(
        self,
        *,
        guild_id: int,
        channel_id: int,
        user_id: int,
        settings: dict[str, object] | None,
        turn_timer: int | None = None,
        can_manage: bool,
    ) -> str:
        """Store what /ohhell start uses in a channel (None: forget them). Manage Channels only.
        Returns a summary of the stored defaults."""
        if not can_manage:
            raise Refused("manage_channels")
        if settings is None:
            await self.db.set_channel_defaults(
                guild_id=guild_id, channel_id=channel_id, settings=None, set_by=user_id
            )
            return "This channel's defaults are cleared: tables start from the preset chosen."
        try:
            parsed = Settings.model_validate(settings)
        except ValidationError as error:
            raise Refused("rules_invalid", problem=_first_error(error)) from None
        stored: dict[str, object] = dict(parsed.overrides())
        stored["preset"] = parsed.preset
        if turn_timer is not None:
            _check_timer(turn_timer)
            stored[TIMER_FIELD] = turn_timer
        await self.db.set_channel_defaults(
            guild_id=guild_id, channel_id=channel_id, settings=stored, set_by=user_id
        )
        timer = int(str(stored.get(TIMER_FIELD, DEFAULT_TURN_TIMER)))
        lines = describe(parsed, 4)
        return (
            "New tables in this channel start with:\n"
            + "\n".join(lines)
            + f"\nTurn timer: {timer_text(timer)}"
        )

    # -- helpers ------------------------------------------------------------------------------

    async def _lobby(self, table_id: int) -> tuple[TableRow, TableDocument]:
        row = await self._open_row(table_id)
        if row.status is not TableStatus.LOBBY:
            raise Refused("already_started")
        return row, _load_document(row)

    async def _playing(
        self, table_id: int, *, to_change: bool = True
    ) -> tuple[TableRow, TableDocument, Game]:
        row = await self._open_row(table_id)
        document = _load_document(row)
        if row.status is not TableStatus.PLAYING or document.game is None:
            raise Refused("not_started")
        return row, document, self._game(row, document, to_change=to_change)

    @staticmethod
    def _check_room(document: TableDocument) -> None:
        if len(document.seats) >= MAX_SEATS:
            raise Refused("table_full", seats=MAX_SEATS)
        low, high = player_range(_settings(document))
        # While the rules fit no player count (the host is still editing them), seats stay
        # open: Start says what to change.
        if low <= high and len(document.seats) >= high:
            raise Refused("too_many", high=high)

    @staticmethod
    def _check_host(row: TableRow, user_id: int, can_manage: bool, doing: str) -> None:
        if user_id != row.host_id and not can_manage:
            raise Refused("host_only", doing=doing)

    def _all_hands(
        self, table_id: int, document: TableDocument, game: Game
    ) -> dict[int, HandState]:
        return {
            seat.user_id: self._hand_state(table_id, document, game, index)
            for index, seat in document.people()
            if seat.user_id is not None and seat.away != "kicked"
        }

    async def _commit_game(
        self,
        row: TableRow,
        document: TableDocument,
        game: Game,
        events: list[Event],
        user_id: int | None,
        before: dict[int, HandState],
        *,
        action: tuple[int, Action] | None = None,
    ) -> Outcome:
        document.game = game.to_json()
        self._sync_turn(document, game)
        over = game.phase is Phase.GAME_OVER
        results = _results(document, game) if over else []
        stored = []
        if action is not None:
            seat, taken = action
            stored.append(StoredEvent("action", {"seat": seat, "action": repr(taken)}, user_id))
        stored += [StoredEvent(type(e).__name__, _event_payload(e), user_id) for e in events]
        outcome = await self._save(
            row,
            document,
            stored,
            status=TableStatus.FINISHED if over else None,
            results=results,
            game=game,
        )
        after = self._all_hands(row.id, document, game)
        outcome.every_hand = after
        outcome.automatic = (
            not over
            and not document.paused
            and not _waiting_for_someone_away(document)
            and (
                _computer_to_move(document, game) is not None
                or _forced_card_waiting(document, game)
            )
        )
        outcome.new_hand = any(type(e).__name__ == "HandDealt" for e in events)
        outcome.hands = {u: s for u, s in after.items() if before.get(u) != s}
        outcome.finished = over
        outcome.announcements = [notice for e in events for notice in _announce(game, e)]
        return outcome

    async def _save(
        self,
        row: TableRow,
        document: TableDocument,
        events: list[StoredEvent],
        *,
        status: TableStatus | None = None,
        host_id: int | None = None,
        preset: str | None = None,
        results: list[PlayerResult] | None = None,
        reply: Reason | None = None,
        game: Game | None = None,
    ) -> Outcome:
        """Commit a change with the version check; `game` is the changed game, kept decoded
        for the next action."""
        if any(event.user_id is not None for event in events):
            document.last_activity = self.clock()
        try:
            saved = await self.db.save_table(
                row,
                document=document.model_dump(),
                status=status,
                host_id=host_id,
                preset=preset,
                events=events,
                results=results or (),
                due_at=self._due_at(document, status or row.status),
            )
        except VersionConflict:
            raise Refused("conflict") from None
        self._due_moved(saved.due_at)
        if not saved.status.is_open:
            self._forget(saved.id)
        elif game is not None:
            self._games[saved.id] = (saved.version, game)
        return Outcome(
            table=self._table_view(saved, document, game),
            reply=reply,
            dm_refs={int(user): ref for user, ref in document.dms.items()},
        )

    def _due_moved(self, due: float | None) -> None:
        # Most saves leave the earliest deadline where it was: only an earlier one wakes the
        # scheduler (a later one it finds when it wakes and looks).
        if due is not None and due < self.watching:
            self.due_changed.set()


TIMER_FIELD = "turn_timer"
"""Channel defaults hold the turn timer beside the rule settings, under this name."""


def timer_text(seconds: int) -> str:
    if seconds <= 0:
        return "off"
    if seconds < 60:
        return f"{seconds} s"
    return f"{seconds // 60} min"


def duration_text(seconds: float) -> str:
    """15 minutes, 1 hour, 24 hours."""
    for size, unit in ((3600, "hour"), (60, "minute")):
        if seconds >= size:
            count = round(seconds / size, 1)
            return f"{count:g} {unit}{'' if count == 1 else 's'}"
    return f"{seconds:g} seconds"


def _check_timer(seconds: int) -> None:
    if seconds not in TURN_TIMERS:
        raise Refused("timer_choices", timers=TURN_TIMERS)


def _without_dms(row: TableRow) -> dict[str, Any]:
    """A row's document less where its hand DMs are (bookkeeping, not the game's state)."""
    return {k: v for k, v in row.document.items() if k not in ("dms", "dms_closed")}


def _check_dm(document: TableDocument, user_id: int, dm_channel: int | None) -> None:
    """A control clicked in a DM must be on the clicking person's own hand message: its answer
    edits that message with their hand, which nobody else may read."""
    if dm_channel is None:
        return
    ref = document.dms.get(str(user_id))
    if ref is None or ref.channel_id != dm_channel:
        raise Refused("not_for_you")


def _running_deadline(document: TableDocument) -> float | None:
    if document.turn is None or document.turn.deadline is None or document.paused:
        return None
    return max(document.turn.deadline, document.grace_until)


def _host_after(document: TableDocument, host: int, gone: int, fallback: int | None = None) -> int:
    """Who hosts once `gone` is no longer playing: the same host, or else the first person
    still playing their seat (not one whose rematch seat is unconfirmed)."""
    if host != gone:
        return host
    people = sorted(document.humans(), key=lambda entry: entry[1].pending)
    for _, seat in people:
        if seat.user_id is not None:
            return seat.user_id
    return host if fallback is None else fallback


def _hand_to_computer(seat: Seat, why: AwayReason) -> None:
    seat.left = True
    seat.away = why
    seat.level = "normal"
    seat.missed = 0


def _waiting_for_someone_away(document: TableDocument) -> bool:
    """No person plays their own seat and someone only stepped away (missed their turns):
    the game waits for them (or for abandonment) instead of computers playing it out."""
    return not document.humans() and any(s.away == "timeout" for s in document.seats)


async def _run_in_thread(function: Callable[..., Any], *args: Any) -> Any:
    return await asyncio.to_thread(function, *args)


def _first_error(error: ValidationError) -> str:
    first = error.errors()[0]
    where = ".".join(str(part) for part in first["loc"])
    return f"{where}: {first['msg']}" if where else str(first["msg"])


def _start_problem(settings: Settings, players: int) -> Reason | None:
    """Why the game could not start with these rules and players, if it could not."""
    try:
        settings.resolve(players)
    except SettingsError as error:
        low, high = player_range(settings)
        if low <= high and not low <= players <= high:
            return Reason("player_count", {"low": low, "high": high, "players": players})
        return Reason("rules_unplayable", {"explanation": str(error)})
    return None


def _public_game(game: Game) -> PublicGame:
    view = game.view(game.seats[0])
    secret = game.rules.bidding in ("secret", "knock") and view.phase is Phase.BIDDING
    bids = tuple(None if secret else b for b in game.bids)
    return PublicGame(
        hand_number=view.hand_number,
        cards_each=view.cards_each,
        dealer=view.dealer,
        seats_in_hand=view.seats,
        phase=view.phase,
        to_act=_waiting_for(game),
        turned=view.turned,
        trump=view.trump,
        trump_decided=view.trump_decided,
        bids=bids,
        has_bid=view.has_bid,
        bid_round=view.bid_round,
        trick=view.trick,
        tricks=view.tricks,
        tricks_won=view.tricks_won,
        totals=view.totals,
        placing=view.placing,
        blind=game.is_blind,
        lowest_wins=game.rules.scoring == "negative",
    )


def _waiting_for(game: Game) -> tuple[int, ...]:
    """The seats the game waits for: all who have not bid in simultaneous bidding, else one
    (a player who may still change their bid is not waited for)."""
    to_act = game.to_act
    if game.phase is Phase.BIDDING and game.rules.bidding in ("hook", "open"):
        return to_act[:1]
    return to_act


def _hook_reason(view: Any, n: int) -> Reason | None:
    others = [b for s, b in enumerate(view.bids) if s != view.seat and b is not None]
    if len(others) == len(view.seats) - 1 and sum(others) + n == view.cards_each:
        return Reason("hook", {"total": view.cards_each})
    return None


def _computer_to_move(document: TableDocument, game: Game) -> int | None:
    if game.phase is Phase.GAME_OVER:
        return None
    for seat in _waiting_for(game):
        if document.seats[seat].is_computer:
            return seat
    return None


def _forced_card_waiting(document: TableDocument, game: Game) -> bool:
    if game.phase is not Phase.PLAYING:
        return False
    seat = game.to_act[0]
    person = document.seats[seat]
    return not person.is_computer and person.auto_play and len(game.legal_actions(seat)) == 1


def _play_forced_cards(document: TableDocument, game: Game) -> list[Event]:
    """004's "Auto Play One": a person with auto-play on whose only legal move is one card plays
    it at once, in the same commit as the move that made it forced (so no one is ever shown a
    turn that is already decided)."""
    events: list[Event] = []
    while game.phase is Phase.PLAYING:
        seat = game.to_act[0]
        if document.seats[seat].is_computer or not document.seats[seat].auto_play:
            break
        legal = game.legal_actions(seat)
        if len(legal) != 1:
            break
        events += game.apply(seat, legal[0])
    return events


def _event_payload(event: Event) -> dict[str, Any]:
    payload: dict[str, Any] = {}
    for name in getattr(event, "__slots__", ()):
        value = getattr(event, name)
        payload[name] = value if isinstance(value, (int, str, bool, type(None))) else str(value)
    return payload


def _announce(game: Game, event: Event) -> list[Notice]:
    names = game.names
    if isinstance(event, HandScored):
        rows = tuple(
            (names[s], event.bids[s], event.tricks[s], event.points[s], event.totals[s])
            for s in range(len(names))
            if event.bids[s] is not None
        )
        log = next((h for h in reversed(game.history()) if h.number == event.hand), None)
        tricks = () if log is None else tuple(_trick_plays(game, log.seats, t) for t in log.tricks)
        return [
            Notice(
                "hand_scored",
                {"hand": event.hand, "tiebreak": event.tiebreak, "rows": rows, "tricks": tricks},
            )
        ]
    if isinstance(event, GameOver):
        order = sorted(range(len(names)), key=lambda s: (event.placing[s], s))
        standings = tuple((event.placing[s], names[s], event.totals[s]) for s in order)
        return [Notice("game_over", {"standings": standings})]
    return []


def _trick_plays(
    game: Game, seats: tuple[int, ...], trick: Any
) -> tuple[tuple[tuple[str, Any], ...], str | None]:
    """A finished trick as ((name, card) in play order, the winner's name or None)."""
    start = seats.index(trick.leader)
    order = seats[start:] + seats[:start]
    plays = tuple(
        (game.names[seat], game.pack.cards[card])
        for seat, card in zip(order, trick.cards, strict=False)
    )
    return plays, (game.names[trick.winner] if trick.winner >= 0 else None)


def _results(document: TableDocument, game: Game) -> list[PlayerResult]:
    placing = game.placing or tuple(1 for _ in document.seats)
    made = [0] * len(document.seats)
    played = [0] * len(document.seats)
    for log in game.history():
        if not log.complete:
            continue
        for seat in log.seats:
            played[seat] += 1
            if log.won[seat] == log.bids[seat]:
                made[seat] += 1
    return [
        PlayerResult(
            user_id=seat.user_id,
            place=placing[index],
            points=game.totals[index],
            bids_made=made[index],
            hands_played=played[index],
            left_early=seat.left,
        )
        for index, seat in enumerate(document.seats)
        if seat.user_id is not None
    ]
