"""Ratings: openskill's Plackett–Luce model, one rating per identity per server, overall and
per preset, updated in the transaction that stores a game's results (docs/ratings.md).

- An identity is a person's user id, or a computer level's reserved negative id
  (`COMPUTER_IDS`: easy -1, normal -2, hard -3).
- Scope `OVERALL` (the empty string) is every game of the server; a preset's name is its games.
- The shown rating is `shown_rating(mu, sigma)`: 1,000 + 40 × ordinal (mu − 3σ), rounded.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from openskill.models import PlackettLuce

from bot.storage.connection import Connection
from bot.storage.rows import PlayerResult

OVERALL = ""
"""The `preset` of a server's overall rating (every preset's games)."""

COMPUTER_IDS: dict[str, int] = {"easy": -1, "normal": -2, "hard": -3}
"""The identity a computer level is rated and stored as (user ids of people are positive)."""

BASE = 1000
SCALE = 40
"""Shown rating = BASE + SCALE × ordinal: a new identity shows 1,000."""

MODEL = PlackettLuce()
"""openskill's Plackett–Luce with the library's defaults (mu 25, sigma 25/3)."""


def computer_level(user_id: int) -> str | None:
    """The computer level a stored identity stands for, or None for a person."""
    return next((level for level, known in COMPUTER_IDS.items() if known == user_id), None)


def shown_rating(mu: float, sigma: float) -> int:
    """The number people see: the conservative ordinal (mu − 3σ) on a familiar scale."""
    return round(BASE + SCALE * (mu - 3 * sigma))


@dataclass(frozen=True)
class Skill:
    mu: float
    sigma: float

    @property
    def shown(self) -> int:
        return shown_rating(self.mu, self.sigma)


NEW = Skill(MODEL.mu, MODEL.sigma)


@dataclass(frozen=True)
class RatingChange:
    """One identity's rating after a game, in one scope, and how much the shown number moved."""

    user_id: int
    preset: str
    rating: int
    change: int


def rating_ranks(results: Sequence[PlayerResult]) -> list[int | None]:
    """Each seat's rank for the rating, or None when the seat is not rated: a removed player
    is not rated; a leaver is rated last (leavers share that place); the rest keep their
    place (ties share it)."""
    last = max((r.place for r in results), default=0) + 1
    return [None if r.removed else (last if r.left_early else r.place) for r in results]


def rate_places(current: Mapping[int, Skill], seats: Sequence[tuple[int, int]]) -> dict[int, Skill]:
    """New skills after one game. `seats` are (identity, rank) per rated seat, each seat its
    own team; an identity that sits in several seats (two `hard` computers) plays each from
    its current skill and moves to the mean of their updates. Fewer than two seats: no change."""
    if len(seats) < 2:
        return {}
    teams = [[MODEL.rating(mu=s.mu, sigma=s.sigma)] for s in (current[i] for i, _ in seats)]
    rated = MODEL.rate(teams, ranks=[float(rank) for _, rank in seats])
    updates: dict[int, list[tuple[float, float]]] = {}
    for (identity, _), team in zip(seats, rated, strict=True):
        updates.setdefault(identity, []).append((team[0].mu, team[0].sigma))
    return {
        identity: Skill(
            sum(mu for mu, _ in values) / len(values),
            sum(sigma for _, sigma in values) / len(values),
        )
        for identity, values in updates.items()
    }


def seat_totals(results: Sequence[PlayerResult]) -> dict[int, Totals]:
    """What a game adds to each identity's running totals (a computer level: every seat)."""
    totals: dict[int, Totals] = {}
    for r in results:
        won = int(r.place == 1 and not r.left_early)
        games, wins, hands, made, points = totals.get(r.user_id, (0, 0, 0, 0, 0))
        totals[r.user_id] = (
            games + 1,
            wins + won,
            hands + r.hands_played,
            made + r.bids_made,
            points + r.points,
        )
    return totals


Totals = tuple[int, int, int, int, int]
"""games, wins, hands, bids made, points."""

_UPSERT_RATING = (
    "INSERT INTO ratings (guild_id, preset, user_id, mu, sigma, rating, games, wins, hands,"
    " bids_made, points, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
    " ON CONFLICT (guild_id, preset, user_id) DO UPDATE SET mu = excluded.mu,"
    " sigma = excluded.sigma, rating = excluded.rating,"
    " games = ratings.games + excluded.games, wins = ratings.wins + excluded.wins,"
    " hands = ratings.hands + excluded.hands,"
    " bids_made = ratings.bids_made + excluded.bids_made,"
    " points = ratings.points + excluded.points, updated_at = excluded.updated_at"
)
_INSERT_HISTORY = (
    "INSERT INTO rating_history (guild_id, user_id, preset, table_id, finished_at, mu, sigma,"
    " rating, change) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
)


