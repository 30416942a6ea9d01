"""The outbox as the Discord layer uses it: the posts waiting to be made, taken one process at a
time, and what became of each (posted, refused by its channel, gone with it)."""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Iterable, Sequence

from bot.service.notices import FinalStandings
from bot.service.posts import stored_post
from bot.service.views import Post
from bot.storage import StoredPost
from bot.storage.outbox import Outbox
from bot.storage.results import Results

log = logging.getLogger(__name__)


class PostOffice:
    """Posts stored with their changes (bot/storage/outbox.py), handed out to be posted."""

    def __init__(self, outbox: Outbox, results: Results) -> None:
        self._outbox = outbox
        self._results = results

    async def rated(self, post: Post) -> Post:
        """A post as it is shown: the final standings with each player's rating after the game,
        stored with its results (the outbox keeps the standings without them)."""
        notice = post.notice
        if not isinstance(notice, FinalStandings) or notice.ratings is not None:
            return post
        changes = await self._results.rating_changes(post.table_id)
        ratings = tuple(changes.get(i) for i in notice.rated_as)
        return dataclasses.replace(post, notice=dataclasses.replace(notice, ratings=ratings))

    async def waiting(self) -> list[Post]:
        """Posts nobody is making (their process died, or Discord did not answer), taken by
        this process for a while: oldest first, each table's in order."""
        return await self._readable(await self._outbox.claim())

    async def refused(self, channel_id: int) -> list[Post]:
        """Posts a channel refused, taken to try again (its permissions changed)."""
        return await self._readable(await self._outbox.claim_refused(channel_id))

    async def has_refused(self, table_id: int) -> bool:
        return await self._outbox.has_refused(table_id)

    async def refused_channels(self) -> list[int]:
        return await self._outbox.refused_channels()

    async def done(self, posts: Iterable[Post]) -> None:
        await self._outbox.done(post.key for post in posts)

    async def set_aside(self, posts: Iterable[Post]) -> None:
        """Posts their channel refused: kept until it takes messages again."""
        await self._outbox.refused(post.key for post in posts)

    async def drop(self, *, channels: Iterable[int] = (), guild_id: int | None = None) -> int:
        """The posts of channels that are gone, or of a server the bot left."""
        return await self._outbox.drop(channels, guild_id=guild_id)

    async def count(self) -> tuple[int, float | None]:
        """How many posts wait, and when the oldest was stored."""
        return await self._outbox.waiting()

    async def _readable(self, stored: Sequence[StoredPost]) -> list[Post]:
        posts: list[Post] = []
        unreadable: list[tuple[int, int, int]] = []
        for row in stored:
            try:
                posts.append(await self.rated(stored_post(row)))
            except (ValueError, KeyError, TypeError) as error:
                # The kind of error alone: its message may quote the post (its cards).
                log.error(
                    "outbox post %s could not be read, dropped: %s", row.key, type(error).__name__
                )
                unreadable.append(row.key)
        if unreadable:
            await self._outbox.done(unreadable)
        return posts
