"""Ratings on both backends: known outcomes, equal to openskill computed directly, one
transaction with the results, and the migration that rates a schema-2 database's past."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
from openskill.models import PlackettLuce

from bot.storage import COMPUTER_IDS, MIGRATIONS, Database, PlayerResult, TableStatus
from bot.storage.backends import open_backend
from bot.storage.connection import Connection
from bot.storage.ratings import (
    NEW,
    OVERALL,
    TAU,
    RatedSeat,
    rate_places,
    rated_seats,
    shown_rating,
)
from bot.storage.schema import Migration

GUILD = 1


def result(user: int, place: int, **flags: bool) -> PlayerResult:
    return PlayerResult(
        user_id=user, place=place, points=10 - place, bids_made=1, hands_played=3, **flags
    )


async def play(db: Database, results: list[PlayerResult], preset: str = "classic") -> int:
    table = await db.tables.create(
        guild_id=GUILD, channel_id=10, host_id=100, preset=preset, document={}
    )
    await db.tables.save(table, document={}, status=TableStatus.FINISHED, results=results)
    return table.id


async def skill(db: Database, user: int, preset: str = OVERALL) -> tuple[float, float, int]:
    row = await db.store.backend.fetchone(
        "SELECT mu, sigma, rating FROM ratings WHERE guild_id = ? AND preset = ? AND user_id = ?",
        (GUILD, preset, user),
    )
    assert row is not None, (user, preset)
    return float(row[0]), float(row[1]), int(row[2])


async def test_a_win_raises_and_a_loss_lowers(database: Database) -> None:
    table = await play(database, [result(1, 1), result(2, 2)])
    winner, loser = await skill(database, 1), await skill(database, 2)
    assert winner[0] > NEW.mu > loser[0]
    assert winner[2] > 1000 > loser[2]
    changes = await database.results.rating_changes(table)
    assert changes == {
        1: (winner[2], winner[2] - 1000, True),  # one game: still provisional
        2: (loser[2], loser[2] - 1000, True),
    }
    assert changes[1][1] > 0 > changes[2][1]
    # The preset's rating moved the same way (first game there too).
    assert await skill(database, 1, "classic") == winner


async def test_a_tie_shares_a_place(database: Database) -> None:
    await play(database, [result(1, 1), result(2, 1), result(3, 3)])
    first, second, third = [await skill(database, u) for u in (1, 2, 3)]
    assert first == pytest.approx(second)
    assert first[0] > third[0]


async def test_the_order_of_games_matters_as_openskill_says(tmp_path: Path) -> None:
    model = PlackettLuce()
    ratings = {}
    for name, order in (("ab", [(1, 2), (2, 1)]), ("ba", [(2, 1), (1, 2)])):
        database = await Database.open(tmp_path / f"{name}.sqlite3")
        for first, second in order:
            await play(database, [result(first, 1), result(second, 2), result(3, 3)])
        ratings[name] = await skill(database, 1)
        await database.close()
        # The same two games, rated directly by openskill.
        a, b, c = model.rating(), model.rating(), model.rating()
        players = {1: a, 2: b, 3: c}
        for first, second in order:
            teams = [[players[first]], [players[second]], [players[3]]]
            rated = model.rate(teams, ranks=[1, 2, 3])
            players[first], players[second], players[3] = (team[0] for team in rated)
        assert ratings[name][:2] == pytest.approx((players[1].mu, players[1].sigma))
    assert ratings["ab"][0] != pytest.approx(ratings["ba"][0])


def direct_openskill(games: list[tuple[str, list[PlayerResult]]]) -> dict[tuple[str, int], Any]:
    """What openskill gives for these games, computed here without the storage code: a removed
    player is left out; those who stayed are rated from the whole game, the leavers sharing
    the last place; each leaver from the game of those who stayed and that leaver, last; an
    identity in several seats moves to the mean of their ratings."""
    model = PlackettLuce(tau=TAU)
    ratings: dict[tuple[str, int], Any] = {}
    for preset, results in games:
        for scope in (OVERALL, preset):
            rated = [r for r in results if not r.removed]
            stayed = [r for r in rated if not r.left_early]
            if len(rated) < 2 or not stayed:
                continue
            last = max(r.place for r in results) + 1

            def rate(seats: list[PlayerResult], scope: str = scope, last: int = last) -> list[Any]:
                # A rating object of its own for each seat: openskill's copy of the teams keeps
                # two seats sharing one object shared, and updates them one after the other.
                before = [ratings.get((scope, r.user_id)) or model.rating() for r in seats]
                teams = [[model.rating(mu=b.mu, sigma=b.sigma)] for b in before]
                ranks = [last if r.left_early else r.place for r in seats]
                return [team[0] for team in model.rate(teams, ranks=ranks)]

            new = rate(rated)
            if len(stayed) < len(rated) - 1:
                new = [
                    rate([*stayed, r])[-1] if r.left_early else n
                    for r, n in zip(rated, new, strict=True)
                ]
            seats: dict[int, list[Any]] = {}
            for r, rating in zip(rated, new, strict=True):
                seats.setdefault(r.user_id, []).append(rating)
            for user, each in seats.items():
                mu = sum(e.mu for e in each) / len(each)
                sigma = sum(e.sigma for e in each) / len(each)
                ratings[(scope, user)] = model.rating(mu=mu, sigma=sigma)
    return ratings


async def test_stored_ratings_equal_a_direct_openskill_computation(database: Database) -> None:
    """Random games of 3 to 7 seats: ties, leavers, removed players, computer levels (two
    seats of one level at times)."""
    rng = random.Random(15)
    games = []
    computers = [COMPUTER_IDS["easy"], COMPUTER_IDS["hard"]]
    for _ in range(60):
        seats = rng.randint(3, 7)
        players = rng.sample(range(1, 9), seats - 2) + rng.choices(computers, k=2)
        places = sorted(rng.randint(1, seats) for _ in players)
        results = [
            result(user, place, left_early=user > 0 and rng.random() < 0.15)
            if rng.random() > 0.05 or user < 0
            else result(user, place, removed=True)
            for user, place in zip(players, places, strict=True)
        ]
        games.append((rng.choice(["classic", "oh-hell"]), results))
    history_rows = 0
    for preset, results in games:
        await play(database, results, preset)
        rated = [r for r in results if not r.removed]
        if len(rated) > 1 and not all(r.left_early for r in rated):
            history_rows += 2 * len({r.user_id for r in rated})
    expected = direct_openskill(games)
    for (scope, user), rating in expected.items():
        mu, sigma, shown = await skill(database, user, scope)
        assert (mu, sigma) == pytest.approx((rating.mu, rating.sigma)), (scope, user)
        assert shown == shown_rating(mu) == round(1000 + 15 * (rating.mu - 25))
    assert await database.store.backend.fetchone("SELECT COUNT(*) FROM rating_history") == (
        history_rows,
    )
    several = [r for _, results in games for r in results if r.left_early]
    assert len(several) > 10  # leavers, some of them in the same game


async def test_leavers_rank_last_and_the_removed_are_not_rated() -> None:
    results = [result(1, 1, left_early=True), result(2, 2), result(3, 3, removed=True)]
    assert rated_seats(results) == [RatedSeat(1, 4, left=True), RatedSeat(2, 2)]


async def test_two_seats_of_one_computer_level_move_it_to_their_mean(database: Database) -> None:
    hard = COMPUTER_IDS["hard"]
    table = await play(database, [result(1, 1), result(hard, 2), result(hard, 3)])
    model = PlackettLuce()
    teams = [[model.rating()], [model.rating()], [model.rating()]]
    _, second, third = model.rate(teams, ranks=[1, 2, 3])
    mu, sigma, _ = await skill(database, hard)
    assert mu == pytest.approx((second[0].mu + third[0].mu) / 2)
    assert sigma == pytest.approx((second[0].sigma + third[0].sigma) / 2)
    played = await database.store.backend.fetchall(
        "SELECT user_id, games FROM ratings WHERE preset = ''"
    )
    assert dict(played) == {1: 1, hard: 2}
    assert set(await database.results.rating_changes(table)) == {1, hard}
    # One seat alone is not a game to rate.
    assert rate_places({1: NEW}, [RatedSeat(1, 1)]) == {}


FAILING_TRIGGER = {
    "sqlite": [
        "CREATE TRIGGER no_ratings BEFORE INSERT ON rating_history"
        " BEGIN SELECT RAISE(ABORT, 'the rating insert failed'); END"
    ],
    "postgres": [
        "CREATE FUNCTION no_ratings() RETURNS trigger AS $$ BEGIN"
        " RAISE EXCEPTION 'the rating insert failed'; END $$ LANGUAGE plpgsql",
        "CREATE TRIGGER no_ratings BEFORE INSERT ON rating_history"
        " FOR EACH ROW EXECUTE FUNCTION no_ratings()",
    ],
}


async def test_a_failed_rating_update_stores_no_result(database: Database) -> None:
    table = await database.tables.create(
        guild_id=GUILD, channel_id=10, host_id=100, preset="classic", document={}
    )
    async with database.store.backend.transaction() as raw:
        for statement in FAILING_TRIGGER[database.store.dialect_name]:
            await raw.execute(statement)
    with pytest.raises(Exception, match="rating insert failed"):
        await database.tables.save(
            table,
            document={"over": True},
            status=TableStatus.FINISHED,
            results=[result(1, 1), result(2, 2)],
        )
    for name in ("results", "ratings", "rating_history"):
        assert await database.store.backend.fetchone(f"SELECT COUNT(*) FROM {name}") == (0,), name
    kept = await database.tables.load(table.id)
    assert (kept.version, kept.status, kept.document) == (1, TableStatus.LOBBY, {})


async def schema_2_database(
    url: str, games: list[tuple[float, str, list[tuple[int, int, int]]]]
) -> None:
    """A database as the release before ratings made it (schema 2), with finished games'
    results: (finished_at, preset, [(user, place, left_early)]); table ids 1, 2, … in order."""
    backend = await open_backend(url)
    async with backend.transaction() as raw:
        await raw.run_script(str(MIGRATIONS[0]))
        await raw.run_script(str(MIGRATIONS[1]))
        for table_id, (finished_at, preset, rows) in enumerate(games, start=1):
            await raw.execute(
                "INSERT INTO tables (guild_id, channel_id, host_id, status, preset, document,"
                " created_at, updated_at) VALUES (?, 10, 100, 'finished', ?, '{}', 0, ?)",
                (GUILD, preset, finished_at),
            )
            for user, place, left in rows:
                await raw.execute(
                    "INSERT INTO results (table_id, guild_id, user_id, preset, place, players,"
                    " points, bids_made, hands_played, left_early, finished_at)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?, 2, 4, ?, ?)",
                    (
                        table_id,
                        GUILD,
                        user,
                        preset,
                        place,
                        len(rows),
                        20 - place,
                        left,
                        finished_at,
                    ),
                )
        await raw.set_schema_version(2)
    await backend.close()


@asynccontextmanager
async def database_before(
    url: str, games: list[tuple[float, str, list[tuple[int, int, int]]]], migration: Migration
) -> AsyncIterator[Connection]:
    """A schema-2 database of `games` (`schema_2_database`) brought up to the schema before
    `migration`; the block gets its connection, inside the transaction, to leave it as the
    release before that migration would have."""
    await schema_2_database(url, games)
    before = MIGRATIONS.index(migration)
    backend = await open_backend(url)
    try:
        async with backend.transaction() as raw:
            for step in MIGRATIONS[2:before]:
                if isinstance(step, str):
                    await raw.run_script(step)
                else:
                    await step(raw)
            await raw.set_schema_version(before)
            yield raw
    finally:
        await backend.close()


async def read_unopened(url: str, query: str) -> list[tuple[Any, ...]]:
    """A query's rows from a database not opened (so not migrated) yet."""
    backend = await open_backend(url)
    try:
        return [tuple(row) for row in await backend.fetchall(query)]
    finally:
        await backend.close()


