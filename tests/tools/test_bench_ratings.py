"""The ratings benchmark plays a small season and ends with its JSON line; the directions it
counts for the bot's number are the ones the ratings promise (none the wrong way), and its
Kendall's tau and its seasons are what they say."""

from __future__ import annotations

import json
import random

import pytest

from tools import bench_ratings as bench


def test_a_small_season_prints_every_figure_and_json(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["--seasons", "1", "--people", "16", "--games", "5,20", "--long", "200"]
    assert bench.main([*argv, "--long-people", "6", "--taus", "0,0.0833"]) == 0
    out = capsys.readouterr().out.strip().splitlines()
    figures = json.loads(out[-1])
    order = figures["seasons"]["order"]
    assert set(order) == {"ordinal_everyone", "ordinal_board", "mean_everyone", "mean_board"}
    assert set(order["mean_everyone"]) == {"5", "20"}
    mean = figures["seasons"]["directions"]["mean"]
    for kind in ("sole_winner_down", "sole_last_up", "leaver_up"):
        wrong, seats = mean[kind]
        assert wrong == 0 and seats > 0, kind
    long = figures["drift"]["mean_change"]
    assert abs(long["mean"]["points"]) < long["ordinal"]["points"]  # the ordinal climbs
    assert figures["seasons"]["meaning"]["100"]["finishes_ahead"] == 0.64
    assert set(figures["dynamics"]) == {"people", "games", "0.0000", "0.0833"}
    assert any(line.startswith("Order (Kendall's tau") for line in out)


def test_kendalls_tau_counts_pairs_in_order_and_ties() -> None:
    assert bench.kendall([1, 2, 3, 4], [10, 20, 30, 40]) == 1.0
    assert bench.kendall([1, 2, 3, 4], [40, 30, 20, 10]) == -1.0
    assert bench.kendall([1, 2, 3], [1, 3, 2]) == pytest.approx(1 / 3)
    assert bench.kendall([1, 1, 2], [1, 2, 3]) == pytest.approx(2 / 6**0.5)  # tau-b with a tie


def test_a_season_reaches_each_checkpoint_with_tables_of_three_to_seven() -> None:
    season = bench.play_season(random.Random(3), 12, [4, 8])
    assert list(season.marks) == [4, 8] and season.marks[4] < season.marks[8]
    assert {len(game) for game in season.games} <= set(range(3, 8))
    people = sum(r.user_id > 0 for game in season.games[: season.marks[8]] for r in game)
    assert people >= 8 * 12
