"""A person's data and its erasure, through the service on each backend: `/ohhell my-data` gives
everything a scan of the whole database finds about them and nothing of anyone's hidden cards;
`/ohhell forget-me` leaves nothing a scan finds, and every other player's games still replay,
score and rank as they did."""

from __future__ import annotations

import asyncio
import json
import random
import re
import sqlite3
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import pytest

from bot.engine import Game
from bot.engine.records import replay
from bot.service import DmRef, Refused, TableService, TableStatus
from bot.service.privacy import MY_DATA_EVERY, SIGN_IN_LASTS
from bot.service.refusals import MyDataWait
from bot.storage import COMPUTER_IDS, Database
from tests.clocks import Clock
from tests.privacy_scan import Place, every_row, places_holding
from tests.service.test_service import choose, run_automatic
from tests.services import service_on

HOME, AWAY = 7_101_000_000_000_001, 7_101_000_000_000_002
"""Two servers."""
ANN, BOB, CAT = 412_345_678_901_234_567, 498_765_432_109_876_543, 455_555_555_555_555_555
ANN_NAME = "Annabel Quist"


def former(number: int) -> str:
    return f"Former player {number}"


@dataclass
class Scene:
    finished: list[tuple[int, int]]
    """(server, game) of finished games Ann played."""
    playing: int
    """A game Ann plays in, under way."""
    lobby: int
    kicked_from: int


@pytest.fixture
async def clock() -> Clock:
    return Clock()


@pytest.fixture
def service_options(clock: Clock) -> dict[str, Any]:
    """The service on a clock the test moves by hand."""
    return {"clock": clock, "rng": random.Random(3)}


async def finish(service: TableService, guild: int, channel: int, people: dict[int, str]) -> int:
    names = iter(people.items())
    first, name = next(names)
    opened = await service.lobby.open_table(
        guild_id=guild,
        channel_id=channel,
        user_id=first,
        name=name,
        settings={"preset": "classic", "max_cards": 2},
    )
    table_id = opened.table.table_id
    for user, name in names:
        await service.lobby.join(table_id, user, name)
    await service.lobby.add_computer(table_id, first, "easy")
    await service.lobby.start_game(table_id, first)
    for _ in range(500):
        await run_automatic(service, table_id)
        if (await service.lookups.table_view(table_id)).status is TableStatus.FINISHED:
            return table_id
        for user in people:
            state = await service.lookups.hand_state(table_id, user)
            if state.my_turn:
                await service.playing.act(table_id, user, state.hand_number, choose(state))
                break
    raise AssertionError("the game did not finish")


async def one_move(service: TableService, table_id: int, people: tuple[int, ...]) -> None:
    """Computers' moves, then one person's (unless the game is over)."""
    await run_automatic(service, table_id)
    if (await service.lookups.table_view(table_id)).status is not TableStatus.PLAYING:
        return
    for user in people:
        state = await service.lookups.hand_state(table_id, user)
        if state.my_turn:
            await service.playing.act(table_id, user, state.hand_number, choose(state))
            return


