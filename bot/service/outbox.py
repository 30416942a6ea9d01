"""The outbox as the Discord layer uses it: the posts waiting to be made, taken one process at a
time, and what became of each (posted, refused by its channel, gone with it)."""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Iterable, Sequence

from bot.service.notices import FinalStandings
from bot.service.posts import stored_post
from bot.service.views import Post
from bot.storage import Database, StoredPost

log = logging.getLogger(__name__)


class PostOffice:
    """Posts stored with their changes (bot/storage/outbox.py), handed out to be posted."""

    def __init__(self, database: Database) -> None:
        self.db = database

    async def rated(self, post: Post) -> Post:
        """A post as it is shown: the final standings with each player's rating after the game,
        stored with its results (the outbox keeps the standings without them)."""
        notice = post.notice
        if not isinstance(notice, FinalStandings) or notice.ratings is not None:
            return post
        changes = await self.db.rating_changes(post.table_id)
        ratings = tuple(changes.get(i) for i in notice.rated_as)
        return dataclasses.replace(post, notice=dataclasses.replace(notice, ratings=ratings))

    async def waiting(self) -> list[Post]:
        """Posts nobody is making (their process died, or Discord did not answer), taken by
        this process for a while: oldest first, each table's in order."""
        return await self._readable(await self.db.claim_posts())

    async def refused(self, channel_id: int) -> list[Post]:
        """Posts a channel refused, taken to try again (its permissions changed)."""
        return await self._readable(await self.db.claim_refused(channel_id))

    async def has_refused(self, table_id: int) -> bool:
        return await self.db.has_refused_posts(table_id)

    async def refused_channels(self) -> list[int]:
        return await self.db.refused_channels()

    async def done(self, posts: Iterable[Post]) -> None:
        await self.db.post_done(post.key for post in posts)

    async def set_aside(self, posts: Iterable[Post]) -> None:
        """Posts their channel refused: kept until it takes messages again."""
        await self.db.post_refused(post.key for post in posts)

    async def drop(self, *, channels: Iterable[int] = (), guild_id: int | None = None) -> int:
        """The posts of channels that are gone, or of a server the bot left."""
        return await self.db.drop_posts(channels, guild_id=guild_id)

    async def count(self) -> tuple[int, float | None]:
        """How many posts wait, and when the oldest was stored."""
        return await self.db.outbox_waiting()

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
            await self.db.post_done(unreadable)
        return posts
