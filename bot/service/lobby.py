"""The lobby: opening a table, seats, rules, start, cancel, rematch and channel defaults."""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import ValidationError

from bot.engine import Game, Settings
from bot.service.answers import (
    Begins,
    Cancelled,
    ComputerAdded,
    Confirmed,
    Joined,
    Left,
    LeftClosed,
    LeftGame,
    Opened,
    RematchOpened,
    RuleSet,
)
from bot.service.document import (
    COMPUTER_LEVELS,
    DEFAULT_TURN_TIMER,
    Place,
    RulesSource,
    Seat,
    TableDocument,
)
from bot.service.errors import Refused
from bot.service.notices import Rematch, StartedWithout
from bot.service.posts import new_post, posts_of
from bot.service.refusals import (
    AlreadySeated,
    ChannelHasTable,
    HostOnly,
    JoinFirst,
    ManageChannels,
    NoLevel,
    NoRule,
    NotSeated,
    RematchNotOver,
    RematchPlayersOnly,
    RuleInvalid,
    RulesInvalid,
)
from bot.service.seat_views import hand_state
from bot.service.session import Change, Session
from bot.service.turns import (
    TIMER_FIELD,
    check_timer,
    decode_game,
    hand_to_computer,
    host_after,
    load_document,
    settings_of,
    settings_problem,
    start_problem,
)
from bot.service.views import ChannelDefaults, Outcome
from bot.storage import (
    ChannelBusy,
    Channels,
    NewPost,
    TableRow,
    TableStatus,
    UnreadableClosed,
    VersionConflict,
)
from bot.storage import Event as StoredEvent


