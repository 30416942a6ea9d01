"""Forged custom_ids on a message itself (as a message an older bot posted would carry them, so
that discord.py hands the click to a family rather than dropping it): in every family, a number
that is not plain digits, a kind no family has, a hand on a control that takes none, an arg of
another kind, a control of the channel clicked in a DM. Each is refused with one clear, private
answer and changes nothing."""

from __future__ import annotations

from standin.driver import Person
from standin.server import StandIn
from standin.world import Channel, Message
from tests.end_to_end.conftest import BotFactory
from tests.end_to_end.test_safety import refused
from tools.simulated_people import my_turn_controls, open_table


def old_message(standin: StandIn, channel: Channel, custom_id: str, *options: str) -> Message:
    """A message of the bot's in `channel` carrying one control: a select offering `options`,
    or a button."""
    if options:
        offered = [{"label": value, "value": value} for value in options]
        component = {"type": 3, "custom_id": custom_id, "options": offered}
    else:
        component = {"type": 2, "style": 2, "label": "Old", "custom_id": custom_id}
    world = standin.world
    message = Message(
        id=world.snowflake(),
        channel=channel,
        author=world.bot,
        components=[{"type": 1, "components": [component]}],
    )
    world.add_message(message)
    return message


async def click_old(standin: StandIn, person: Person, channel: Channel, custom_id: str) -> object:
    """`person` clicks the control `custom_id` of an old message in `channel` (a select: its
    one option, "x" unless the id says it after a space)."""
    custom_id, _, value = custom_id.partition(" ")
    if custom_id.startswith("os:"):
        message = old_message(standin, channel, custom_id, value or "x")
        return await person.select(message, custom_id, [value or "x"])
    return await person.click(old_message(standin, channel, custom_id), custom_id)


async def test_forged_controls_on_a_message_are_refused_and_change_nothing(
    standin: StandIn, start_bot: BotFactory
) -> None:
    people = [standin.person(name) for name in ("Ann", "Bob", "Cat")]
    ann, bob, dan = people[0], people[1], standin.person("Dan")
    async with start_bot() as bot:
        db = bot.tables.service.db
        table, t = await open_table(standin, people, preset="classic", max_cards=3)
        await bot.presenter.ground.idle()
        before = await db.tables.load(t)
        answered = {p: len(standin.world.ephemeral_messages(p.user)) for p in (ann, dan)}
        # Dan is not seated: a join of any of these would seat him.
        joins = [f"oh:join:{t}:3", f"oh:join:{t}:0:1", f"oh:jion:{t}", f"oh:join:{t}x", "oh:join:٣"]
        # Ann is the host: any of these would change the lobby.
        host = [
            f"oh:start:{t}:1",
            f"oh:rulepg:{t}:1:2",
            f"oh:rulepg:{t}:0:x",
            f"oh:back:{t}:1",
            f"os:rule:{t}:1:max_cards 3",
            f"os:rule:{t}:0:Max 3",
            f"os:cpulevel:{t}:0:hard hard",
            f"os:kick:{t}:0 {bob.id}",
            f"os:kick:{t} ²",
            f"os:timer:{t} ٣",
            f"os:rules:{t} 3",
        ]
        for person, custom_ids in ((dan, joins), (ann, host)):
            for custom_id in custom_ids:
                result = await click_old(standin, person, standin.channel, custom_id)
                assert refused(result, "not for you"), (custom_id, result)
        # A control of the channel in a DM: no DM carries one.
        in_dm = [f"oh:start:{t}", f"oh:cancelok:{t}", f"os:kick:{t} {bob.id}"]
        for custom_id in in_dm:
            result = await click_old(standin, ann, standin.world.dm_channel(ann.user), custom_id)
            assert refused(result, "not for you"), (custom_id, result)
        await bot.presenter.ground.idle()
        after = await db.tables.load(t)
        assert (after.version, after.document) == (before.version, before.document)
        # One answer each, from the family or from the client, never both.
        assert len(standin.world.ephemeral_messages(dan.user)) == answered[dan] + len(joins)
        ann_answers = answered[ann] + len(host) + len(in_dm)
        assert len(standin.world.ephemeral_messages(ann.user)) == ann_answers

        started = await ann.click(table, f"oh:start:{t}")
        assert started.response_type == 7
        mover = await standin.wait_for(
            lambda: next((p for p in people if my_turn_controls(p)), None)
        )
        await bot.presenter.ground.idle()
        version = (await db.tables.load(t)).version
        dm, ids = my_turn_controls(mover) or (None, [])
        assert dm is not None
        h = int(ids[0].split(":")[3])
        moves = [
            f"oh:bid:{t}:{h}:x",
            f"oh:bid:{t}:{h}:C",
            f"oh:bid:{t}:{h}",
            f"oh:trump:{t}:{h}:9",
            f"oh:play:{t}:{h}:0-4",
            f"oh:auto:{t}:{h}:1",
            f"oh:auto:{t}:0:2",
            f"oh:bud:{t}:{h}:1",
            f"os:bidsel:{t}:{h}:0 x",
            f"os:bidsel:{t}:0 1",
            f"os:playsel:{t}:{h}:H 0-1",
        ]
        for custom_id in moves:
            result = await click_old(standin, mover, dm.channel, custom_id)
            assert refused(result, "not for you"), (custom_id, result)
        await bot.presenter.ground.idle()
        assert (await db.tables.load(t)).version == version
        assert "action" not in [e.kind for e in await db.tables.events(t)]
