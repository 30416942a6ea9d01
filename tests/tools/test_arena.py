"""The arena runs, pairs every candidate hand with a control hand, and ends with JSON."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tools.arena import main


def test_arena_prints_figures_ending_with_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        main(["--candidate", "easy", "--baseline", "random", "--hands", "8", "--workers", "1"]) == 0
    )
    out = capsys.readouterr().out.strip().splitlines()
    fig = json.loads(out[-1])
    for key in (
        "candidate",
        "baseline",
        "hands",
        "candidate_points",
        "baseline_points",
        "difference",
        "ci95",
        "exact_rate",
        "decision_p99_ms",
    ):
        assert key in fig
    assert fig["candidate"] == "easy" and fig["baseline"] == "random"
    assert fig["hands"] == 8
    assert fig["ci95"][0] <= fig["difference"] <= fig["ci95"][1]
    assert abs(fig["difference"] - (fig["candidate_points"] - fig["baseline_points"])) < 1e-2
    assert 0.0 <= fig["exact_rate"] <= 1.0


def test_arena_control_is_the_baseline_itself() -> None:
    # the same level against itself: every candidate hand equals its control hand
    from tools.arena import Config, run

    cfg = Config("normal", "normal", {"preset": "first-to-101"}, 4, 1.0, None, 0)
    fig = run(cfg, hands=8, workers=1, progress=False)
    assert fig["difference"] == 0.0
    assert fig["candidate_points"] == fig["baseline_points"]


def test_arena_saves_each_hand(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "hands.jsonl"
    args = ["--candidate", "easy", "--baseline", "random", "--hands", "8", "--workers", "1"]
    assert main([*args, "--save", str(path)]) == 0
    fig = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    hands = [json.loads(line) for line in path.read_text().splitlines()]
    assert [(h["deal"], h["seat"]) for h in hands] == [(d, s) for d in range(2) for s in range(4)]
    mean = sum(h["points"] for h in hands) / len(hands)
    assert abs(mean - fig["candidate_points"]) < 1e-2


def test_the_reference_opponent_without_openspiel_says_how_to_install_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import importlib.util

    found = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *a: None if name == "pyspiel" else found(name)
    )
    with pytest.raises(SystemExit, match="open-spiel"):
        main(["--candidate", "hard", "--baseline", "ismcts", "--hands", "4"])
