"""Benchmark: how well the shown rating tells skill, in simulated seasons of known skills.

``python -m tools.bench_ratings [--seasons S] [--people P] [--games 10,50,200] [--long G]
[--taus 0,0.0833,0.1667] [--seed N]`` plays seasons of games among people whose skills are
known (a game's performance is the skill plus a luck of spread 1; skills spread `SPREAD`),
at tables of 3–7 seats with computer levels of fixed skill, ties, leavers (a seat leaves with
chance `LEAVE`) and removed players, some people playing much more than others. The same games
are rated by the conservative number (`ordinal`: 1,000 + 40 × (mu − 3 sigma), openskill's
defaults, leavers sharing the last place, a leaderboard from 3 games) and by the number the
bot shows (`mean`: bot/storage/ratings.py, a leaderboard without provisional ratings). It
prints:

- the order: Kendall's tau of each number against the true skills, over everyone and over the
  players its leaderboard ranks, after the people played 10, 50 and 200 games on average, and
  at the end of a season where people keep arriving;
- the direction: how often a sole winner went down, a sole last place (in a game nobody left)
  or a leaver went up;
- the drift: the median person's number after 50 to `--long` games, skills unchanged;
- the provisional mark: for thresholds of sigma, the games it takes to lose it and how well the
  leaderboard of settled ratings orders them;
- the meaning: how often a player 100 (200) points above another finished ahead of them,
  against `finishes_ahead` and against openskill's `predict_win`;
- the dynamics: for each `--taus`, the order after 200 games and after a quarter of the people
  improved, and how far a settled rating moves in a game.

The last line of output is JSON.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field

from openskill.models import PlackettLuce

from bot.storage.ratings import (
    COMPUTER_IDS,
    MODEL,
    NEW,
    PROVISIONAL_SIGMA,
    SCALE,
    TAU,
    Skill,
    finishes_ahead,
    rate_places,
    rated_seats,
    shown_rating,
)
from bot.storage.rows import PlayerResult

SPREAD = 0.5
"""Spread (standard deviation) of the people's skills, in units of one game's luck."""
ACTIVITY = 1.0
"""Spread of the logarithm of how often each person plays (1.0: some play ten times as often
as others)."""
COMPUTER_SKILLS = {"easy": -0.8, "normal": -0.2, "hard": 0.6}
COMPUTER_SEAT = 0.35
"""The chance a game has a computer seat, and again a second one."""
LEAVE = 0.03
REMOVED = 0.01
TIE = 0.05
"""Performances this close share a place (about one game in ten has a tie)."""
OLD_BOARD_GAMES = 3
"""The old leaderboard's minimum of games."""
IMPROVEMENT = 0.5
"""How much a quarter of the people improve in the dynamics' season."""
THRESHOLDS = tuple(points / SCALE for points in (80, 90, 100, 110, 120))
"""Values of sigma tried for the provisional mark: 80 to 120 points of the number."""


@dataclass
class Season:
    """Games among people of known skill: `skills` by identity (people 1…P, computer levels
    their negative ids), changed at `changes` (game index → new skills)."""

    skills: dict[int, float]
    games: list[list[PlayerResult]] = field(default_factory=list)
    marks: dict[int, int] = field(default_factory=dict)
    """Checkpoint (mean games a person) → the number of games played when it was reached."""
    changes: dict[int, dict[int, float]] = field(default_factory=dict)


