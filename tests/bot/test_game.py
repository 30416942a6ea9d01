"""Whole games through the real discord.py client and the stand-in."""

from __future__ import annotations

from bot.engine import Game
from standin.server import StandIn
from tests.bot.conftest import BotFactory
from tests.bot.privacy import assert_private_hands_stay_private
from tools.simulated_people import (
    game_over,
    hand_message,
    open_table,
    play_until_over,
    table_embed,
    table_id_of,
)


async def test_three_people_play_a_short_classic_game(
    standin: StandIn, start_bot: BotFactory
) -> None:
    async with start_bot(settings={"leaderboard_min_games": 1}) as bot:
        ann, bob, cat = (standin.person(n) for n in ("Ann", "Bob", "Cat"))
        opened = await ann.slash(standin.channel, "ohhell start", preset="classic", max_cards=2)
        assert opened.response_type == 4 and not opened.ephemeral
        table = opened.reply
        assert table is not None
        assert "Join" in [c.get("label") for c in table.iter_components()]
        table_id = table_id_of(table)
        for person in (bob, cat):
            joined = await person.click(table, f"oh:join:{table_id}")
            assert joined.response_type == 7
        assert "3 seated" in table_embed(table)["description"]
        started = await ann.click(table, f"oh:start:{table_id}")
        assert started.response_type == 7
        await standin.wait_for(lambda: all(hand_message(p) for p in (ann, bob, cat)))
        clicks = await play_until_over(standin, [ann, bob, cat], table)
        assert game_over(table)
        # classic with at most 2 cards: hands of 1, 2, 1 cards. Every bid is a click; forced
        # cards (all of a one-card hand, every last trick) are played automatically.
        kinds = [e.kind for e in await bot.tables.service.db.events(table_id)]
        assert kinds.count("BidMade") == 9
        assert kinds.count("CardPlayed") == 3 * (1 + 2 + 1)
        assert 9 < clicks < 9 + 12
        await bot.tables.idle()
        row = await bot.tables.service.db.load_table(table_id)
        game = Game.from_json(row.document["game"])
        seats = {"Ann": 0, "Bob": 1, "Cat": 2}
        assert assert_private_hands_stay_private(standin, [ann, bob, cat], game, seats) > 20

        def channel_lines(word: str) -> list[str]:
            return [m.content for m in ann.visible_messages(standin.channel) if word in m.content]

        await standin.wait_for(lambda: channel_lines("Game over"))
        assert len(channel_lines("scored")) == 3
        assert len(channel_lines("Game over")) == 1
        board = await ann.slash(standin.channel, "leaderboard")
        assert board.reply is not None
        text = board.reply.embeds[0]["description"]
        assert text.count("1 game") == 3


async def test_edits_that_discord_keeps_refusing_are_retried_until_they_land(
    standin: StandIn, start_bot: BotFactory
) -> None:
    """discord.py gives up on a request after five 429s; a dropped hand-message edit would leave
    a person never seeing their turn, so the bot tries again later."""
    async with start_bot():
        ann, bob, cat = (standin.person(n) for n in ("Ann", "Bob", "Cat"))
        table, table_id = await open_table(standin, [ann, bob, cat], preset="classic", max_cards=2)
        await ann.click(table, f"oh:start:{table_id}")
        await standin.wait_for(lambda: all(hand_message(p) for p in (ann, bob, cat)))
        edits = "PATCH /channels/{channel_id}/messages/{message_id}"
        standin.rate_limits.inject_429(edits, times=12, retry_after=0.01)
        await play_until_over(standin, [ann, bob, cat], table)
        assert standin.rate_limits.refusals >= 12
