"""Stored results rated again from scratch, game after game in each server's rating order
(`rating_order`): the recomputation that stored ratings must equal, `rerate` that stores it,
and the migrations that rate a database's past with it."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from itertools import groupby
from typing import Any

from bot.storage.connection import Connection
from bot.storage.ratings import (
    INSERT_HISTORY,
    NEW,
    OVERALL,
    UPSERT_RATING,
    RatedGame,
    Skill,
    Totals,
    history_row,
    rate_places,
    rated_seats,
    rating_row,
    seat_totals,
)
from bot.storage.rows import PlayerResult

RatingKey = tuple[int, str, int]
"""(guild, scope, identity): one rating."""


class Recomputation:
    """Ratings worked out in memory from nothing, from games given one after another in their
    server's rating order: the rows `rate_game` stores when it rates them in that order."""

    def __init__(self) -> None:
        self.skills: dict[RatingKey, Skill] = {}
        self.totals: dict[RatingKey, Totals] = {}
        self.updated: dict[RatingKey, float] = {}
        self.history: list[tuple[Any, ...]] = []
        """`rating_history` rows (`HISTORY_COLUMNS`), in the order they were rated."""

    def rate(self, game: RatedGame) -> None:
        seats = rated_seats(game.results)
        totals = seat_totals(game.results)
        for scope in (OVERALL, game.preset):
            current = {i: self.skills.get((game.guild_id, scope, i), NEW) for i in totals}
            new = rate_places(current, seats)
            for identity, added in totals.items():
                key = (game.guild_id, scope, identity)
                before = self.totals.get(key, (0, 0, 0, 0, 0))
                self.totals[key] = (
                    before[0] + added[0],
                    before[1] + added[1],
                    before[2] + added[2],
                    before[3] + added[3],
                    before[4] + added[4],
                )
                self.skills[key] = new.get(identity, current[identity])
                self.updated[key] = game.finished_at
            self.history += [
                history_row(game, identity, scope, skill, current[identity])
                for identity, skill in new.items()
            ]

    def rating_rows(self) -> list[tuple[Any, ...]]:
        """`ratings` rows (`RATING_COLUMNS`), by guild, scope and identity."""
        return [
            rating_row(key, self.skills[key], self.totals[key], self.updated[key])
            for key in sorted(self.totals)
        ]


def _stored_query(order: str) -> str:
    """The stored results as `_games` reads them, with `order` as each game's place."""
    return (
        f"SELECT table_id, guild_id, preset, finished_at, {order}, user_id, place, points,"
        " bids_made, hands_played, left_early, removed FROM results"
    )


def _games(rows: Iterable[Sequence[Any]]) -> Iterator[RatedGame]:
    """Rows of `_stored_query`, a game's seats together, as games."""
    for _, seats in groupby(rows, key=lambda row: row[0]):
        game = list(seats)
        table_id, guild_id, preset, finished_at, order = game[0][:5]
        yield RatedGame(
            table_id=int(table_id),
            guild_id=int(guild_id),
            preset=str(preset),
            finished_at=float(finished_at),
            order=int(order),
            results=tuple(
                PlayerResult(
                    user_id=r[5],
                    place=r[6],
                    points=r[7],
                    bids_made=r[8],
                    hands_played=r[9],
                    left_early=bool(r[10]),
                    removed=bool(r[11]),
                )
                for r in game
            ),
        )


async def recompute_ratings(db: Connection, guild_id: int | None = None) -> Recomputation:
    """A server's stored results (without one: every server's) rated from scratch, in its
    rating order: what its `ratings` and `rating_history` rows must be."""
    where, parameters = ("", ()) if guild_id is None else (" WHERE guild_id = ?", (guild_id,))
    rows = await db.fetchall(
        f"{_stored_query('rating_order')}{where} ORDER BY guild_id, rating_order, seat",
        parameters,
    )
    recomputation = Recomputation()
    for game in _games(rows):
        recomputation.rate(game)
    return recomputation


async def rerate(db: Connection) -> None:
    """Every server's ratings and rating history replaced by `recompute_ratings`: a migration's
    step, after one that changes how a game is rated or shown. It takes no server's ratings
    lock (one transaction cannot hold one for every server), so nothing else may rate while
    it runs: the processes of this release wait for the migration (every process runs one
    release)."""
    recomputation = await recompute_ratings(db)
    await db.execute("DELETE FROM rating_history")
    await db.execute("DELETE FROM ratings")
    await db.executemany(UPSERT_RATING, recomputation.rating_rows())
    await db.executemany(INSERT_HISTORY, recomputation.history)


# -- the migration to schema 3 ---------------------------------------------------------------

