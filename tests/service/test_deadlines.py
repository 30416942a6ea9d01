"""The service's deadlines on a hand-moved clock: turn timers, secret bids' shared one, pause
and resume, the halfway nudge, the start-up grace, and a deadline that meets another process's
save or a table cancelled while its move is decided."""

from __future__ import annotations

import random

import pytest

from bot.engine import Bid, Phase
from bot.service import Refused, TableService
from bot.storage import Database, TableStatus
from tests.clocks import Clock
from tests.service.test_service import (
    ANN,
    BOB,
    CHANNEL,
    GUILD,
    another_process_saves_first,
    started,
    whose_turn,
)
from tests.services import first_legal, service_on


@pytest.fixture
def timed(database: Database) -> tuple[TableService, Clock]:
    """The service on a clock the test moves by hand."""
    clock = Clock()
    return service_on(database, rng=random.Random(3), clock=clock), clock


async def test_secret_bids_share_one_deadline_that_does_not_restart_as_people_bid(timed) -> None:
    service, clock = timed
    t = await started(service, preset="classic", bidding="secret", bid_changes=False, max_cards=3)
    first = (await service.lookups.table_view(t)).deadline
    assert first == clock.now + 120
    clock.now += 50
    await service.playing.act(t, BOB, 1, Bid(0))
    assert (await service.lookups.table_view(t)).deadline == first
    clock.now += 71
    outcome = await service.deadlines.tick(t)  # Ann and Cat ran out of time: one decision per tick
    assert outcome is not None and outcome.posts[0].notice.code == "timed_out"
    assert await service.deadlines.tick(t) is not None
    view = await service.lookups.table_view(t)
    # Bidding is over (here the one-card hand then plays itself: every card is forced).
    assert view.game is not None and (view.game.hand_number, view.game.phase) != (1, Phase.BIDDING)
    assert view.deadline == clock.now + 120  # a new turn, a new timer


async def test_pause_stops_the_clock_and_resume_gives_back_the_time_left(timed) -> None:
    service, clock = timed
    t = await started(service, preset="classic", max_cards=3)
    deadline = (await service.lookups.table_view(t)).deadline
    assert deadline is not None
    clock.now += 100
    await service.host.set_paused(t, ANN, True)
    assert (await service.lookups.table_view(t)).deadline is None
    # While paused, only abandonment (a day after the last action, the pause) is due.
    assert (await service.db.tables.load(t)).due_at == clock.now + 24 * 3600
    with pytest.raises(Refused, match="paused"):
        await service.playing.act(t, await whose_turn(service, t), 1, Bid(0))
    clock.now += 3600
    assert await service.deadlines.tick(t) is None
    await service.host.set_paused(t, ANN, False)
    assert (await service.lookups.table_view(t)).deadline == clock.now + 20
    with pytest.raises(Refused, match="host_only"):
        await service.host.set_paused(t, BOB, True)


async def test_a_nudge_comes_once_halfway(timed) -> None:
    service, clock = timed
    t = await started(service, preset="classic", max_cards=3)
    waiting = await whose_turn(service, t)
    clock.now += 59
    assert await service.deadlines.tick(t) is None
    clock.now += 2
    outcome = await service.deadlines.tick(t)
    assert outcome is not None and outcome.nudge == (waiting,)
    assert await service.deadlines.tick(t) is None
    row = await service.db.tables.load(t)
    assert row.due_at == (await service.lookups.table_view(t)).deadline


async def test_a_table_saved_before_deadlines_existed_gets_them_without_expiring(timed) -> None:
    service, clock = timed
    t = await started(service, preset="classic", max_cards=3)
    row = await service.db.tables.load(t)
    old = {k: v for k, v in row.document.items() if k not in ("last_activity", "turn")}
    # As the previous schema left it: no deadline, no activity time.
    await service.db.tables.save(row, document=old, due_at=None)
    clock.now = (await service.db.tables.load(t)).updated_at + 5
    await service.deadlines.allow_grace()
    row = await service.db.tables.load(t)
    assert row.due_at == clock.now + service.session.settings.deadline_grace
    clock.now += service.session.settings.deadline_grace
    outcome = await service.deadlines.tick(t)  # the turn timer, started at restart, is halfway
    assert outcome is not None and outcome.nudge and not outcome.posts
    view = await service.lookups.table_view(t)
    assert view.status is TableStatus.PLAYING and view.deadline == row.due_at + 60


