"""Host controls, and coming back to a seat a computer played."""

from __future__ import annotations

from bot.service.answers import Back, NewHost, PausedNow, RemovedPlayer, ResumedNow, TimerSet
from bot.service.errors import Refused
from bot.service.notices import HostChange, Pause, Removal, Resumption
from bot.service.refusals import (
    AlreadyHost,
    AlreadyPaused,
    AlreadyPlaying,
    AlreadyRemoved,
    AlreadyRunning,
    HostMustPlay,
    NotSeated,
    NotSeatedOther,
    RemovedByHost,
    RemoveSelf,
)
from bot.service.session import Change, Session
from bot.service.turns import (
    check_dm,
    check_timer,
    decode_game,
    hand_to_computer,
    host_after,
    load_document,
)
from bot.service.views import Outcome
from bot.storage import Event as StoredEvent
from bot.storage import TableStatus


class HostControls:
    """Coming back, removing a player, handing over the host role, pause, the turn timer."""

    def __init__(self, session: Session) -> None:
        self.session = session

    async def come_back(
        self, table_id: int, user_id: int, *, dm_channel: int | None = None
    ) -> Outcome:
        """ "I'm back": take one's seat back from the computer player."""
        async with self.session.lock(table_id):
            row, document, game = await self.session.playing_row(table_id)
            check_dm(document, user_id, dm_channel)
            seat = document.seat_of(user_id)
            if seat is None:
                raise Refused(NotSeated())
            person = document.seats[seat]
            if not person.left:
                raise Refused(AlreadyPlaying())
            if person.away == "kicked":
                raise Refused(RemovedByHost())
            person.left = False
            person.away = None
            person.level = None
            person.missed = 0
            before = self.session.all_hands(row.id, document, game)
            before.pop(user_id, None)
            self.session.sync_turn(document, game)
            after = self.session.all_hands(row.id, document, game)
            change = Change(events=[StoredEvent("back", {"seat": seat}, user_id)])
            return (await self.session.save(row, document, change)).outcome(
                Back(), hands={u: h for u, h in after.items() if before.get(u) != h}
            )

    async def kick(
        self, table_id: int, user_id: int, target: int, *, can_manage: bool = False
    ) -> Outcome:
        """The host removes a person: in the lobby the seat goes; in a game a computer plays it
        to the end."""
        async with self.session.lock(table_id):
            row = await self.session.open_row(table_id)
            document = load_document(row)
            self.session.check_host(row, user_id, can_manage, "remove")
            seat = document.seat_of(target)
            if seat is None:
                raise Refused(NotSeatedOther())
            if target == user_id:
                raise Refused(RemoveSelf())
            name = document.seats[seat].name
            if row.status is TableStatus.LOBBY:
                del document.seats[seat]
            else:
                if document.seats[seat].away == "kicked":
                    raise Refused(AlreadyRemoved(name=name))
                hand_to_computer(document.seats[seat], "kicked")
                if document.game is not None:
                    self.session.sync_turn(document, decode_game(row, document))
            return (
                await self.session.save(
                    row,
                    document,
                    Change(
                        events=[StoredEvent("kicked", {"user": target}, user_id)],
                        host_id=host_after(document, row.host_id, target, fallback=user_id),
                        notices=[Removal(name=name, in_game=row.status is TableStatus.PLAYING)],
                    ),
                )
            ).outcome(reply=RemovedPlayer(name=name))

    async def hand_over(
        self, table_id: int, user_id: int, target: int, *, can_manage: bool = False
    ) -> Outcome:
        async with self.session.lock(table_id):
            row = await self.session.open_row(table_id)
            document = load_document(row)
            self.session.check_host(row, user_id, can_manage, "host")
            seat = document.seat_of(target)
            if seat is None or document.seats[seat].left or document.seats[seat].pending:
                raise Refused(HostMustPlay())
            if target == row.host_id:
                raise Refused(AlreadyHost())
            return (
                await self.session.save(
                    row,
                    document,
                    Change(
                        events=[StoredEvent("host", {"user": target}, user_id)],
                        host_id=target,
                        notices=[HostChange(user_id=target)],
                        mention=(target,),
                    ),
                )
            ).outcome(reply=NewHost(name=document.seats[seat].name))

    async def set_paused(
        self, table_id: int, user_id: int, paused: bool, *, can_manage: bool = False
    ) -> Outcome:
        """Pause (nobody plays, timers stop) or resume a game."""
        async with self.session.lock(table_id):
            row, document, game = await self.session.playing_row(table_id)
            self.session.check_host(row, user_id, can_manage, "pause")
            if document.paused == paused:
                raise Refused(AlreadyPaused() if paused else AlreadyRunning())
            now = self.session.clock()
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
            change = Change(
                events=[StoredEvent("paused" if paused else "resumed", {}, user_id)],
                notices=[Pause() if paused else Resumption()],
            )
            return (await self.session.save(row, document, change)).outcome(
                PausedNow() if paused else ResumedNow(),
                hands=None if paused else self.session.all_hands(row.id, document, game),
            )

    async def set_turn_timer(
        self, table_id: int, user_id: int, seconds: int, *, can_manage: bool = False
    ) -> Outcome:
        async with self.session.lock(table_id):
            row = await self.session.open_row(table_id)
            document = load_document(row)
            self.session.check_host(row, user_id, can_manage, "timer")
            check_timer(seconds)
            document.turn_timer = seconds
            document.turn = None
            if document.game is not None and row.status is TableStatus.PLAYING:
                self.session.sync_turn(document, decode_game(row, document))
            return (
                await self.session.save(
                    row,
                    document,
                    Change(events=[StoredEvent("timer", {"seconds": seconds}, user_id)]),
                )
            ).outcome(reply=TimerSet(seconds=seconds))
