"""The stats and chart benchmarks run and end with their JSON line (figures are printed, never
asserted)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PIL import Image

from cogs.render.charts import CHART_SIZE
from tools import bench_chart, bench_stats


def last_json(capsys: pytest.CaptureFixture[str]) -> dict[str, object]:
    figures: dict[str, object] = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    return figures


def test_bench_stats_prints_its_figures(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["--results", "400", "--people", "20", "--heavy", "40", "--repeat", "2"]
    assert bench_stats.main(args) == 0
    figures = last_json(capsys)
    assert figures["tables"] == 100 and figures["heavy_player_games"] == 40
    assert set(figures["database_ms"]) >= {"stats_typical", "stats_heavy", "history_page_1"}  # type: ignore[arg-type]


def test_bench_chart_prints_its_figures_and_keeps_the_chart(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    out = tmp_path / "chart.png"
    args = ["--players", "4", "--hands", "5", "--runs", "1", "--out", str(out)]
    assert bench_chart.main(args) == 0
    figures = last_json(capsys)
    assert figures["players"] == 4 and figures["png_bytes"] == out.stat().st_size
    assert Image.open(out).size == CHART_SIZE
