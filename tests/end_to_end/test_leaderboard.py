"""Ratings and /leaderboard through the real discord.py client and the stand-in: the final
standings post shows rating changes (with `?` while provisional), pages turn, forged pages are
refused and change nothing, and /ohhell ratings explains the number."""

from __future__ import annotations

import re

import pytest

from bot.service import Refused
from bot.storage import PlayerResult, TableStatus
from standin.server import StandIn
from tests.end_to_end.conftest import BotFactory
from tests.end_to_end.test_safety import refused
from tools.simulated_people import open_table, play_until_over

RATED = re.compile(
    r"^\d+\. (?P<name>\w+) — -?\d+ · (?P<rating>[\d,]+)(?P<mark>\??) \((?P<change>[+-][\d,]+)\)$"
)


async def test_the_final_standings_show_each_players_rating_and_its_change(
    standin: StandIn, start_bot: BotFactory
) -> None:
    async with start_bot() as bot:
        people = [standin.person(n) for n in ("Ann", "Bob", "Cat")]
        table, t = await open_table(standin, people, preset="classic", max_cards=1)
        await people[0].click(table, f"oh:start:{t}")
        await play_until_over(standin, people, table)
        await bot.presenter.ground.idle()

        def final() -> list[str]:
            posts = [m.content for m in standin.messages(standin.channel)]
            return [p for p in posts if p and p.startswith("**Game over")]

        await standin.wait_for(final)
        lines = final()[0].splitlines()[1:]
        assert lines[-1] == f"-# Game #{t} · its record: `/ohhell record game:{t}`"
        lines = lines[:-1]
        changes = await bot.tables.service.db.results.rating_changes(t)
        shown = {}
        for line in lines:
            match = RATED.match(line)
            assert match is not None, line
            shown[match["name"]] = (
                int(match["rating"].replace(",", "")),
                int(match["change"].replace(",", "")),
                match["mark"] == "?",
            )
        assert shown == {p.name: changes[p.id] for p in people}
        # Rated from 1,000: the change is the distance from it. A first game: provisional.
        assert all(rating - change == 1000 and mark for rating, change, mark in shown.values())


async def fill(bot: object, guild_id: int, players: list[int], rounds: int) -> None:
    """Finished games stored straight into the bot's database: `players` in groups of four,
    the lower ids placed higher."""
    db = bot.tables.service.db  # type: ignore[attr-defined]
    channel = 900
    for _ in range(rounds):
        for start in range(0, len(players), 4):
            group = players[start : start + 4]
            channel += 1
            table = await db.tables.create(
                guild_id=guild_id,
                channel_id=channel,
                host_id=group[0],
                preset="classic",
                document={},
            )
            results = [
                PlayerResult(user_id=u, place=place, points=30 - place, bids_made=2, hands_played=5)
                for place, u in enumerate(sorted(group), start=1)
            ]
            await db.tables.save(table, document={}, status=TableStatus.FINISHED, results=results)


async def test_leaderboard_pages_turn_and_forged_pages_are_refused(
    standin: StandIn, start_bot: BotFactory
) -> None:
    async with start_bot() as bot:
        ann, bob = standin.person("Ann"), standin.person("Bob")
        # 24 players with 3 games each; Ann always last of her group, so not on page 1.
        others = [10_000 + i for i in range(23)]
        await fill(bot, standin.guild.id, [*others, ann.id], rounds=3)
        # As if they had played enough games to settle their ratings; Bob has not.
        db = bot.tables.service.db
        await db.store.backend.execute("UPDATE ratings SET sigma = 1")
        await fill(bot, standin.guild.id, [bob.id, 20_000], rounds=2)  # provisional: not ranked

        shown = await ann.slash(standin.channel, "leaderboard")
        board = shown.reply
        assert board is not None and not shown.ephemeral
        text = board.embeds[0]["description"]
        assert len(re.findall(r"^\*\*\d+\.\*\*", text, re.M)) == 11  # ten and Ann's own row
        assert f"<@{ann.id}>" in text.splitlines()[-1] and "…" in text
        assert "page 1 of 3" in board.embeds[0]["footer"]["text"]
        assert "lb:next:rating:all:2" in board.custom_ids()

        turned = await bob.click(board, "lb:next:rating:all:2")
        assert turned.response_type == 7
        text = board.embeds[0]["description"]
        assert text.startswith("**11.**") and "page 2 of 3" in board.embeds[0]["footer"]["text"]
        # Bob's own row, provisional: under the line, unranked, with its `?`.
        assert text.splitlines()[-3:-1] == [
            "…",
            "*Not ranked yet: provisional ratings (shown with ?)*",
        ]
        assert re.match(rf"<@{bob.id}> — \*\*[\d,]+\?\*\* · .* · 2 games$", text.splitlines()[-1])
        assert "lb:prev:rating:all:1" in board.custom_ids()
        assert "lb:next:rating:all:3" in board.custom_ids()

        # The last page: the rest of the ranked, then the line and the provisional players.
        last = await bob.click(board, "lb:next:rating:all:3")
        assert last.response_type == 7
        lines = board.embeds[0]["description"].splitlines()
        assert lines[0].startswith("**21.**")
        line = lines.index("*Not ranked yet: provisional ratings (shown with ?)*")
        assert line == 4 and len(lines) == 7  # ranks 21 to 24, the line, Bob and 20,000
        assert {row.split(" — ")[0] for row in lines[5:]} == {f"<@{bob.id}>", "<@20000>"}
        assert "page 3 of 3" in board.embeds[0]["footer"]["text"]
        assert "24 ranked (settled ratings)" in board.embeds[0]["footer"]["text"]
        await bob.click(board, "lb:prev:rating:all:2")

        before = (board.embeds, board.custom_ids())
        for forged in (
            "lb:next:rating:all:9",
            "lb:next:rating:all:0",
            "lb:next:rating:all:-1",
            "lb:next:rating:all:²",
            "lb:next:rating:all:99999999999999999999999",
            "lb:next:sneaky:all:2",
            "lb:next:rating:no-such-preset:2",
            "lb:next:rating:all:2:3",
            "lb:",
        ):
            result = await ann.click_forged(board, forged)
            assert refused(result, "page of the leaderboard does not exist"), (forged, result)
        assert (board.embeds, board.custom_ids()) == before

        by_points = await ann.slash(standin.channel, "leaderboard", by="points", preset="classic")
        assert by_points.reply is not None
        assert "lb:next:points:classic:2" in by_points.reply.custom_ids()
        assert "Ranked by average points a hand" in by_points.reply.embeds[0]["footer"]["text"]

        service = bot.tables.service
        with pytest.raises(Refused, match="no_such_page"):
            await service.lookups.leaderboard(standin.guild.id, page=4)
        with pytest.raises(Refused, match="no_such_order"):
            await service.lookups.leaderboard(standin.guild.id, by="sneaky")


async def test_ratings_are_explained_by_ohhell_ratings(
    standin: StandIn, start_bot: BotFactory
) -> None:
    async with start_bot():
        ann = standin.person("Ann")
        asked = await ann.slash(standin.channel, "ohhell ratings")
        assert asked.ephemeral and asked.reply is not None
        (embed,) = asked.reply.embeds
        assert embed["title"] == "How ratings work"
        text = embed["description"]
        for words in (
            "Everyone starts at 1,000",
            "**?** after a rating",
            "100 points: 64%; 200 points: 76%; 400 points: 91%",
            "leaving always costs rating",
        ):
            assert words in text, words
