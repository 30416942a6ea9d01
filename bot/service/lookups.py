"""Reading a table as it is stored: its view, a person's hand, its rules, the newest state
after another process changed it; open and recently closed tables; the leaderboard."""

from __future__ import annotations

from collections.abc import Collection

from bot.engine import Settings
from bot.service.errors import Refused
from bot.service.notices import HandScore
from bot.service.refusals import NoSuchOrder, NoSuchPage, NotSeated, NotStarted
from bot.service.results import last_scored
from bot.service.seat_views import hand_state
from bot.service.session import Session, dm_refs_of
from bot.service.turns import load_document, settings_of
from bot.service.views import HandState, Outcome, TableView
from bot.storage import BOARD_ORDERS, Leaderboard, Results, TableRow


class Lookups:
    """What the Discord layer reads, changing nothing.

    Readers that keep what they load in memory (`newest`, `table_view`, `hand_state`) take the
    table's lock: a change closing the table while their load is on its way to the database
    (PostgreSQL) would otherwise drop the table from memory before they put its row and game
    back, for good."""

    def __init__(self, session: Session, results: Results) -> None:
        self.session = session
        self._results = results

    async def newest(self, table_id: int) -> Outcome:
        """The table as stored now, in one load: its view, every hand message's state and the
        hand DMs (another process changed it since this one last did)."""
        session = self.session
        async with session.lock(table_id):
            row = await session.load(table_id)
            document = load_document(row)
            game = None
            if document.game is not None and row.status.is_open:
                game = session.game_of(row, document, to_change=False)
            hands = None if game is None else session.all_hands(row.id, document, game)
            return Outcome(
                table=session.view_of(row, document, game),
                every_hand=hands,
                dm_refs=dm_refs_of(document),
            )

    async def table_view(self, table_id: int) -> TableView:
        async with self.session.lock(table_id):
            row = await self.session.load(table_id)
            return self.session.view_of(row, load_document(row))

    async def place(self, table_id: int) -> tuple[int, int]:
        """The table's server and channel, which never change: from its row held in memory
        while it is open here, else from one load (a table that does not exist, or cannot be
        read, refused as its view is)."""
        row = self.session.known_row(table_id)
        if row is None:
            row = await self.session.load(table_id)
            load_document(row)
        return row.guild_id, row.channel_id

    async def scored_view(self, table_id: int) -> tuple[TableView, HandScore | None]:
        """The table's view, and the newest hand its game scored as the channel's post of its
        scores said it (rebuilt from the stored game: the post is handed only to the process
        that stored the move, and a page shows that hand's tricks until the next hand has one
        of its own)."""
        session = self.session
        async with session.lock(table_id):
            row = await session.load(table_id)
            document = load_document(row)
            game = session.shown_game(row, document)
            scored = None if game is None else last_scored(game)
            return session.view_of(row, document, game), scored

    async def hand_state(self, table_id: int, user_id: int) -> HandState:
        session = self.session
        async with session.lock(table_id):
            row = await session.open_row(table_id)
            document = load_document(row)
            seat = document.seat_of(user_id)
            if seat is None:
                raise Refused(NotSeated())
            if document.game is None:
                raise Refused(NotStarted())
            game = session.game_of(row, document, to_change=False)
            return hand_state(row.id, document, game, seat)

    async def seat_hands(
        self, table_id: int, user_ids: Collection[int]
    ) -> tuple[int, dict[int, HandState]]:
        """The hands of those of `user_ids` seated at the table, each their own, from one load,
        and the version they are at: what every open seat stream of the table's page is sent
        after a change. Someone not seated, or a game not started, has no hand here; a closed
        or unknown table is refused, as `hand_state` refuses it."""
        session = self.session
        async with session.lock(table_id):
            row = await session.open_row(table_id)
            document = load_document(row)
            if document.game is None:
                return row.version, {}
            game = session.game_of(row, document, to_change=False)
            every = session.hands_before(row, document, game)
            hands: dict[int, HandState] = {}
            for user_id in user_ids:
                state = every.get(user_id)
                if state is None:
                    # Not among the hand messages (someone the host removed sees what
                    # everyone sees), or not seated at all.
                    seat = document.seat_of(user_id)
                    if seat is None:
                        continue
                    state = hand_state(row.id, document, game, seat)
                hands[user_id] = state
            return row.version, hands

    async def rules(self, table_id: int) -> Settings:
        """The table's rule settings (the host's overrides on its preset)."""
        return settings_of(load_document(await self.session.load(table_id)))

    async def table_in_channel(self, channel_id: int) -> TableRow | None:
        return await self.session.tables.open_in_channel(channel_id)

    async def open_table_ids(self) -> list[int]:
        return await self.session.tables.open_ids()

    async def closed_since(self, seconds: float) -> list[int]:
        """Tables closed in the last `seconds`: a process that stopped between storing a
        table's last change and showing it left its message behind."""
        return await self.session.tables.closed_since(self.session.clock() - seconds)

    async def leaderboard(
        self,
        guild_id: int,
        *,
        by: str = "rating",
        preset: str | None = None,
        page: int = 1,
        caller_id: int | None = None,
    ) -> Leaderboard:
        """One page of the server's leaderboard; a page that does not exist (a forged or stale
        button) is refused."""
        if by not in BOARD_ORDERS:
            raise Refused(NoSuchOrder(by=by))
        board = await self._results.leaderboard(
            guild_id,
            by=by,
            preset=preset,
            page=max(page, 1),
            caller_id=caller_id,
        )
        if not 1 <= page <= board.pages:
            raise Refused(NoSuchPage(page=page, pages=board.pages))
        return board