async def scene(service: TableService) -> Scene:
    """Ann everywhere a person can be: finished games in two servers (their posts still in the
    outbox: nothing here makes them), a game under way (her hand message, a host handed
    over), a lobby, a lobby she was removed from, a channel's defaults she set."""
    finished = [
        (HOME, await finish(service, HOME, 10, {ANN: ANN_NAME, BOB: "Bob"})),
        (HOME, await finish(service, HOME, 10, {BOB: "Bob", ANN: ANN_NAME, CAT: "Cat"})),
        (AWAY, await finish(service, AWAY, 20, {ANN: ANN_NAME, CAT: "Cat"})),
    ]
    opened = await service.lobby.open_table(
        guild_id=HOME,
        channel_id=11,
        user_id=ANN,
        name=ANN_NAME,
        settings={"preset": "classic", "max_cards": 5},
    )
    playing = opened.table.table_id
    await service.lobby.join(playing, BOB, "Bob")
    await service.lobby.join(playing, CAT, "Cat")
    await service.lobby.start_game(playing, ANN)
    await service.playing.record_dm(
        playing, ANN, DmRef(channel_id=ANN + 1, message_id=ANN + 2, hand=1)
    )
    await service.host.hand_over(playing, ANN, BOB)
    for _ in range(4):
        await one_move(service, playing, (ANN, BOB, CAT))
    lobby = (
        await service.lobby.open_table(
            guild_id=HOME, channel_id=12, user_id=BOB, name="Bob", settings={}
        )
    ).table.table_id
    await service.lobby.join(lobby, ANN, ANN_NAME)
    kicked_from = (
        await service.lobby.open_table(
            guild_id=HOME, channel_id=14, user_id=CAT, name="Cat", settings={}
        )
    ).table.table_id
    await service.lobby.join(kicked_from, ANN, ANN_NAME)
    await service.host.kick(kicked_from, CAT, ANN)
    await service.lobby.set_channel_defaults(
        guild_id=HOME,
        channel_id=13,
        user_id=ANN,
        settings={"preset": "classic"},
        can_manage=True,
    )
    return Scene(finished, playing, lobby, kicked_from)


CARD = re.compile(r"['\"]((?:10|[2-9JQKA])[CDHS]|JOKER)['\"]")
"""A card as the export writes it ("QS"), in a string of its JSON or of an event's text."""


def naming(places: dict[Place, list[tuple[Any, ...]]], table: str) -> list[tuple[Any, ...]]:
    """The rows of `table` the scan found, in any column, once each."""
    rows = [row for (name, _), found in places.items() if name == table for row in found]
    return list(dict.fromkeys(rows))


def played_cards(game: Game) -> set[str]:
    """Every card played in the game so far, and every turned card: what everyone saw."""
    cards = game.pack.cards
    seen = set()
    for log in game.history():
        tricks = [*log.tricks, log.current] if log.current is not None else list(log.tricks)
        seen |= {str(cards[card]) for trick in tricks for card in trick.cards}
        if log.turned >= 0:
            seen.add(str(cards[log.turned]))
    return seen


async def test_my_data_holds_everything_a_scan_finds_and_nobody_s_hidden_cards(
    service: TableService, database_url: str
) -> None:
    found = await scene(service)
    export = await service.privacy.my_data(ANN, [ANN_NAME])
    data = json.loads(export.data)
    assert data["format"] == "ohhell-my-data/1" and data["user_id"] == str(ANN)
    places = await places_holding(database_url, [str(ANN), ANN_NAME])
    # Nowhere else than these, and each of them is in the export.
    assert set(places) <= {
        ("results", "user_id"),
        ("ratings", "user_id"),
        ("rating_history", "user_id"),
        ("tables", "document"),
        ("tables", "host_id"),
        ("events", "user_id"),
        ("events", "payload"),
        ("outbox", "payload"),
        ("channel_defaults", "set_by"),
        ("leases", "key"),
    }
    for table in ("results", "ratings", "rating_history"):
        assert len(data[table]) == len(places[(table, "user_id")]) > 0, table
    games = {game["game"]: game for game in data["games"]}
    assert set(games) == {row[0] for row in naming(places, "tables")} | {found.kicked_from}
    assert {found.playing, found.lobby, *(game for _, game in found.finished)} <= set(games)
    logged = naming(places, "events")
    assert sum(len(game["events"]) for game in games.values()) == len(logged) > 0
    for game in games.values():
        assert len(game["events"]) == sum(row[0] == game["game"] for row in logged)
    posts = naming(places, "outbox")
    assert len(data["waiting_posts"]) == len(posts) > 0
    assert [c["channel_id"] for c in data["channel_defaults"]] == ["13"]
    assert [limit["kind"] for limit in data["limits"]] == ["my-data"]
    assert export.games == len(games) and export.servers == 2

    # A finished game comes as its record, which replays as stored.
    for _, number in found.finished:
        record = games[number]["record"]
        assert ANN_NAME in record["players"] and replay(record)["game_over"]
    # The game under way: Ann's own moves, and no card anyone else holds unplayed.
    playing = games[found.playing]
    assert playing["record"] is None and playing["seat"] == 0 and playing["name"] == ANN_NAME
    assert playing["hand_message"] == {
        "channel_id": str(ANN + 1),
        "message_id": str(ANN + 2),
        "hand": 1,
    }
    row = await service.db.tables.load(found.playing)
    game = Game.from_json(row.document["game"])
    current = game.history()[-1]
    hidden = {str(game.pack.cards[c]) for seat in (1, 2) for c in current.dealt[seat]}
    assert hidden - played_cards(game), "the test needs cards still held"
    assert set(CARD.findall(json.dumps(playing, ensure_ascii=False))) <= played_cards(game)
    mine = [action for hand in playing["your_moves"] for action in hand["actions"]]
    assert mine and all("seat" not in action for action in mine)

    # Asking again at once is refused until the wait is over.
    with pytest.raises(Refused) as again:
        await service.privacy.my_data(ANN)
    assert again.value.reason.code == "my_data_wait"
    assert isinstance(again.value.reason, MyDataWait)
    assert again.value.reason.until > service.session.clock()


