"""/ohhell leave asks first; mid-game a computer takes the seat and the game counts as left."""

from __future__ import annotations

from standin.server import StandIn
from tests.end_to_end.conftest import BotFactory
from tools.simulated_people import hand_message, open_table, play_until_over, table_embed


async def test_leaving_a_lobby_asks_first(standin: StandIn, start_bot: BotFactory) -> None:
    async with start_bot():
        ann, bob = standin.person("Ann"), standin.person("Bob")
        table, t = await open_table(standin, [ann, bob])
        asked = await bob.slash(standin.channel, "ohhell leave")
        assert asked.ephemeral and asked.reply is not None
        assert "2 seated" in table_embed(table)["description"]
        done = await bob.click(asked.reply, f"oh:leaveok:{t}")
        assert done.response_type == 7 and "left" in (done.content or "")
        await standin.wait_for(lambda: "1 seated" in table_embed(table)["description"])


async def test_leaving_mid_game_hands_the_seat_to_a_computer(
    standin: StandIn, start_bot: BotFactory
) -> None:
    async with start_bot() as bot:
        ann, bob, cat = (standin.person(n) for n in ("Ann", "Bob", "Cat"))
        table, t = await open_table(standin, [ann, bob, cat], preset="classic", max_cards=2)
        await ann.click(table, f"oh:start:{t}")
        await standin.wait_for(lambda: hand_message(cat) is not None)
        asked = await cat.slash(standin.channel, "ohhell leave")
        assert asked.reply is not None and "computer player takes your seat" in (
            asked.reply.content or ""
        )
        done = await cat.click(asked.reply, f"oh:leaveok:{t}")
        assert done.response_type == 7
        await standin.wait_for(lambda: "Cat (left; a computer plays)" in str(table_embed(table)))
        await standin.wait_for(
            lambda: "A computer is playing your seat" in str(cat.dms()[-1].embeds)
        )
        again = await cat.slash(standin.channel, "ohhell leave")
        assert again.ephemeral and "not seated" in (again.content or "")
        await play_until_over(standin, [ann, bob], table)
        await bot.presenter.ground.idle()
        counted = await bot.tables.service.db.store.backend.fetchone(
            "SELECT games, wins FROM ratings WHERE guild_id = ? AND preset = '' AND user_id = ?",
            (standin.guild.id, cat.id),
        )
        assert counted == (1, 0)
