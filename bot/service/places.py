"""Tables whose place is gone: their channel or thread was deleted, or the bot was removed from
their server. Such a table can no longer be shown, so it is cancelled by nobody, and its
players' hand messages say why."""

from __future__ import annotations

from typing import Literal

from bot import storage
from bot.service.document import ClosedReason
from bot.service.errors import TableGone
from bot.service.session import Change, Session
from bot.service.turns import load_document
from bot.service.views import Outcome
from bot.storage import Channels, CorruptRow, TableStatus, UnreadableClosed
from bot.storage import Event as StoredEvent

Gone = Literal["channel_deleted", "bot_removed"]


class Places:
    """Closing the tables of a deleted channel, or of a server the bot was removed from."""

    def __init__(self, session: Session, channels: Channels, languages: storage.Languages) -> None:
        self.session = session
        self._channels = channels
        self._languages = languages

    async def channel_gone(
        self, guild_id: int, channel_id: int, why: Gone
    ) -> Outcome | UnreadableClosed | None:
        """Cancel the channel's open table, if any. A deleted channel's defaults and language
        go too; a server the bot left keeps them, for when it is added again."""
        if why == "channel_deleted":
            await self._channels.set_defaults(
                guild_id=guild_id, channel_id=channel_id, settings=None, set_by=0
            )
            await self._languages.set_channel_language(
                guild_id=guild_id, channel_id=channel_id, language=None
            )
        try:
            return await self.session.on_newest(lambda: self._cancel_in(channel_id, why))
        except CorruptRow:
            closed = await self.session.tables.close_unreadable(channel_id, 0, can_manage=True)
            if closed is not None:
                self.session.forget(closed.table_id)
            return closed

    async def _cancel_in(self, channel_id: int, why: Gone) -> Outcome | None:
        row = await self.session.tables.open_in_channel(channel_id)
        if row is None:
            return None
        async with self.session.lock(row.id):
            try:
                row = await self.session.open_row(row.id)
            except TableGone:
                return None  # closed meanwhile
            document = load_document(row)
            document.closed_reason = ClosedReason(kind=why)
            document.turn = None
            change = Change(events=[StoredEvent(why, {}, None)], status=TableStatus.CANCELLED)
            return (await self.session.save(row, document, change)).outcome(finished=True)

    async def channels_with_tables(self, guild_id: int) -> list[int]:
        """The channels and threads of a server that have an open table."""
        return await self.session.tables.open_channels(guild_id)