async def test_a_schema_2_database_upgrades_and_rates_its_past_in_order_of_play(
    database_url: str,
) -> None:
    # Stored out of order: table 1 finished last.
    games = [
        (300.0, "classic", [(1, 2, 0), (2, 1, 0), (3, 3, 1)]),
        (100.0, "classic", [(1, 1, 0), (2, 2, 0)]),
        (200.0, "oh-hell", [(1, 1, 0), (3, 1, 0), (2, 3, 0)]),
    ]
    await schema_2_database(database_url, games)
    database = await Database.open(database_url)
    try:
        assert await database.store.schema_version() == len(MIGRATIONS)
        played = sorted(games)
        expected = direct_openskill(
            [
                (preset, [result(u, place, left_early=bool(left)) for u, place, left in rows])
                for _, preset, rows in played
            ]
        )
        for (scope, user), rating in expected.items():
            mu, sigma, _ = await skill(database, user, scope)
            assert (mu, sigma) == pytest.approx((rating.mu, rating.sigma)), (scope, user)  # type: ignore[attr-defined]
        seats = await database.store.backend.fetchall(
            "SELECT table_id, seat, user_id, removed FROM results ORDER BY table_id, seat"
        )
        assert seats[:3] == [(1, 0, 2, 0), (1, 1, 1, 0), (1, 2, 3, 0)]  # seats in place order
        totals = await database.store.backend.fetchall(
            "SELECT user_id, games, wins FROM ratings WHERE preset = ''"
        )
        assert {user: (games, wins) for user, games, wins in totals} == {
            1: (3, 2),
            2: (3, 1),
            3: (2, 1),
        }
        # The history keeps every game, in order, for a chart.
        rows = await database.store.backend.fetchall(
            "SELECT table_id FROM rating_history WHERE user_id = 1 AND preset = ''"
            " ORDER BY finished_at"
        )
        assert [row[0] for row in rows] == [2, 3, 1]
        history = await database.results.rating_history(GUILD, 1)
        assert [point.game for point in history] == [2, 3, 1]
        assert history[-1].rating == (await skill(database, 1))[2]
        assert len(await database.results.rating_history(GUILD, 1, "classic")) == 2
        # New games are rated on top of the replayed ones.
        table = await play(database, [result(3, 1), result(1, 2)])
        assert set(await database.results.rating_changes(table)) == {1, 3}
    finally:
        await database.close()


