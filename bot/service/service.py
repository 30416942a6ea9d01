"""The one place that turns "person U did X at table T" into load → engine → save → what to show.

Every change runs under the table's lock, against the state loaded from the database, and is
committed (with a version check) before its effects are returned. Refusals raise `Refused` with
a message the person can act on, and change nothing.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable
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
from bot.service.document import COMPUTER_LEVELS, MAX_SEATS, DmRef, Seat, TableDocument
from bot.service.rules_text import describe, player_range
from bot.service.views import (
    BidOption,
    CardOption,
    HandState,
    Outcome,
    PublicGame,
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
    """An action that is not allowed now; the message says why (and what to do instead)."""


class TableGone(Refused):
    """The table does not exist or is no longer open."""


def _load_document(row: TableRow) -> TableDocument:
    try:
        return TableDocument.model_validate(row.document)
    except ValidationError as error:
        raise CorruptRow(
            f"table #{row.id} could not be read: {error.error_count()} errors"
        ) from error


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
    ) -> None:
        self.db = database
        self._decide = decide
        self._run_blocking = run_blocking or _run_in_thread
        self._rng = rng or random.Random()
        self._locks: dict[int, asyncio.Lock] = {}

    def _lock(self, table_id: int) -> asyncio.Lock:
        return self._locks.setdefault(table_id, asyncio.Lock())

    # -- reading ------------------------------------------------------------------------------

    async def _open_row(self, table_id: int) -> TableRow:
        try:
            row = await self.db.load_table(table_id)
        except KeyError:
            raise TableGone("that table no longer exists") from None
        if not row.status.is_open:
            raise TableGone(f"that table is {row.status.value}")
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
            raise Refused("you are not seated at this table")
        if document.game is None:
            raise Refused("the game has not started yet")
        return self._hand_state(row.id, document, Game.from_json(document.game), seat)

    async def settings(self, table_id: int) -> Settings:
        """The table's rule settings (the host's overrides on its preset)."""
        return _settings(_load_document(await self.db.load_table(table_id)))

    async def leaderboard(
        self, guild_id: int, *, preset: str | None = None, caller_id: int | None = None
    ) -> Leaderboard:
        return await self.db.leaderboard(guild_id, preset=preset, caller_id=caller_id)

    async def open_table_ids(self) -> list[int]:
        return await self.db.open_table_ids()

    def _table_view(self, row: TableRow, document: TableDocument) -> TableView:
        settings = _settings(document)
        game = Game.from_json(document.game) if document.game else None
        problem = None
        if row.status is TableStatus.LOBBY:
            problem = _start_problem(settings, len(document.seats))
        return TableView(
            table_id=row.id,
            guild_id=row.guild_id,
            channel_id=row.channel_id,
            message_id=row.message_id,
            host_id=row.host_id,
            status=row.status,
            preset=row.preset,
            seats=tuple(SeatView(s.name, s.user_id, s.level, s.left) for s in document.seats),
            rules_summary=describe(settings, max(len(document.seats), 3)),
            player_range=player_range(settings),
            game=None if game is None else _public_game(game),
            dms_closed=tuple(document.dms_closed),
            start_problem=problem,
        )

    def _hand_state(
        self, table_id: int, document: TableDocument, game: Game, seat: int
    ) -> HandState:
        view = game.view(seat)
        waiting = _waiting_for(game)
        my_turn = seat in waiting
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
        context = None
        if (my_turn or may_change) and view.phase is Phase.BIDDING:
            legal_bids = {a.n for a in view.legal_actions if isinstance(a, Bid)}
            bid_options = tuple(
                BidOption(n, n in legal_bids, None if n in legal_bids else _hook_reason(view, n))
                for n in range(view.cards_each + 1)
            )
            context = _bids_context(view)
        elif my_turn and view.phase is Phase.TRUMP_CHOICE:
            trump_options = tuple(a.suit for a in view.legal_actions if isinstance(a, ChooseTrump))
        elif my_turn and view.phase is Phase.PLAYING:
            context = _trick_context(view)
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
            may_change_bid=may_change,
            bid=view.bids[seat],
            tricks_won=view.tricks_won[seat],
            bid_options=bid_options,
            trump_options=trump_options,
            context=context,
            auto_play=document.seats[seat].auto_play,
            game_over=view.phase is Phase.GAME_OVER,
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
    ) -> Outcome:
        try:
            parsed = Settings.model_validate(settings)
        except ValidationError as error:
            raise Refused(f"those rules are not valid: {_first_error(error)}") from None
        document = TableDocument(
            settings=parsed.overrides(),
            seats=[Seat(user_id=user_id, name=name)],
            seed=self._rng.randrange(2**62),
        )
        try:
            row = await self.db.create_table(
                guild_id=guild_id,
                channel_id=channel_id,
                host_id=user_id,
                preset=parsed.preset,
                document=document.model_dump(),
                event=StoredEvent("opened", {"settings": parsed.overrides()}, user_id),
            )
        except ChannelBusy as busy:
            raise Refused(f"this channel already has an open table (#{busy.table_id})") from None
        return Outcome(table=self._table_view(row, document), reply="Table opened.")

    async def set_message(self, table_id: int, message_id: int) -> None:
        """Remember the table message (not an action: retried on a version conflict, which only
        another process writing the same table can cause)."""
        async with self._lock(table_id):
            for _ in range(5):
                row = await self.db.load_table(table_id)
                try:
                    await self.db.save_table(row, document=row.document, message_id=message_id)
                    return
                except VersionConflict:
                    continue

    async def join(self, table_id: int, user_id: int, name: str) -> Outcome:
        async with self._lock(table_id):
            row, document = await self._lobby(table_id)
            if document.seat_of(user_id) is not None:
                raise Refused("you are already seated at this table")
            self._check_room(document)
            document.seats.append(Seat(user_id=user_id, name=name))
            return await self._save(
                row, document, [StoredEvent("joined", {}, user_id)], reply="You joined the table."
            )

    async def add_computer(self, table_id: int, user_id: int, level: str) -> Outcome:
        async with self._lock(table_id):
            row, document = await self._lobby(table_id)
            if document.seat_of(user_id) is None:
                raise Refused("only seated players can add a computer player: join first")
            if level not in COMPUTER_LEVELS:
                raise Refused(f"there is no computer level {level!r}")
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
                reply=f"{name} takes a seat.",
            )

    async def leave(self, table_id: int, user_id: int) -> Outcome:
        """Leave a lobby (the seat goes), or a game: a normal computer plays the seat on, with
        its cards and score, and the game counts for the person as left."""
        async with self._lock(table_id):
            row = await self._open_row(table_id)
            document = _load_document(row)
            seat = document.seat_of(user_id)
            if seat is None or document.seats[seat].left:
                raise Refused("you are not seated at this table")
            if row.status is TableStatus.PLAYING:
                document.seats[seat].left = True
                document.seats[seat].level = "normal"
                humans = document.humans()
                host = row.host_id
                if host == user_id and humans:
                    host = humans[0][1].user_id or host
                return await self._save(
                    row,
                    document,
                    [StoredEvent("left", {"seat": seat}, user_id)],
                    host_id=host,
                    reply="You left the game; a computer player takes your seat.",
                )
            del document.seats[seat]
            humans = document.humans()
            if not humans:
                return await self._save(
                    row,
                    document,
                    [StoredEvent("left", {}, user_id)],
                    status=TableStatus.CANCELLED,
                    reply="You left; the table is closed.",
                )
            host = row.host_id
            if host == user_id:
                host = humans[0][1].user_id or host
            return await self._save(
                row,
                document,
                [StoredEvent("left", {}, user_id)],
                host_id=host,
                reply="You left the table.",
            )

    async def set_rule(
        self, table_id: int, user_id: int, field: str, value: object, *, can_manage: bool = False
    ) -> Outcome:
        async with self._lock(table_id):
            row, document = await self._lobby(table_id)
            self._check_host(row, user_id, can_manage, "change the rules")
            if field not in Settings.model_fields:
                raise Refused(f"there is no rule called {field!r}")
            merged = dict(document.settings)
            if value is None:
                merged.pop(field, None)
            else:
                merged[field] = value
            try:
                parsed = Settings.model_validate(merged)
            except ValidationError as error:
                raise Refused(f"{field} can't be {value!r}: {_first_error(error)}") from None
            document.settings = parsed.overrides()
            return await self._save(
                row,
                document,
                [StoredEvent("rule", {field: value}, user_id)],
                preset=parsed.preset,
                reply=f"{field} set.",
            )

    async def start_game(self, table_id: int, user_id: int, *, can_manage: bool = False) -> Outcome:
        async with self._lock(table_id):
            row, document = await self._lobby(table_id)
            self._check_host(row, user_id, can_manage, "start the game")
            settings = _settings(document)
            problem = _start_problem(settings, len(document.seats))
            if problem:
                raise Refused(problem)
            seed = document.seed
            game = Game.new(
                settings,
                players=len(document.seats),
                seed=seed,
                first_dealer=seed % len(document.seats),
                names=[s.name for s in document.seats],
            )
            document.game = game.to_json()
            outcome = await self._save(
                row,
                document,
                [StoredEvent("started", {}, user_id)],
                status=TableStatus.PLAYING,
                reply="The game begins.",
            )
            outcome.new_hand = True
            outcome.hands = self._all_hands(row.id, document, game)
            return outcome

    async def cancel(self, table_id: int, user_id: int, *, can_manage: bool = False) -> Outcome:
        async with self._lock(table_id):
            row = await self._open_row(table_id)
            document = _load_document(row)
            self._check_host(row, user_id, can_manage, "cancel the table")
            return await self._save(
                row,
                document,
                [StoredEvent("cancelled", {}, user_id)],
                status=TableStatus.CANCELLED,
                reply="The table is cancelled.",
            )

    # -- the game -----------------------------------------------------------------------------

    async def act(self, table_id: int, user_id: int, hand_number: int, action: Action) -> Outcome:
        """A person's bid, trump choice or card. ``hand_number`` comes from the button, so a
        click on an earlier hand's message is refused instead of acting on this one."""
        async with self._lock(table_id):
            row, document, game = await self._playing(table_id)
            seat = document.seat_of(user_id)
            if seat is None:
                raise Refused("you are not seated at this table")
            if document.seats[seat].left:
                raise Refused("you left this game: a computer player has your seat")
            if hand_number != game.hand_number:
                raise Refused("that button is from an earlier hand: use your newest hand message")
            if isinstance(action, Play) and action.card == HIDDEN:
                # A blind hand: the player plays the card they cannot see.
                legal = game.legal_actions(seat)
                if len(legal) == 1:
                    action = legal[0]
            before = self._all_hands(row.id, document, game)
            try:
                events = game.apply(seat, action)
            except EngineError as error:
                raise Refused(str(error)) from None
            events += _play_forced_cards(document, game)
            return await self._commit_game(
                row, document, game, events, user_id, before, action=(seat, action)
            )

    async def set_auto_play(self, table_id: int, user_id: int, on: bool) -> Outcome:
        async with self._lock(table_id):
            row = await self._open_row(table_id)
            document = _load_document(row)
            seat = document.seat_of(user_id)
            if seat is None:
                raise Refused("you are not seated at this table")
            document.seats[seat].auto_play = on
            return await self._save(
                row,
                document,
                [StoredEvent("auto-play", {"on": on}, user_id)],
                reply=f"Auto-play of a forced card is {'on' if on else 'off'}.",
            )

    async def record_dm(self, table_id: int, user_id: int, ref: DmRef | None) -> None:
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
                    await self.db.save_table(row, document=document.model_dump())
                    return
                except VersionConflict:
                    continue

    async def dm_ref(self, table_id: int, user_id: int) -> DmRef | None:
        row = await self.db.load_table(table_id)
        return _load_document(row).dms.get(str(user_id))

    async def step(self, table_id: int) -> Outcome | None:
        """Make the next automatic move, if any: a computer's decision, or a forced card for a
        person with auto-play on. Returns None when people must act (or the game is over)."""
        async with self._lock(table_id):
            try:
                row, document, game = await self._playing(table_id)
            except Refused:
                return None
            before = self._all_hands(row.id, document, game)
            forced = _play_forced_cards(document, game)
            if forced:  # e.g. left over from before a restart
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
                return await self._outcome_unchanged(current)
            events = game.apply(seat, action)
            events += _play_forced_cards(document, game)
            return await self._commit_game(row, document, game, events, None, before)

    async def _outcome_unchanged(self, row: TableRow) -> Outcome:
        return Outcome(table=self._table_view(row, _load_document(row)))

    # -- helpers ------------------------------------------------------------------------------

    async def _lobby(self, table_id: int) -> tuple[TableRow, TableDocument]:
        row = await self._open_row(table_id)
        if row.status is not TableStatus.LOBBY:
            raise Refused("the game has already started")
        return row, _load_document(row)

    async def _playing(self, table_id: int) -> tuple[TableRow, TableDocument, Game]:
        row = await self._open_row(table_id)
        document = _load_document(row)
        if row.status is not TableStatus.PLAYING or document.game is None:
            raise Refused("the game has not started yet")
        return row, document, Game.from_json(document.game)

    @staticmethod
    def _check_room(document: TableDocument) -> None:
        if len(document.seats) >= MAX_SEATS:
            raise Refused(f"the table is full ({MAX_SEATS} seats)")
        low, high = player_range(_settings(document))
        # While the rules fit no player count (the host is still editing them), seats stay
        # open: Start says what to change.
        if low <= high and len(document.seats) >= high:
            raise Refused(f"these rules take at most {high} players")

    @staticmethod
    def _check_host(row: TableRow, user_id: int, can_manage: bool, doing: str) -> None:
        if user_id != row.host_id and not can_manage:
            raise Refused(f"only the host (or someone with Manage Channels) can {doing}")

    def _all_hands(
        self, table_id: int, document: TableDocument, game: Game
    ) -> dict[int, HandState]:
        return {
            seat.user_id: self._hand_state(table_id, document, game, index)
            for index, seat in document.humans()
            if seat.user_id is not None
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
        )
        outcome.events = events
        after = self._all_hands(row.id, document, game)
        outcome.new_hand = any(type(e).__name__ == "HandDealt" for e in events)
        outcome.hands = {u: s for u, s in after.items() if before.get(u) != s}
        outcome.finished = over
        outcome.announcements = [line for e in events for line in _announce(game, e)]
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
        reply: str | None = None,
    ) -> Outcome:
        try:
            saved = await self.db.save_table(
                row,
                document=document.model_dump(),
                status=status,
                host_id=host_id,
                preset=preset,
                events=events,
                results=results or (),
            )
        except VersionConflict:
            raise Refused("the table changed at the same moment: look again and retry") from None
        return Outcome(table=self._table_view(saved, document), reply=reply)


