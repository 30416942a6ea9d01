"""Table life on the stand-in with a manual clock (no real waiting): turn timers, missed turns and
"I'm back", restarts with deadlines, host controls, lobby expiry, abandonment, rematch and
per-channel defaults."""

from __future__ import annotations

import sqlite3

import pytest

from bot.clock import ManualClock
from bot.service import Refused
from cogs import automatic
from standin.driver import Person
from standin.server import StandIn
from standin.world import Channel, Message, Perm
from tests.databases import execute
from tests.end_to_end.conftest import BotFactory
from tools.simulated_people import (
    add_computer,
    game_over,
    hand_message,
    my_turn_controls,
    open_table,
    play_until_over,
    table_embed,
    take_turn,
)


def said(standin: StandIn, text: str, channel: Channel | None = None) -> list[Message]:
    """Channel messages (not ephemeral) containing `text`."""
    return [m for m in standin.messages(channel or standin.channel) if text in (m.content or "")]


def waiting_person(people: list[Person]) -> Person | None:
    return next((p for p in people if my_turn_controls(p)), None)


async def start_game(
    standin: StandIn, people: list[Person], **options: object
) -> tuple[Message, int]:
    table, t = await open_table(standin, people, **options)
    started = await people[0].click(table, f"oh:start:{t}")
    assert started.response_type == 7, started.content
    await standin.wait_for(lambda: all(hand_message(p) for p in people))
    await standin.wait_for(lambda: waiting_person(people) is not None)
    return table, t


async def test_a_missed_deadline_is_decided_for_the_player_and_two_hand_over_the_seat(
    standin: StandIn, start_bot: BotFactory
) -> None:
    clock = ManualClock()
    async with start_bot(clock=clock) as bot:
        people = [standin.person(n) for n in ("Ann", "Bob", "Cat")]
        table, t = await start_game(
            standin, people, preset="classic", max_cards=5, sequence="down", timer=30
        )
        slow = waiting_person(people)
        assert slow is not None
        waiting = str(table_embed(table))
        assert f"time runs out <t:{int(clock.now() + 30)}:R>" in waiting
        # Halfway: one mention, naming the deadline.
        clock.advance(16)
        await standin.wait_for(lambda: said(standin, f"<@{slow.id}> — your turn"))
        assert not said(standin, "ran out of time")
        clock.advance(15)
        await standin.wait_for(lambda: said(standin, f"⏰ {slow.name} ran out of time"))
        assert len(said(standin, "ran out of time")) == 1
        assert "away" not in str(table_embed(table))
        # The others play at once; the slow one misses a second turn in a row.
        while not said(standin, "missed two turns in a row"):
            mover = await standin.wait_for(lambda: waiting_person(people), timeout=10)
            if mover is slow:
                missed = len(said(standin, "ran out of time"))
                clock.advance(31)
                await standin.wait_for(
                    lambda missed=missed: len(said(standin, "ran out of time")) > missed
                )
                # The notice and the hand DMs go out side by side: look at the DMs once
                # they are all out, not at one still showing the turn that just ended.
                await bot.presenter.ground.idle()
                continue
            message, ids = my_turn_controls(mover) or (None, [])
            assert message is not None
            # The click's answer updates the mover's own DM at once, so the next look finds
            # whoever the table waits for now.
            await take_turn(mover, message, ids[0])
        await standin.wait_for(
            lambda: f"{slow.name} (away; a computer plays" in str(table_embed(table))
        )
        await standin.wait_for(lambda: "I'm back" in str(table.iter_components()))
        # Their DM says so and offers the way back; the seat stays theirs.
        dm = await standin.wait_for(
            lambda: (
                (m := hand_message(slow))
                and "A computer is playing your seat" in str(m.embeds)
                and m
            )
        )
        back = await slow.click(dm, f"oh:back:{t}")
        assert back.response_type == 7
        await standin.wait_for(lambda: "away" not in str(table_embed(table)))
        seat = next(
            s
            for s in (await bot.tables.service.lookups.table_view(t)).seats
            if s.user_id == slow.id
        )
        assert not seat.left and seat.away is None
        await play_until_over(standin, people, table)
        assert game_over(table)


