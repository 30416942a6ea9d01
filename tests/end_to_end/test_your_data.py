"""Your data is yours, through the real client and the stand-in: `/ohhell my-data` answers with
a file of everything stored about the person who asks; `/ohhell forget-me` asks first, then
erases them everywhere (the confirmation refused when forged, stale or clicked again), and the
others' games, records, stats and leaderboard stand, the person a former player in them."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from bot.engine import Game
from bot.engine.records import replay
from bot.service import TableStatus
from cogs.render.common import NOT_FOR_YOU
from standin.driver import Person
from standin.server import StandIn
from standin.world import Channel, Message, Perm
from tests.end_to_end.conftest import BotFactory
from tests.end_to_end.test_history_commands import replayed, text_of
from tests.privacy_scan import every_row, places_holding
from tools.simulated_people import (
    add_computer,
    hand_message,
    my_turn_controls,
    open_table,
    play_until_over,
    take_turn,
)

ANN = "Annabel"


async def finished_game(standin: StandIn, people: list[Person]) -> tuple[Message, int]:
    table, table_id = await open_table(standin, people, preset="classic", max_cards=2)
    await add_computer(standin, people[0], table, table_id, "easy")
    await people[0].click(table, f"oh:start:{table_id}")
    await play_until_over(standin, people, table)
    return table, table_id


async def first_hand_unposted(
    standin: StandIn, people: list[Person], room: Channel
) -> tuple[Message, int]:
    """A game in `room` whose first hand is played while the bot may not post there: its score
    waits in the outbox."""
    table, table_id = await open_table(standin, people, channel=room, preset="classic", max_cards=3)
    await people[0].click(table, f"oh:start:{table_id}")
    await standin.wait_for(lambda: any(my_turn_controls(p) for p in people))
    await standin.deny_bot(room, Perm.SEND_MESSAGES)
    while not any((m := hand_message(p)) is not None and "hand 2" in str(m.embeds) for p in people):
        mover = await standin.wait_for(
            lambda: next((p for p in people if my_turn_controls(p)), None), timeout=10
        )
        message, ids = my_turn_controls(mover) or (None, [])
        assert message is not None
        await take_turn(mover, message, ids[0])
    return table, table_id


async def test_my_data_is_a_private_file_of_everything_stored_about_you(
    standin: StandIn, start_bot: BotFactory
) -> None:
    async with start_bot():
        ann, bob = standin.person(ANN), standin.person("Bob")
        _, table_id = await finished_game(standin, [ann, bob])
        asked = await ann.slash(standin.channel, "ohhell my-data")
        loaded = await asked.wait_until_loaded()
        sent = asked.followups[0] if asked.followups else loaded
        assert asked.ephemeral and sent.ephemeral
        assert "1 game, 1 server" in sent.content
        (attached,) = sent.attachments
        assert attached.filename == "ohhell-my-data.json"
        data = json.loads(attached.data)
        assert data["format"] == "ohhell-my-data/1" and data["user_id"] == str(ann.id)
        (game,) = data["games"]
        assert game["game"] == table_id and game["name"] == ANN and game["host"]
        assert replay(game["record"])["game_over"]
        assert [row["user_id"] for row in data["results"]] == [str(ann.id)]
        assert str(bob.id) not in attached.data.decode()

        again = await ann.slash(standin.channel, "ohhell my-data")
        await again.wait_until_loaded()
        shown = again.followups[0] if again.followups else again.reply
        assert shown is not None and "ask again" in shown.content and not shown.attachments


async def test_forget_me_erases_you_everywhere_and_the_others_games_stand(
    standin: StandIn, start_bot: BotFactory, database_url: str, tmp_path: Path
) -> None:
    async with start_bot(settings={"leaderboard_min_games": 1}) as bot:
        service = bot.tables.service
        ann, bob, cat = standin.person(ANN), standin.person("Bob"), standin.person("Cat")
        _, finished = await finished_game(standin, [ann, bob])
        recorded = await bob.slash(standin.channel, "ohhell record", game=finished)
        assert recorded.reply is not None
        scored_before = replay(json.loads(recorded.reply.attachments[0].data))
        room = await standin.add_text_channel("cards")
        playing_table, playing = await first_hand_unposted(standin, [ann, bob, cat], room)
        await bot.presenter.ground.idle()
        assert room.id in await service.posts.refused_channels()
        assert await places_holding(database_url, [str(ann.id), ANN]) != {}

        asked = await ann.slash(standin.channel, "ohhell forget-me")
        offer = asked.reply
        assert asked.ephemeral and offer is not None
        assert "cannot be undone" in offer.content and "Former player 1" in offer.content
        assert (
            "- Your sign-ins at the bot's web pages (the Activity, or a browser logged in with "
            "Discord) end at once: a page you have open stops playing for you." in offer.content
        )
        (button,) = offer.custom_ids()
        assert button.startswith("ohf:erase:")

        # A forged confirmation, or one asked for earlier, changes nothing.
        before = await every_row(database_url)
        for forged in ("ohf:erase:" + "0" * 32, "ohf:erase", "ohf:", button + "0"):
            refused = await ann.click_forged(offer, forged)
            assert refused.ephemeral and refused.content == NOT_FOR_YOU, forged
        newer = await ann.slash(standin.channel, "ohhell forget-me")
        assert newer.reply is not None
        stale = await ann.click(offer, button)
        await stale.wait_for(lambda r: r.followups)
        assert "used up or too old" in stale.followups[0].content
        assert "Erase" in str(offer.components)  # the message stays as it was
        after = await every_row(database_url)
        assert {k: v for k, v in after.items() if k != "leases"} == {
            k: v for k, v in before.items() if k != "leases"
        }

        # Clicked twice at once: one erases, the other is refused.
        (button,) = newer.reply.custom_ids()
        clicks = await asyncio.gather(
            ann.click(newer.reply, button), ann.click(newer.reply, button)
        )
        await standin.wait_for(lambda: "Done" in newer.reply.content if newer.reply else False)
        assert not newer.reply.components
        (refused,) = await standin.wait_for(lambda: [c for c in clicks if c.followups] or None)
        assert "used up or too old" in refused.followups[0].content
        await bot.presenter.ground.idle()
        assert await places_holding(database_url, [str(ann.id), ANN]) == {}

        # Once more, with the button gone: refused, nothing changed.
        before = await every_row(database_url)
        late = await ann.click_forged(newer.reply, button)
        assert late.ephemeral and late.content == NOT_FOR_YOU
        assert await every_row(database_url) == before

        # The game under way goes on, her seat a former player's that a computer plays.
        await standin.wait_for(lambda: "Former player 1" in text_of(playing_table))
        assert ANN not in text_of(playing_table)
        await standin.allow_bot(room, Perm.SEND_MESSAGES)
        caught_up = await standin.wait_for(
            lambda: next((m for m in standin.messages(room) if "Missed while" in m.content), None),
            timeout=10,
        )
        assert "Former player 1" in caught_up.content and ANN not in caught_up.content
        await play_until_over(standin, [bob, cat], playing_table)
        await bot.presenter.ground.idle()
        assert (await service.db.tables.load(playing)).status is TableStatus.FINISHED
        assert await places_holding(database_url, [str(ann.id), ANN]) == {}

        # The others' record replays as it did, with a former player in her seat.
        recorded = await bob.slash(standin.channel, "ohhell record", game=finished)
        assert recorded.reply is not None
        attached = recorded.reply.attachments[0]
        record = json.loads(attached.data)
        assert record["players"][0] == "Former player 1"
        scored = replayed(attached, tmp_path)
        assert (scored["totals"], scored["hands"]) == (
            scored_before["totals"],
            scored_before["hands"],
        )
        game = Game.from_json((await service.db.tables.load(finished)).document["game"])
        assert list(game.names) == scored["players"]

        # Stats, history and the leaderboard work, without her.
        stats = await bob.slash(standin.channel, "ohhell stats")
        shown = await stats.wait_until_loaded()
        assert "2 played" in text_of(stats.followups[0] if stats.followups else shown)
        listed = await bob.slash(standin.channel, "ohhell history")
        assert listed.reply is not None and "Former player 1" in text_of(listed.reply)
        # The board ranks settled ratings only: these stand in for many more games.
        await service.db.store.backend.execute("UPDATE ratings SET sigma = 1")
        board = await bob.slash(standin.channel, "leaderboard")
        assert board.reply is not None
        assert str(bob.id) in text_of(board.reply) and str(ann.id) not in text_of(board.reply)
        mine = await ann.slash(standin.channel, "ohhell stats")
        await mine.wait_until_loaded()
        nothing = mine.followups[0] if mine.followups else mine.reply
        assert nothing is not None and "Rating" not in text_of(nothing)

        # With her client in another language now, reading and a refused click store nothing
        # of her (this process kept nothing of her either); her next action, joining a table,
        # stores her language again, as a new person's.
        assert ann.id not in bot.speakers._people
        ann.set_locale("de")
        await ann.slash(standin.channel, "ohhell ratings")
        await ann.slash(standin.channel, "leaderboard")
        refused = await ann.click_forged(newer.reply, button)
        assert refused.ephemeral
        assert await places_holding(database_url, [str(ann.id), ANN]) == {}
        await open_table(standin, [bob, ann], preset="classic")
        for _ in range(200):  # stored once the click is answered
            if await service.languages.person_locale(ann.id) is not None:
                break
            await asyncio.sleep(0.01)
        assert await service.languages.person_locale(ann.id) == "de"