def play_season(
    rng: random.Random,
    people: int,
    checkpoints: Sequence[int],
    *,
    activity: float = ACTIVITY,
    arrivals: bool = False,
    improve_at: int | None = None,
) -> Season:
    """A season until the people have played `checkpoints[-1]` games on average. `arrivals`:
    half the people are there from the start, the rest arrive one by one through the season.
    `improve_at`: at that mean, a quarter of the people improve by `IMPROVEMENT`."""
    skills = {p: rng.gauss(0, SPREAD) for p in range(1, people + 1)}
    skills |= {COMPUTER_IDS[level]: skill for level, skill in COMPUTER_SKILLS.items()}
    season = Season(dict(skills))
    weight = {p: math.exp(rng.gauss(0, activity)) for p in range(1, people + 1)}
    arrive = {p: 0.0 if not arrivals or p <= people // 2 else rng.random() for p in weight}
    played = dict.fromkeys(weight, 0)
    total_games = checkpoints[-1] * people
    waiting = sorted(checkpoints)
    while waiting:
        progress = sum(played.values()) / total_games
        present = [p for p in weight if arrive[p] <= progress]
        seats = rng.randint(3, 7)
        computers = [
            COMPUTER_IDS[rng.choice(list(COMPUTER_SKILLS))]
            for _ in range(2)
            if rng.random() < COMPUTER_SEAT
        ][: seats - 2]
        humans = _weighted_sample(rng, present, weight, min(seats - len(computers), len(present)))
        season.games.append(_results(rng, [*humans, *computers], skills))
        for p in humans:
            played[p] += 1
        mean = sum(played.values()) / people
        if improve_at is not None and mean >= improve_at:
            for p in rng.sample(sorted(weight), people // 4):
                skills[p] += IMPROVEMENT
            season.changes[len(season.games)] = dict(skills)
            improve_at = None
        while waiting and mean >= waiting[0]:
            season.marks[waiting.pop(0)] = len(season.games)
    return season


def _weighted_sample(
    rng: random.Random, pool: Sequence[int], weight: dict[int, float], count: int
) -> list[int]:
    chosen: list[int] = []
    left = list(pool)
    for _ in range(count):
        pick = rng.choices(left, [weight[p] for p in left])[0]
        chosen.append(pick)
        left.remove(pick)
    return chosen


def _results(rng: random.Random, seated: list[int], skills: dict[int, float]) -> list[PlayerResult]:
    """One game's results: places by performance (close ones tie); a person may leave (a
    computer finishes their seat) or be removed by the host."""
    rng.shuffle(seated)
    performance = [skills[i] + rng.gauss(0, 1) for i in seated]
    scores = [round(p / TIE) for p in performance]
    results = []
    for identity, score in zip(seated, scores, strict=True):
        place = 1 + sum(other > score for other in scores)
        person = identity > 0
        left = person and rng.random() < LEAVE
        removed = person and not left and rng.random() < REMOVED
        results.append(PlayerResult(identity, place, 0, 0, 0, left_early=left, removed=removed))
    return results


# -- the two numbers ---------------------------------------------------------------------------


class Number:
    """A way of rating and showing: the skills, the games each identity was rated in."""

    name = ""

    def __init__(self) -> None:
        self.skills: dict[int, Skill] = {}
        self.games: dict[int, int] = {}

    def rate(self, results: Sequence[PlayerResult]) -> dict[int, Skill]:
        raise NotImplementedError

    def shown(self, skill: Skill) -> float:
        raise NotImplementedError

    def ranked(self, identity: int) -> bool:
        """Whether its leaderboard ranks this identity."""
        raise NotImplementedError

    def play(self, results: Sequence[PlayerResult]) -> Moves:
        """Rates a game: the moves of everyone it moved."""
        before = {r.user_id: self.skills.get(r.user_id, NEW) for r in results}
        new = self.rate(results)
        for identity in new:
            self.games[identity] = self.games.get(identity, 0) + 1
        self.skills.update(new)
        return {identity: (before[identity], skill) for identity, skill in new.items()}


class Ordinal(Number):
    """1,000 + 40 × (mu − 3 sigma), openskill's defaults, leavers sharing the last place, the
    leaderboard from `OLD_BOARD_GAMES` games."""

    name = "ordinal"
    model = PlackettLuce()

    def rate(self, results: Sequence[PlayerResult]) -> dict[int, Skill]:
        last = max(r.place for r in results) + 1
        seated = [(r.user_id, last if r.left_early else r.place) for r in results if not r.removed]
        if len(seated) < 2:
            return {}
        teams = [
            [self.model.rating(mu=s.mu, sigma=s.sigma)]
            for s in (self.skills.get(i, NEW) for i, _ in seated)
        ]
        rated = self.model.rate(teams, ranks=[float(rank) for _, rank in seated])
        moves: dict[int, list[Skill]] = {}
        for (identity, _), team in zip(seated, rated, strict=True):
            moves.setdefault(identity, []).append(Skill(team[0].mu, team[0].sigma))
        return {i: _mean(skills) for i, skills in moves.items()}

    def shown(self, skill: Skill) -> float:
        return round(1000 + 40 * (skill.mu - 3 * skill.sigma))

    def ranked(self, identity: int) -> bool:
        return self.games.get(identity, 0) >= OLD_BOARD_GAMES


class Mean(Number):
    """The bot's number (bot/storage/ratings.py), optionally with another tau."""

    name = "mean"

    def __init__(self, tau: float = TAU, threshold: float = PROVISIONAL_SIGMA) -> None:
        super().__init__()
        self.model = MODEL if tau == TAU else PlackettLuce(tau=tau or 1e-9)
        self.threshold = threshold

    def rate(self, results: Sequence[PlayerResult]) -> dict[int, Skill]:
        seats = rated_seats(results)
        current = {s.identity: self.skills.get(s.identity, NEW) for s in seats}
        return rate_places(current, seats, self.model)

    def shown(self, skill: Skill) -> float:
        return shown_rating(skill.mu)

    def ranked(self, identity: int) -> bool:
        return self.settled(self.threshold)(identity)

    def settled(self, threshold: float) -> Callable[[int], bool]:
        """Whether an identity's sigma is at most `threshold`."""
        return lambda identity: self.skills[identity].sigma <= threshold


class StayersAlone(Mean):
    """The bot's number with those who stayed rated among themselves, not above the leavers
    (each leaver still the last place of those who stayed and that leaver): what the leavers
    lose goes to nobody."""

    name = "stayers_alone"

    def rate(self, results: Sequence[PlayerResult]) -> dict[int, Skill]:
        seats = rated_seats(results)
        current = {s.identity: self.skills.get(s.identity, NEW) for s in seats}
        stayed = [s for s in seats if not s.left]
        new = rate_places(current, stayed, self.model)
        for seat in seats:
            if seat.left and stayed:
                new[seat.identity] = rate_places(current, [*stayed, seat], self.model)[
                    seat.identity
                ]
        return new


def _mean(skills: list[Skill]) -> Skill:
    return Skill(statistics.fmean(s.mu for s in skills), statistics.fmean(s.sigma for s in skills))


# -- measures ----------------------------------------------------------------------------------


def kendall(xs: Sequence[float], ys: Sequence[float]) -> float:
    """Kendall's tau-b of two orders of the same items (1: the same order, 0: unrelated)."""
    concordant = discordant = only_x = only_y = 0
    for i in range(len(xs)):
        for j in range(i + 1, len(xs)):
            dx = (xs[i] > xs[j]) - (xs[i] < xs[j])
            dy = (ys[i] > ys[j]) - (ys[i] < ys[j])
            if dx == 0 and dy == 0:
                continue
            if dx == 0:
                only_y += 1
            elif dy == 0:
                only_x += 1
            elif dx == dy:
                concordant += 1
            else:
                discordant += 1
    pairs = math.sqrt((concordant + discordant + only_x) * (concordant + discordant + only_y))
    return (concordant - discordant) / pairs if pairs else 0.0


def order(
    number: Number, skills: dict[int, float], ranked: Callable[[int], bool] | None = None
) -> tuple[float, int]:
    """Kendall's tau of the number against the true skills, and how many it orders: everyone
    rated, or those `ranked` says (its leaderboard: `number.ranked`)."""
    who = [i for i in number.skills if ranked is None or ranked(i)]
    shown = [number.shown(number.skills[i]) for i in who]
    return kendall(shown, [skills[i] for i in who]), len(who)


Moves = dict[int, tuple[Skill, Skill]]
"""identity → (skill before, after) of everyone a game moved."""


@dataclass
class Directions:
    """Moves of the shown number against the result, by kind of seat: [went the wrong way,
    seats]. The first three must never go the wrong way; the last two are rated above someone
    (the leavers) or level with someone (a shared last place), so they may gain."""

    tallies: dict[str, list[int]] = field(
        default_factory=lambda: {
            kind: [0, 0]
            for kind in (
                "sole_winner_down",
                "sole_last_up",
                "leaver_up",
                "last_above_leavers_up",
                "shared_last_up",
            )
        }
    )

    def add(self, number: Number, results: Sequence[PlayerResult], moved: Moves) -> None:
        seats: dict[int, int] = {}
        for r in results:
            seats[r.user_id] = seats.get(r.user_id, 0) + 1
        rated = [r for r in results if not r.removed and r.user_id in moved]
        stayed = [r for r in rated if not r.left_early]
        if not stayed:
            return
        first = min(r.place for r in stayed)
        last = max(r.place for r in stayed)
        for r in rated:
            if seats[r.user_id] > 1:
                continue  # a computer level in several seats moves to their mean
            before, after = (number.shown(s) for s in moved[r.user_id])
            alone = sum(s.place == r.place for s in stayed) == 1
            if r.left_early:
                kind, wrong = "leaver_up", after > before
            elif r.place == first and alone:
                kind, wrong = "sole_winner_down", after < before
            elif r.place != last:
                continue
            elif len(stayed) < len(rated):
                kind, wrong = "last_above_leavers_up", after > before
            else:
                kind, wrong = ("sole_last_up" if alone else "shared_last_up"), after > before
            self.tallies[kind][0] += wrong
            self.tallies[kind][1] += 1


def replay(
    season: Season,
    numbers: Sequence[Number],
    each: Callable[[Sequence[PlayerResult], Number, Moves], None] | None = None,
) -> Iterator[tuple[int, dict[int, float]]]:
    """Rates the season's games with each number; yields (checkpoint, true skills then) as
    each checkpoint is reached. `each(results, number, moves)` sees every game rated."""
    skills = season.skills
    at = {games: mark for mark, games in season.marks.items()}
    for index, results in enumerate(season.games, start=1):
        for number in numbers:
            moved = number.play(results)
            if each is not None:
                each(results, number, moved)
        skills = season.changes.get(index, skills)
        if index in at:
            yield at[index], skills


# -- the report --------------------------------------------------------------------------------


def _summary(values: Sequence[tuple[float, int]]) -> dict[str, float]:
    """The mean Kendall's tau and the mean number of players it was taken over."""
    return {
        "tau": round(statistics.fmean(v for v, _ in values), 3),
        "ordered": round(statistics.fmean(n for _, n in values), 1),
    }


@dataclass
class Meaning:
    """Pairs of settled people about `points` apart before a game: how often the higher
    finished ahead (a shared place counts half), and openskill's `predict_win` for them."""

    points: int
    ahead: list[float] = field(default_factory=list)
    predicted: list[float] = field(default_factory=list)

    def add(self, results: Sequence[PlayerResult], moved: Moves) -> None:
        stayed = [r for r in results if r.user_id > 0 and r.user_id in moved and not r.left_early]
        for a in stayed:
            for b in stayed:
                high, low = moved[a.user_id][0], moved[b.user_id][0]
                gap = shown_rating(high.mu) - shown_rating(low.mu)
                if high.provisional or low.provisional or abs(gap - self.points) > self.points / 4:
                    continue
                self.ahead.append(1.0 if a.place < b.place else 0.5 if a.place == b.place else 0.0)
                teams = [[MODEL.rating(mu=s.mu, sigma=s.sigma)] for s in (high, low)]
                self.predicted.append(MODEL.predict_win(teams)[0])

    def figures(self) -> dict[str, float | int | None]:
        return {
            "pairs": len(self.ahead),
            "observed": round(statistics.fmean(self.ahead), 3) if self.ahead else None,
            "finishes_ahead": round(finishes_ahead(self.points), 3),
            "predict_win": round(statistics.fmean(self.predicted), 3) if self.predicted else None,
        }


def seasons(args: argparse.Namespace, rng: random.Random) -> dict[str, object]:
    """Seasons where everyone plays from the start: the order at each checkpoint, the
    directions, the provisional mark's thresholds and the meaning of a difference."""
    orders: dict[str, dict[int, list[tuple[float, int]]]] = {}
    directions = {"ordinal": Directions(), "mean": Directions()}
    settles: dict[float, list[int]] = {t: [] for t in THRESHOLDS}
    middle = args.games[len(args.games) // 2]
    boards: dict[float, list[tuple[float, int]]] = {t: [] for t in THRESHOLDS}
    meanings = [Meaning(100), Meaning(200)]
    for _ in range(args.seasons):
        season = play_season(rng, args.people, args.games)
        ordinal, mean = Ordinal(), Mean()

        def each(results: Sequence[PlayerResult], number: Number, moved: Moves) -> None:
            directions[number.name].add(number, results, moved)
            if isinstance(number, Mean):
                for identity, (before, after) in moved.items():
                    for threshold in THRESHOLDS:
                        if identity > 0 and before.sigma > threshold >= after.sigma:
                            settles[threshold].append(number.games[identity])
                for meaning in meanings:
                    meaning.add(results, moved)

        for mark, skills in replay(season, [ordinal, mean], each):
            for number in (ordinal, mean):
                for name, ranked in (("everyone", None), ("board", number.ranked)):
                    orders.setdefault(f"{number.name}_{name}", {}).setdefault(mark, []).append(
                        order(number, skills, ranked)
                    )
            if mark == middle:
                for threshold in THRESHOLDS:
                    settled = mean.settled(threshold)
                    boards[threshold].append(order(mean, skills, settled))
    return {
        "order": {
            key: {mark: _summary(values) for mark, values in by_mark.items()}
            for key, by_mark in orders.items()
        },
        "directions": {name: tally.tallies for name, tally in directions.items()},
        "provisional": {
            threshold: {
                "median_games": statistics.median(settles[threshold])
                if settles[threshold]
                else None,
                "board": _summary(boards[threshold]),
            }
            for threshold in THRESHOLDS
        },
        "provisional_board_at": middle,
        "meaning": {m.points: m.figures() for m in meanings},
    }


def arrivals(args: argparse.Namespace, rng: random.Random) -> dict[str, object]:
    """Seasons where half the people arrive one by one: the order at the end."""
    end = args.games[-1] // 2
    found: dict[str, list[tuple[float, int]]] = {}
    for _ in range(args.seasons):
        season = play_season(rng, args.people, [end], arrivals=True)
        numbers = [Ordinal(), Mean()]
        for _, skills in replay(season, numbers):
            for number in numbers:
                for name, ranked in (("everyone", None), ("board", number.ranked)):
                    found.setdefault(f"{number.name}_{name}", []).append(
                        order(number, skills, ranked)
                    )
    return {"games": end, **{key: _summary(values) for key, values in found.items()}}


def drift(args: argparse.Namespace, rng: random.Random) -> dict[str, object]:
    """One long season of a few people who all play alike, skills unchanged: the median
    person's number at each checkpoint, each person's mean change from a tenth of the season
    to its end, and the directions over the whole season; also for `StayersAlone`."""
    marks = sorted({m for m in (50, args.long // 10, args.long // 4, args.long) if m > 0})
    start = args.long // 10
    season = play_season(rng, args.long_people, marks, activity=0.0)
    numbers = [Ordinal(), Mean(), StayersAlone()]
    medians: dict[str, dict[int, float]] = {n.name: {} for n in numbers}
    at_start: dict[str, dict[int, float]] = {}
    changes: dict[str, float] = {}
    directions = {n.name: Directions() for n in numbers}

    def each(results: Sequence[PlayerResult], number: Number, moved: Moves) -> None:
        directions[number.name].add(number, results, moved)

    for mark, _ in replay(season, numbers, each):
        for number in numbers:
            shown = {i: number.shown(s) for i, s in number.skills.items() if i > 0}
            medians[number.name][mark] = statistics.median(shown.values())
            if mark == start:
                at_start[number.name] = shown
            if mark == marks[-1]:
                changes[number.name] = statistics.fmean(
                    shown[i] - at_start[number.name][i] for i in shown
                )
    return {
        "people": args.long_people,
        "median": medians,
        "mean_change": {
            name: {"from": start, "to": marks[-1], "points": round(value, 1)}
            for name, value in changes.items()
        },
        "directions": {name: tally.tallies for name, tally in directions.items()},
    }


def dynamics(args: argparse.Namespace, rng: random.Random) -> dict[str, object]:
    """For each tau, over long seasons of a few people who all play alike: how much a settled
    rating wobbles while the skill stays the same (the standard deviation of a person's number
    over the second half, and its mean move in a game), and how fast it follows a quarter of
    the people who improve by `IMPROVEMENT` halfway (their gain over the others' 50 and 200
    games later, as a share of what the improvement is worth on the board then)."""
    half = args.long // 2
    later = (half + 50, half + 200)
    found: dict[float, dict[str, list[float]]] = {t: {} for t in args.taus}
    for _ in range(args.seasons):
        steady = play_season(rng, args.long_people, [args.long], activity=0.0)
        improving = play_season(
            rng, args.long_people, [half, *later], activity=0.0, improve_at=half
        )
        changed = next(iter(improving.changes.values()))
        improvers = {i for i, skill in changed.items() if skill != improving.skills[i]}
        for tau in args.taus:
            figures = found[tau]
            trail: dict[int, list[float]] = {}
            moves: list[float] = []
            for _ in replay(steady, [Mean(tau)], _settled_moves(trail, moves, half)):
                pass
            figures.setdefault("wobble", []).append(
                statistics.fmean(statistics.pstdev(points) for points in trail.values())
            )
            figures.setdefault("move", []).append(statistics.fmean(moves))
            number = Mean(tau)
            base: dict[int, float] = {}
            worth = 0.0
            for mark, _ in replay(improving, [number]):
                shown = {i: number.shown(s) for i, s in number.skills.items() if i > 0}
                if mark == half:
                    base, worth = shown, IMPROVEMENT * _slope(shown, improving.skills)
                    continue
                gain = {i: shown[i] - base[i] for i in shown}
                ahead = statistics.fmean(g for i, g in gain.items() if i in improvers)
                rest = statistics.fmean(g for i, g in gain.items() if i not in improvers)
                figures.setdefault(f"follows_{mark - half}", []).append((ahead - rest) / worth)
    return {
        "people": args.long_people,
        "games": args.long,
        **{
            f"{tau:.4f}": {key: round(statistics.fmean(v), 3) for key, v in figures.items()}
            for tau, figures in found.items()
        },
    }


def _slope(shown: dict[int, float], skills: dict[int, float]) -> float:
    """Points of the number a unit of true skill is worth (least squares over `shown`)."""
    xs = [skills[i] for i in shown]
    ys = list(shown.values())
    mx, my = statistics.fmean(xs), statistics.fmean(ys)
    spread = sum((x - mx) ** 2 for x in xs)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / spread


def _settled_moves(
    trail: dict[int, list[float]], moves: list[float], after: int
) -> Callable[[Sequence[PlayerResult], Number, Moves], None]:
    """A `replay` watcher that keeps, for each person rated in more than `after` games, their
    number after each game (`trail`) and how far each game moved it (`moves`)."""

    def each(results: Sequence[PlayerResult], number: Number, moved: Moves) -> None:
        for identity, (before, new) in moved.items():
            if identity > 0 and number.games[identity] > after:
                trail.setdefault(identity, []).append(number.shown(new))
                moves.append(abs(number.shown(new) - number.shown(before)))

    return each


def _share(tally: list[int]) -> str:
    wrong, total = tally
    return f"{wrong:,} of {total:,} ({wrong / total:.1%})" if total else "none"


def report(figures: dict[str, object]) -> None:
    """The figures as tables people read."""
    main = figures["seasons"]
    assert isinstance(main, dict)
    print("Order (Kendall's tau against the true skills; players ordered):")
    print(
        f"{'games':>6}  {'ordinal, all':>15}  {'mean, all':>15}  {'ordinal, board':>15}  "
        f"{'mean, board':>15}"
    )
    order_ = main["order"]
    for mark in order_["ordinal_everyone"]:
        cells = [
            order_[key][mark]
            for key in ("ordinal_everyone", "mean_everyone", "ordinal_board", "mean_board")
        ]
        print(f"{mark:>6}  " + "  ".join(f"{c['tau']:>7.3f} ({c['ordered']:>5.1f})" for c in cells))
    late = figures["arrivals"]
    assert isinstance(late, dict)
    print(
        f"People arriving through a season, after {late['games']} games on average: "
        + ", ".join(
            f"{key} {late[key]['tau']:.3f} ({late[key]['ordered']:.1f})"
            for key in ("ordinal_everyone", "mean_everyone", "ordinal_board", "mean_board")
        )
    )
    long = figures["drift"]
    assert isinstance(long, dict)
    for title, found in (("the seasons", main), ("the long season", long)):
        print(f"Directions over {title} (the wrong way, of all such seats):")
        for name, tallies in found["directions"].items():
            print(f"  {name:>8}: " + "; ".join(f"{k} {_share(t)}" for k, t in tallies.items()))
    print(f"Drift ({long['people']} people of unchanged skill; median person's number):")
    for name, medians in long["median"].items():
        change = long["mean_change"][name]
        print(
            f"  {name:>8}: "
            + ", ".join(f"{m} games {v:,.0f}" for m, v in medians.items())
            + f"; mean change {change['from']}→{change['to']} games {change['points']:+.1f}"
        )
    print(f"Provisional mark (sigma above; board after {main['provisional_board_at']} games):")
    for threshold, row in main["provisional"].items():
        print(
            f"  ±{threshold * SCALE:.0f} points: lost after {row['median_games']} games "
            f"(median); board {row['board']['tau']:.3f} over {row['board']['ordered']:.1f}"
        )
    print("Meaning (settled people about this far apart; the higher finished ahead):")
    for points, row in main["meaning"].items():
        print(
            f"  {points} points: observed {row['observed']} over {row['pairs']:,} pairs; "
            f"finishes_ahead {row['finishes_ahead']}; openskill predict_win {row['predict_win']}"
        )
    moves = figures["dynamics"]
    assert isinstance(moves, dict)
    print(
        f"Dynamics ({moves['people']} people, {moves['games']} games each; a settled number's "
        "wobble and move a game, skills unchanged; the share of an improvement it shows 50 and "
        "200 games later):"
    )
    for tau, row in moves.items():
        if isinstance(row, dict):
            print(
                f"  tau {tau}: wobble {row['wobble']:.1f}, move {row['move']:.1f} points; "
                f"follows {row['follows_50']:.0%}, {row['follows_200']:.0%}"
            )


def _numbers(text: str, kind: Callable[[str], float]) -> list[float]:
    return [kind(part) for part in text.split(",") if part]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seasons", type=int, default=10)
    parser.add_argument("--people", type=int, default=60)
    parser.add_argument(
        "--games",
        type=lambda t: [int(g) for g in _numbers(t, int)],
        default=[10, 50, 200],
        help="checkpoints: mean games a person",
    )
    parser.add_argument("--long", type=int, default=2000, help="the drift season's games a person")
    parser.add_argument("--long-people", type=int, default=12)
    parser.add_argument(
        "--taus", type=lambda t: _numbers(t, float), default=[0.0, TAU / 2, TAU, 2 * TAU]
    )
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    started = time.perf_counter()
    figures: dict[str, object] = {
        "seasons": seasons(args, rng),
        "arrivals": arrivals(args, rng),
        "drift": drift(args, rng),
        "dynamics": dynamics(args, rng),
    }
    figures["settings"] = {
        "seasons": args.seasons,
        "people": args.people,
        "seed": args.seed,
        "scale": SCALE,
        "tau": TAU,
        "provisional_sigma": PROVISIONAL_SIGMA,
        "seconds": round(time.perf_counter() - started, 1),
    }
    report(figures)
    print(json.dumps(figures))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
