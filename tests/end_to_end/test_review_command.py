"""/ohhell review through the real discord.py client and the stand-in: a private reply that
shows its progress, then the review naming cards the way people read them."""

from __future__ import annotations

import re

from bot.engine import Game
from cogs.render import card_text
from standin.server import StandIn
from tests.end_to_end.conftest import BotFactory
from tools.simulated_people import game_over, hand_message, open_table, play_until_over

REVIEW = {"review_iterations": 6}
CODE_NOTATION = re.compile(r"(?<![\w#])(?:10|[2-9JQKA])[CDHS]\b")


async def test_a_player_reviews_their_last_game_privately(
    standin: StandIn, start_bot: BotFactory
) -> None:
    async with start_bot(settings=REVIEW) as bot:
        ann, bob, cat, dan = (standin.person(n) for n in ("Ann", "Bob", "Cat", "Dan"))
        table, table_id = await open_table(standin, [ann, bob, cat], preset="classic", max_cards=3)
        await ann.click(table, f"oh:start:{table_id}")
        await standin.wait_for(lambda: all(hand_message(p) for p in (ann, bob, cat)))
        await play_until_over(standin, [ann, bob, cat], table)
        assert game_over(table)
        await bot.presenter.ground.idle()

        asked = await ann.slash(standin.channel, "ohhell review")
        assert asked.response_type == 5 and asked.ephemeral
        reply = await asked.wait_for(
            lambda r: r.reply is not None and r.reply.embeds and not r.reply.loading, timeout=30
        )
        message = asked.reply
        assert reply and message is not None
        shown = [revision.content for revision in message.history]
        progress = [c for c in shown if c and c.startswith("Reviewing… 0 of ")]
        assert progress, shown
        counted = re.fullmatch(r"Reviewing… 0 of (\d+) decisions?", progress[0])
        assert counted is not None
        embed = message.embeds[0]
        assert embed["title"] == f"Review of game #{table_id} — Ann"
        text = embed["description"]
        assert f"judged your {counted[1]} decision" in text
        assert "**Hand by hand**" in text and len(re.findall(r"\*\*Hand \d", text)) == 5
        game = Game.from_json((await bot.tables.service.db.tables.load(table_id)).document["game"])
        for log in game.history():
            for card in log.dealt[0]:
                assert card_text(game.pack.cards[card]) in text
        assert not CODE_NOTATION.search(text), text
        assert not message.content
        # nobody else sees it
        assert all(not p.can_see(message) for p in (bob, cat, dan))

        # a forged game number, someone who did not play, one game of theirs by number
        forged = await ann.slash(standin.channel, "ohhell review", game=table_id + 41)
        await forged.wait_until_loaded()
        assert forged.reply is not None and forged.ephemeral
        assert forged.reply.content == f"This server has no game #{table_id + 41}"
        stranger = await dan.slash(standin.channel, "ohhell review", game=table_id)
        await stranger.wait_until_loaded()
        assert stranger.content == f"You did not play in game #{table_id}"
        nothing = await dan.slash(standin.channel, "ohhell review")
        await nothing.wait_until_loaded()
        assert nothing.content == "You have no finished game in this server to review yet"
        by_number = await bob.slash(standin.channel, "ohhell review", game=table_id)
        await by_number.wait_for(lambda r: r.reply is not None and r.reply.embeds, timeout=30)
        assert by_number.reply is not None
        assert by_number.reply.embeds[0]["title"] == f"Review of game #{table_id} — Bob"
