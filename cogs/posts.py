"""Channel posts from the outbox: each post a change stored is made once, by whichever process
gets to it, even when the process that stored it died before posting it.

- The process that stored a change posts its posts at once (`post`), then deletes them from
  the outbox. Until then they are leased to it; once the lease runs out any process may take
  one that is still there (`sweep`, every few seconds and at start-up).
- A post is made with its nonce (`Post.nonce`) and `enforce_nonce`, so Discord gives back the
  message made a short while ago with it instead of making a second one. A post taken over
  from another process (or from before a restart) is first looked for among the bot's own
  messages in the channel since it was stored, in case it was made longer ago than Discord
  checks nonces.
- A channel that refuses a post (the bot may not send there) gets it later, with the others it
  missed, in as few catch-up posts as fit (`catch_up`, when the channel's permissions change);
  a channel that is gone takes its posts with it (`drop`).
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import io
import logging
from collections.abc import Awaitable, Callable, Coroutine, Iterable, Sequence
from typing import Any

import discord

from bot.service import Post, PostOffice
from cogs import render
from cogs.pacing import Pacer
from cogs.render.charts import score_chart_png
from cogs.render.language import Language, speaking
from cogs.speakers import Speakers
from cogs.web.links import Links

log = logging.getLogger(__name__)

UNKNOWN_CHANNEL = 10003
"""Discord's error code for a channel that does not exist (deleted)."""

CHART_TIMEOUT = 60.0
"""Seconds the score chart may take in a worker before the standings stay without it."""


class NotAllowed:
    """What sending a post gives when its channel refused it."""


NOT_ALLOWED = NotAllowed()

LOOK_BACK = 50
"""The bot's messages in a channel looked through for a post taken over from another process."""


