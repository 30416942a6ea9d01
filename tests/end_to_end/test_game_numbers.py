"""Game numbers from outside (/ohhell record game:, /ohhell review game:) that name no game:
past what Discord sends, past what the database holds, zero or negative. Each is "no such
game" and changes nothing, on both backends."""

from __future__ import annotations

import pytest

from bot.service import Refused
from bot.storage.rows import MAX_ID
from cogs import render
from standin.invocations import INT53, InvocationRefused
from standin.server import StandIn
from tests.end_to_end.conftest import BotFactory
from tests.finished_games import people, store_finished


async def test_a_game_number_no_game_can_have_is_no_such_game(
    standin: StandIn, start_bot: BotFactory
) -> None:
    async with start_bot() as bot:
        db = bot.tables.service.db
        guild, channel = standin.guild.id, standin.channel.id
        ann = standin.person("Ann")
        seats = people("Ann", "Bob", "Cat")
        seats[0] = seats[0].model_copy(update={"user_id": ann.id})
        number, _ = await store_finished(db, guild, channel, seats, seed=3)
        stored = await db.tables.load(number)

        # The options declare 1 to 2^53 - 1: Discord, and so the stand-in, sends nothing else.
        for command in ("ohhell record", "ohhell review"):
            for game in (INT53 + 1, MAX_ID + 1, 0, -1):
                with pytest.raises(InvocationRefused, match=f"outside 1 to {INT53}"):
                    await ann.slash(standin.channel, command, game=game)
        # The largest number Discord sends reaches the bot: no such game.
        record = await ann.slash(standin.channel, "ohhell record", game=INT53)
        assert record.ephemeral and record.reply is not None and not record.reply.attachments
        assert record.content == f"There is no finished game #{INT53} on this server"
        review = await ann.slash(standin.channel, "ohhell review", game=INT53)
        await review.wait_until_loaded()
        assert review.ephemeral and review.content == f"This server has no game #{INT53}"

        # The bot does not rely on Discord's limits: a number the database cannot hold (or no
        # table can have) is no such game, asked of the service directly.
        for game in (MAX_ID + 1, 2**64, 2**70, 0, -1, -(2**63) - 1):
            with pytest.raises(Refused) as record_refused:
                await bot.community.service.finished_games.game_record(guild, channel, game)
            words = render.refusal(record_refused.value)
            assert words == f"There is no finished game #{game} on this server"
            with pytest.raises(Refused) as review_refused:
                await bot.reviews.review(guild, ann.id, game)
            assert render.refusal(review_refused.value) == f"This server has no game #{game}"
        assert bot.reviews.running() == set()
        assert await db.tables.load(number) == stored

        # The game itself is still there, by its number.
        found = await ann.slash(standin.channel, "ohhell record", game=number)
        assert found.reply is not None and len(found.reply.attachments) == 1
