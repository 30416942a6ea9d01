"""The service on a real SQLite file: lobby, a whole game, refusals that change nothing."""

from __future__ import annotations

import asyncio

import pytest

from bot.engine import Bid, Game, Phase, Play
from bot.service import DmRef, HandState, Refused, TableGone, TableService
from bot.service.refusals import Hook
from bot.storage import COMPUTER_IDS, CorruptRow, Database, TableStatus
from tests.services import first_legal

GUILD, CHANNEL = 1, 10
ANN, BOB, CAT = 101, 102, 103


async def open_lobby(service: TableService, **settings: object) -> int:
    outcome = await service.lobby.open_table(
        guild_id=GUILD, channel_id=CHANNEL, user_id=ANN, name="Ann", settings=dict(settings)
    )
    return outcome.table.table_id


async def started(service: TableService, **settings: object) -> int:
    """Ann's table with Bob and Cat seated, the game started."""
    t = await open_lobby(service, **settings)
    await service.lobby.join(t, BOB, "Bob")
    await service.lobby.join(t, CAT, "Cat")
    await service.lobby.start_game(t, ANN)
    return t


async def whose_turn(service: TableService, table_id: int) -> int:
    for user in (ANN, BOB, CAT):
        if (await service.lookups.hand_state(table_id, user)).my_turn:
            return user
    raise AssertionError("nobody's turn")


async def run_automatic(service: TableService, table_id: int) -> int:
    steps = 0
    while await service.playing.step(table_id) is not None:
        steps += 1
    return steps


async def play_a_game(
    tables: TableService,
    guild: int = GUILD,
    channel: int = 10,
    ann_leaves_after: int | None = None,
    **settings: object,
) -> int:
    """Ann and Bob with a computer, to the end: each person takes the first allowed choice
    (Ann leaves after ``ann_leaves_after`` of her actions, if given)."""
    opened = await tables.lobby.open_table(
        guild_id=guild, channel_id=channel, user_id=ANN, name="Ann", settings=dict(settings)
    )
    table_id = opened.table.table_id
    await tables.lobby.join(table_id, BOB, "Bob")
    await tables.lobby.add_computer(table_id, ANN, "easy")
    await tables.lobby.start_game(table_id, ANN)
    acted = 0
    for _ in range(500):
        await run_automatic(tables, table_id)
        if (await tables.lookups.table_view(table_id)).status is TableStatus.FINISHED:
            return table_id
        for user in (ANN, BOB):
            state = await tables.lookups.hand_state(table_id, user)
            if state.my_turn:
                await tables.playing.act(table_id, user, state.hand_number, choose(state))
                acted += user == ANN
                if user == ANN and acted == ann_leaves_after:
                    await tables.lobby.leave(table_id, ANN)
                break
    raise AssertionError("the game did not finish")


def choose(state: HandState):
    if state.phase is Phase.BIDDING:
        return Bid(next(option.n for option in state.bid_options if option.allowed))
    return Play(next(option.card for option in state.cards if option.allowed))


async def test_a_whole_game_with_people_and_computers(service: TableService) -> None:
    table_id = await open_lobby(service, preset="first-to-101", target=30)
    await service.lobby.join(table_id, BOB, "Bob")
    await service.lobby.add_computer(table_id, ANN, "easy")
    outcome = await service.lobby.add_computer(table_id, BOB, "easy")
    assert [seat.name for seat in outcome.table.seats] == [
        "Ann",
        "Bob",
        "Computer (easy)",
        "Computer 2 (easy)",
    ]
    started = await service.lobby.start_game(table_id, ANN)
    assert started.new_hand and set(started.hands) == {ANN, BOB}
    assert started.table.status is TableStatus.PLAYING
    finished = False
    for _ in range(2000):
        await run_automatic(service, table_id)
        view = await service.lookups.table_view(table_id)
        if view.status is TableStatus.FINISHED:
            finished = True
            break
        assert view.game is not None
        for user in (ANN, BOB):
            state = await service.lookups.hand_state(table_id, user)
            if state.my_turn:
                await service.playing.act(table_id, user, state.hand_number, choose(state))
                break
    assert finished
    final = await service.lookups.table_view(table_id)
    assert final.game is not None and final.game.placing is not None
    assert max(final.game.totals) >= 30
    # Both computers are `easy`: one rated identity, two games (one a seat).
    rows = await service.db.store.backend.fetchall(
        "SELECT user_id, games FROM ratings WHERE guild_id = ? AND preset = ''", (GUILD,)
    )
    assert dict(rows) == {ANN: 1, BOB: 1, COMPUTER_IDS["easy"]: 2}


