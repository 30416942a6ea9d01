"""The served pages other than the live table: a finished game's replay (`/g/<link>`), the
server's leaderboard and its recent games (`/s/<link>`), a player's page (`/p/<link>`). Each
reads the service's views for the server its signed link names, and nothing of another server;
a query the page does not offer, an unfinished, cancelled, unknown or other server's game is
the same 404 as a bad link.

The pages link to one another by addresses relative to the page (`../p/<link>`, `?by=wins`),
so they work whatever path PUBLIC_URL puts them under."""

from __future__ import annotations

import logging
from functools import partial
from typing import TYPE_CHECKING

from aiohttp import web

from bot.engine import PRESETS
from bot.engine.errors import RecordError
from bot.service import BOARD_ORDERS, CorruptRow, Refused, computer_level
from bot.service.history import MAX_HISTORY_PAGE
from cogs.render.language import _, speaking
from cogs.web.board import BoardLinks, board_page, history_page
from cogs.web.player import player_page
from cogs.web.replay import GameLinks, replay_page_in

if TYPE_CHECKING:
    from cogs.web.server import WebRoom

log = logging.getLogger(__name__)

BOARD_KEYS = {"by", "preset", "page"}
MAX_PAGE_DIGITS = 5


def add_pages(app: web.Application, room: WebRoom) -> None:
    """The routes of these pages, served for `room`."""
    pages = Pages(room)
    app.router.add_get("/g/{token}", pages.replay)
    app.router.add_get("/s/{token}", pages.board)
    app.router.add_get("/p/{token}", pages.player)


class Pages:
    def __init__(self, room: WebRoom) -> None:
        self.room = room

    def _here(self, url: str) -> str:
        """A link's address relative to a page (every page is one level down: `/g/<token>`)."""
        return "../" + url.removeprefix(self.room.links.public_url + "/")

    def _board_links(self, guild_id: int) -> BoardLinks:
        links = self.room.links
        return BoardLinks(
            player=lambda user_id: self._here(links.player(guild_id, user_id)),
            game=lambda game: self._here(links.game(guild_id, game)),
            board=self._here(links.board(guild_id)),
        )

    async def replay(self, request: web.Request) -> web.StreamResponse:
        signed = self.room.signed(request, "g")
        service = self.room.service.finished_games
        if request.query:
            raise web.HTTPNotFound()
        try:
            found = await service.game_record(signed.guild_id, 0, signed.number)
        except (Refused, CorruptRow):
            raise web.HTTPNotFound() from None
        spoken = await self.room.language_for(request, signed.guild_id, found.channel_id)
        board = self._board_links(signed.guild_id)
        links = GameLinks(
            board=board.board,
            people=[None if p is None else board.player(p) for p in found.people],
        )
        try:
            # Writing the page of a long game takes a moment: off the bot's loop.
            page = await service.session.run_blocking(
                partial(replay_page_in, links=links, served=True),
                spoken.code,
                found.game,
                found.record,
                found.ratings,
            )
        except RecordError:
            log.error("game %s's record does not replay", found.game)
            raise web.HTTPNotFound() from None
        return html(page)

    async def board(self, request: web.Request) -> web.StreamResponse:
        signed = self.room.signed(request, "s")
        if signed.number != 0:
            raise web.HTTPNotFound()
        query = request.query
        if len(query) != len(set(query)):  # a key given twice
            raise web.HTTPNotFound()
        guild_id = signed.guild_id
        service = self.room.service
        links = self._board_links(guild_id)
        spoken = await self.room.language_for(request, guild_id)
        if "games" in query:
            if len(query) != 1:
                raise web.HTTPNotFound()
            games = page_number(query["games"], MAX_HISTORY_PAGE)
            try:
                history = await service.finished_games.history(guild_id, games)
            except Refused:
                raise web.HTTPNotFound() from None
            with speaking(spoken):
                return html(history_page(history, links))
        if not set(query) <= BOARD_KEYS:
            raise web.HTTPNotFound()
        by = query.get("by", "rating")
        preset = query.get("preset")
        if by not in BOARD_ORDERS or (preset is not None and preset not in PRESETS):
            raise web.HTTPNotFound()
        page = page_number(query.get("page", "1"))
        try:
            board = await service.lookups.leaderboard(guild_id, by=by, preset=preset, page=page)
        except Refused:
            raise web.HTTPNotFound() from None
        people = [r.user_id for r in board.rows if computer_level(r.user_id) is None]
        names = await service.finished_games.names(guild_id, people)
        with speaking(spoken):
            return html(board_page(board, names, links))

    async def player(self, request: web.Request) -> web.StreamResponse:
        signed = self.room.signed(request, "p")
        if request.query or computer_level(signed.number) is not None:
            raise web.HTTPNotFound()
        guild_id, user_id = signed.guild_id, signed.number
        service = self.room.service.finished_games
        try:
            stats = await service.player_stats(guild_id, user_id)
        except (Refused, CorruptRow, OverflowError):
            raise web.HTTPNotFound() from None
        names = await service.names(guild_id, [user_id])
        spoken = await self.room.language_for(request, guild_id)
        links = self._board_links(guild_id)
        with speaking(spoken):
            # Translators: a person on the web pages whose name no stored game gives.
            name = names.get(user_id) or _("(name unknown)")
            return html(player_page(stats, name, links.board, links.game))


def page_number(text: str, highest: int = 10_000) -> int:
    """A page number as a link writes it (digits, 1 up); anything else is no page."""
    if not text.isascii() or not text.isdigit() or len(text) > MAX_PAGE_DIGITS:
        raise web.HTTPNotFound()
    page = int(text)
    if not 1 <= page <= highest:
        raise web.HTTPNotFound()
    return page


def html(page: str) -> web.Response:
    return web.Response(
        text=page, content_type="text/html", charset="utf-8", headers={"Cache-Control": "no-store"}
    )
