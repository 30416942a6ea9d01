"""A person who keeps the table waiting is mentioned once; the mention goes when the turn does."""

from __future__ import annotations

from standin.server import StandIn
from tests.end_to_end.conftest import BotFactory
from tools.simulated_people import hand_message, my_turn_controls, open_table, take_turn


async def test_a_slow_turn_gets_one_mention_that_is_removed_after(
    standin: StandIn, start_bot: BotFactory
) -> None:
    async with start_bot(turn_ping_after=0.3):
        people = [standin.person(n) for n in ("Ann", "Bob", "Cat")]
        table, t = await open_table(standin, people, preset="classic", max_cards=2, timer=0)
        await people[0].click(table, f"oh:start:{t}")
        await standin.wait_for(lambda: all(hand_message(p) for p in people))
        mover = next(p for p in people if my_turn_controls(p))
        others = [p for p in people if p is not mover]

        def pings() -> list:
            return [
                m
                for m in people[0].visible_messages(standin.channel)
                if "your turn at the table" in m.content
            ]

        await standin.wait_for(pings, timeout=5)
        [ping] = pings()
        assert f"<@{mover.id}>" in ping.content
        assert all(f"<@{p.id}>" not in ping.content for p in others)
        [call] = [
            c
            for c in standin.calls
            if isinstance(c.response, dict) and c.response.get("id") == str(ping.id)
        ]
        assert [int(u) for u in call.body["allowed_mentions"]["users"]] == [mover.id]
        controls = my_turn_controls(mover)
        assert controls is not None
        await take_turn(mover, controls[0], controls[1][0])
        await standin.wait_for(lambda: ping.deleted, timeout=5)