async def test_refusals_change_nothing(service: TableService) -> None:
    table_id = await open_lobby(service, preset="classic")
    with pytest.raises(Refused, match="channel_busy"):
        await open_lobby(service)
    with pytest.raises(Refused, match="already_seated"):
        await service.lobby.join(table_id, ANN, "Ann")
    await service.lobby.join(table_id, BOB, "Bob")
    with pytest.raises(Refused, match="host_only"):
        await service.lobby.start_game(table_id, BOB)
    with pytest.raises(Refused, match=r"player_count: PlayerCount\(low=3, high=7, players=2\)"):
        await service.lobby.start_game(table_id, ANN)
    with pytest.raises(Refused, match="max_cards"):
        await service.lobby.set_rule(table_id, ANN, "max_cards", 0)
    with pytest.raises(Refused, match="join_first"):
        await service.lobby.add_computer(table_id, CAT, "easy")
    version = (await service.db.tables.load(table_id)).version
    await service.lobby.join(table_id, CAT, "Cat")
    await service.lobby.start_game(table_id, ANN)
    game_version = (await service.db.tables.load(table_id)).version
    assert game_version == version + 2
    states = {user: await service.lookups.hand_state(table_id, user) for user in (ANN, BOB, CAT)}
    waiting = next(u for u, s in states.items() if not s.my_turn)
    with pytest.raises(Refused, match="turn"):
        await service.playing.act(table_id, waiting, 1, Bid(0))
    with pytest.raises(Refused, match="earlier_hand"):
        mover = next(u for u, s in states.items() if s.my_turn)
        await service.playing.act(table_id, mover, 0, Bid(0))
    with pytest.raises(Refused, match="not_seated"):
        await service.playing.act(table_id, 999, 1, Bid(0))
    assert (await service.db.tables.load(table_id)).version == game_version
    # A refused click leaves the decoded game cached for the next one (no replay).
    assert service.session.cached_tables() >= {table_id}
    assert service.session._games[table_id][0] == game_version


async def test_clicks_on_a_closed_table_leave_nothing_of_it_in_memory(
    service: TableService,
) -> None:
    table_id = await started(service, preset="classic")
    await service.lobby.cancel(table_id, ANN)
    assert service.session.cached_tables() == set()
    # Leftover buttons of the closed table: refused, and no lock or cache entry is kept.
    for _ in range(2):
        with pytest.raises(TableGone, match="table_closed"):
            await service.playing.act(table_id, BOB, 1, Bid(0))
        with pytest.raises(TableGone):
            await service.lobby.cancel(table_id, ANN)
    assert service.session.cached_tables() == set()


async def test_the_hook_bid_is_shown_disabled_with_its_reason(service: TableService) -> None:
    # classic: hand 1 has one card each, hook on
    table_id = await started(service, preset="classic")
    for _ in range(2):
        await service.playing.act(table_id, await whose_turn(service, table_id), 1, Bid(0))
    dealer = await whose_turn(service, table_id)
    state = await service.lookups.hand_state(table_id, dealer)
    assert [(o.n, o.allowed) for o in state.bid_options] == [(0, True), (1, False)]
    assert state.bid_options[1].reason == Hook(1)


async def test_concurrent_clicks_apply_once(service: TableService) -> None:
    table_id = await started(service, preset="classic")
    mover = await whose_turn(service, table_id)
    before = (await service.db.tables.load(table_id)).version
    results = await asyncio.gather(
        *(service.playing.act(table_id, mover, 1, Bid(0)) for _ in range(20)),
        return_exceptions=True,
    )
    applied = [r for r in results if not isinstance(r, Exception)]
    assert len(applied) == 1
    assert all(isinstance(r, Refused) for r in results if isinstance(r, Exception))
    assert (await service.db.tables.load(table_id)).version == before + 1


def another_process_saves_first(
    service: TableService, elsewhere: TableService, table_id: int
) -> list[object]:
    """Make the next save of `service` meet another process's change first: `elsewhere`
    stores a hand DM's id (a new version) just before it. The list gets that change's outcome."""
    save = service.db.tables.save
    interrupted: list[object] = []

    async def another_process_first(*args, **kwargs):
        if not interrupted:
            interrupted.append(
                await elsewhere.playing.record_dm(
                    table_id, BOB, DmRef(channel_id=7, message_id=8, hand=1)
                )
            )
        return await save(*args, **kwargs)

    service.db.tables.save = another_process_first  # type: ignore[method-assign]
    return interrupted


