"""Nothing kept longer than needed: a server the bot leaves (or that is deleted) is marked, and
once the bot has been gone `RETAIN_AFTER_LEAVE` days everything stored for it is erased, unless
the bot was added back before then."""

from __future__ import annotations

from collections.abc import Callable, Collection

from bot import storage
from bot.service.session import Session
from bot.storage import Leases

DAY = 24 * 3600.0


class Retention:
    def __init__(self, session: Session, retention: storage.Retention, leases: Leases) -> None:
        self.session = session
        self._retention = retention
        self._leases = leases

    async def server_left(self, guild_id: int) -> None:
        """The bot left the server (or it was deleted): its data goes in `RETAIN_AFTER_LEAVE`
        days."""
        await self._retention.mark_left(guild_id, self.session.clock())

    async def server_back(self, guild_id: int) -> None:
        """The bot is in the server: nothing of it is erased."""
        await self._retention.mark_back(guild_id)

    async def servers_present(
        self, present: Collection[int], covers: Callable[[int], bool]
    ) -> list[int]:
        """After a start, with the servers the bot is in (`present`) among those this process
        is told about (`covers`: its shards'): those marked as left are back; those with data
        that are gone (the bot was removed while it was not running) are marked as left now.
        Returns the newly marked."""
        here = set(present)
        for guild_id in await self._retention.servers_left():
            if guild_id in here:
                await self._retention.mark_back(guild_id)
        marked = set(await self._retention.servers_left())
        gone = sorted(
            guild_id
            for guild_id in await self._retention.servers_with_data()
            if guild_id not in here and guild_id not in marked and covers(guild_id)
        )
        for guild_id in gone:
            await self.server_left(guild_id)
        return gone

    async def sweep(self) -> list[int]:
        """Erase every server the bot left `RETAIN_AFTER_LEAVE` days ago or more (the erased
        are returned), and the leases that ran out (a person's id is the key of some)."""
        now = self.session.clock()
        await self._leases.drop_expired_leases(now)
        moment = now - self.session.settings.retain_after_leave * DAY
        erased = []
        for guild_id in await self._retention.servers_left(before=moment):
            if await self._retention.erase_server(guild_id, moment) is not None:
                erased.append(guild_id)
        return erased