SCHEMA_3 = """
    CREATE TABLE results_3 (
        table_id     INTEGER NOT NULL REFERENCES tables (id),
        seat         INTEGER NOT NULL,
        guild_id     INTEGER NOT NULL,
        user_id      INTEGER NOT NULL,
        preset       TEXT    NOT NULL,
        place        INTEGER NOT NULL,
        players      INTEGER NOT NULL,
        points       INTEGER NOT NULL,
        bids_made    INTEGER NOT NULL,
        hands_played INTEGER NOT NULL,
        left_early   INTEGER NOT NULL DEFAULT 0,
        removed      INTEGER NOT NULL DEFAULT 0,
        finished_at  REAL    NOT NULL,
        PRIMARY KEY (table_id, seat)
    );
    INSERT INTO results_3 (table_id, seat, guild_id, user_id, preset, place, players, points,
        bids_made, hands_played, left_early, finished_at)
        SELECT table_id, ROW_NUMBER() OVER (PARTITION BY table_id ORDER BY place, user_id) - 1,
            guild_id, user_id, preset, place, players, points, bids_made, hands_played,
            left_early, finished_at
        FROM results;
    DROP TABLE results;
    ALTER TABLE results_3 RENAME TO results;
    CREATE INDEX results_by_guild ON results (guild_id, preset);
    CREATE INDEX results_by_player ON results (guild_id, user_id, finished_at);
    CREATE INDEX results_by_finish ON results (guild_id, finished_at);

    CREATE TABLE ratings (
        guild_id    INTEGER NOT NULL,
        preset      TEXT    NOT NULL,
        user_id     INTEGER NOT NULL,
        mu          REAL    NOT NULL,
        sigma       REAL    NOT NULL,
        rating      INTEGER NOT NULL,
        games       INTEGER NOT NULL,
        wins        INTEGER NOT NULL,
        hands       INTEGER NOT NULL,
        bids_made   INTEGER NOT NULL,
        points      INTEGER NOT NULL,
        updated_at  REAL    NOT NULL,
        PRIMARY KEY (guild_id, preset, user_id)
    ) WITHOUT ROWID;

    CREATE TABLE rating_history (
        guild_id     INTEGER NOT NULL,
        user_id      INTEGER NOT NULL,
        preset       TEXT    NOT NULL,
        table_id     INTEGER NOT NULL REFERENCES tables (id),
        finished_at  REAL    NOT NULL,
        mu           REAL    NOT NULL,
        sigma        REAL    NOT NULL,
        rating       INTEGER NOT NULL,
        change       INTEGER NOT NULL,
        PRIMARY KEY (table_id, preset, user_id)
    );
    CREATE INDEX rating_history_by_player
        ON rating_history (guild_id, user_id, preset, finished_at)
"""


_INSERT_HISTORY_3 = (
    "INSERT INTO rating_history (guild_id, user_id, preset, table_id, finished_at, mu, sigma,"
    " rating, change) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
)
"""Schema 3's history row: `HISTORY_COLUMNS` but the last (`rating_order` came later)."""


async def add_ratings(db: Connection) -> None:
    """Schema 2 → 3: results get their seat and a `removed` flag, the rating tables are made,
    and every stored result is rated in order of play (finish time, then table) — the same
    sums as `rate_game`, kept in memory and written once at the end."""
    await db.run_script(SCHEMA_3)
    rows = await db.fetchall(f"{_stored_query('0')} ORDER BY finished_at, table_id, seat")
    recomputation = Recomputation()
    for game in _games(rows):
        recomputation.rate(game)
    await db.executemany(UPSERT_RATING, recomputation.rating_rows())
    await db.executemany(_INSERT_HISTORY_3, [row[:-1] for row in recomputation.history])


# -- the migration that adds the rating order --------------------------------------------------

RATING_ORDER = """
    ALTER TABLE results ADD COLUMN rating_order INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE rating_history ADD COLUMN rating_order INTEGER NOT NULL DEFAULT 0;
    DROP INDEX results_by_finish;
    DROP INDEX results_by_player;
    DROP INDEX rating_history_by_player;
    CREATE INDEX results_by_player ON results (guild_id, user_id, rating_order);
    CREATE INDEX rating_history_by_player
        ON rating_history (guild_id, user_id, preset, rating_order)
"""


async def add_rating_order(db: Connection) -> None:
    """Every stored game gets its place in its server's rating order, numbered from 1 in the
    order schema 3 rated the past in (finish time, then table), and every server is rated
    again in that order: a history rated in another order (two processes' games that reached
    the ratings lock in another order than their clocks read) chains again."""
    await db.run_script(RATING_ORDER)
    games = await db.fetchall(
        "SELECT DISTINCT guild_id, finished_at, table_id FROM results"
        " ORDER BY guild_id, finished_at, table_id"
    )
    await db.executemany(
        "UPDATE results SET rating_order = ? WHERE table_id = ?",
        [
            (number, table_id)
            for _, server in groupby(games, key=lambda game: game[0])
            for number, (_, _, table_id) in enumerate(server, start=1)
        ],
    )
    # Two games of a server never share a place.
    await db.run_script(
        "CREATE UNIQUE INDEX results_in_rating_order ON results (guild_id, rating_order, seat)"
    )
    await rerate(db)


# -- the migration to the mean -----------------------------------------------------------------


async def rate_again_as_the_mean(db: Connection) -> None:
    """Every server's past rated again in its rating order (`rerate`) as a game is rated now:
    the number shown is the mean (provisional while sigma is high), not mu − 3 sigma, and each
    of several leavers of a game is rated as its last place."""
    await rerate(db)