async def test_my_data_can_be_asked_again_after_the_wait(
    service: TableService, clock: Clock
) -> None:
    nothing = json.loads((await service.privacy.my_data(BOB)).data)
    assert nothing["games"] == [] and nothing["results"] == []
    clock.now += MY_DATA_EVERY - 1
    with pytest.raises(Refused):
        await service.privacy.my_data(BOB)
    clock.now += 1
    assert json.loads((await service.privacy.my_data(BOB)).data)["user_id"] == str(BOB)


async def test_forget_me_leaves_nothing_and_every_other_game_stands(
    service: TableService, database_url: str
) -> None:
    found = await scene(service)
    scored = {
        game: replay((await service.finished_games.game_record(guild, 0, game)).record)
        for guild, game in found.finished
    }
    # The board ranks settled ratings only: these stand in for many more games.
    await service.db.store.backend.execute("UPDATE ratings SET sigma = 1")
    bob_stats = await service.finished_games.player_stats(HOME, BOB)
    board = await service.db.results.leaderboard(HOME)
    assert ANN in {row.user_id for row in board.rows}

    offer = await service.privacy.offer_erasure(ANN)
    forgotten = await service.privacy.forget(ANN, offer.token, former, [ANN_NAME])
    assert found.playing in forgotten.open_tables and forgotten.rows > 0
    assert [outcome.table.table_id for outcome in forgotten.left] == [found.playing, found.lobby]
    assert await places_holding(database_url, [str(ANN), ANN_NAME]) == {}

    for guild, game in found.finished:
        record = (await service.finished_games.game_record(guild, 0, game)).record
        assert "Former player 1" in record["players"]
        again = replay(record)
        assert again["totals"] == scored[game]["totals"]
        assert again["placing"] == scored[game]["placing"]
        assert again["hands"] == scored[game]["hands"]
    # Bob's games and rating stand; his place on the board moves up where she stood above him.
    bob_now = await service.finished_games.player_stats(HOME, BOB)
    assert bob_now.rating_ranked == bob_stats.rating_ranked - 1
    assert replace(bob_now, rating_rank=None, rating_ranked=0) == replace(
        bob_stats, rating_rank=None, rating_ranked=0
    )
    after = await service.db.results.leaderboard(HOME)
    assert ANN not in {row.user_id for row in after.rows}
    assert {row.user_id: row.rating for row in after.rows} == {
        row.user_id: row.rating for row in board.rows if row.user_id != ANN
    }
    # The lobby goes on without her; at the game a computer plays her seat, as a former
    # player, to the end.
    assert [seat.user_id for seat in (await service.lookups.table_view(found.lobby)).seats] == [BOB]
    view = await service.lookups.table_view(found.playing)
    assert (view.seats[0].name, view.seats[0].user_id, view.seats[0].left) == (
        "Former player 1",
        None,
        True,
    )
    for _ in range(300):
        if (await service.lookups.table_view(found.playing)).status is TableStatus.FINISHED:
            break
        await one_move(service, found.playing, (BOB, CAT))
    assert (await service.lookups.table_view(found.playing)).status is TableStatus.FINISHED
    assert await places_holding(database_url, [str(ANN), ANN_NAME]) == {}
    # Her seat is nobody's game: not the computer's that finished it (no result, rating or
    # totals of its), and Bob and Cat are rated between themselves.
    changes = await service.db.results.rating_changes(found.playing)
    assert set(changes) == {BOB, CAT}
    results = await service.db.store.backend.fetchall(
        "SELECT user_id FROM results WHERE table_id = ?", (found.playing,)
    )
    assert sorted(row[0] for row in results) == sorted([BOB, CAT])
    computers = await service.db.store.backend.fetchall(
        "SELECT user_id FROM ratings WHERE guild_id = ? AND user_id = ?",
        (HOME, COMPUTER_IDS["normal"]),
    )
    assert computers == []

    # The same confirmation again changes nothing.
    before = await every_row(database_url)
    with pytest.raises(Refused) as repeated:
        await service.privacy.forget(ANN, offer.token, former)
    assert repeated.value.reason.code == "erasure_not_offered"
    assert await every_row(database_url) == before


