"""Finished games looked at again, through the real client and the stand-in: the score chart on
the final standings, /ohhell record, /ohhell history in pages, /ohhell stats."""

from __future__ import annotations

import concurrent.futures
import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from bot.app import build
from bot.config import BotSettings
from bot.engine import Game
from bot.engine.records import replay
from bot.service import Refused, Seat
from bot.storage import Database
from cogs.render.charts import CHART_SIZE, RATING_CHART_SIZE
from cogs.render.common import NOT_FOR_YOU
from cogs.render.stats import RATING_CHART_FILE
from standin.server import StandIn
from standin.testing import run_bot
from standin.world import Attachment, Message
from tests.end_to_end.conftest import BotFactory, random_legal
from tests.finished_games import people, store_finished
from tools.simulated_people import add_computer, hand_message, open_table, play_until_over


def distinct_colours(png: bytes) -> int:
    image = Image.open(io.BytesIO(png)).convert("RGB")
    colours = image.getcolors(maxcolors=1 << 20)
    assert colours is not None
    return len(colours)


async def finish_game_in_db(
    database: Database, guild_id: int, channel_id: int, names: list[str], seed: int
) -> int:
    number, _ = await store_finished(database, guild_id, channel_id, people(*names), seed)
    return number


def replayed(attached: Attachment, folder: Path) -> dict[str, Any]:
    """What `python -m bot.engine.replay` prints for an attached record (saved in `folder`)."""
    path = folder / attached.filename
    path.write_bytes(attached.data)
    ran = subprocess.run(
        [sys.executable, "-m", "bot.engine.replay", str(path)],
        capture_output=True,
        text=True,
        check=True,
    )
    result: dict[str, Any] = json.loads(ran.stdout)
    return result


def text_of(message: Message) -> str:
    """A message's content and its embeds' title, description and fields, as one text."""
    parts = [message.content]
    for embed in message.embeds:
        parts += [str(embed.get("title", "")), str(embed.get("description", ""))]
        parts += [f"{f['name']} {f['value']}" for f in embed.get("fields", [])]
        parts.append(str(embed.get("footer", {}).get("text", "")))
    return "\n".join(parts)


async def test_a_finished_game_posts_its_chart_and_can_be_looked_up_again(
    standin: StandIn, start_bot: BotFactory, tmp_path: Path
) -> None:
    async with start_bot() as bot:
        ann, bob = standin.person("Ann"), standin.person("Bob")
        table, table_id = await open_table(standin, [ann, bob], preset="classic", max_cards=3)
        await add_computer(standin, ann, table, table_id, "easy")
        await ann.click(table, f"oh:start:{table_id}")
        await standin.wait_for(lambda: all(hand_message(p) for p in (ann, bob)))
        await play_until_over(standin, [ann, bob], table)
        await bot.presenter.ground.idle()

        # The final standings name the game and carry its score chart: a real PNG.
        standings = [m for m in ann.visible_messages(standin.channel) if "Game over" in m.content]
        assert len(standings) == 1
        post = standings[0]
        assert f"Game #{table_id}" in post.content
        await standin.wait_for(lambda: post.attachments, timeout=30)
        (chart,) = post.attachments
        assert chart.filename == f"ohhell-game-{table_id}.png"
        image = Image.open(io.BytesIO(chart.data))
        assert image.format == "PNG" and image.size == CHART_SIZE
        assert distinct_colours(chart.data) > 20  # three coloured lines and the text on white

        # /ohhell record: a file the replay command scores exactly as the table did.
        row = await bot.tables.service.db.tables.load(table_id)
        game = Game.from_json(row.document["game"])
        asked = await bob.slash(standin.channel, "ohhell record")
        assert asked.ephemeral and asked.reply is not None
        (attached,) = asked.reply.attachments
        assert attached.filename == f"ohhell-game-{table_id}.json"
        record = json.loads(attached.data)
        assert record["players"] == ["Ann", "Bob", list(game.names)[2]]
        scored = replayed(attached, tmp_path)
        assert scored["game_over"] is True
        assert scored["totals"] == list(game.totals)
        assert scored["placing"] == list(game.placing or ())
        assert replay(record)["totals"] == list(game.totals)
        by_number = await bob.slash(standin.channel, "ohhell record", game=table_id)
        assert by_number.reply is not None
        assert by_number.reply.attachments[0].data == attached.data

        # /ohhell history lists it with its players and winner.
        listed = await ann.slash(standin.channel, "ohhell history")
        assert listed.ephemeral and listed.reply is not None
        line = text_of(listed.reply)
        assert f"#{table_id}" in line and "Ann, Bob" in line and "classic" in line
        winners = [game.names[s] for s, place in enumerate(game.placing or ()) if place == 1]
        assert f"🏆 {winners[0]}" in line
        assert not listed.reply.components  # one page: no buttons

        # /ohhell stats shows the game, for oneself and for another player.
        mine = await ann.slash(standin.channel, "ohhell stats")
        shown = await mine.wait_until_loaded()
        followup = mine.followups[0] if mine.followups else shown
        stats = text_of(followup)
        assert "1 played" in stats
        assert "easy: " in stats and " of 1" in stats
        hers = await ann.slash(standin.channel, "ohhell stats", player=bob)
        await hers.wait_until_loaded()
        theirs = hers.followups[0] if hers.followups else hers.reply
        assert theirs is not None
        assert "Bob" in text_of(theirs) and "1 played" in text_of(theirs)


