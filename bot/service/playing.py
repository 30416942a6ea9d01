"""Play: a person's moves, the hand DMs' ids, and automatic moves (computers, forced cards)."""

from __future__ import annotations

from bot.engine import HIDDEN, Action, EngineError, Play
from bot.engine.cards import SuitLetter
from bot.service.answers import AutoPlay
from bot.service.document import DmRef
from bot.service.errors import Refused
from bot.service.refusals import (
    ComputerHasSeat,
    EarlierHand,
    GamePaused,
    Illegal,
    NoCard,
    NotSeated,
    RemovedByHost,
)
from bot.service.session import Change, Session
from bot.service.turns import (
    check_dm,
    computer_to_move,
    explained,
    forced_card_waiting,
    load_document,
    play_forced_cards,
    waiting_for_someone_away,
    without_dms,
)
from bot.service.views import Outcome
from bot.storage import Event as StoredEvent
from bot.storage import VersionConflict


class Playing:
    """A person's bids, trump choices and cards; their hand DMs; computers' and forced moves."""

    def __init__(self, session: Session) -> None:
        self.session = session

    async def act(
        self,
        table_id: int,
        user_id: int,
        hand_number: int,
        action: Action | int,
        *,
        named: SuitLetter | None = None,
        dm_channel: int | None = None,
    ) -> Outcome:
        """A person's bid, trump choice or card. ``hand_number`` comes from the button, so a
        click on an earlier hand's message is refused instead of acting on this one. A card
        may be given by its id in the game's pack (what a play button carries), with `named`
        the suit a joker led in no trumps is named as (the engine refuses a suit named for any
        other card or moment). A click from a DM gives its channel: it must be this person's
        own hand DM.

        Another bot process may store a change between the load and the save (a hand DM's
        id, another person's click): the click is then tried again on the newer state, as one
        process would have applied the two one after the other."""
        return await self.session.on_newest(
            lambda: self._act_once(
                table_id, user_id, hand_number, action, named=named, dm_channel=dm_channel
            )
        )

    async def _act_once(
        self,
        table_id: int,
        user_id: int,
        hand_number: int,
        action: Action | int,
        *,
        named: SuitLetter | None = None,
        dm_channel: int | None,
    ) -> Outcome:
        async with self.session.lock(table_id):
            # Read first: a refused click leaves the cached game where it is.
            row, document, game = await self.session.playing_row(table_id, to_change=False)
            check_dm(document, user_id, dm_channel)
            if isinstance(action, int):
                if not 0 <= action < game.pack.size:
                    raise Refused(NoCard())
                action = Play(game.pack.cards[action], named)
            seat = document.seat_of(user_id)
            if seat is None:
                raise Refused(NotSeated())
            if document.seats[seat].left:
                raise Refused(
                    ComputerHasSeat() if document.seats[seat].away != "kicked" else RemovedByHost()
                )
            if document.paused:
                raise Refused(GamePaused())
            if hand_number != game.hand_number:
                raise Refused(EarlierHand())
            if isinstance(action, Play) and action.card == HIDDEN:
                # A blind hand: the player plays the card they cannot see.
                legal = game.legal_actions(seat)
                if len(legal) == 1:
                    action = legal[0]
            before = self.session.hands_before(row, document, game)
            self.session.drop_game(row.id)  # about to change: `_save` puts it back once committed
            try:
                events = game.apply(seat, action)
            except EngineError as error:
                raise Refused(Illegal(explained(error))) from None
            events += play_forced_cards(document, game)
            document.seats[seat].missed = 0
            return await self.session.commit_game(
                row, document, game, events, user_id, before, action=(seat, action)
            )

    async def set_auto_play(
        self, table_id: int, user_id: int, on: bool, *, dm_channel: int | None = None
    ) -> Outcome:
        async with self.session.lock(table_id):
            row = await self.session.open_row(table_id)
            document = load_document(row)
            check_dm(document, user_id, dm_channel)
            seat = document.seat_of(user_id)
            if seat is None:
                raise Refused(NotSeated())
            document.seats[seat].auto_play = on
            return (
                await self.session.save(
                    row, document, Change(events=[StoredEvent("auto-play", {"on": on}, user_id)])
                )
            ).outcome(reply=AutoPlay(on=on))

    async def record_dm(self, table_id: int, user_id: int, ref: DmRef | None) -> Outcome | None:
        """Remember (or forget, with None: DMs closed) a person's hand message. Only a seated
        person's: one erased meanwhile (`forget`) has nothing stored again."""
        async with self.session.lock(table_id):
            for _ in range(5):
                row = await self.session.load(table_id, self.session.known_row(table_id))
                document = load_document(row)
                if document.seat_of(user_id) is None:
                    return None
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
                    saved = await self.session.tables.save(row, document=document.model_dump())
                except VersionConflict:
                    continue
                return self.session.side_saved(row, saved, document)
        return None

    async def dm_ref(self, table_id: int, user_id: int) -> DmRef | None:
        return (await self.dm_refs(table_id)).get(user_id)

    async def dm_refs(self, table_id: int) -> dict[int, DmRef]:
        """Every person's hand message at this table, by user id."""
        row = await self.session.load(table_id)
        return {int(user): ref for user, ref in load_document(row).dms.items()}

    async def step(self, table_id: int) -> Outcome | None:
        """Make the next automatic move, if any: a computer's decision, or a forced card for a
        person with auto-play on. Returns None when people must act (or the game is over).

        Another bot process may store a change between the load and the save (a hand DM's
        id): the step is then tried again on the newer state, as a person's action is (a
        refused step would stop the computers, which have no turn timer to move them on)."""
        return await self.session.on_newest(lambda: self._step_once(table_id))

    async def _step_once(self, table_id: int) -> Outcome | None:
        async with self.session.lock(table_id):
            try:
                row, document, game = await self.session.playing_row(table_id, to_change=False)
            except Refused:
                return None
            if document.paused or waiting_for_someone_away(document):
                return None
            if not forced_card_waiting(document, game) and computer_to_move(document, game) is None:
                return None  # people must act: the usual answer, so kept cheap
            before = self.session.hands_before(row, document, game)
            if forced_card_waiting(document, game):  # e.g. left over from before a restart
                game = self.session.game_of(row, document, to_change=True)
                forced = play_forced_cards(document, game)
                return await self.session.commit_game(row, document, game, forced, None, before)
            seat = computer_to_move(document, game)
            if seat is None:
                return None
            level = document.seats[seat].level or "easy"
        # Decide outside the lock and off the event loop; then apply only if nothing moved.
        action = await self.session.run_blocking(
            self.session.decide, document.game, seat, level, document.seed + row.version
        )
        async with self.session.lock(table_id):
            current = await self.session.load(table_id)
            if current.version != row.version:
                # Only a DM's id stored meanwhile does not waste the decision; anything else
                # (a seat taken back, a pause, another move) does, and the next step looks again.
                if current.status is not row.status or without_dms(current) != without_dms(row):
                    return await self.session.outcome_unchanged(current)
                row, document = current, load_document(current)
            game = self.session.game_of(row, document, to_change=True)
            events = game.apply(seat, action)
            events += play_forced_cards(document, game)
            return await self.session.commit_game(row, document, game, events, None, before)