async def test_a_forged_or_stale_confirmation_changes_nothing(
    service: TableService, database_url: str, clock: Clock
) -> None:
    await scene(service)
    before = await every_row(database_url)
    bobs = await service.privacy.offer_erasure(BOB)
    first = await service.privacy.offer_erasure(ANN)
    second = await service.privacy.offer_erasure(ANN)
    for token in ("0" * 32, bobs.token, first.token, ""):
        with pytest.raises(Refused) as refused:
            await service.privacy.forget(ANN, token, former)
        assert refused.value.reason.code == "erasure_not_offered"
    clock.now = second.until + 1
    with pytest.raises(Refused):
        await service.privacy.forget(ANN, second.token, former)
    after = await every_row(database_url)
    assert {name: rows for name, rows in after.items() if name != "leases"} == {
        name: rows for name, rows in before.items() if name != "leases"
    }


async def test_two_confirmations_at_once_erase_once(
    service: TableService, database_url: str, clock: Clock
) -> None:
    """Two processes (two services on one database) take the same confirmation at once, while
    a third plays on at the table Ann is leaving: one erases, the other is refused, and
    nothing of her is left half-way."""
    found = await scene(service)
    offer = await service.privacy.offer_erasure(ANN)
    other_db = await Database.open(database_url)
    other = service_on(other_db, clock=clock)
    try:

        async def play_on() -> None:
            for _ in range(6):
                try:
                    await one_move(other, found.playing, (BOB, CAT))
                except Refused as refusal:
                    assert refusal.reason.code == "conflict"

        outcomes = await asyncio.gather(
            service.privacy.forget(ANN, offer.token, former),
            other.privacy.forget(ANN, offer.token, former),
            play_on(),
            return_exceptions=True,
        )
    finally:
        await other_db.close()
    erased = [o for o in outcomes[:2] if not isinstance(o, BaseException)]
    refused = [o for o in outcomes[:2] if isinstance(o, Refused)]
    assert len(erased) == 1 and len(refused) == 1, outcomes
    assert refused[0].reason.code == "erasure_not_offered"
    assert outcomes[2] is None, outcomes[2]
    assert await places_holding(database_url, [str(ANN), ANN_NAME]) == {}
    row = await service.db.tables.load(found.playing)
    assert Game.from_json(row.document["game"]).names[0] == "Former player 1"


