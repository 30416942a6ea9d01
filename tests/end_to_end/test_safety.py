"""Bad input gets a clear, private answer and changes nothing."""

from __future__ import annotations

import asyncio
from typing import Any

from standin.driver import Person
from standin.server import StandIn
from standin.world import Message, MessageFlag, Perm
from tests.end_to_end.conftest import BotFactory
from tools.simulated_people import (
    hand_message,
    my_turn_controls,
    open_table,
    play_until_over,
    table_embed,
)


async def open_and_start(
    standin: StandIn, people: list[Person], **options: Any
) -> tuple[Message, int]:
    table, table_id = await open_table(standin, people, **options)
    started = await people[0].click(table, f"oh:start:{table_id}")
    assert started.response_type == 7, started
    return table, table_id


def refused(result: object, text: str) -> bool:
    reply = getattr(result, "reply", None)
    return (
        reply is not None
        and bool(reply.flags & MessageFlag.EPHEMERAL)
        and text.lower() in (reply.content or "").lower()
    )


async def test_strangers_out_of_turn_and_forged_clicks_change_nothing(
    standin: StandIn, start_bot: BotFactory
) -> None:
    async with start_bot() as bot:
        ann, bob, cat, dan = (standin.person(n) for n in ("Ann", "Bob", "Cat", "Dan"))
        table, t = await open_and_start(standin, [ann, bob, cat], preset="classic", max_cards=3)
        await standin.wait_for(lambda: all(hand_message(p) for p in (ann, bob, cat)))
        mover = next(p for p in (ann, bob, cat) if my_turn_controls(p))
        waiting = next(p for p in (ann, bob, cat) if p is not mover)
        db = bot.tables.service.db
        await bot.presenter.ground.idle()  # DM message ids are recorded in the background
        version = (await db.tables.load(t)).version

        # Someone not seated, with a real button.
        assert refused(await dan.click(table, f"oh:hand:{t}"), "not seated")
        # Buttons the message does not carry: the bids of someone waiting, an earlier hand, a
        # bid out of range, a card not held, another table, malformed and foreign ids.
        own = hand_message(waiting)
        mover_dm = hand_message(mover)
        assert own is not None and mover_dm is not None
        assert refused(await dan.click_forged(table, f"oh:bid:{t}:1:0"), "not for you")
        assert refused(await waiting.click_forged(own, f"oh:bid:{t}:1:0"), "not for you")
        for forged in (
            f"oh:bid:{t}:0:0",
            f"oh:bid:{t}:1:99",
            f"oh:play:{t}:1:5",
            f"oh:bid:{t + 7}:1:0",
            "garbage",
            "oh:bid",
            f"oh:bid:{t}:1:0:extra",
            f"oh:drop:{t}",
            "x" * 100,
            f"os:rule:{t}:0:preset",
        ):
            result = await mover.click_forged(mover_dm, forged)
            assert refused(result, "not for you"), (forged, result)
        # A forged rules-editor select on the table message.
        assert refused(
            await ann.click_forged(table, f"os:rule:{t}:0:preset", values=["oh-hell"]),
            "not for you",
        )
        assert (await db.tables.load(t)).version == version
        # Nothing was stored either.
        kinds = [e.kind for e in await db.tables.events(t)]
        assert "action" not in kinds


async def test_a_burst_of_20_clicks_on_one_button_applies_once(
    standin: StandIn, start_bot: BotFactory
) -> None:
    async with start_bot() as bot:
        people = [standin.person(n) for n in ("Ann", "Bob", "Cat")]
        _, t = await open_and_start(standin, people, preset="classic", max_cards=3)
        await standin.wait_for(lambda: any(my_turn_controls(p) for p in people))
        mover = next(p for p in people if my_turn_controls(p))
        controls = my_turn_controls(mover)
        assert controls is not None
        message, ids = controls
        results = await asyncio.gather(*(mover.click(message, ids[0]) for _ in range(20)))
        applied = [r for r in results if r.response_type == 7]
        assert len(applied) == 1
        assert all(refused(r, "") for r in results if r.response_type != 7)
        actions = [e for e in await bot.tables.service.db.tables.events(t) if e.kind == "action"]
        assert len(actions) == 1


async def test_a_missing_permission_is_named_to_the_person(
    standin: StandIn, start_bot: BotFactory
) -> None:
    async with start_bot():
        quiet = await standin.add_text_channel("quiet")
        await standin.deny_bot(quiet, Perm.SEND_MESSAGES, Perm.EMBED_LINKS)
        ann = standin.person("Ann")
        result = await ann.slash(quiet, "ohhell start")
        assert result.ephemeral
        assert "Send Messages" in (result.content or "")
        assert "Embed Links" in (result.content or "")
        assert not [m for m in ann.visible_messages(quiet) if not m.ephemeral]


async def test_a_second_table_in_a_channel_links_to_the_open_one(
    standin: StandIn, start_bot: BotFactory
) -> None:
    async with start_bot() as bot:
        ann, bob = standin.person("Ann"), standin.person("Bob")
        first = await ann.slash(standin.channel, "ohhell start")
        assert first.reply is not None
        db = bot.tables.service.db
        # The table message's id is stored right after the reply that creates it.
        for _ in range(500):
            row = await db.tables.open_in_channel(standin.channel.id)
            if row is not None and row.message_id is not None:
                break
            await asyncio.sleep(0.01)
        second = await bob.slash(standin.channel, "ohhell start", preset="oh-hell")
        assert second.ephemeral
        assert f"/{first.reply.id}" in (second.content or "")


async def test_a_player_with_closed_dms_plays_through_private_replies(
    standin: StandIn, start_bot: BotFactory
) -> None:
    async with start_bot():
        ann, bob = standin.person("Ann"), standin.person("Bob")
        dan = standin.person("Dan", dms_open=False)
        table, t = await open_and_start(standin, [ann, bob, dan], preset="classic", max_cards=2)
        await standin.wait_for(
            lambda: any(f["name"] == "Can't DM" for f in table_embed(table).get("fields", []))
        )
        assert f"<@{dan.id}>" in str(table_embed(table))
        assert dan.dms() == []
        mine = await dan.click(table, f"oh:hand:{t}")
        assert mine.ephemeral and mine.reply is not None
        assert mine.reply.embeds[0]["title"].startswith("Your hand")
        # /ohhell hand gives the same, at any time.
        again = await dan.slash(standin.channel, "ohhell hand")
        assert again.ephemeral and again.reply is not None
        assert again.reply.embeds[0]["title"].startswith("Your hand")
        await play_until_over(standin, [ann, bob, dan], table)
