""" "I'm back" pressed on a channel message that is not the table's current one (an old or
duplicate table message): the hand comes as a private answer, never into the channel."""

from __future__ import annotations

from typing import Any

from bot.engine import Game
from standin.server import StandIn
from standin.world import Message
from tests.end_to_end.conftest import BotFactory
from tests.end_to_end.privacy import CARD, assert_private_hands_stay_private
from tools.simulated_people import hand_message, my_turn_controls, open_table, table_embed


def showed_a_hand(message: Message) -> bool:
    """Whether any revision of `message` was someone's hand message."""
    return any("Your hand" in str(r.embeds) for r in [*message.history, message])


async def post_table_anew(bot: Any, table_id: int) -> None:
    """The bot posts the table message again, as when it finds its message gone."""
    await bot.presenter.table_messages.post(await bot.tables.service.lookups.table_view(table_id))


async def test_back_on_an_old_table_message_answers_privately(
    standin: StandIn, start_bot: BotFactory
) -> None:
    async with start_bot() as bot:
        people = [standin.person(n) for n in ("Ann", "Bob", "Cat")]
        old, t = await open_table(standin, people, preset="classic", max_cards=4, timer=0)
        started = await people[0].click(old, f"oh:start:{t}")
        assert started.response_type == 7, started.content
        await standin.wait_for(lambda: any(my_turn_controls(p) for p in people))
        cat = people[2]
        asked = await cat.slash(standin.channel, "ohhell leave")
        assert asked.reply is not None
        await cat.click(asked.reply, f"oh:leaveok:{t}")
        await standin.wait_for(lambda: f"oh:back:{t}" in old.custom_ids())
        await bot.presenter.ground.idle()
        # The table message is posted anew (a duplicate): the first one stays in the channel,
        # "I'm back" and all, but is no longer the table's message.
        await post_table_anew(bot, t)
        current = (await bot.tables.service.lookups.table_view(t)).message_id
        assert current is not None and current != old.id
        assert f"oh:back:{t}" in old.custom_ids()
        assert "Cat (left; a computer plays)" in str(table_embed(old))

        back = await cat.click(old, f"oh:back:{t}")

        assert back.ephemeral, back
        assert back.reply is not None and "Your hand" in str(back.reply.embeds)
        assert CARD.search(str(back.reply.embeds))
        await bot.presenter.ground.idle()
        assert "Your hand" not in str(old.embeds)
        assert [m.id for m in standin.messages(standin.channel) if showed_a_hand(m)] == []
        # No channel message, in any revision, showed a card nobody had played yet.
        row = await bot.tables.service.db.tables.load(t)
        game = Game.from_json(row.document["game"])
        seats = {seat["name"]: i for i, seat in enumerate(row.document["seats"])}
        assert assert_private_hands_stay_private(standin, people, game, seats) > 0
        # Cat's seat is Cat's again, and Cat's hand message says so.
        seat = next(
            s for s in (await bot.tables.service.lookups.table_view(t)).seats if s.user_id == cat.id
        )
        assert not seat.left
        await standin.wait_for(
            lambda: (
                (m := hand_message(cat)) is not None
                and "A computer is playing" not in str(m.embeds)
            )
        )
