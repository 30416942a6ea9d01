"""Whole games through the real discord.py client and the stand-in."""

from __future__ import annotations

from bot.engine import Game
from standin.server import StandIn
from tests.end_to_end.conftest import BotFactory
from tests.end_to_end.privacy import assert_private_hands_stay_private
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
    async with start_bot() as bot:
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
        kinds = [e.kind for e in await bot.tables.service.db.tables.events(table_id)]
        assert kinds.count("BidMade") == 9
        assert kinds.count("CardPlayed") == 3 * (1 + 2 + 1)
        assert 9 < clicks < 9 + 12
        await bot.presenter.ground.idle()
        row = await bot.tables.service.db.tables.load(table_id)
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
        (embed,) = board.reply.embeds  # one game each: provisional ratings, nobody ranked
        lines = embed["description"].splitlines()
        assert lines[0] == "*Not ranked yet: provisional ratings (shown with ?)*"
        rating = await bot.tables.service.db.results.player_rating(standin.guild.id, ann.id)
        assert rating is not None and rating.provisional
        assert f"<@{ann.id}> — **{rating.rating:,}?** · " in embed["description"]
        assert "fields" not in embed or not embed["fields"]


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


async def test_a_hand_message_left_without_controls_is_not_closed_again(
    standin: StandIn, start_bot: BotFactory
) -> None:
    """Auto-play off: everyone clicks every card. Once a person's last card is played, the
    click's answer leaves their hand message without controls (the last click's answer says
    the hand is over), so no hand's end spends calls closing hand messages."""
    async with start_bot() as bot:
        people = [standin.person(n) for n in ("Ann", "Bob", "Cat")]
        table, table_id = await open_table(standin, people, preset="classic", max_cards=2)
        for person in people:
            await bot.tables.service.playing.set_auto_play(table_id, person.id, False)
        started = await people[0].click(table, f"oh:start:{table_id}")
        assert started.response_type == 7
        await play_until_over(standin, people, table)
        await bot.presenter.ground.idle()
        hand_dms = [m for p in people for m in p.dms() if m.history]
        assert len(hand_dms) == 3 * 3  # hands of 1, 2 and 1 cards
        played_out = 0
        for message in hand_dms:
            assert message.components == []
            if message.embeds and message.embeds[0]["description"].startswith("The game is"):
                continue  # the last hand's: every hand message says the game is over
            footer = message.embeds[0]["footer"]["text"] if message.embeds else ""
            played_out += footer.startswith("Nothing more to do this hand")
        assert played_out == 2 * 2  # the first two hands: all but each one's last clicker
        edits = standin.calls_to("PATCH /channels/{channel_id}/messages/{message_id}")
        closing = [c for c in edits if " is over — " in str((c.body or {}).get("content"))]
        assert closing == []