class ChannelPosts:
    """Makes the outbox's posts in their channels."""

    def __init__(
        self,
        bot: discord.Client,
        office: PostOffice,
        pacer: Pacer,
        *,
        speakers: Speakers,
        run_blocking: Callable[..., Awaitable[Any]],
        spawn: Callable[[Coroutine[Any, Any, Any]], asyncio.Task[Any]],
        channel_missing: Callable[[int, int], None],
        sweep_every: float,
        links: Links | None = None,
    ) -> None:
        self.bot = bot
        self.links = links
        """The web pages' links, when the bot serves them: the final standings link to the
        game's replay."""
        self.office = office
        self.pacer = pacer
        self.speakers = speakers
        self.run_blocking = run_blocking
        self._spawn = spawn
        self._channel_missing = channel_missing
        """Called with (guild, channel) when a post finds its channel deleted."""
        self.sweep_every = sweep_every
        self._sweeper: asyncio.Task[None] | None = None
        self._sweeping = asyncio.Lock()

    # Posts this process stored

    async def post(self, posts: Sequence[Post]) -> None:
        """Make the posts a change just stored, in order. A table whose channel refused earlier
        posts gets those first, as a catch-up (they come before these)."""
        if not posts:
            return
        if await self.office.has_refused(posts[0].table_id):
            await self.catch_up(posts[0].channel_id)
        for post in posts:
            await self._make(post, taken_over=False)

    # Posts nobody made

    def start(self) -> None:
        """Look for posts nobody made, now and every `sweep_every` seconds."""
        if self._sweeper is None:
            self._sweeper = asyncio.get_running_loop().create_task(self._sweep_forever())

    async def stop(self) -> None:
        if self._sweeper is not None:
            self._sweeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._sweeper
            self._sweeper = None

    async def _sweep_forever(self) -> None:
        while True:
            try:
                await self.sweep()
            except Exception:
                log.exception("outbox: could not look for waiting posts")
            await asyncio.sleep(self.sweep_every)

    async def sweep(self) -> int:
        """Take the posts whose lease ran out (their process died, or Discord did not answer)
        and make them, each table's in order: how many were taken."""
        async with self._sweeping:
            posts = await self.office.waiting()
            for post in posts:
                await self._make(post, taken_over=True)
            return len(posts)

    # Channels that refused posts

    async def catch_up(self, channel_id: int) -> None:
        """Post what a channel missed while the bot could not send there, in as few posts as
        fit; what is still refused stays for the next try."""
        posts = await self.office.refused(channel_id)
        if not posts:
            return
        with speaking(await self.speakers.channel(posts[0].guild_id, channel_id)):
            texts = [render.notice_text(post.notice) for post in posts]
            catch_up = render.catch_up_posts(texts)
            views: list[discord.ui.View | None] = []
            start = 0
            for _text, count in catch_up:
                views.append(render.replays_view(self._replays(posts[start : start + count])))
                start += count
        channel = self.bot.get_partial_messageable(channel_id)
        start = 0
        for (text, count), view in zip(catch_up, views, strict=True):
            group = posts[start : start + count]
            sent = await self._send(channel, text, group[0], nonce=f"c{group[0].nonce}", view=view)
            if sent is NOT_ALLOWED:
                await self.office.set_aside(posts[start:])
                return
            if sent is None:
                return  # tried again once their lease runs out
            await self.office.done(group)
            start += count

    def _replays(self, posts: Sequence[Post]) -> list[tuple[int, str]]:
        """The games whose final standings are among `posts`, with their replay's address,
        when the bot serves the pages."""
        links = self.links
        if links is None:
            return []
        games = [(post.guild_id, render.replay_of(post.notice)) for post in posts]
        return [(game, links.game(guild, game)) for guild, game in games if game is not None]

    async def drop(self, *, channels: Iterable[int] = (), guild_id: int | None = None) -> None:
        """Channels that are gone, or a server's: no post can reach them any more."""
        await self.office.drop(channels=channels, guild_id=guild_id)

    # Making one post

    async def _make(self, post: Post, *, taken_over: bool) -> None:
        spoken = await self.speakers.channel(post.guild_id, post.channel_id)
        replay = next((url for _game, url in self._replays([post])), None)
        with speaking(spoken):
            text = render.notice_text(post.notice)
            view = render.notice_view(replay)
        channel = self.bot.get_partial_messageable(post.channel_id)
        sent = await self._made_before(channel, text, post) if taken_over else None
        if sent is None:
            result = await self._send(channel, text, post, nonce=post.nonce, view=view)
            if result is NOT_ALLOWED:
                await self.office.set_aside([post])
            if not isinstance(result, discord.Message):
                return
            sent = result
        name = render.chart_file_name(post.notice)
        if name is None:
            await self.office.done([post])
            return
        if not sent.attachments:
            self._spawn(self._attach_chart(sent, post, name, spoken))
        else:
            await self.office.done([post])

    async def _send(
        self,
        channel: discord.PartialMessageable,
        text: str,
        post: Post,
        *,
        nonce: str,
        view: discord.ui.View | None = None,
    ) -> discord.Message | NotAllowed | None:
        """Send one post: the message; `NOT_ALLOWED` when the channel refused it (the bot may not
        send there); None when it was not made otherwise (a deleted channel's post goes with
        it, any other failure leaves it to be tried again once its lease runs out)."""
        try:
            await self.pacer.wait()
            extra: dict[str, Any] = {} if view is None else {"view": view}
            return await channel.send(
                text,
                nonce=nonce,
                **extra,
                allowed_mentions=discord.AllowedMentions(
                    everyone=False, roles=False, users=[discord.Object(u) for u in post.mention]
                ),
            )
        except discord.NotFound as error:
            if error.code == UNKNOWN_CHANNEL:
                self._channel_missing(post.guild_id, post.channel_id)
            else:
                log.warning("channel %s: could not post: %s", post.channel_id, error)
        except discord.Forbidden as error:
            log.warning("channel %s: may not post, kept for later: %s", post.channel_id, error)
            return NOT_ALLOWED
        except discord.HTTPException as error:
            log.warning("channel %s: could not post, will try again: %s", post.channel_id, error)
        return None

    async def _made_before(
        self, channel: discord.PartialMessageable, text: str, post: Post
    ) -> discord.Message | None:
        """A post taken over may have been made by the process that died (between posting it
        and deleting it from the outbox) longer ago than Discord remembers nonces: the bot's
        own message with the same text since the post was stored, if there is one."""
        if post.stored_at is None or self.bot.user is None:
            return None
        since = discord.utils.time_snowflake(dt.datetime.fromtimestamp(post.stored_at, dt.UTC))
        try:
            await self.pacer.wait(urgent=False)
            async for message in channel.history(
                after=discord.Object(since - 1), limit=LOOK_BACK, oldest_first=True
            ):
                if message.author.id == self.bot.user.id and message.content == text:
                    return message
        except discord.HTTPException as error:
            log.info("channel %s: could not look for an earlier post: %s", post.channel_id, error)
        return None

    async def _attach_chart(
        self, message: discord.Message, post: Post, name: str, spoken: Language
    ) -> None:
        """Draw the score chart in a worker and add it to the standings post, which is then
        done; if it cannot be drawn, the post stays as it is (logged), done too."""
        chart = render.score_chart_of(post.notice)
        assert chart is not None  # only a post with a chart has its file name (`_post`)
        try:
            png = await asyncio.wait_for(
                self.run_blocking(score_chart_png, chart, spoken.code), timeout=CHART_TIMEOUT
            )
            await self.pacer.wait(urgent=False)
            await message.edit(attachments=[discord.File(io.BytesIO(png), filename=name)])
        except discord.HTTPException as error:
            # Another try when the lease runs out: the post is found again by its nonce.
            log.warning("game %s: the score chart could not be added: %s", chart.game, error)
            return
        except Exception:
            log.exception("game %s: the score chart could not be drawn", chart.game)
        await self.office.done([post])