def rounded(rows: list[tuple[object, ...]]) -> list[tuple[object, ...]]:
    return [tuple(round(v, 9) if isinstance(v, float) else v for v in row) for row in rows]


async def test_the_upgrade_rates_exactly_as_a_live_game_does(
    database_url: str, tmp_path: Path
) -> None:
    rng = random.Random(7)
    games = []
    for number in range(60):
        players = rng.sample([*range(1, 9), COMPUTER_IDS["hard"]], rng.randint(2, 5))
        places = sorted(rng.randint(1, len(players)) for _ in players)
        rows = [(u, p, int(rng.random() < 0.1)) for u, p in zip(players, places, strict=True)]
        games.append((float(number), rng.choice(["classic", "oh-hell"]), rows))
    await schema_2_database(database_url, games)
    upgraded = await Database.open(database_url)
    live = await Database.open(tmp_path / "live.sqlite3")
    try:
        for _, preset, rows in games:
            results = [  # as schema_2_database stores them
                PlayerResult(u, place, 20 - place, 2, 4, left_early=bool(left))
                for u, place, left in rows
            ]
            await play(live, results, preset)
        queries = (
            "SELECT guild_id, preset, user_id, mu, sigma, rating, games, wins, hands, bids_made,"
            " points FROM ratings ORDER BY guild_id, preset, user_id",
            "SELECT guild_id, user_id, preset, table_id, mu, sigma, rating, change"
            " FROM rating_history ORDER BY table_id, preset, user_id",
        )
        for query in queries:
            replayed = await upgraded.store.backend.fetchall(query)
            stored = await live.store.backend.fetchall(query)
            assert rounded(replayed) == rounded(stored) and len(stored) > 20
    finally:
        await upgraded.close()
        await live.close()