async def test_pending_and_passed_deadlines_survive_a_restart_with_grace(
    standin: StandIn, start_bot: BotFactory
) -> None:
    clock = ManualClock()
    options = {"clock": clock, "settings": {"deadline_grace": 20}}
    other_channel = await standin.add_text_channel("second")
    people = [standin.person(n) for n in ("Ann", "Bob", "Cat")]
    async with start_bot(**options):
        await start_game(standin, people, preset="classic", max_cards=3, timer=30)
        second, second_id = await open_table(
            standin, people, channel=other_channel, preset="classic", timer=300
        )
        started = await people[0].click(second, f"oh:start:{second_id}")
        assert started.response_type == 7, started.content
    # Down for 100 s: the first table's deadline (30 s) passes; the second's (300 s) does not.
    clock.advance(100)
    async with start_bot(**options) as bot:
        # Deadlines get their grace once the bot has loaded its tables.
        await standin.wait_for(lambda: bot.presenter.automatic.scheduling)
        clock.advance(1)
        await bot.presenter.ground.idle()
        assert not said(standin, "ran out of time")
        clock.advance(20)  # past the grace period
        await standin.wait_for(lambda: said(standin, "ran out of time"))
        await bot.presenter.ground.idle()
        assert len(said(standin, "ran out of time")) == 1  # handled once
        assert not said(standin, "ran out of time", other_channel)
        # The second table's deadline did not pass while down: it falls due when it was set to.
        clock.advance(300 - 100 - 21 - 2)
        await bot.presenter.ground.idle()
        assert not said(standin, "ran out of time", other_channel)
        clock.advance(3)
        await standin.wait_for(lambda: said(standin, "ran out of time", other_channel))


async def test_leave_mid_game_and_come_back_from_the_table_message(
    standin: StandIn, start_bot: BotFactory
) -> None:
    async with start_bot(computer_delay=0.0):
        people = [standin.person(n) for n in ("Ann", "Bob", "Cat")]
        table, t = await start_game(standin, people, preset="classic", max_cards=4, timer=0)
        cat = people[2]
        asked = await cat.slash(standin.channel, "ohhell leave")
        assert asked.reply is not None
        await cat.click(asked.reply, f"oh:leaveok:{t}")
        await standin.wait_for(lambda: "Cat (left; a computer plays)" in str(table_embed(table)))
        # Someone else can't come back for them.
        other = await people[0].click(table, f"oh:back:{t}")
        assert other.ephemeral and "already playing" in (other.content or "")
        back = await cat.click(table, f"oh:back:{t}")
        assert back.ephemeral and "Welcome back" in (back.content or "")
        await standin.wait_for(lambda: "left" not in str(table_embed(table)))
        await standin.wait_for(
            lambda: (
                (m := hand_message(cat)) is not None
                and "A computer is playing" not in str(m.embeds)
            )
        )
        await play_until_over(standin, people, table)
        assert game_over(table)


