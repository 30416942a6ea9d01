"""What the presenter holds for a table (cogs/shown.py), fed by real outcomes of two services
sharing one database, as two bot processes do."""

from __future__ import annotations

from pathlib import Path

from bot.service import DmRef, TableService
from bot.storage import Database
from cogs.shown import Shown
from tests.service.test_service import ANN, BOB, CAT, CHANNEL, GUILD, choose
from tests.services import service_on


async def _service(path: Path) -> TableService:
    return service_on(await Database.open(f"sqlite:///{path}"))


async def _started(service: TableService):
    opened = await service.lobby.open_table(
        guild_id=GUILD, channel_id=CHANNEL, user_id=ANN, name="Ann", settings={}
    )
    table_id = opened.table.table_id
    await service.lobby.join(table_id, BOB, "Bob")
    await service.lobby.join(table_id, CAT, "Cat")
    return await service.lobby.start_game(table_id, ANN)


def _to_act(shown: Shown) -> int:
    return next(user for user, state in shown.hands.items() if state.my_turn)


async def _holding_a_started_game(service: TableService) -> tuple[int, Shown, int]:
    """A started game's table, what a process holds for it, and who bids first."""
    started = await _started(service)
    shown = Shown()
    shown.remember(started)
    return started.table.table_id, shown, _to_act(shown)


async def test_a_bookkeeping_save_on_a_version_not_held_drops_the_hands(tmp_path: Path) -> None:
    here = await _service(tmp_path / "t.sqlite3")
    elsewhere = await _service(tmp_path / "t.sqlite3")
    try:
        table_id, shown, bidder = await _holding_a_started_game(here)
        assert shown.view is not None
        started_version = shown.view.version
        # Another process takes the first bid; this one then stores a hand DM's id.
        await elsewhere.playing.act(table_id, bidder, 1, choose(shown.hands[bidder]))
        side = await here.playing.record_dm(
            table_id, bidder, DmRef(channel_id=5, message_id=6, hand=1)
        )
        assert side is not None and side.table.version > started_version + 1
        shown.remember(side)
        # The hands held show the bidder still to bid: they must not pass for the new version.
        assert shown.view is side.table
        assert shown.hands == {}
        assert shown.dm_refs[bidder].message_id == 6
    finally:
        await here.db.close()
        await elsewhere.db.close()


async def test_a_bookkeeping_save_right_after_the_version_held_keeps_the_hands(
    tmp_path: Path,
) -> None:
    here = await _service(tmp_path / "t.sqlite3")
    try:
        table_id, shown, bidder = await _holding_a_started_game(here)
        acted = await here.playing.act(table_id, bidder, 1, choose(shown.hands[bidder]))
        shown.remember(acted)
        side = await here.playing.record_dm(
            table_id, bidder, DmRef(channel_id=5, message_id=6, hand=1)
        )
        assert side is not None
        shown.remember(side)
        assert shown.view is side.table
        assert shown.hands == acted.every_hand
        assert not shown.hands[bidder].my_turn
    finally:
        await here.db.close()


async def test_an_older_outcome_never_replaces_a_newer(tmp_path: Path) -> None:
    here = await _service(tmp_path / "t.sqlite3")
    try:
        started = await _started(here)
        shown = Shown()
        shown.remember(started)
        bidder = _to_act(shown)
        acted = await here.playing.act(
            started.table.table_id, bidder, 1, choose(shown.hands[bidder])
        )
        shown.remember(acted)
        shown.remember(started)
        assert shown.view is acted.table
        assert shown.hands == acted.every_hand
    finally:
        await here.db.close()
