"""How ratings read: the `?` of a provisional rating wherever a rating is shown, the game a
change belongs to, why a last game did not count, and the help's figures (from the rating's
own constants)."""

from __future__ import annotations

import pytest

from bot.service.notices import FinalStandings
from bot.service.summaries import RATING_GUIDE, UNRATED_REASONS, GameDetail, PlayerStats
from bot.storage import finishes_ahead
from cogs import render
from cogs.render.ratings import UNRATED_REASON_TEXTS
from cogs.render.stats import stats_embed


def stats(**rating: object) -> PlayerStats:
    detail = GameDetail(games=0, hands=0, bid_error=None, bid_miss=None)
    return PlayerStats(
        user_id=1,
        games=20,
        wins=5,
        places=((1, 5), (2, 15)),
        left_early=0,
        exact_bid_rate=0.5,
        points_per_hand=3.0,
        best_game=None,
        favourite_preset=None,
        detail=detail,
        detail_limit=100,
        **rating,  # type: ignore[arg-type]
    )


def rating_field(player: PlayerStats) -> str:
    embed = stats_embed(player, "Ann")
    (field,) = [f for f in embed.fields if f.name == "Rating"]
    return str(field.value)


def test_a_settled_rating_names_the_game_of_its_change_and_its_rank() -> None:
    text = rating_field(
        stats(rating=1412, rating_change=18, rating_change_game=57, rating_rank=3, rating_ranked=9)
    )
    assert text.splitlines() == [
        "1,412 (+18 in game #57) · #3 of 9 on /leaderboard",
        "-# What the number means: /ohhell ratings",
    ]


def test_a_provisional_rating_has_its_mark_and_how_far_off_it_may_be() -> None:
    text = rating_field(
        stats(
            rating=1050,
            rating_provisional=True,
            rating_uncertainty=117,
            rating_change=-40,
            rating_change_game=8,
            preset_ratings=(("classic", 1050, True), ("oh-hell", 990, False)),
        )
    )
    lines = text.splitlines()
    assert (
        lines[0]
        == "1,050? (-40 in game #8) · provisional: may be 117 points off, ranked once the ? goes"
    )
    assert lines[1] == "classic: 1,050? · oh-hell: 990"


@pytest.mark.parametrize(
    ("reason", "words"),
    [
        ("removed", "Game #9 did not change it: Ann was removed by the host."),
        ("too_few_rated", "Game #9 did not change it: everyone else at the table was removed."),
        ("nobody_stayed", "Game #9 did not change it: everyone at the table left it."),
        (None, "Game #9 did not change it."),
    ],
)
def test_a_last_game_that_did_not_count_says_so_and_why(reason: str | None, words: str) -> None:
    text = rating_field(
        stats(
            rating=1000,
            rating_change=5,
            rating_change_game=8,
            unrated_game=9,
            unrated_reason=reason,
        )
    )
    assert text.splitlines()[1] == words
    assert "(+5 in game #8)" in text.splitlines()[0]


def test_every_reason_a_game_does_not_count_has_words() -> None:
    assert set(UNRATED_REASON_TEXTS) == set(UNRATED_REASONS)


def test_the_final_standings_mark_a_provisional_rating() -> None:
    notice = FinalStandings(
        standings=((1, "Ann", 40), (2, "Bob", 31)),
        game=7,
        ratings=((1412, 18, False), (1012, -30, True)),
    )
    lines = render.notice_text(notice).splitlines()
    assert lines[1:3] == ["1. Ann — 40 · 1,412 (+18)", "2. Bob — 31 · 1,012? (-30)"]


def test_the_help_states_the_meaning_the_ratings_have() -> None:
    assert [points for points, _ in RATING_GUIDE.ahead] == [100, 200, 400]
    # The chances are Elo's for these differences, worked out from openskill's model.
    for points, chance in RATING_GUIDE.ahead:
        assert (
            chance
            == finishes_ahead(points)
            == pytest.approx(1 / (1 + 10 ** (-points / 400)), abs=0.005)
        )
    text = render.ratings_help(RATING_GUIDE).description or ""
    assert "100 points: 64%; 200 points: 76%; 400 points: 91% of games" in text
    assert f"more than {RATING_GUIDE.provisional_points} points off" in text
    assert "Everyone starts at 1,000" in text and "leaving always costs rating" in text