async def test_host_controls_kick_hand_over_pause_resume_and_cancel(
    standin: StandIn, start_bot: BotFactory
) -> None:
    async with start_bot() as bot:
        ann, bob, cat, dan = (standin.person(n) for n in ("Ann", "Bob", "Cat", "Dan"))
        people = [ann, bob, cat]
        table, t = await start_game(standin, people, preset="classic", max_cards=4, timer=0)
        refused = await bob.click(table, f"oh:hostctl:{t}")
        assert refused.ephemeral and "only the host" in (refused.content or "").lower()
        opened = await ann.click(table, f"oh:hostctl:{t}")
        panel = opened.reply
        assert panel is not None and opened.ephemeral
        # Pause: nobody plays; resume: the game goes on.
        paused = await ann.click(panel, f"oh:pause:{t}")
        assert paused.response_type == 7 and "Paused" in (paused.content or "")
        await standin.wait_for(lambda: "The host paused the game" in str(table_embed(table)))
        mover = waiting_person(people)
        assert mover is not None
        message, ids = my_turn_controls(mover) or (None, [])
        assert message is not None
        blocked = await take_turn(mover, message, ids[0])
        assert "paused" in (blocked.content or "")
        panel = paused.reply or panel
        resumed = await ann.click(panel, f"oh:resume:{t}")
        assert resumed.response_type == 7
        await standin.wait_for(lambda: "paused" not in str(table_embed(table)))
        # Remove Cat: a computer plays the seat, and Cat cannot take it back.
        panel = resumed.reply or panel
        kicked = await ann.select(panel, f"os:kick:{t}", [str(cat.id)])
        assert kicked.response_type == 7, kicked.content
        await standin.wait_for(lambda: "Cat (removed; a computer plays)" in str(table_embed(table)))
        assert f"oh:back:{t}" not in table.custom_ids()
        await standin.wait_for(
            lambda: (m := hand_message(cat)) is not None and "host removed you" in str(m.embeds)
        )
        # Cat no longer sees the seat's cards, which the computer plays on.
        removed = await bot.tables.service.lookups.hand_state(t, cat.id)
        assert removed.away == "kicked" and removed.cards == () and removed.blind_cards == ()
        cat_dm = hand_message(cat)
        assert cat_dm is not None
        fields = [f.get("name") for e in cat_dm.embeds for f in e.get("fields", [])]
        assert "Trump" in fields and "Cards" not in fields
        with pytest.raises(Refused, match="removed"):
            await bot.tables.service.host.come_back(t, cat.id)
        # Hand the host role to Bob: the panel is his now, not Ann's.
        panel = kicked.reply or panel
        handed = await ann.select(panel, f"os:hostto:{t}", [str(bob.id)])
        assert handed.response_type == 7 and "Bob is the host" in (handed.content or "")
        await standin.wait_for(lambda: said(standin, f"<@{bob.id}> is the host"))
        no_longer = await ann.click(table, f"oh:hostctl:{t}")
        assert no_longer.ephemeral and "only the host" in (no_longer.content or "").lower()
        bobs_panel = (await bob.click(table, f"oh:hostctl:{t}")).reply
        assert bobs_panel is not None
        # Someone with Manage Channels, not seated, may use the controls too.
        standin.guild.members[dan.id].granted = Perm.MANAGE_CHANNELS
        assert (await dan.click(table, f"oh:hostctl:{t}")).reply is not None
        # Cancel, with a confirmation: kept, not counted; the hands' controls go.
        dm = hand_message(ann)
        assert dm is not None
        asked = await bob.click(bobs_panel, f"oh:cancel:{t}")
        assert asked.reply is not None
        done = await bob.click(asked.reply, f"oh:cancelok:{t}")
        assert done.response_type == 7
        await standin.wait_for(lambda: "This game was cancelled" in str(table_embed(table)))
        await standin.wait_for(lambda: "cancelled" in (dm.content or "") and not dm.components)
        await bot.presenter.ground.idle()
        board = await bot.tables.service.lookups.leaderboard(standin.guild.id)
        assert (board.rows, board.ranked) == ([], 0)
        assert await bot.tables.service.db.tables.events(t)


async def test_an_unstarted_lobby_closes_and_an_idle_game_is_abandoned(
    standin: StandIn, start_bot: BotFactory
) -> None:
    clock = ManualClock()
    async with start_bot(clock=clock, settings={"abandon_after": 3600}) as bot:
        ann, bob, cat = (standin.person(n) for n in ("Ann", "Bob", "Cat"))
        lobby, first = await open_table(standin, [ann, bob])
        assert "Closes <t:" in table_embed(lobby)["description"]
        clock.advance(14 * 60)
        await bot.presenter.ground.idle()
        assert not said(standin, "This table is closed")
        clock.advance(61)
        await standin.wait_for(lambda: said(standin, "nobody started the game within 15 minutes"))
        await standin.wait_for(lambda: "abandoned" in table_embed(lobby)["description"])
        # The channel is free again; a game nobody plays for the configured hour is abandoned.
        table, t = await start_game(
            standin, [ann, bob, cat], preset="classic", max_cards=3, timer=0
        )
        assert t != first
        dm = hand_message(ann)
        assert dm is not None
        clock.advance(3601)
        await standin.wait_for(lambda: said(standin, "nobody played for 1 hour"))
        await standin.wait_for(lambda: "This game was abandoned" in str(table_embed(table)))
        await standin.wait_for(lambda: "abandoned" in (dm.content or ""))
        board = await bot.tables.service.lookups.leaderboard(standin.guild.id)
        assert (board.rows, board.ranked) == ([], 0)


