"""The benchmark runs and ends with its JSON line (figures are printed, never asserted)."""

from __future__ import annotations

import json

import pytest

from tools import bench_engine as bench


def test_bench_prints_the_figures_as_its_last_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert bench.main(["--seconds", "0.2", "--slice", "0.05"]) == 0
    last = capsys.readouterr().out.strip().splitlines()[-1]
    figures = json.loads(last)
    assert set(figures) == {
        "engine_hands_per_s",
        "openspiel_hands_per_s",
        "ratio",
        "heavy_hands_per_s",
    }
    assert figures["engine_hands_per_s"] > 0 and figures["heavy_hands_per_s"] > 0
    if figures["openspiel_hands_per_s"] is not None:
        assert figures["ratio"] > 0
