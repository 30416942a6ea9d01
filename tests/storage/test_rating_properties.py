"""Property tests of the rating over random games (3 to 7 seats, ties, leavers, removed
players, computer levels in one or two seats, any ratings before): a sole winner never goes
down, a sole last place and every leaver never go up, and tied players with equal ratings move
equally. Over long seasons of players whose skill stays the same, the number does not drift
(where the conservative number, mu − 3 sigma, climbs)."""

from __future__ import annotations

import random
import statistics
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.storage import COMPUTER_IDS, PlayerResult
from bot.storage.ratings import MODEL, Skill, rate_places, rated_seats
from tools.bench_ratings import Mean, Ordinal, play_season, replay

Game = tuple[dict[int, Skill], list[PlayerResult]]
SKILLS = st.builds(Skill, st.floats(5, 45), st.floats(0.5, MODEL.sigma))


@st.composite
def games(draw: st.DrawFn) -> Game:
    """A finished game's results and everyone's ratings before it. Often every person has the
    same rating, so that ties between equals are common."""
    seats = draw(st.integers(3, 7))
    computers = draw(st.lists(st.sampled_from(sorted(COMPUTER_IDS.values())), max_size=2))
    people = draw(st.lists(st.integers(1, 9), min_size=seats, max_size=seats, unique=True))
    seated = [*computers, *people][:seats]
    scores = draw(st.lists(st.integers(0, 4), min_size=seats, max_size=seats))
    results = []
    for identity, score in zip(seated, scores, strict=True):
        person = identity > 0
        results.append(
            PlayerResult(
                identity,
                1 + sum(other > score for other in scores),
                score,
                0,
                0,
                left_early=person and draw(st.booleans()) and draw(st.booleans()),
                removed=person and draw(st.integers(0, 9)) == 0,
            )
        )
    same = draw(SKILLS)
    alike = draw(st.booleans())
    skills = {i: same if alike and i > 0 else draw(SKILLS) for i in set(seated)}
    return skills, results


def moved(game: Game) -> dict[int, Skill]:
    skills, results = game
    return rate_places(skills, rated_seats(results))


def singles(results: list[PlayerResult]) -> list[PlayerResult]:
    """The rated seats of identities with one seat (a computer level in two moves to the mean
    of both)."""
    seats = Counter(r.user_id for r in results)
    return [r for r in results if seats[r.user_id] == 1 and not r.removed]


def stayed(results: list[PlayerResult]) -> list[PlayerResult]:
    return [r for r in results if not r.removed and not r.left_early]


@settings(max_examples=400, deadline=None)
@given(games())
def test_a_sole_winner_never_goes_down(game: Game) -> None:
    before, results = game
    after = moved(game)
    if not stayed(results):
        assert after == {}
        return
    first = min(r.place for r in stayed(results))
    winners = [r for r in stayed(results) if r.place == first]
    if len(winners) == 1 and winners[0] in singles(results) and after:
        winner = winners[0].user_id
        assert after[winner].mu > before[winner].mu
        assert after[winner].shown >= before[winner].shown


@settings(max_examples=400, deadline=None)
@given(games())
def test_a_sole_last_place_and_every_leaver_never_go_up(game: Game) -> None:
    before, results = game
    after = moved(game)
    if not after:
        return
    rated = [r for r in results if not r.removed]
    for r in singles(results):
        last = max(s.place for s in stayed(results))
        alone = sum(s.place == r.place for s in rated) == 1
        if r.left_early or (r.place == last and alone and len(stayed(results)) == len(rated)):
            assert after[r.user_id].mu < before[r.user_id].mu, r
            assert after[r.user_id].shown <= before[r.user_id].shown, r


@settings(max_examples=400, deadline=None)
@given(games())
def test_tied_players_with_equal_ratings_move_equally(game: Game) -> None:
    before, results = game
    after = moved(game)
    ones = singles(results)
    for a in ones:
        for b in ones:
            alike = (a.place, a.left_early) == (b.place, b.left_early)
            if alike and before[a.user_id] == before[b.user_id] and after:
                assert after[a.user_id].mu == pytest.approx(after[b.user_id].mu)
                assert after[a.user_id].sigma == pytest.approx(after[b.user_id].sigma)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_the_number_does_not_drift_while_skills_stay_the_same(seed: int) -> None:
    """Six people who all play alike, about 850 games (tables of 3 to 7 with computer
    levels, leavers, ties): from their 100th game to their 600th, their numbers move by a few
    points on average, while the conservative number climbs by well over a hundred."""
    season = play_season(random.Random(seed), 6, [100, 600], activity=0.0)
    numbers = [Ordinal(), Mean()]
    shown: dict[int, dict[str, dict[int, float]]] = {}
    for mark, _ in replay(season, numbers):
        shown[mark] = {
            n.name: {i: n.shown(s) for i, s in n.skills.items() if i > 0} for n in numbers
        }
    change = {
        name: statistics.fmean(shown[600][name][i] - shown[100][name][i] for i in shown[600][name])
        for name in ("ordinal", "mean")
    }
    assert abs(change["mean"]) < 40, change
    assert change["ordinal"] > 100, change