async def test_rematch_reopens_the_table_with_the_same_seats_and_rules(
    standin: StandIn, start_bot: BotFactory
) -> None:
    async with start_bot():
        ann, bob, cat = (standin.person(n) for n in ("Ann", "Bob", "Cat"))
        table, t = await open_table(
            standin, [ann, bob, cat], preset="nomination", max_cards=2, timer=60
        )
        await ann.click(table, f"oh:addcpu:{t}")
        picker = [m for m in ann.ephemerals() if "computer" in (m.content or "")][-1]
        await ann.select(picker, f"os:cpulevel:{t}", ["easy"])
        await standin.wait_for(lambda: "4 seated" in table_embed(table)["description"])
        await ann.click(table, f"oh:start:{t}")
        await play_until_over(standin, [ann, bob, cat], table)
        await standin.wait_for(lambda: f"oh:rematch:{t}" in table.custom_ids())
        outsider = standin.person("Eve")
        refused = await outsider.click(table, f"oh:rematch:{t}")
        assert "only the players" in (refused.content or "").lower()
        asked = await bob.click(table, f"oh:rematch:{t}")
        assert asked.ephemeral
        new = await standin.wait_for(
            lambda: next(
                (
                    m
                    for m in standin.messages(standin.channel)
                    if m.id != table.id and m.embeds and "Oh Hell — nomination" in str(m.embeds)
                ),
                None,
            )
        )
        seats = str(table_embed(new))
        assert "Ann (seat kept: press Join to confirm)" in seats
        assert "Cat (seat kept" in seats and "Computer (easy)" in seats
        assert "Turn timer: 1 min" in seats and f"a rematch of table #{t}" in seats
        assert said(standin, f"<@{ann.id}>") and said(standin, "Rematch!")
        again = await cat.click(table, f"oh:rematch:{t}")
        assert "already has an open table" in (again.content or "")
        new_id = int(new.custom_ids()[0].split(":")[2])
        await ann.click(new, f"oh:join:{new_id}")
        await standin.wait_for(lambda: "Ann (seat kept" not in str(table_embed(new)))
        # Bob starts without waiting for Cat: Cat's unconfirmed seat is let go.
        started = await bob.click(new, f"oh:start:{new_id}")
        assert started.response_type == 7, started.content
        await standin.wait_for(lambda: said(standin, "Started without Cat"))
        assert "Cat" not in str(table_embed(new)["fields"])


async def test_channel_defaults_apply_and_can_be_overridden(
    standin: StandIn, start_bot: BotFactory
) -> None:
    async with start_bot():
        ann, mod = standin.person("Ann"), standin.person("Mod")
        refused = await ann.slash(standin.channel, "ohhell settings", preset="nomination")
        assert refused.ephemeral and "Manage Channels" in (refused.content or "")
        standin.guild.members[mod.id].granted = Perm.MANAGE_CHANNELS
        stored = await mod.slash(
            standin.channel, "ohhell settings", preset="nomination", max_cards=5, timer=300
        )
        assert "Turn timer: 5 min" in (stored.content or "")
        shown = await ann.slash(standin.channel, "ohhell settings")
        assert "nomination" in (shown.content or "") and "5 min" in (shown.content or "")

        async def start_and_cancel(**options: object) -> str:
            opened = await ann.slash(standin.channel, "ohhell start", **options)
            assert opened.reply is not None, opened.content
            text = str(table_embed(opened.reply))
            t = int(opened.reply.custom_ids()[0].split(":")[2])
            asked = await ann.click(opened.reply, f"oh:cancel:{t}")
            assert asked.reply is not None
            await ann.click(asked.reply, f"oh:cancelok:{t}")
            return text

        plain = await start_and_cancel()
        assert "Oh Hell — nomination" in plain and "Turn timer: 5 min" in plain
        assert f"this channel's defaults (set by <@{mod.id}>)" in plain
        overridden = await start_and_cancel(preset="classic", timer=30)
        assert "Oh Hell — classic" in overridden and "Turn timer: 30 s" in overridden
        assert "with the host's changes" in overridden
        other = await standin.add_text_channel("elsewhere")
        opened = await ann.slash(other, "ohhell start")
        assert opened.reply is not None and "the classic preset" in str(table_embed(opened.reply))
        cleared = await mod.slash(standin.channel, "ohhell settings", clear=True)
        assert "cleared" in (cleared.content or "")
        assert "the classic preset" in await start_and_cancel()


