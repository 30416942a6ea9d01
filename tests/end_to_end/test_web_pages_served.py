"""The served replay, the leaderboard and the player's page through the real client and the
stand-in, with PUBLIC_URL set: a finished game's replay served with its rating changes and links,
an unfinished, cancelled or other server's game the same 404 as an altered link; every order of
the leaderboard and its recent games, only this server's; a player's page; a query the pages do
not offer is a 404; the page speaks the reader's language."""

from __future__ import annotations

import re
from urllib.parse import urljoin

import aiohttp
import pytest

from bot.storage import TableStatus
from standin.server import StandIn
from tests.cogs.web.pages import HOSTILE, embedded
from tests.end_to_end.conftest import BotFactory
from tests.end_to_end.test_web_pages import WEB
from tests.finished_games import people, store_finished

NOT_FOUND = "404: no such page\n"


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
async def test_the_served_pages_show_this_servers_games_only(
    standin: StandIn, start_bot: BotFactory
) -> None:
    async with start_bot(settings=WEB) as bot:
        assert bot.web is not None and bot.links is not None
        links, db = bot.links, bot.tables.service.db
        guild = standin.guild.id
        base = f"http://127.0.0.1:{bot.web.port}"

        def path(url: str) -> str:
            return url.removeprefix(links.public_url)

        seats = people("Ann", *HOSTILE)
        first, _ = await store_finished(db, guild, 10, seats, seed=1)
        game, _ = await store_finished(db, guild, 10, seats, seed=2)
        theirs, _ = await store_finished(db, guild + 1, 20, people("Zed", "Yan", "Xi"), seed=3)
        lobby = await db.tables.create(
            guild_id=guild, channel_id=10, host_id=1, preset="classic", document={"seats": []}
        )
        cancelled = await db.tables.create(
            guild_id=guild, channel_id=11, host_id=1, preset="classic", document={"seats": []}
        )
        await db.tables.save(cancelled, document={"seats": []}, status=TableStatus.CANCELLED)

        async with aiohttp.ClientSession() as session:

            async def get(url: str, **headers: str) -> tuple[int, str]:
                async with session.get(base + path(url), headers=headers) as answer:
                    assert "script-src 'self'" in answer.headers["Content-Security-Policy"]
                    body = await answer.read()
                    assert len(body) < 100_000  # a page's weight
                    return answer.status, body.decode()

            # The replay: the game's data, the rating changes, links to the server's pages.
            status, page = await get(links.game(guild, game))
            assert status == 200 and f"Game #{game} — replay" in page
            assert embedded(page)["players"] == ["Ann", *HOSTILE]
            assert all(name not in page for name in HOSTILE)
            changes = await db.results.rating_changes(game)
            rating, change, provisional = changes[1000]
            assert f" · {rating:,}{'?' if provisional else ''} ({change:+d})</span>" in page
            assert '<script src="/static/replay.js?v=' in page and "<style" not in page
            hrefs = re.findall(r'href="(\.\./[^"]+)"', page)
            assert hrefs[0] == "../" + path(links.board(guild))[1:]
            assert sorted(hrefs[1:]) == sorted(
                "../" + path(links.player(guild, 1000 + i))[1:] for i in range(3)
            )
            for href in hrefs:
                async with session.get(
                    urljoin(base + path(links.game(guild, game)), href)
                ) as linked:
                    assert linked.status == 200, href
            # Everything else is the same 404: an unfinished, cancelled or unknown game, another
            # server's game under this server's link, an altered link, a query.
            token = path(links.game(guild, game))
            altered = token[:-1] + ("A" if token[-1] != "A" else "B")
            for wrong in (
                links.game(guild, lobby.id),
                links.game(guild, cancelled.id),
                links.game(guild, 10**9),
                links.game(guild, theirs),
                links.game(guild + 1, game),
                "/g/" + links.token("t", guild, game),
                altered,
                token + "?h=1",
                token + "/",
            ):
                assert await get(wrong) == (404, NOT_FOUND), wrong
            # Their own link shows the other server its own game.
            assert (await get(links.game(guild + 1, theirs)))[0] == 200

            # The leaderboard in every order, the recent games of this server only.
            board = links.board(guild)
            status, page = await get(board)
            assert status == 200 and "<h1>Leaderboard</h1>" in page
            assert page.count('href="../p/') == 3 and "Ranked by rating" in page
            for order, words in (
                ("wins", "Ranked by wins"),
                ("win_rate", "Ranked by win rate"),
                ("exact_bids", "Ranked by exact-bid rate"),
                ("points", "Ranked by average points a hand"),
            ):
                status, page = await get(f"{board}?by={order}")
                assert status == 200 and words in page, order
                assert f'href="?by={order}" aria-current="page"' in page
            status, page = await get(f"{board}?preset=classic&by=wins&page=1")
            assert status == 200 and 'href="?by=wins&amp;preset=classic" aria-current' in page
            status, page = await get(f"{board}?preset=oh-hell")
            assert status == 200 and "Nobody here has a rating yet" in page
            status, page = await get(f"{board}?games=1")
            assert status == 200 and "<h1>Recent games</h1>" in page
            replays = re.findall(r'href="\.\./g/([^"]+)"', page)
            assert [links.read("g", t).number for t in replays] == [game, first]  # type: ignore[union-attr]
            for wrong in (
                "?by=nothing",
                "?preset=poker",
                "?page=0",
                "?page=2",
                "?page=-1",
                "?page=1e3",
                "?page=%EF%BC%91",
                "?games=2",
                "?games=0",
                "?games=1&by=wins",
                "?by=wins&by=points",
                "?caller=1000",
            ):
                assert await get(board + wrong) == (404, NOT_FOUND), wrong
            assert (await get(links.board(guild)[:-2] + "AA"))[0] == 404

            # A player's page; someone with no game here gets a page that says so.
            status, page = await get(links.player(guild, 1001))
            assert status == 200 and "Oh Hell stats — &lt;script&gt;" in page
            assert "<svg" in page and "2 played" in page
            assert 'href="../s/' in page
            status, page = await get(links.player(guild, 4242))
            assert status == 200 and "(name unknown) has no finished games on this server" in page
            assert (await get(links.player(guild, 1001) + "?x"))[0] == 404
            # The same person on the other server: only that server's game and name.
            status, page = await get(links.player(guild + 1, 1001))
            assert "Oh Hell stats — Yan" in page and "1 played" in page

            # In the reader's language when the channel has none set.
            status, page = await get(board, **{"Accept-Language": "nl-BE,nl;q=0.9,en;q=0.5"})
            assert '<html lang="nl">' in page and "<h1>Ranglijst</h1>" in page
            status, page = await get(links.game(guild, game), **{"Accept-Language": "de"})
            assert f"Spiel #{game}" in page
            # A game's replay speaks its channel's language when one is set.
            await bot.tables.service.languages.set_channel_language(
                guild_id=guild, channel_id=12, language="fr", can_manage=True
            )
            french, _ = await store_finished(db, guild, 12, seats, seed=5)
            status, page = await get(links.game(guild, french), **{"Accept-Language": "de"})
            assert f"Partie n° {french} — déroulé" in page and '<html lang="fr">' in page