class Lobby:
    """Opening a table, seats, rules, starting, cancelling, rematches, channel defaults."""

    def __init__(self, session: Session, channels: Channels) -> None:
        self.session = session
        self._channels = channels

    async def open_table(
        self,
        *,
        guild_id: int,
        channel_id: int,
        user_id: int,
        name: str,
        settings: dict[str, object],
        turn_timer: int | None = None,
        place: Place | None = None,
    ) -> Outcome:
        """Open a lobby. The channel's defaults (see `set_channel_defaults`) come first; the
        options given here override them. `place`: the server's and channel's names."""
        defaults = await self._channels.defaults(channel_id)
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
        check_timer(timer)
        try:
            parsed = Settings.model_validate(merged)
        except ValidationError as error:
            raise Refused(RulesInvalid(settings_problem(error))) from None
        if defaults is None:
            source = RulesSource(kind="preset", preset=parsed.preset)
        else:
            changed = bool(settings) or turn_timer is not None
            source = RulesSource(kind="channel", set_by=defaults.set_by, changed=changed)
        document = TableDocument(
            settings=parsed.overrides(),
            seats=[Seat(user_id=user_id, name=name)],
            seed=self.session.rng.randrange(2**62),
            turn_timer=timer,
            rules_source=source,
            place=place,
            last_activity=self.session.clock(),
        )
        row = await self._create_lobby(
            guild_id,
            channel_id,
            user_id,
            parsed.preset,
            document,
            StoredEvent("opened", {"settings": parsed.overrides()}, user_id),
        )
        return Outcome(table=self.session.view_of(row, document), reply=Opened())

    async def _create_lobby(
        self,
        guild_id: int,
        channel_id: int,
        host_id: int,
        preset: str,
        document: TableDocument,
        event: StoredEvent,
        posts: Sequence[NewPost] = (),
    ) -> TableRow:
        try:
            row = await self.session.tables.create(
                guild_id=guild_id,
                channel_id=channel_id,
                host_id=host_id,
                preset=preset,
                document=document.model_dump(),
                event=event,
                # The lobby's expiry is a deadline like any other.
                due_at=self.session.due_at(document, TableStatus.LOBBY),
                posts=posts,
            )
        except ChannelBusy as busy:
            raise Refused(ChannelHasTable(table_id=busy.table_id)) from None
        self.session.due_moved(row.due_at)
        return row

    async def set_message(self, table_id: int, message_id: int) -> Outcome | None:
        """Remember the table message (not an action: retried on a version conflict, which only
        another process writing the same table can cause). None: it could not be stored."""
        async with self.session.lock(table_id):
            for _ in range(5):
                row = await self.session.load(table_id, self.session.known_row(table_id))
                try:
                    saved = await self.session.tables.save(
                        row, document=row.document, message_id=message_id
                    )
                except VersionConflict:
                    continue
                return self.session.side_saved(row, saved, load_document(saved))
        return None

    async def join(self, table_id: int, user_id: int, name: str) -> Outcome:
        async with self.session.lock(table_id):
            row, document = await self.session.lobby_row(table_id)
            mine = document.seat_of(user_id)
            if mine is not None and document.seats[mine].pending:
                document.seats[mine].pending = False
                document.seats[mine].name = name
                return (
                    await self.session.save(
                        row, document, Change(events=[StoredEvent("confirmed", {}, user_id)])
                    )
                ).outcome(reply=Confirmed())
            if mine is not None:
                raise Refused(AlreadySeated())
            self.session.check_room(document)
            document.seats.append(Seat(user_id=user_id, name=name))
            return (
                await self.session.save(
                    row, document, Change(events=[StoredEvent("joined", {}, user_id)])
                )
            ).outcome(reply=Joined())

    async def add_computer(self, table_id: int, user_id: int, level: str) -> Outcome:
        async with self.session.lock(table_id):
            row, document = await self.session.lobby_row(table_id)
            if document.seat_of(user_id) is None:
                raise Refused(JoinFirst())
            if level not in COMPUTER_LEVELS:
                raise Refused(NoLevel(level=level))
            self.session.check_room(document)
            taken = {s.name for s in document.seats}
            name = f"Computer ({level})"
            number = 2
            while name in taken:
                name = f"Computer {number} ({level})"
                number += 1
            document.seats.append(Seat.model_validate({"name": name, "level": level}))
            return (
                await self.session.save(
                    row,
                    document,
                    Change(events=[StoredEvent("computer-added", {"level": level}, user_id)]),
                )
            ).outcome(reply=ComputerAdded(name=name))

    async def leave(self, table_id: int, user_id: int) -> Outcome:
        """Leave a lobby (the seat goes), or a game: a normal computer plays the seat on, with
        its cards and score, and the game counts for the person as left."""
        async with self.session.lock(table_id):
            row = await self.session.open_row(table_id)
            document = load_document(row)
            seat = document.seat_of(user_id)
            if seat is None or document.seats[seat].left:
                raise Refused(NotSeated())
            if row.status is TableStatus.PLAYING:
                hand_to_computer(document.seats[seat], "left")
                host = host_after(document, row.host_id, user_id)
                game = decode_game(row, document) if document.game is not None else None
                if game is not None:
                    self.session.sync_turn(document, game)
                change = Change(events=[StoredEvent("left", {"seat": seat}, user_id)], host_id=host)
                saved = await self.session.save(row, document, change)
                mine = None if game is None else hand_state(row.id, document, game, seat)
                return saved.outcome(LeftGame(), hands=None if mine is None else {user_id: mine})
            del document.seats[seat]
            if not document.people_playing():
                return (
                    await self.session.save(
                        row,
                        document,
                        Change(
                            events=[StoredEvent("left", {}, user_id)], status=TableStatus.CANCELLED
                        ),
                    )
                ).outcome(reply=LeftClosed())
            return (
                await self.session.save(
                    row,
                    document,
                    Change(
                        events=[StoredEvent("left", {}, user_id)],
                        host_id=host_after(document, row.host_id, user_id),
                    ),
                )
            ).outcome(reply=Left())

    async def set_rule(
        self, table_id: int, user_id: int, field: str, value: object, *, can_manage: bool = False
    ) -> Outcome:
        async with self.session.lock(table_id):
            row, document = await self.session.lobby_row(table_id)
            self.session.check_host(row, user_id, can_manage, "rules")
            if field not in Settings.model_fields:
                raise Refused(NoRule(field=field))
            merged = dict(document.settings)
            if value is None:
                merged.pop(field, None)
            else:
                merged[field] = value
            try:
                parsed = Settings.model_validate(merged)
            except ValidationError as error:
                raise Refused(
                    RuleInvalid(field=field, value=value, problem=settings_problem(error))
                ) from None
            document.settings = parsed.overrides()
            return (
                await self.session.save(
                    row,
                    document,
                    Change(
                        events=[StoredEvent("rule", {field: value}, user_id)], preset=parsed.preset
                    ),
                )
            ).outcome(reply=RuleSet(field=field))

    async def start_game(self, table_id: int, user_id: int, *, can_manage: bool = False) -> Outcome:
        async with self.session.lock(table_id):
            row, document = await self.session.lobby_row(table_id)
            self.session.check_host(row, user_id, can_manage, "start")
            unconfirmed = [s.name for s in document.seats if s.pending]
            document.seats = [s for s in document.seats if not s.pending]
            settings = settings_of(document)
            problem = start_problem(settings, len(document.seats))
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
            self.session.sync_turn(document, game)
            change = Change(
                events=[StoredEvent("started", {}, user_id)],
                status=TableStatus.PLAYING,
                notices=[StartedWithout(names=tuple(unconfirmed))] if unconfirmed else (),
            )
            saved = await self.session.save(row, document, change, game=game)
            hands = self.session.all_hands(row.id, document, game)
            return saved.outcome(Begins(), hands=hands, every_hand=hands, new_hand=True)

    async def cancel(self, table_id: int, user_id: int, *, can_manage: bool = False) -> Outcome:
        async with self.session.lock(table_id):
            row = await self.session.open_row(table_id)
            document = load_document(row)
            self.session.check_host(row, user_id, can_manage, "cancel")
            document.turn = None
            change = Change(
                events=[StoredEvent("cancelled", {}, user_id)], status=TableStatus.CANCELLED
            )
            saved = await self.session.save(row, document, change)
            return saved.outcome(Cancelled(), finished=True)

    async def cancel_unreadable(
        self, channel_id: int, user_id: int, *, can_manage: bool = False
    ) -> UnreadableClosed:
        """Cancel the channel's open table when its stored state could not be read (so it can
        be neither played nor shown): by its host or someone who may manage the channel,
        judged from the row's columns alone."""
        closed = await self.session.tables.close_unreadable(
            channel_id, user_id, can_manage=can_manage
        )
        if closed is None:
            raise Refused(HostOnly(doing="cancel"))
        self.session.forget(closed.table_id)
        return closed

    async def rematch(self, table_id: int, user_id: int) -> Outcome:
        """After a game: a new lobby in the same channel with the same rules and seats. The
        person who asked is seated; the others' seats wait for them to confirm."""
        row = await self.session.load(table_id)
        document = load_document(row)
        if row.status is not TableStatus.FINISHED:
            raise Refused(RematchNotOver())
        mine = document.seat_of(user_id)
        if mine is None or document.seats[mine].away == "kicked":
            raise Refused(RematchPlayersOnly())
        seats = []
        for index, seat in enumerate(document.seats):
            if seat.user_id is None:
                seats.append(Seat(name=seat.name, level=seat.level))
            elif seat.away != "kicked":
                seats.append(Seat(user_id=seat.user_id, name=seat.name, pending=index != mine))
        new = TableDocument(
            settings=document.settings,
            seats=seats,
            seed=self.session.rng.randrange(2**62),
            turn_timer=document.turn_timer,
            rules_source=RulesSource(kind="rematch", table=table_id),
            last_activity=self.session.clock(),
            rematch_of=table_id,
            place=document.place,
        )
        others = tuple(s.user_id for s in seats if s.pending and s.user_id is not None)
        notices = [Rematch(user_ids=others)] if others else []
        created = await self._create_lobby(
            row.guild_id,
            row.channel_id,
            user_id,
            row.preset,
            new,
            StoredEvent("rematch", {"of": table_id}, user_id),
            [new_post(row.channel_id, notice, others) for notice in notices],
        )
        return Outcome(
            table=self.session.view_of(row, document),
            reply=RematchOpened(),
            opened=self.session.view_of(created, new),
            posts=posts_of(created, notices, others),
        )

    async def channel_defaults(self, channel_id: int) -> ChannelDefaults | None:
        """What /ohhell start uses in this channel, if the channel has defaults."""
        defaults = await self._channels.defaults(channel_id)
        if defaults is None:
            return None
        stored = dict(defaults.settings)
        timer = int(str(stored.pop(TIMER_FIELD, DEFAULT_TURN_TIMER)))
        return ChannelDefaults(settings=Settings.model_validate(stored), turn_timer=timer)

    async def set_channel_defaults(
        self,
        *,
        guild_id: int,
        channel_id: int,
        user_id: int,
        settings: dict[str, object] | None,
        turn_timer: int | None = None,
        can_manage: bool,
    ) -> ChannelDefaults | None:
        """Store what /ohhell start uses in a channel (None: forget them). Manage Channels only.
        Returns what is stored now (None: nothing)."""
        if not can_manage:
            raise Refused(ManageChannels())
        if settings is None:
            await self._channels.set_defaults(
                guild_id=guild_id, channel_id=channel_id, settings=None, set_by=user_id
            )
            return None
        try:
            parsed = Settings.model_validate(settings)
        except ValidationError as error:
            raise Refused(RulesInvalid(settings_problem(error))) from None
        stored: dict[str, object] = dict(parsed.overrides())
        stored["preset"] = parsed.preset
        if turn_timer is not None:
            check_timer(turn_timer)
            stored[TIMER_FIELD] = turn_timer
        await self._channels.set_defaults(
            guild_id=guild_id, channel_id=channel_id, settings=stored, set_by=user_id
        )
        timer = int(str(stored.get(TIMER_FIELD, DEFAULT_TURN_TIMER)))
        return ChannelDefaults(settings=parsed, turn_timer=timer)