async def test_a_click_that_meets_another_process_save_is_applied_on_the_newer_state(
    service: TableService, database_url: str
) -> None:
    """Two processes: while one applies a bid, the other stores a hand DM's id. The bid's save
    meets a real version conflict; it is tried again on the newer row, applied once, and the
    other's change is kept."""
    elsewhere = TableService(
        await Database.open(database_url), decide=first_legal, run_blocking=None
    )
    try:
        table_id = await started(service, preset="classic")
        mover = await whose_turn(service, table_id)
        interrupted = another_process_saves_first(service, elsewhere, table_id)
        before = (await service.db.tables.load(table_id)).version
        outcome = await service.playing.act(table_id, mover, 1, Bid(0))
        assert interrupted and interrupted[0] is not None
        row = await service.db.tables.load(table_id)
        assert row.version == before + 2 == outcome.table.version
        assert row.document["dms"][str(BOB)]["message_id"] == 8
        events = [e for e in await service.db.tables.events(table_id) if e.kind == "BidMade"]
        assert len(events) == 1
        assert not (await service.lookups.hand_state(table_id, mover)).my_turn
    finally:
        await elsewhere.db.close()


async def test_a_game_another_process_moved_on_is_caught_up_not_decoded_again(
    service: TableService, database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One process holds the game decoded; the other plays a few moves. The first replays
    only those moves on the game it holds (no whole decode), and ends where the other is."""
    elsewhere = TableService(
        await Database.open(database_url), decide=first_legal, run_blocking=None
    )
    try:
        table_id = await started(service, preset="classic", max_cards=3)
        await service.lookups.hand_state(table_id, ANN)  # holds the game
        for _ in range(4):
            mover = await whose_turn(elsewhere, table_id)
            state = await elsewhere.lookups.hand_state(table_id, mover)
            if state.bid_options:
                choice: Bid | int = next(Bid(o.n) for o in state.bid_options if o.allowed)
            else:
                choice = next(c.card_id for c in state.cards if c.allowed)
            await elsewhere.playing.act(table_id, mover, state.hand_number, choice)
        decodes = []
        from_json = Game.from_json
        monkeypatch.setattr(Game, "from_json", lambda text: decodes.append(text) or from_json(text))
        mover = await whose_turn(service, table_id)
        state = await service.lookups.hand_state(table_id, mover)
        assert decodes == []
        moved = await elsewhere.lookups.hand_state(table_id, mover)
        assert (state.hand_number, state.my_turn, state.cards) == (
            moved.hand_number,
            moved.my_turn,
            moved.cards,
        )
    finally:
        await elsewhere.db.close()


async def test_a_hand_message_is_played_out_once_nothing_is_left_to_click(
    service: TableService,
) -> None:
    """Played out: every card played, or the last one left to auto-play. The hand message then
    carries no controls, so the next hand need not close it."""
    table_id = await open_lobby(service, preset="classic", max_cards=2)
    for user, name in ((BOB, "Bob"), (CAT, "Cat")):
        await service.lobby.join(table_id, user, name)
    await service.lobby.start_game(table_id, ANN)
    await service.playing.set_auto_play(table_id, BOB, False)
    seen: dict[int, list[tuple[int, bool, bool]]] = {ANN: [], BOB: [], CAT: []}
    for _ in range(50):
        mover = await whose_turn(service, table_id)
        state = await service.lookups.hand_state(table_id, mover)
        if state.hand_number > 2:
            break
        outcome = await service.playing.act(table_id, mover, state.hand_number, choose(state))
        for user, after in (outcome.hands or {}).items():
            if after.hand_number == 2 and after.phase is Phase.PLAYING:
                seen[user].append((len(after.cards), after.my_turn, after.played_out))
    # Ann and Cat (auto-play on) are played out from their first card of the two-card hand.
    for user in (ANN, CAT):
        assert all(out == (cards <= 1 and not turn) for cards, turn, out in seen[user])
        assert (1, False, True) in seen[user]
    # Bob plays his last card himself: one card left is not played out; none left is.
    assert (1, False, False) in seen[BOB]
    assert all(out == (cards == 0) for cards, _, out in seen[BOB])


@pytest.mark.parametrize(
    ("part", "damaged"),
    [("game", '{"v": 1, "hands": "not a list"}'), ("settings", {"max_cards": "lots"})],
)
async def test_a_stored_game_or_rules_that_do_not_load_are_a_corrupt_row(
    service: TableService, part: str, damaged: object
) -> None:
    """Answered as a corrupt table (and skipped by the start-up's resume, which catches
    CorruptRow per table), not as an unexpected error that stops whatever met it."""
    table_id = await started(service, preset="classic")
    row = await service.db.tables.load(table_id)
    await service.db.tables.save(row, document={**row.document, part: damaged})
    for read in (service.lookups.table_view, lambda t: service.lookups.hand_state(t, ANN)):
        with pytest.raises(CorruptRow):
            await read(table_id)
    with pytest.raises(CorruptRow):
        await service.playing.act(table_id, ANN, 1, Bid(0))


async def test_a_table_that_does_not_exist_is_refused_as_gone(service: TableService) -> None:
    """A forged id on a Scores, My hand, Rules or Rematch button: a clear refusal, not an
    unexpected KeyError."""
    for read in (
        service.lookups.table_view,
        service.lookups.rules,
        service.playing.dm_refs,
        service.lookups.newest,
        lambda t: service.lobby.rematch(t, ANN),
        lambda t: service.lookups.hand_state(t, ANN),
    ):
        with pytest.raises(TableGone, match="table_gone"):
            await read(424242)


async def test_a_hand_dm_or_table_message_stored_after_the_table_closed_leaves_nothing_in_memory(
    service: TableService,
) -> None:
    """The presenter stores a hand DM's id or the table message's id after sending it, in the
    background: the table may have closed meanwhile (cancelled while a new hand's DMs were
    being sent). Nothing of a closed table stays in memory, its lock included."""
    table_id = await started(service, preset="classic")
    await service.lobby.cancel(table_id, ANN)
    assert service.session.cached_tables() == set()
    await service.playing.record_dm(table_id, BOB, DmRef(channel_id=7, message_id=8, hand=1))
    await service.lobby.set_message(table_id, 99)
    assert service.session.cached_tables() == set()
    for store in (
        lambda t: service.playing.record_dm(t, BOB, None),
        lambda t: service.lobby.set_message(t, 99),
    ):
        with pytest.raises(TableGone, match="table_gone"):
            await store(424242)
    assert service.session.cached_tables() == set()


async def test_a_table_closed_by_another_process_is_dropped_from_memory_once_seen_closed(
    service: TableService, database_url: str
) -> None:
    """Two processes on one database: this one played at a table (its game, row, hand states
    and lock are held), the other cancels it. When this one next looks at the table (the
    presenter brings a message up to date with `newest`, or shows it), it finds it closed and
    drops everything it held for it, as it does for a table it closed itself."""
    elsewhere = TableService(
        await Database.open(database_url), decide=first_legal, run_blocking=None
    )
    try:
        table_id = await started(service, preset="classic")
        await service.playing.act(table_id, await whose_turn(service, table_id), 1, Bid(0))
        assert table_id in service.session.cached_tables()
        await elsewhere.lobby.cancel(table_id, ANN)
        assert (await service.lookups.newest(table_id)).table.status is TableStatus.CANCELLED
        assert service.session.cached_tables() == set()
        assert (await service.lookups.table_view(table_id)).status is TableStatus.CANCELLED
        assert service.session.cached_tables() == set()
    finally:
        await elsewhere.db.close()


async def test_a_computer_move_that_meets_another_process_save_is_made_on_the_newer_state(
    service: TableService, database_url: str
) -> None:
    """Two processes: while one makes a computer's move, the other stores a hand DM's id. The
    move's save meets a real version conflict: the step is tried again on the newer row and
    makes the move once. Refused, the stepper would stop, and a computer has no turn timer:
    the game would wait for it until a restart."""
    elsewhere = TableService(
        await Database.open(database_url), decide=first_legal, run_blocking=None
    )
    try:
        table_id = await open_lobby(service, preset="classic", max_cards=3)
        await service.lobby.join(table_id, BOB, "Bob")
        await service.lobby.add_computer(table_id, ANN, "easy")
        await service.lobby.start_game(table_id, ANN)
        for _ in range(10):
            states = [await service.lookups.hand_state(table_id, user) for user in (ANN, BOB)]
            mover = next((s for s in states if s.my_turn), None)
            if mover is None:
                break  # the computer's turn
            user = ANN if mover is states[0] else BOB
            await service.playing.act(table_id, user, mover.hand_number, choose(mover))
        else:
            raise AssertionError("the computer never had a turn")
        interrupted = another_process_saves_first(service, elsewhere, table_id)
        before = (await service.db.tables.load(table_id)).version
        events = len(await service.db.tables.events(table_id))
        outcome = await service.playing.step(table_id)
        assert interrupted and interrupted[0] is not None
        assert outcome is not None
        row = await service.db.tables.load(table_id)
        assert row.version == before + 2 == outcome.table.version
        assert row.document["dms"][str(BOB)]["message_id"] == 8
        computer = 2
        moves = [
            e
            for e in (await service.db.tables.events(table_id))[events:]
            if e.kind in ("BidMade", "TrumpChosen", "CardPlayed") and e.payload["seat"] == computer
        ]
        assert len(moves) == 1  # made once, on the newer state
    finally:
        await elsewhere.db.close()


async def test_one_finished_game_that_does_not_load_leaves_history_and_stats_working(
    service: TableService,
) -> None:
    """A stored finished game whose record no longer loads (damaged, or of a format this bot
    cannot replay) is left out of what is worked out from many games (a history page, a
    player's bid errors), and asked for alone it is answered as a corrupt row: not an
    unexpected error for the whole server's /ohhell history and every player's /ohhell stats."""
    good = await play_a_game(service, channel=CHANNEL, preset="classic", max_cards=2)
    bad = await play_a_game(service, channel=CHANNEL + 1, preset="classic", max_cards=2)
    row = await service.db.tables.load(bad)
    await service.db.tables.save(row, document={**row.document, "game": '{"v": 1}'})
    page = await service.finished_games.history(GUILD, 1)
    assert [entry.game for entry in page.entries] == [bad, good]
    assert page.entries[0].players == ("Ann", "Bob", "Computer (easy)")
    assert page.entries[0].winners == () and page.entries[1].winners
    stats = await service.finished_games.player_stats(GUILD, ANN)
    assert stats.games == 2 and stats.detail.games == 2
    assert stats.detail.hands == 3  # the good game's hands of 1, 2 and 1 cards only
    assert (await service.finished_games.game_record(GUILD, CHANNEL, good)).game == good
    with pytest.raises(CorruptRow):
        await service.finished_games.game_record(GUILD, CHANNEL, bad)


async def test_a_look_at_a_table_that_closes_during_its_load_leaves_nothing_in_memory(
    service: TableService,
) -> None:
    """A reader (My hand, the presenter bringing a message up to date) loads a table while a
    click closes it: on PostgreSQL the load awaits the database, and the close may commit and
    drop the table from memory in between. The reader must not then put the closed table's
    row and game back in memory, where nothing would ever drop them again."""
    load = service.db.tables.load
    for channel, read in enumerate(
        (
            lambda t: service.lookups.hand_state(t, ANN),
            lambda t: service.lookups.newest(t),
            lambda t: service.lookups.table_view(t),
        ),
        start=CHANNEL,
    ):
        opened = await service.lobby.open_table(
            guild_id=GUILD, channel_id=channel, user_id=ANN, name="Ann", settings={}
        )
        table_id = opened.table.table_id
        await service.lobby.join(table_id, BOB, "Bob")
        await service.lobby.join(table_id, CAT, "Cat")
        await service.lobby.start_game(table_id, ANN)
        closing: list[asyncio.Task[object]] = []

        async def closed_meanwhile(*args, table_id=table_id, closing=closing, **kwargs):
            row = await load(*args, **kwargs)
            if not closing:  # the reader's load is back; a click closes the table meanwhile
                closing.append(asyncio.create_task(service.lobby.cancel(table_id, ANN)))
                await asyncio.wait(closing, timeout=1.0)
            return row

        service.db.tables.load = closed_meanwhile  # type: ignore[method-assign]
        try:
            await read(table_id)
        except TableGone:
            pass
        finally:
            service.db.tables.load = load  # type: ignore[method-assign]
        await closing[0]
        assert (await service.db.tables.load(table_id)).status is TableStatus.CANCELLED
        assert service.session.cached_tables() == set()
