"""Ratings: openskill's Plackett–Luce model, one rating per identity per server, overall and
per preset, updated in the transaction that stores a game's results (docs/ratings.md).

- An identity is a person's user id, or a computer level's reserved negative id
  (`COMPUTER_IDS`: easy -1, normal -2, hard -3).
- Scope `OVERALL` (the empty string) is every game of the server; a preset's name is its games.
- The shown rating is `shown_rating(mu)`: the mean on a chess-like scale (1,000 to start, and
  a difference means what it means in Elo), provisional (`?`) while sigma is above
  `PROVISIONAL_SIGMA`.
- A server's games are rated one after another in its rating order: the number a game takes
  under the server's ratings lock (`rating_order`, stored with its results and its history
  rows). Every list of ratings in order reads that number, and a recomputation from scratch
  (bot/storage/replay.py) rates the stored results in it.
"""

from __future__ import annotations

import math
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

TAU = 25 / 300
"""openskill's dynamics factor (its default): the spread added to sigma before each game, so a
rating keeps following a player whose skill changes (docs/ratings.md, "Dynamics")."""

MODEL = PlackettLuce(tau=TAU)
"""openskill's Plackett–Luce: a new identity has mu 25, sigma 25/3; beta 25/6."""

BASE = 1000
SCALE = 15
"""Shown rating = BASE + SCALE × (mu − 25): a new identity shows 1,000, and a difference means
what it means in Elo (`finishes_ahead`)."""

PROVISIONAL_SIGMA = 100 / SCALE
"""A rating is provisional (`?`) while its sigma is above this: while it may still be more
than 100 points off (one standard deviation), about a player's first 12 games. The
leaderboard ranks only ratings that are not."""

SETTLED_SIGMA = 4.0
"""The sigma of a settled rating, after about 70 games, that `finishes_ahead` speaks of."""

TYPICAL_TABLE = 4
"""Seats at the table `finishes_ahead` speaks of."""


def computer_level(user_id: int) -> str | None:
    """The computer level a stored identity stands for, or None for a person."""
    return next((level for level, known in COMPUTER_IDS.items() if known == user_id), None)


def shown_rating(mu: float) -> int:
    """The number people see: the mean skill on a familiar scale, 1,000 to start."""
    return round(BASE + SCALE * (mu - MODEL.mu))


def is_provisional(sigma: float) -> bool:
    """Whether a rating is still a guess: shown with `?`, not ranked on the leaderboard."""
    return sigma > PROVISIONAL_SIGMA


def uncertainty(sigma: float) -> int:
    """How far off a rating may still be, in points of the shown number (one standard
    deviation)."""
    return round(SCALE * sigma)


def finishes_ahead(points: float, seats: int = TYPICAL_TABLE) -> float:
    """How often a player `points` above another finishes ahead of them: the chance in the
    Plackett–Luce model the ratings are updated with, logistic in the difference of the means
    over openskill's `c` (the square root of every seat's sigma² + beta² summed), at a table
    of `seats` settled ratings (`SETTLED_SIGMA`). `SCALE` makes it Elo's chance:
    1 / (1 + 10^(−points / 400))."""
    c = math.sqrt(seats * (SETTLED_SIGMA**2 + MODEL.beta**2))
    return 1 / (1 + math.exp(-points / SCALE / c))


@dataclass(frozen=True)
class Skill:
    mu: float
    sigma: float

    @property
    def shown(self) -> int:
        return shown_rating(self.mu)

    @property
    def provisional(self) -> bool:
        return is_provisional(self.sigma)


NEW = Skill(MODEL.mu, MODEL.sigma)


@dataclass(frozen=True)
class RatedSeat:
    """A seat as the rating sees it: who, their rank (1 first; ties share one), and whether
    they left (rated below everyone who stayed)."""

    identity: int
    rank: int
    left: bool = False


def rated_seats(results: Sequence[PlayerResult]) -> list[RatedSeat]:
    """The rated seats of a game: a removed player is not rated; a leaver ranks below everyone
    who stayed; the rest keep their place (ties share it)."""
    last = max((r.place for r in results), default=0) + 1
    return [
        RatedSeat(r.user_id, last if r.left_early else r.place, r.left_early)
        for r in results
        if not r.removed
    ]


