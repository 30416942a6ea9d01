"""The community benchmark fills a database, times every query and ends with its JSON line
(figures are printed, never asserted)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tools import bench_community as bench


def test_bench_times_every_query_and_prints_json(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "bench.sqlite3"
    bench.run(["--results", "200", "--people", "30", "--path", str(path), "--repeat", "2"])
    figures = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert set(figures["queries"]) == {name for name, _ in bench.QUERIES}
    assert figures["results"] == 200 and figures["players"] > 0
    # A second run reuses the filled file.
    bench.run(
        ["--results", "200", "--people", "30", "--path", str(path), "--repeat", "1", "--upgrade"]
    )
    out = capsys.readouterr().out
    assert "filled" not in out
    assert json.loads(out.strip().splitlines()[-1])["upgrade"]["results"] > 0