async def test_a_corrupt_table_does_not_hold_up_other_tables_deadlines(
    standin: StandIn, start_bot: BotFactory, database_url: str
) -> None:
    clock = ManualClock()
    async with start_bot(clock=clock) as bot:
        people = [standin.person(n) for n in ("Ann", "Bob", "Cat")]
        other_channel = await standin.add_text_channel("second")
        broken, broken_id = await open_table(standin, people, channel=other_channel)
        await start_game(standin, people, preset="classic", max_cards=3, timer=30)
        await execute(
            database_url,
            "UPDATE tables SET document = '{\"seats\": 7}', due_at = ? WHERE id = ?",
            (clock.now() - 1, broken_id),
        )
        clock.advance(31)
        await standin.wait_for(lambda: said(standin, "ran out of time"))
        row = await bot.tables.service.db.tables.load(broken_id)
        assert row.due_at is not None and row.due_at > clock.now()  # postponed, not retried
        assert "Waiting for players" in table_embed(broken)["description"]  # left as it was


async def test_the_deadline_scheduler_outlives_a_database_failure(
    standin: StandIn, start_bot: BotFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A dropped connection or a locked file fails one look for deadlines: the scheduler
    logs it and looks again, and turn timers keep firing."""
    clock = ManualClock()
    async with start_bot(clock=clock) as bot:
        people = [standin.person(n) for n in ("Ann", "Bob", "Cat")]
        await start_game(standin, people, preset="classic", max_cards=3, timer=30)
        service = bot.tables.service
        failing = [2]
        real_next_due = service.deadlines.next_due

        async def next_due() -> tuple[int, float] | None:
            if failing[0]:
                failing[0] -= 1
                raise sqlite3.OperationalError("database is locked")
            return await real_next_due()

        monkeypatch.setattr(service.deadlines, "next_due", next_due)
        service.deadlines.due_changed.set()  # look now: the look fails
        await standin.wait_for(lambda: failing[0] == 1)
        clock.advance(1)  # the scheduler's first wait after a failure: fails again
        await standin.wait_for(lambda: failing[0] == 0)
        clock.advance(31)  # past the second wait and the turn's deadline
        await standin.wait_for(lambda: said(standin, "ran out of time"))


async def test_computers_play_on_after_their_move_failed_for_a_moment(
    standin: StandIn, start_bot: BotFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Computers have no turn timer: an automatic move that fails unexpectedly (the
    database for a moment, a worker that died) is tried again, or the table waits for ever."""
    monkeypatch.setattr(automatic, "STEP_RETRY", 0.01, raising=False)
    async with start_bot() as bot:
        ann, bob = standin.person("Ann"), standin.person("Bob")
        table, t = await open_table(standin, [ann, bob], preset="classic", max_cards=2)
        await add_computer(standin, ann, table, t, "easy")
        service = bot.tables.service
        failing = [3]
        real_step = service.playing.step

        async def step(table_id: int) -> object:
            if failing[0]:
                failing[0] -= 1
                raise BrokenPipeError("the computer players' worker died")
            return await real_step(table_id)

        monkeypatch.setattr(service.playing, "step", step)
        await ann.click(table, f"oh:start:{t}")
        await play_until_over(standin, [ann, bob], table)
        assert failing[0] == 0 and game_over(table)