def rate_places(
    current: Mapping[int, Skill], seats: Sequence[RatedSeat], model: PlackettLuce = MODEL
) -> dict[int, Skill]:
    """New skills after one game, each seat its own team. Those who stayed are rated from the
    whole game, every leaver below them; each leaver from the game of those who stayed and
    that leaver alone, so a leaver is always the last place (two leavers sharing it, the
    weaker could gain). An identity in several seats (two `hard` computers) plays each from
    its current skill and moves to the mean of their updates. Fewer than two seats, or nobody
    who stayed: no change."""
    stayed = [seat for seat in seats if not seat.left]
    if len(seats) < 2 or not stayed:
        return {}
    outcomes = _rate(current, seats, model)
    if len(stayed) < len(seats) - 1:
        outcomes = [
            _rate(current, [*stayed, seat], model)[-1] if seat.left else outcome
            for seat, outcome in zip(seats, outcomes, strict=True)
        ]
    updates: dict[int, list[tuple[float, float]]] = {}
    for seat, outcome in zip(seats, outcomes, strict=True):
        updates.setdefault(seat.identity, []).append(outcome)
    return {
        identity: Skill(
            sum(mu for mu, _ in values) / len(values),
            sum(sigma for _, sigma in values) / len(values),
        )
        for identity, values in updates.items()
    }


def _rate(
    current: Mapping[int, Skill], seats: Sequence[RatedSeat], model: PlackettLuce
) -> list[tuple[float, float]]:
    """(mu, sigma) of each seat after openskill rates one game of them."""
    teams = [
        [model.rating(mu=current[s.identity].mu, sigma=current[s.identity].sigma)] for s in seats
    ]
    rated = model.rate(teams, ranks=[float(s.rank) for s in seats])
    return [(team[0].mu, team[0].sigma) for team in rated]


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

RATING_COLUMNS = (
    "guild_id, preset, user_id, mu, sigma, rating, games, wins, hands, bids_made, points,"
    " updated_at"
)
"""A `ratings` row's columns, in the order of `rating_row`'s values."""
HISTORY_COLUMNS = (
    "guild_id, user_id, preset, table_id, finished_at, mu, sigma, rating, change, rating_order"
)
"""A `rating_history` row's columns, in the order of `history_row`'s values."""

UPSERT_RATING = (
    f"INSERT INTO ratings ({RATING_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
    " ON CONFLICT (guild_id, preset, user_id) DO UPDATE SET mu = excluded.mu,"
    " sigma = excluded.sigma, rating = excluded.rating,"
    " games = ratings.games + excluded.games, wins = ratings.wins + excluded.wins,"
    " hands = ratings.hands + excluded.hands,"
    " bids_made = ratings.bids_made + excluded.bids_made,"
    " points = ratings.points + excluded.points, updated_at = excluded.updated_at"
)
INSERT_HISTORY = (
    f"INSERT INTO rating_history ({HISTORY_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
)


@dataclass(frozen=True)
class RatedGame:
    """What the ratings read of a finished game: its results, one a seat in seat order, and
    its place in its server's rating order."""

    table_id: int
    guild_id: int
    preset: str
    finished_at: float
    order: int
    results: tuple[PlayerResult, ...]


async def rate_game(
    db: Connection,
    *,
    guild_id: int,
    table_id: int,
    preset: str,
    finished_at: float,
    results: Sequence[PlayerResult],
) -> int:
    """Give a finished game the next place in its server's rating order, rate it overall and
    in its preset from the ratings the games before it left, and add its seats to the running
    totals the leaderboard reads. Returns that place, which the game's results are stored
    with. Call inside the transaction that stores the results."""
    # Two games of one server finishing at once (two processes) must not both rate from the
    # same ratings: the second waits for the first's commit, and its place in the order comes
    # after the first's, whatever the two processes' clocks read.
    await db.lock("ratings", guild_id)
    row = await db.fetchone(
        "SELECT COALESCE(MAX(rating_order), 0) + 1 FROM results WHERE guild_id = ?", (guild_id,)
    )
    assert row is not None
    game = RatedGame(table_id, guild_id, preset, finished_at, int(row[0]), tuple(results))
    seats = rated_seats(results)
    totals = seat_totals(results)
    for scope in (OVERALL, preset):
        current = await _current(db, guild_id, scope, totals)
        new = rate_places(current, seats)
        await db.executemany(
            UPSERT_RATING,
            [
                rating_row(
                    (guild_id, scope, identity),
                    new.get(identity, current[identity]),
                    added,
                    finished_at,
                )
                for identity, added in totals.items()
            ],
        )
        await db.executemany(
            INSERT_HISTORY,
            [
                history_row(game, identity, scope, skill, current[identity])
                for identity, skill in new.items()
            ],
        )
    return game.order


def rating_row(
    key: tuple[int, str, int], skill: Skill, totals: Totals, at: float
) -> tuple[Any, ...]:
    """A `ratings` row: (guild, preset, identity), the skill, the totals (added on conflict)."""
    return (*key, skill.mu, skill.sigma, skill.shown, *totals, at)


def history_row(
    game: RatedGame, identity: int, scope: str, skill: Skill, before: Skill
) -> tuple[Any, ...]:
    """A `rating_history` row (`HISTORY_COLUMNS`), with the change in the shown rating."""
    change = skill.shown - before.shown
    return (
        game.guild_id,
        identity,
        scope,
        game.table_id,
        game.finished_at,
        skill.mu,
        skill.sigma,
        skill.shown,
        change,
        game.order,
    )


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