async def test_an_erasure_ends_the_sign_ins_from_before_it_on_every_process(
    service: TableService, database_url: str, clock: Clock
) -> None:
    """A sign-in at the pages from before an erasure no longer holds, on this process or any
    other (a second service on the database). The note that says so holds no id of hers (a
    digest), is in her copy of her data, and goes with the sweep once no sign-in from before
    the erasure could still be good."""
    clock.now += 0.5  # a sign-in's time is a whole second (cogs/web/sessions.py)
    before, erased_at = int(clock.now) - 60, clock.now
    privacy = service.privacy
    assert not await privacy.signed_in_before_erasure(ANN, before)
    offer = await privacy.offer_erasure(ANN)
    await privacy.forget(ANN, offer.token, former)
    other_db = await Database.open(database_url)
    try:
        other = service_on(other_db, clock=clock).privacy
        for checking in (privacy, other):
            assert await checking.signed_in_before_erasure(ANN, before)
            assert await checking.signed_in_before_erasure(ANN, int(erased_at))
            assert not await checking.signed_in_before_erasure(ANN, int(erased_at) + 1)
            assert not await checking.signed_in_before_erasure(BOB, before)
    finally:
        await other_db.close()
    assert await places_holding(database_url, [str(ANN)]) == {}
    (note,) = (await every_row(database_url))["leases"]
    assert (note[0], note[3]) == ("erased", erased_at + SIGN_IN_LASTS)
    limits = json.loads((await privacy.my_data(ANN)).data)["limits"]
    assert {"kind": "erased", "until": erased_at + SIGN_IN_LASTS} in limits

    clock.now = erased_at + SIGN_IN_LASTS - 1
    await service.retention.sweep()
    assert await privacy.signed_in_before_erasure(ANN, before)
    clock.now = erased_at + SIGN_IN_LASTS + 1
    await service.retention.sweep()
    assert (await every_row(database_url))["leases"] == []
    assert not await privacy.signed_in_before_erasure(ANN, before)


def traces(path: Path, user_id: int, name: str) -> dict[str, int]:
    """How often the SQLite file and its write-ahead log hold the person's id (as text, and
    as the 8-byte integer a record or an index stores) or name, byte for byte."""
    needles = (str(user_id).encode(), user_id.to_bytes(8, "big"), name.encode())
    found = {}
    for file in (path, path.with_name(path.name + "-wal")):
        data = file.read_bytes() if file.exists() else b""
        found[file.name] = sum(data.count(needle) for needle in needles)
    return found


async def test_an_erased_person_is_not_left_in_the_sqlite_file_or_its_log(
    tmp_path: Path, clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Right after forget-me, neither the file's free pages nor its write-ahead log hold the
    person's id or name (`secure_delete`, and a checkpoint that empties the log)."""
    connect = sqlite3.connect

    def insecure(*args: Any, **kwargs: Any) -> sqlite3.Connection:
        # As SQLite itself builds (Debian's turns secure_delete on by default).
        connection = connect(*args, **kwargs)
        connection.execute("PRAGMA secure_delete=OFF")
        return connection

    monkeypatch.setattr(sqlite3, "connect", insecure)
    path = tmp_path / "ohhell.sqlite3"
    database = await Database.open(f"sqlite:///{path}")
    try:
        service = service_on(database, clock=clock, rng=random.Random(3))
        found = await scene(service)
        assert traces(path, ANN, ANN_NAME)[path.name + "-wal"] > 0  # the scan finds her
        # Copied into the file, as SQLite's automatic checkpoint does every 1,000 pages.
        await service.db.store.backend.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        assert traces(path, ANN, ANN_NAME)[path.name] > 0
        await one_move(service, found.playing, (ANN, BOB, CAT))  # the log fills again
        assert traces(path, BOB, "Bob")[path.name + "-wal"] > 0
        offer = await service.privacy.offer_erasure(ANN)
        await service.privacy.forget(ANN, offer.token, former, [ANN_NAME])
        assert traces(path, ANN, ANN_NAME) == {path.name: 0, path.name + "-wal": 0}
        assert traces(path, BOB, "Bob")[path.name] > 0  # the scan finds the others still
    finally:
        await database.close()
