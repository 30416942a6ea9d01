"""What a careless or hostile person tries first (issue 14): values no menu offered, commands in a
DM, someone else's DM controls, raw card names, the last trick, and posts missed without
permission."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path
from typing import Any

import pytest

from bot.clock import ManualClock
from bot.engine import Game
from cogs.render import SERVER_ONLY, card_text
from standin.invocations import InvocationRefused
from standin.server import StandIn
from standin.world import Message, Perm
from tests.end_to_end.conftest import BotFactory
from tests.end_to_end.test_safety import refused
from tools.simulated_people import (
    add_computer,
    game_over,
    hand_message,
    my_turn_controls,
    open_table,
    play_until_over,
    take_turn,
)

RAW_CARD = re.compile(r"(?<![\w:])(?:10|[2-9TJQKA])[CDHS](?![\w])")
ROOT = Path(__file__).resolve().parents[2]


def texts_people_read(message: Message) -> list[str]:
    """Every text of every revision of a message: content, embeds, button and menu labels."""
    out: list[str] = []
    states = [(r.content, r.embeds, r.components) for r in message.history]
    states.append((message.content, message.embeds, message.components))
    for content, embeds, components in states:
        out.append(content or "")
        for embed in embeds:
            out += [str(embed.get(k, "")) for k in ("title", "description")]
            out += [f"{f.get('name', '')} {f.get('value', '')}" for f in embed.get("fields", [])]
            out.append(str((embed.get("footer") or {}).get("text", "")))
        for row in components:
            for child in row.get("components", [row]):
                out += [str(child.get("label", "")), str(child.get("placeholder", ""))]
                out += [str(o.get("label", "")) for o in child.get("options", [])]
    return out


def raw_card_names(standin: StandIn) -> list[str]:
    """Texts anywhere (channels, DMs, ephemeral replies, every edit) naming a card as 2H/QS."""
    return [
        text
        for message in standin.world.messages.values()
        for text in texts_people_read(message)
        if RAW_CARD.search(text)
    ]


async def test_a_select_value_the_menu_never_offered_is_refused_and_changes_nothing(
    standin: StandIn, start_bot: BotFactory
) -> None:
    async with start_bot() as bot:
        ann, bob = standin.person("Ann"), standin.person("Bob")
        table, t = await open_table(standin, [ann, bob], preset="classic")
        db = bot.tables.service.db
        editor = await ann.click(table, f"oh:rules:{t}")
        assert editor.reply is not None
        rules = f"os:rule:{t}:0:max_cards"
        assert rules in editor.reply.custom_ids()
        before = await db.tables.load(t)
        for value in ("²", "99999999999999999999", "0", "pack; drop", ""):
            result = await ann.click_forged(editor.reply, rules, values=[value])
            assert refused(result, "not on the menu"), (value, result)
        panel = await ann.click(table, f"oh:hostctl:{t}")
        assert panel.reply is not None
        for kind in ("kick", "hostto", "timer"):
            select = f"os:{kind}:{t}"
            assert select in panel.reply.custom_ids()
            for value in ("²", "٣", str(bob.id + 1), "-5"):
                result = await ann.click_forged(panel.reply, select, values=[value])
                assert refused(result, "not on the menu"), (kind, value, result)
        after = await db.tables.load(t)
        assert after.version == before.version
        assert after.document == before.document
        # An offered value still works.
        chosen = await ann.select(editor.reply, rules, ["3"])
        assert chosen.response_type == 7
        assert (await db.tables.load(t)).document["settings"]["max_cards"] == 3


DM_COMMANDS = (
    ("ohhell start", {"preset": "classic"}),
    ("ohhell hand", {}),
    ("ohhell settings", {"preset": "classic"}),
    ("leaderboard", {}),
)


async def test_commands_in_a_dm_answer_that_they_work_in_a_server_and_store_nothing(
    standin: StandIn, start_bot: BotFactory
) -> None:
    async with start_bot() as bot:
        ann = standin.person("Ann")
        dm = standin.world.dm_channel(ann.user)
        # Registered guild-only, the commands are not offered in a DM at all.
        for command, options in DM_COMMANDS:
            with pytest.raises(InvocationRefused, match="guild-only"):
                await ann.slash(dm, command, **options)
        # The bot does not rely on that: registrations Discord still holds from before the
        # commands were guild-only reach it from a DM, and it answers them itself.
        for registered in standin.commands[None].values():
            registered.update(contexts=None, dm_permission=True)
        for command, options in DM_COMMANDS:
            result = await ann.slash(dm, command, **options)
            assert result.ephemeral, (command, result)
            assert result.content == SERVER_ONLY, (command, result.content)
        assert await bot.tables.service.db.tables.open_ids() == []


async def test_a_control_on_someone_elses_dm_is_refused_and_edits_nothing(
    standin: StandIn, start_bot: BotFactory
) -> None:
    async with start_bot() as bot:
        ann, bob, cat = (standin.person(n) for n in ("Ann", "Bob", "Cat"))
        table, t = await open_table(standin, [ann, bob, cat], preset="classic", max_cards=3)
        started = await ann.click(table, f"oh:start:{t}")
        assert started.response_type == 7
        people = [ann, bob, cat]

        def auto_of(person: Any) -> str | None:
            dm = hand_message(person)
            ids = [] if dm is None else dm.custom_ids()
            return next((c for c in ids if c.startswith(f"oh:auto:{t}")), None)

        # Bid until the cards are played: then every hand DM carries the auto-play toggle.
        while not auto_of(ann):
            mover = await standin.wait_for(
                lambda: next((p for p in people if my_turn_controls(p)), None), timeout=10
            )
            message, ids = my_turn_controls(mover) or (None, [])
            assert message is not None
            await take_turn(mover, message, ids[0])
            await bot.presenter.ground.idle()
        ann_dm = hand_message(ann)
        auto = auto_of(ann)
        assert ann_dm is not None and auto is not None
        while True:  # until the edits the last move asked for have landed
            revisions = len(ann_dm.history)
            await asyncio.sleep(0.3)
            await bot.presenter.ground.idle()
            if len(ann_dm.history) == revisions:
                break
        seen = str(ann_dm.embeds)
        version = (await bot.tables.service.db.tables.load(t)).version
        for custom_id in [auto, *(c for c in ann_dm.custom_ids() if c != auto)]:
            # What Discord never sends: Bob's click on a message in Ann's DM.
            data = {"custom_id": custom_id, "component_type": 2}
            result = await bob._interact(3, ann_dm.channel, data, ann_dm, None)
            assert refused(result, "not for you"), (custom_id, result)
        assert len(ann_dm.history) == revisions and str(ann_dm.embeds) == seen
        assert (await bot.tables.service.db.tables.load(t)).version == version
        # Ann's own click still works on her own DM.
        mine = await ann.click(ann_dm, auto)
        assert mine.response_type == 7


async def test_no_text_the_bot_sends_names_a_card_in_raw_notation(
    standin: StandIn, start_bot: BotFactory
) -> None:
    clock = ManualClock()
    async with start_bot(clock=clock) as bot:
        people = [standin.person(n) for n in ("Ann", "Bob", "Cat")]
        table, t = await open_table(
            standin, people, preset="classic", max_cards=3, sequence="down", timer=30
        )
        await people[0].click(table, f"oh:start:{t}")
        # Play into the first hand's tricks, then let someone run out of time mid-trick.
        played = 0
        while True:
            mover = await standin.wait_for(
                lambda: next((p for p in people if my_turn_controls(p)), None), timeout=10
            )
            message, ids = my_turn_controls(mover) or (None, [])
            assert message is not None
            if any(i.startswith(f"oh:play:{t}") for i in ids) and played >= 1:
                break
            if any(i.startswith(f"oh:play:{t}") for i in ids):
                played += 1
            await take_turn(mover, message, ids[0])
        await bot.presenter.ground.idle()
        clock.advance(31)
        await standin.wait_for(
            lambda: any(
                "ran out of time: a computer played" in (m.content or "")
                for m in standin.messages(standin.channel)
            )
        )
        await bot.presenter.ground.idle()
        await play_until_over(standin, people, table)
        await bot.presenter.ground.idle()
        notice = next(
            m.content for m in standin.messages(standin.channel) if "ran out of time" in m.content
        )
        assert re.search(r"played (?:10|[2-9JQKA])[♣♦♥♠]", notice), notice
        # What names cards in a hand DM: its card buttons, and "On the table:" whenever a
        # turn meets cards already played (not in every deal: a forced card is played for its
        # holder, with no turn to show).
        dm_texts = [text for p in people for m in p.dms() for text in texts_people_read(m)]
        assert any(re.fullmatch(r"(?:10|[2-9JQKA])[♣♦♥♠]", text) for text in dm_texts)
        assert all(re.search(r"[♣♦♥♠]", text) for text in dm_texts if "On the table:" in text)
        assert raw_card_names(standin) == []


def test_the_raw_notation_check_can_fail() -> None:
    assert RAW_CARD.search("On the table: Cat 2H, Ann QH")
    assert RAW_CARD.search("a computer played 10S for them.")
    assert not RAW_CARD.search("On the table: Cat 2♥, Ann Q♥ (oh:play:12:1:5)")


async def test_every_trick_is_in_the_channel_with_production_delays(
    standin: StandIn, start_bot: BotFactory
) -> None:
    async with start_bot(edit_delay=0.5, computer_delay=1.0) as bot:
        ann = standin.person("Ann")
        table, t = await open_table(standin, [ann], preset="classic", max_cards=2)
        for level in ("easy", "easy"):
            await add_computer(standin, ann, table, t, level)
        await ann.click(table, f"oh:start:{t}")
        await play_until_over(standin, [ann], table)
        await bot.presenter.ground.idle()
        game = Game.from_json((await bot.tables.service.db.tables.load(t)).document["game"])
        posts = [m.content for m in standin.messages(standin.channel) if "scored**" in m.content]
        for log in game.history():
            post = next(p for p in posts if f"**Hand {log.number} scored**" in p)
            lines = post.split("**Tricks**")[1].strip().splitlines()
            assert len(lines) == len(log.tricks), post
            for line, trick in zip(lines, log.tricks, strict=True):
                cards = [card_text(game.pack.cards[c]) for c in trick.cards]
                assert all(card in line for card in cards), (line, cards)
                assert line.endswith(f"→ {game.names[trick.winner]}"), line


async def test_score_posts_missed_without_permission_are_posted_when_it_returns(
    standin: StandIn, start_bot: BotFactory
) -> None:
    async with start_bot() as bot:
        people = [standin.person(n) for n in ("Ann", "Bob", "Cat")]
        table, t = await open_table(standin, people, preset="classic", max_cards=2)
        await people[0].click(table, f"oh:start:{t}")
        await standin.wait_for(lambda: any(my_turn_controls(p) for p in people))
        await standin.deny_bot(standin.channel, Perm.SEND_MESSAGES)
        # Play the first hand to its end while the bot may not post.
        while not any(
            (m := hand_message(p)) is not None and "hand 2" in str(m.embeds) for p in people
        ):
            mover = await standin.wait_for(
                lambda: next((p for p in people if my_turn_controls(p)), None), timeout=10
            )
            message, ids = my_turn_controls(mover) or (None, [])
            assert message is not None
            await take_turn(mover, message, ids[0])
            await asyncio.sleep(0)
        await bot.presenter.ground.idle()
        assert not [m for m in standin.messages(standin.channel) if "scored**" in m.content]
        await standin.allow_bot(standin.channel, Perm.SEND_MESSAGES)
        caught_up = await standin.wait_for(
            lambda: next(
                (m for m in standin.messages(standin.channel) if "Missed while" in m.content),
                None,
            ),
            timeout=10,
        )
        assert "**Hand 1 scored**" in caught_up.content
        await play_until_over(standin, people, table)
        assert game_over(table)
