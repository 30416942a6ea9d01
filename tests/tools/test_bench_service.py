"""The service benchmark plays its tables to the end and ends with its JSON line (figures are
printed, never asserted)."""

from __future__ import annotations

import json

import pytest

from tools import bench_service


def test_bench_service_prints_the_figures_as_its_last_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert bench_service.main(["--tables", "2", "--runs", "2"]) == 0
    last = capsys.readouterr().out.strip().splitlines()[-1]
    figures = json.loads(last)
    assert figures["tables"] == 2 and len(figures["act_cpu_us"]) == 2
    # A game to 50 takes several hands of bids and cards at each of the two tables.
    assert figures["actions_per_run"] > 2 * 50
    assert all(us > 0 for us in figures["act_cpu_us"])
    assert figures["act_cpu_us"] == sorted(figures["act_cpu_us"])