async def test_a_table_whose_game_does_not_load_does_not_stop_the_start_up_grace(timed) -> None:
    """At start-up every open table gets its grace. A table kept without a deadline (saved
    before deadlines existed, or with abandonment off and its one nudge sent) whose stored
    game does not load is a corrupt row: it is left as it is, and every other table still
    gets its grace (the scheduler starts only after this)."""
    service, clock = timed
    t = await started(service, preset="classic", max_cards=3)
    row = await service.db.tables.load(t)
    await service.db.tables.save(
        row, document={**row.document, "game": '{"v": 1, "hands": "not a list"}'}, due_at=None
    )
    broken = await service.db.tables.load(t)
    other = await service.lobby.open_table(
        guild_id=GUILD, channel_id=CHANNEL + 1, user_id=BOB, name="Bob", settings={}
    )
    # The other table's lobby expired while the bot was down.
    clock.now += service.session.settings.lobby_timeout + 5
    assert await service.deadlines.allow_grace() == 1
    assert await service.db.tables.load(t) == broken  # the corrupt row: nothing changed
    lobby = await service.db.tables.load(other.table.table_id)
    assert lobby.due_at == clock.now + service.session.settings.deadline_grace


async def test_a_deadline_that_meets_another_process_save_is_handled_on_the_newer_state(
    timed,
) -> None:
    """Two processes: between the scheduler's load of a table whose nudge is due and its save,
    the other process stores a hand DM's id. The nudge's save meets a real version conflict:
    it is handled again on the newer row (once), not raised to the scheduler, which would log
    it as a failure and put the table's deadlines off by a minute."""
    service, clock = timed
    elsewhere = TableService(
        await Database.open(service.db.store.url),
        decide=first_legal,
        run_blocking=None,
        clock=clock,
    )
    try:
        t = await started(service, preset="classic", max_cards=3)
        waiting = await whose_turn(service, t)
        clock.now += 61  # the two-minute timer is past halfway: the nudge is due
        interrupted = another_process_saves_first(service, elsewhere, t)
        before = (await service.db.tables.load(t)).version
        outcome = await service.deadlines.tick(t)
        assert interrupted and interrupted[0] is not None
        assert outcome is not None and outcome.nudge == (waiting,)
        row = await service.db.tables.load(t)
        assert row.version == before + 2 and row.document["dms"][str(BOB)]["message_id"] == 8
        assert row.document["turn"]["nudged"]
        assert (
            row.due_at == (await service.lookups.table_view(t)).deadline
        )  # the turn's own deadline
    finally:
        await elsewhere.db.close()


async def test_a_turn_deadline_at_a_table_cancelled_while_its_move_is_decided_is_let_go(
    database: Database,
) -> None:
    """A person ran out of time; while a computer decides their move (outside the table's
    lock), the host cancels the table. The deadline is then let go quietly: nothing to do at
    a closed table, not a failure the scheduler logs and answers by giving the closed table a
    deadline again."""
    clock = Clock()
    host = TableService(database, decide=first_legal, run_blocking=None, clock=clock)

    async def cancelled_meanwhile(function, *args):
        await host.lobby.cancel(t, ANN)
        return function(*args)

    service = TableService(
        database, decide=first_legal, run_blocking=cancelled_meanwhile, clock=clock
    )
    try:
        t = await started(service, preset="classic", max_cards=3)
        clock.now += 121  # the two-minute timer ran out
        assert await service.deadlines.tick(t) is None
        row = await database.tables.load(t)
        assert row.status is TableStatus.CANCELLED and row.due_at is None
        assert service.session.cached_tables() == set()
    finally:
        await database.close()
