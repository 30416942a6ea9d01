"""Tables whose place is gone: their channel or thread was deleted, or the bot was removed from
their server. Such a table can no longer be shown, so it is cancelled by nobody, and its
players' hand messages say why."""

from __future__ import annotations

from typing import Literal

from bot.service.document import ClosedReason
from bot.service.errors import TableGone
from bot.service.session import Session
from bot.service.turns import load_document
from bot.service.views import Outcome
from bot.storage import CorruptRow, TableStatus, UnreadableClosed
from bot.storage import Event as StoredEvent

Gone = Literal["channel_deleted", "bot_removed"]


class Places(Session):
    """Closing the tables of a deleted channel, or of a server the bot was removed from."""

    async def channel_gone(
        self, guild_id: int, channel_id: int, why: Gone
    ) -> Outcome | UnreadableClosed | None:
        """Cancel the channel's open table, if any. A deleted channel's defaults go too; a
        server the bot left keeps them, for when it is added again."""
        if why == "channel_deleted":
            await self.db.set_channel_defaults(
                guild_id=guild_id, channel_id=channel_id, settings=None, set_by=0
            )
        try:
            return await self._on_newest(lambda: self._cancel_in(channel_id, why))
        except CorruptRow:
            closed = await self.db.close_unreadable(channel_id, 0, can_manage=True)
            if closed is not None:
                self._forget(closed.table_id)
            return closed

    async def _cancel_in(self, channel_id: int, why: Gone) -> Outcome | None:
        row = await self.db.open_table_in_channel(channel_id)
        if row is None:
            return None
        async with self._lock(row.id):
            try:
                row = await self._open_row(row.id)
            except TableGone:
                return None  # closed meanwhile
            document = load_document(row)
            document.closed_reason = ClosedReason(kind=why)
            document.turn = None
            outcome = await self._save(
                row, document, [StoredEvent(why, {}, None)], status=TableStatus.CANCELLED
            )
            outcome.finished = True
            return outcome

    async def channels_with_tables(self, guild_id: int) -> list[int]:
        """The channels and threads of a server that have an open table."""
        return await self.db.open_table_channels(guild_id)
