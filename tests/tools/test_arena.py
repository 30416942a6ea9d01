"""The arena runs, pairs every candidate hand with a control hand, ends with JSON, and gives
the candidate the ``hard`` values ``--set`` names (checked)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from bot.ai import HardParams
from bot.ai.params import DEFAULT_PARAMS
from tools import arena, reference
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


@pytest.mark.parametrize(
    ("spec", "says"),
    [
        ("nope=1", "hard has no value 'nope'"),
        ("batch=3.5", "batch takes a whole number"),
        ("ucb_c=high", "ucb_c takes a number"),
        ("others_epsilon=1.5", "others_epsilon is a chance"),
        ("batch=0", "batch is a whole number of at least 1"),
        ("epsilon", "write NAME=VALUE"),
    ],
)
def test_a_bad_setting_is_refused_before_playing(spec: str, says: str) -> None:
    with pytest.raises(SystemExit, match=says):
        main(["--candidate", "hard", "--baseline", "normal", "--set", spec, "--hands", "4"])


def _asked(monkeypatch: pytest.MonkeyPatch, module: Any) -> list[tuple[str, HardParams]]:
    """Every decision the arena asks for through ``module.decide``: (level, params). The
    decisions themselves are ``normal``'s where ``hard`` was asked, to keep the test quick:
    what is checked is what reaches ``decide``."""
    asked: list[tuple[str, HardParams]] = []
    real = module.decide

    def spy(*args: Any, **kwargs: Any) -> Any:
        asked.append((kwargs["level"], kwargs.get("params", DEFAULT_PARAMS)))
        return real(*args, **{**kwargs, "level": "normal"})

    monkeypatch.setattr(module, "decide", spy)
    return asked


def test_a_setting_reaches_the_candidate_only(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    asked = _asked(monkeypatch, arena)
    args = ["--candidate", "hard", "--baseline", "hard", "--hands", "4", "--cards", "2"]
    assert main([*args, "--workers", "1", "--set", "others_epsilon=0.2"]) == 0
    fig = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert fig["set"] == ["others_epsilon=0.2"]
    seen = {p.others_epsilon for _, p in asked}
    assert seen == {0.2, DEFAULT_PARAMS.others_epsilon}
    # the candidate's decisions (one seat a hand, 2 cards and a bid each) take the setting
    assert sum(p.others_epsilon == 0.2 for _, p in asked) == 4 * 3


def test_a_setting_reaches_the_candidate_in_duplicate(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    asked = _asked(monkeypatch, reference)
    args = ["--candidate", "hard", "--baseline", "easy", "--duplicate", "--hands", "4"]
    assert main([*args, "--set", "prune_z=1.5"]) == 0
    capsys.readouterr()
    assert {(level, p.prune_z) for level, p in asked} == {("hard", 1.5), ("easy", 2.5)}


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