async def test_history_pages_and_forged_pages(standin: StandIn, start_bot: BotFactory) -> None:
    async with start_bot() as bot:
        database = bot.tables.service.db
        guild, channel = standin.guild.id, standin.channel.id
        numbers = [
            await finish_game_in_db(database, guild, channel, ["Ann", "Bob", f"P{i}"], seed=i)
            for i in range(12)
        ]
        elsewhere = await finish_game_in_db(database, guild + 1, 99, ["Zed", "Yan", "Xi"], 99)
        ann = standin.person("Ann")
        listed = await ann.slash(standin.channel, "ohhell history")
        page = listed.reply
        assert page is not None
        first = text_of(page)
        assert all(f"#{n}" in first for n in numbers[2:]) and f"#{numbers[1]}" not in first
        assert f"#{elsewhere}" not in first  # another server's game
        assert "Page 1" in first
        assert set(page.custom_ids()) == {"ohp:history:1", "ohp:history:2"}

        # Forged page values: refused, and the page stays as it was.
        before = (page.content, page.embeds, page.components)
        for forged in ("ohp:history:0", "ohp:history:3", "ohp:history:x", "ohp:ratings:2", "ohp:"):
            refused = await ann.click_forged(page, forged)
            assert refused.ephemeral and refused.content == NOT_FOR_YOU, forged
        assert (page.content, page.embeds, page.components) == before

        turned = await ann.click(page, "ohp:history:2")
        assert turned.response_type == 7
        second = text_of(page)
        assert "Page 2" in second and f"#{numbers[0]}" in second and f"#{numbers[1]}" in second
        assert f"#{numbers[2]}" not in second
        back = await ann.click(page, "ohp:history:1")
        assert back.response_type == 7 and "Page 1" in text_of(page)

        # A page past the end (the bot never offers one; a page left stale by nothing) is
        # refused by the service itself.
        with pytest.raises(Refused) as refused_page:
            await bot.community.service.finished_games.history(guild, 3)
        assert refused_page.value.reason.code == "no_page"

        # Another server's game is no game here.
        other = await ann.slash(standin.channel, "ohhell record", game=elsewhere)
        assert other.ephemeral and other.content is not None
        assert f"no finished game #{elsewhere}" in other.content
        assert not other.reply or not other.reply.attachments


async def test_the_standings_go_out_without_the_chart_when_it_cannot_be_drawn(
    standin: StandIn, start_bot: BotFactory, caplog: pytest.LogCaptureFixture
) -> None:
    async with start_bot() as bot:

        async def broken_worker(function: Any, *args: Any) -> Any:
            raise RuntimeError("the worker process died")

        bot.presenter.posts.run_blocking = broken_worker
        ann, bob, cat = (standin.person(n) for n in ("Ann", "Bob", "Cat"))
        table, table_id = await open_table(standin, [ann, bob, cat], preset="classic", max_cards=1)
        await ann.click(table, f"oh:start:{table_id}")
        await play_until_over(standin, [ann, bob, cat], table)
        await bot.presenter.ground.idle()
        standings = [m for m in ann.visible_messages(standin.channel) if "Game over" in m.content]
        assert len(standings) == 1 and f"Game #{table_id}" in standings[0].content
        assert standings[0].attachments == []
        assert "the score chart could not be drawn" in caplog.text