async def _run_in_thread(function: Callable[..., Any], *args: Any) -> Any:
    return await asyncio.to_thread(function, *args)


def _first_error(error: ValidationError) -> str:
    first = error.errors()[0]
    where = ".".join(str(part) for part in first["loc"])
    return f"{where}: {first['msg']}" if where else str(first["msg"])


def _start_problem(settings: Settings, players: int) -> str | None:
    try:
        settings.resolve(players)
    except SettingsError as error:
        low, high = player_range(settings)
        if low <= high and not low <= players <= high:
            return f"these rules need {low} to {high} players; {players} seated"
        return str(error)
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


def _hook_reason(view: Any, n: int) -> str | None:
    others = [b for s, b in enumerate(view.bids) if s != view.seat and b is not None]
    if len(others) == len(view.seats) - 1 and sum(others) + n == view.cards_each:
        return f"the hook: the bids would add up to {view.cards_each}"
    return None


def _bids_context(view: Any) -> str:
    parts = [f"{view.names[s]} {view.bids[s]}" for s in view.seats if view.bids[s] is not None]
    return "Bids so far: " + (", ".join(parts) if parts else "none")


def _trick_context(view: Any) -> str:
    if not view.trick:
        return "You lead."
    played = ", ".join(f"{view.names[s]} {card}" for s, card in view.trick)
    return f"On the table: {played}"


def _computer_to_move(document: TableDocument, game: Game) -> int | None:
    if game.phase is Phase.GAME_OVER:
        return None
    for seat in _waiting_for(game):
        if document.seats[seat].is_computer:
            return seat
    return None


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


def _announce(game: Game, event: Event) -> list[str]:
    names = game.names
    if isinstance(event, HandScored):
        rows = [
            f"{names[s]}: bid {event.bids[s]}, took {event.tricks[s]}, "
            f"{event.points[s]:+d} → {event.totals[s]}"
            for s in range(len(names))
            if event.bids[s] is not None
        ]
        title = "Tie-break deal" if event.tiebreak else f"Hand {event.hand}"
        return [f"**{title} scored**\n" + "\n".join(rows)]
    if isinstance(event, GameOver):
        order = sorted(range(len(names)), key=lambda s: (event.placing[s], s))
        lines = [f"{event.placing[s]}. {names[s]} — {event.totals[s]}" for s in order]
        winners = [names[s] for s in order if event.placing[s] == 1]
        head = " and ".join(winners) + (" win!" if len(winners) > 1 else " wins!")
        return [f"**Game over — {head}**\n" + "\n".join(lines)]
    return []


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