async def rate_game(
    db: Connection,
    *,
    guild_id: int,
    table_id: int,
    preset: str,
    finished_at: float,
    results: Sequence[PlayerResult],
) -> list[RatingChange]:
    """Rate a finished game overall and in its preset, and add its seats to the running
    totals the leaderboard reads. Call inside the transaction that stores the results."""
    # Two games of one server finishing at once (two processes) must not both rate from the
    # same ratings: the second waits for the first's commit.
    await db.lock("ratings", guild_id)
    seats = rated_seats(results)
    totals = seat_totals(results)
    changes: list[RatingChange] = []
    for scope in (OVERALL, preset):
        current = await _current(db, guild_id, scope, totals)
        new = rate_places(current, seats)
        await db.executemany(
            _UPSERT_RATING,
            [
                _rating_row(
                    (guild_id, scope, identity),
                    new.get(identity, current[identity]),
                    added,
                    finished_at,
                )
                for identity, added in totals.items()
            ],
        )
        rows = [
            _history_row(guild_id, identity, scope, table_id, finished_at, skill, current[identity])
            for identity, skill in new.items()
        ]
        await db.executemany(_INSERT_HISTORY, rows)
        changes += [RatingChange(row[1], scope, row[7], row[8]) for row in rows]
    return changes


def rated_seats(results: Sequence[PlayerResult]) -> list[tuple[int, int]]:
    """(identity, rank) of each rated seat (`rating_ranks`)."""
    ranks = rating_ranks(results)
    return [(r.user_id, rank) for r, rank in zip(results, ranks, strict=True) if rank is not None]


def _rating_row(
    key: tuple[int, str, int], skill: Skill, totals: Totals, at: float
) -> tuple[Any, ...]:
    """A `ratings` row: (guild, preset, identity), the skill, the totals (added on conflict)."""
    return (*key, skill.mu, skill.sigma, skill.shown, *totals, at)


def _history_row(
    guild_id: int,
    identity: int,
    scope: str,
    table_id: int,
    finished_at: float,
    skill: Skill,
    before: Skill,
) -> tuple[Any, ...]:
    """A `rating_history` row, with the change in the shown rating."""
    change = skill.shown - before.shown
    shown = (skill.shown, change)
    return (guild_id, identity, scope, table_id, finished_at, skill.mu, skill.sigma, *shown)


async def _current(
    db: Connection, guild_id: int, scope: str, identities: Iterable[int]
) -> dict[int, Skill]:
    wanted = sorted(set(identities))
    skills = dict.fromkeys(wanted, NEW)
    marks = ", ".join("?" * len(wanted))
    for row in await db.fetchall(
        f"SELECT user_id, mu, sigma FROM ratings WHERE guild_id = ? AND preset = ?"
        f" AND user_id IN ({marks})",
        (guild_id, scope, *wanted),
    ):
        skills[int(row[0])] = Skill(float(row[1]), float(row[2]))
    return skills


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


async def add_ratings(db: Connection) -> None:
    """Schema 2 → 3: results get their seat and a `removed` flag, the rating tables are made,
    and every stored result is rated in order of play (finish time, then table) — the same
    sums as `rate_game`, kept in memory and written once at the end."""
    await db.run_script(SCHEMA_3)
    rows = await db.fetchall(
        "SELECT table_id, guild_id, preset, finished_at, user_id, place, points, bids_made,"
        " hands_played, left_early, removed FROM results ORDER BY finished_at, table_id, seat"
    )
    replay = _Replay()
    game: list[tuple[Any, ...]] = []
    for row in rows:
        if game and row[0] != game[0][0]:
            replay.rate(game)
            game = []
        game.append(row)
    if game:
        replay.rate(game)
    await db.executemany(_UPSERT_RATING, replay.rating_rows())
    await db.executemany(_INSERT_HISTORY, replay.history)


class _Replay:
    """Stored results rated in order of play, in memory."""

    def __init__(self) -> None:
        self.skills: dict[tuple[int, str, int], Skill] = {}
        self.totals: dict[tuple[int, str, int], Totals] = {}
        self.updated: dict[tuple[int, str, int], float] = {}
        self.history: list[tuple[Any, ...]] = []

    def rate(self, rows: Sequence[tuple[Any, ...]]) -> None:
        table_id, guild_id, preset, finished_at = rows[0][:4]
        results = [
            PlayerResult(
                user_id=r[4],
                place=r[5],
                points=r[6],
                bids_made=r[7],
                hands_played=r[8],
                left_early=bool(r[9]),
                removed=bool(r[10]),
            )
            for r in rows
        ]
        seats = rated_seats(results)
        totals = seat_totals(results)
        for scope in (OVERALL, preset):
            current = {i: self.skills.get((guild_id, scope, i), NEW) for i in totals}
            new = rate_places(current, seats)
            for identity, added in totals.items():
                key = (guild_id, scope, identity)
                before = self.totals.get(key, (0, 0, 0, 0, 0))
                self.totals[key] = (
                    before[0] + added[0],
                    before[1] + added[1],
                    before[2] + added[2],
                    before[3] + added[3],
                    before[4] + added[4],
                )
                self.skills[key] = new.get(identity, current[identity])
                self.updated[key] = finished_at
            self.history += [
                _history_row(
                    guild_id, identity, scope, table_id, finished_at, skill, current[identity]
                )
                for identity, skill in new.items()
            ]

    def rating_rows(self) -> list[tuple[Any, ...]]:
        return [
            _rating_row(key, self.skills[key], self.totals[key], self.updated[key])
            for key in self.totals
        ]