async def test_the_chart_is_drawn_in_a_worker_process(standin: StandIn, database_url: str) -> None:
    """As the bot runs: the chart's values cross into the computer players' process pool, and
    the PNG comes back to the standings post."""
    settings = BotSettings(discord_token="test", database_url=database_url, _env_file=None)
    bot, database, pool = await build(settings, decide=random_legal, workers=1)
    assert isinstance(pool, concurrent.futures.ProcessPoolExecutor)
    try:
        async with run_bot(standin, bot):
            ann, bob, cat = (standin.person(n) for n in ("Ann", "Bob", "Cat"))
            table, table_id = await open_table(
                standin, [ann, bob, cat], preset="classic", max_cards=1
            )
            await ann.click(table, f"oh:start:{table_id}")
            await play_until_over(standin, [ann, bob, cat], table)
            await bot.presenter.ground.idle()
            (post,) = [m for m in ann.visible_messages(standin.channel) if "Game over" in m.content]
            (chart,) = post.attachments
            assert Image.open(io.BytesIO(chart.data)).size == CHART_SIZE
    finally:
        await database.close()
        pool.shutdown(cancel_futures=True)


async def test_stats_show_the_rating_its_rank_and_its_chart(
    standin: StandIn, start_bot: BotFactory
) -> None:
    async with start_bot() as bot:
        database = bot.tables.service.db
        guild, channel = standin.guild.id, standin.channel.id
        ann, bob, cat = (standin.person(n) for n in ("Ann", "Bob", "Cat"))
        for seed in range(5):
            seats = [Seat(user_id=p.id, name=p.name) for p in (ann, bob, cat)]
            if seed % 2:
                seats[2] = Seat(name="Hard bot", level="hard")
            preset = "classic" if seed < 3 else "oh-hell"
            await store_finished(database, guild, channel, seats, seed, preset=preset)
        history = await database.results.rating_history(guild, ann.id)
        overall = await database.results.player_rating(guild, ann.id)
        assert overall is not None and overall.provisional and len(history) == 5
        assert overall.rating == history[-1].rating

        asked = await ann.slash(standin.channel, "ohhell stats")
        await asked.wait_until_loaded()
        shown = asked.followups[0] if asked.followups else asked.reply
        assert shown is not None and asked.ephemeral
        text = text_of(shown)
        change, game = history[-1].change, history[-1].game
        assert f"Rating {overall.rating:,}? ({change:+,} in game #{game})" in text
        assert f"provisional: may be {overall.uncertainty} points off" in text
        assert "What the number means: /ohhell ratings" in text
        classic = await database.results.player_rating(guild, ann.id, "classic")
        oh_hell = await database.results.player_rating(guild, ann.id, "oh-hell")
        assert classic is not None and oh_hell is not None
        assert f"classic: {classic.rating:,}? · oh-hell: {oh_hell.rating:,}?" in text
        # Results against computer levels come from the stored computer seats.
        hard_tables = await database.history.computer_tables(guild, ann.id)
        assert [(level, games) for level, games, _ in hard_tables] == [("hard", 2)]
        assert f"hard: {hard_tables[0][2]} won of 2" in text
        # The rating chart: a real PNG, attached and shown in the embed.
        (chart,) = shown.attachments
        assert chart.filename == RATING_CHART_FILE
        image = Image.open(io.BytesIO(chart.data))
        assert image.format == "PNG" and image.size == RATING_CHART_SIZE
        assert distinct_colours(chart.data) > 10
        assert shown.embeds[0]["image"]["url"] == f"attachment://{RATING_CHART_FILE}"

        # Someone with no games: no rating, no chart.
        dan = standin.person("Dan")
        nothing = await dan.slash(standin.channel, "ohhell stats")
        await nothing.wait_until_loaded()
        empty = nothing.followups[0] if nothing.followups else nothing.reply
        assert empty is not None and "Rating" not in text_of(empty) and not empty.attachments


async def test_a_finished_game_that_does_not_load_is_answered_without_asking_to_cancel_it(
    standin: StandIn, start_bot: BotFactory
) -> None:
    """A finished game's record that no longer loads: /ohhell record says it cannot be shown.
    It does not say to ask the host to cancel the table, which is over."""
    async with start_bot() as bot:
        database = bot.tables.service.db
        guild, channel = standin.guild.id, standin.channel.id
        number = await finish_game_in_db(database, guild, channel, ["Ann", "Bob", "Cat"], 5)
        row = await database.tables.load(number)
        await database.tables.save(row, document={**row.document, "game": '{"v": 1}'})
        asked = await standin.person("Ann").slash(standin.channel, "ohhell record", game=number)
        assert asked.ephemeral and asked.content is not None
        assert "could not be read" in asked.content and "cancel" not in asked.content
