"""A table whose channel is deleted, or whose server the bot leaves, is cancelled: the players'
hand messages say why, nothing is kept for it, and other tables play on."""

from __future__ import annotations

from bot.service import TableStatus
from standin.driver import Person
from standin.server import StandIn
from standin.world import Channel, Message, Perm
from tests.end_to_end.conftest import BotFactory
from tests.end_to_end.test_errors import corrupt
from tests.end_to_end.test_table_life import start_game
from tools.simulated_people import hand_message, my_turn_controls, open_table, take_turn


async def game_in_new_channel(standin: StandIn) -> tuple[list[Person], Channel, int]:
    """Ann, Bob and Cat playing a short classic game in a new channel "#cards"."""
    people = [standin.person(n) for n in ("Ann", "Bob", "Cat")]
    room = await standin.add_text_channel("cards")
    _, table_id = await start_game(standin, people, channel=room, preset="classic", max_cards=3)
    return people, room, table_id


def closed_saying(message: Message, text: str) -> bool:
    """A hand DM closed by the bot: `text` in its words, no controls left."""
    return text in (message.content or "") and not message.components


async def test_a_deleted_channel_cancels_its_table_and_tells_the_players(
    standin: StandIn, start_bot: BotFactory
) -> None:
    async with start_bot() as bot:
        service = bot.tables.service
        people, room, t = await game_in_new_channel(standin)
        await service.lobby.set_channel_defaults(
            guild_id=standin.guild.id,
            channel_id=room.id,
            user_id=people[0].id,
            settings={"preset": "classic"},
            can_manage=True,
        )
        # A lobby in another channel, untouched by it.
        others = [standin.person(n) for n in ("Dan", "Eve")]
        _, u = await open_table(standin, others)
        # The first hand's score post cannot be posted, and is kept for a catch-up.
        await standin.deny_bot(room, Perm.SEND_MESSAGES)
        while not any((m := hand_message(p)) and "hand 2" in str(m.embeds) for p in people):
            mover = await standin.wait_for(
                lambda: next((p for p in people if my_turn_controls(p)), None)
            )
            message, ids = my_turn_controls(mover) or (None, [])
            assert message is not None
            await take_turn(mover, message, ids[0])
        await bot.presenter.ground.idle()
        assert t in bot.presenter.cached_tables()
        dms = [hand_message(p) for p in people]
        assert all(dm is not None and "cancelled" not in (dm.content or "") for dm in dms)
        assert any(dm is not None and dm.components for dm in dms)  # the one whose turn it is

        await standin.delete_channel(room)

        for dm in dms:
            assert dm is not None
            await standin.wait_for(
                lambda dm=dm: closed_saying(dm, "cancelled: its channel was deleted")
            )
        await bot.presenter.ground.idle()
        assert (await service.db.tables.load(t)).status is TableStatus.CANCELLED
        assert (await service.db.tables.load(u)).status is TableStatus.LOBBY
        assert await service.db.channels.defaults(room.id) is None
        assert t not in bot.presenter.cached_tables() | service.session.cached_tables()
        # A click on a button the message no longer has is refused and changes nothing.
        version = (await service.db.tables.load(t)).version
        dm = dms[0]
        assert dm is not None
        late = await people[0].click_forged(dm, f"oh:play:{t}:1:0")
        assert late.ephemeral and "not for you" in (late.content or ""), late.content
        assert (await service.db.tables.load(t)).version == version
        board = await service.lookups.leaderboard(standin.guild.id)
        assert (board.rows, board.ranked) == ([], 0)


async def test_a_deleted_thread_cancels_its_lobby(standin: StandIn, start_bot: BotFactory) -> None:
    async with start_bot() as bot:
        people = [standin.person(n) for n in ("Ann", "Bob")]
        thread = await standin.add_thread(standin.channel, "a quick game")
        _, t = await open_table(standin, people, channel=thread)
        await standin.delete_channel(thread)
        await standin.wait_for(lambda: bot.presenter.cached_tables() == set(), timeout=5)
        row = await bot.tables.service.db.tables.load(t)
        assert row.status is TableStatus.CANCELLED


async def test_a_channel_deleted_while_the_bot_was_not_listening_closes_at_the_next_edit(
    standin: StandIn, start_bot: BotFactory
) -> None:
    async with start_bot() as bot:
        people, room, t = await game_in_new_channel(standin)
        await bot.presenter.ground.idle()
        # Gone from Discord with no event (the bot was stopped, or the event was lost): the
        # next table-message edit learns it from Discord's "Unknown Channel".
        standin.world.delete_channel(room)
        mover = next(p for p in people if my_turn_controls(p))
        message, ids = my_turn_controls(mover) or (None, [])
        assert message is not None
        await take_turn(mover, message, ids[0])
        dm = hand_message(people[0])
        assert dm is not None
        await standin.wait_for(lambda: closed_saying(dm, "its channel was deleted"))
        row = await bot.tables.service.db.tables.load(t)
        assert row.status is TableStatus.CANCELLED


async def test_removing_the_bot_from_a_server_cancels_its_tables_there_only(
    standin: StandIn, start_bot: BotFactory
) -> None:
    elsewhere = standin.world.add_guild("Elsewhere")
    hall = standin.world.add_text_channel(elsewhere, "hall")
    async with start_bot() as bot:
        service = bot.tables.service
        here = [standin.person(n) for n in ("Ann", "Bob", "Cat")]
        there: list[Person] = [standin.person(n) for n in ("Dan", "Eve", "Fay")]
        _, kept = await start_game(standin, here, preset="classic", max_cards=3)
        _, lobby = await open_table(standin, there[:2], channel=hall)
        side = await standin.add_text_channel("side", guild=elsewhere)
        _, playing = await start_game(standin, there, channel=side, preset="classic", max_cards=3)
        await bot.presenter.ground.idle()
        dm = hand_message(there[2])
        assert dm is not None

        await standin.remove_bot(elsewhere)

        await standin.wait_for(
            lambda: closed_saying(dm, "cancelled: the bot was removed from the server")
        )
        await bot.presenter.ground.idle()
        assert (await service.db.tables.load(lobby)).status is TableStatus.CANCELLED
        assert (await service.db.tables.load(playing)).status is TableStatus.CANCELLED
        assert (await service.db.tables.load(kept)).status is TableStatus.PLAYING
        assert bot.presenter.cached_tables() == {kept}


async def test_a_corrupt_table_in_a_deleted_channel_is_cancelled_from_its_columns(
    standin: StandIn, start_bot: BotFactory, database_url: str
) -> None:
    async with start_bot() as bot:
        _, room, t = await game_in_new_channel(standin)
        await bot.presenter.ground.idle()
        await corrupt(database_url, t)
        await standin.delete_channel(room)
        await standin.wait_for(lambda: bot.presenter.cached_tables() == set(), timeout=5)
        await bot.presenter.ground.idle()
        assert await bot.tables.service.db.tables.open_in_channel(room.id) is None
        assert bot.tables.service.session.cached_tables() == set()
