"""Game records: round trips, the replay summary, and errors naming hand, action and rule."""

from __future__ import annotations

import copy
import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from bot.engine import Game, Phase, RecordError, Settings
from bot.engine.records import RULE_SLUGS, game_from_record, record_from_game, replay

from .helpers import bids, play_randomly, plays, record

HANDS3 = [
    ["2C", "3D", "4H"],
    ["AH", "KH", "2S"],
    ["QH", "3C", "9D"],
    ["5S", "6S", "7C"],
]
RULES = {"preset": "classic", "sequence": "down", "max_cards": 3, "bid_changes": False}
FULL_HAND = bids((1, 1), (2, 1), (3, 0), (0, 0)) + plays(
    (1, "AH"),
    (2, "QH"),
    (3, "7C"),
    (0, "4H"),
    (1, "KH"),
    (2, "3C"),
    (3, "5S"),
    (0, "2C"),
    (1, "2S"),
    (2, "9D"),
    (3, "6S"),
    (0, "3D"),
)


def test_replay_scores_a_hand() -> None:
    out = replay(record(RULES, HANDS3, "8D", FULL_HAND))
    assert out["format"] == "ohhell-replay/1"
    assert out["players"] == ["Ann", "Bob", "Cat", "Dan"]
    (h,) = out["hands"][:1]
    assert h["hand"] == 1 and h["dealer"] == 0 and h["cards_each"] == 3 and h["trump"] == "D"
    assert h["bids"] == [0, 1, 1, 0]
    assert h["tricks"][0] == {
        "leader": 1,
        "cards": ["AH", "QH", "7C", "4H"],
        "winner": 1,
        "value": 1,
    }
    assert [t["winner"] for t in h["tricks"]] == [1, 1, 2]
    assert h["tricks_won"] == [0, 2, 1, 0]
    assert h["points"] == [10, 0, 11, 10]  # ten-plus-bid
    assert h["totals"] == [10, 0, 11, 10] and h["complete"] is True
    assert out["totals"] == [10, 0, 11, 10]
    assert out["game_over"] is False and out["placing"] is None  # two more hands to go


def test_a_partial_record_is_valid_and_scores_what_is_complete() -> None:
    out = replay(record(RULES, HANDS3, "8D", FULL_HAND[:6]))
    (h,) = out["hands"]
    assert h["complete"] is False and h["points"] is None and h["totals"] == [0, 0, 0, 0]
    assert h["bids"] == [0, 1, 1, 0] and h["tricks"] == []


def test_a_finished_game_gives_the_placing() -> None:
    rules = {**RULES, "max_cards": 1}
    rec = record(
        rules,
        [["2C"], ["AH"], ["QH"], ["5S"]],
        "2D",
        bids((1, 1), (2, 0), (3, 1), (0, 0)) + plays((1, "AH"), (2, "QH"), (3, "5S"), (0, "2C")),
    )
    out = replay(rec)
    assert out["game_over"] is True
    assert out["totals"] == [10, 11, 10, 0]
    assert out["placing"] == [2, 1, 2, 3]


@pytest.mark.parametrize(
    "preset", ["oh-hell", "oh-shit", "oh-shit-half", "classic", "nomination", "first-to-101"]
)
def test_record_round_trip_for_every_preset(preset: str) -> None:
    g = Game.new(
        Settings.model_validate({"preset": preset}), 5 if preset != "oh-shit" else 6, seed=4
    )
    play_randomly(g, random.Random(4))
    rec = json.loads(json.dumps(record_from_game(g)))
    assert rec["rules"] == {"preset": preset}
    again = game_from_record(rec)
    assert again.phase is Phase.GAME_OVER
    assert record_from_game(again) == rec
    out = replay(rec)
    assert out["totals"] == list(g.totals) and out["placing"] == list(g.placing or ())
    assert len(out["hands"]) == g.hand_number


def _err(rec: dict[str, Any]) -> RecordError:
    with pytest.raises(RecordError) as e:
        replay(rec)
    assert e.value.rule in RULE_SLUGS
    return e.value


def test_error_follow_suit_names_hand_action_and_player() -> None:
    acts = FULL_HAND[:5] + plays((2, "3C"))
    e = _err(record(RULES, HANDS3, "8D", acts))
    assert (e.hand, e.action, e.rule) == (1, 6, "follow-suit")
    assert e.message == "hand 1, action 6: Cat played 3C but must follow hearts"


@pytest.mark.parametrize(
    ("change", "where", "rule"),
    [
        (lambda r: r.update(format="nope"), (None, None), "format"),
        (lambda r: r.update(rules={"preset": "bridge"}), (None, None), "rules"),
        (lambda r: r.update(rules={"max_cards": 13}), (None, None), "rules"),
        (lambda r: r.update(players=["Ann", "Bob"]), (None, None), "players"),
        (lambda r: r["hands"][0].update(dealer=9), (1, None), "dealer"),
        (lambda r: r["hands"][0]["cards"][0].__setitem__(0, "AH"), (1, None), "deal"),
        (lambda r: r["hands"][0]["cards"][0].pop(), (1, None), "deal"),
        (lambda r: r["hands"][0].update(turned="AH"), (1, None), "turned"),
        (lambda r: r["hands"][0].update(turned=None), (1, None), "turned"),
        (lambda r: r["hands"][0]["actions"].__setitem__(0, {"seat": 2, "bid": 1}), (1, 1), "turn"),
        (
            lambda r: r["hands"][0]["actions"].__setitem__(0, {"seat": 1, "bid": 4}),
            (1, 1),
            "bid-range",
        ),
        (lambda r: r["hands"][0]["actions"].__setitem__(3, {"seat": 0, "bid": 1}), (1, 4), "hook"),
        (
            lambda r: r["hands"][0]["actions"].__setitem__(5, {"seat": 2, "play": "9D"}),
            (1, 6),
            "follow-suit",
        ),
        (
            lambda r: r["hands"][0]["actions"].__setitem__(4, {"seat": 1, "play": "AS"}),
            (1, 5),
            "card-not-held",
        ),
        (
            lambda r: r["hands"][0]["actions"].__setitem__(4, {"seat": 1, "trump": "S"}),
            (1, 5),
            "trump-choice",
        ),
        (
            lambda r: r["hands"][0]["actions"].__setitem__(
                4, {"seat": 1, "play": "AH", "suit": "H"}
            ),
            (1, 5),
            "joker",
        ),
        (lambda r: r["hands"][0]["actions"].append({"seat": 1, "play": "AH"}), (1, 17), "turn"),
    ],
)
def test_error_rules(change: Any, where: tuple[int | None, int | None], rule: str) -> None:
    rec = copy.deepcopy(record(RULES, HANDS3, "8D", FULL_HAND))
    change(rec)
    e = _err(rec)
    assert (e.hand, e.action, e.rule) == (*where, rule), e.message


def test_error_bid_change_and_game_over() -> None:
    rules = {**RULES, "bid_changes": True}
    e = _err(record(rules, HANDS3, "8D", bids((1, 1), (1, 1))))
    assert (e.hand, e.action, e.rule) == (1, 2, "bid-change")
    one = {**RULES, "max_cards": 1}
    done = bids((1, 1), (2, 0), (3, 1), (0, 0)) + plays((1, "AH"), (2, "QH"), (3, "5S"), (0, "2C"))
    extra = {"dealer": 1, "cards": [["2C"], ["AH"], ["QH"], ["5S"]], "turned": "2D", "actions": []}
    e = _err(record(one, [["2C"], ["AH"], ["QH"], ["5S"]], "2D", done, more_hands=[extra]))
    assert (e.hand, e.rule) == (2, "game-over")


def test_error_joker_in_no_trumps() -> None:
    rules = {**RULES, "max_cards": 3, "pack": "52+joker", "ace_no_trumps": True}
    hands = [["3D", "5D", "7D"], ["JOKER", "9D", "2S"], ["8D", "KD", "6C"], ["2D", "4D", "6D"]]
    e = _err(record(rules, hands, "AS", bids((1, 0), (2, 0), (3, 0), (0, 0)) + plays((1, "JOKER"))))
    assert (e.hand, e.action, e.rule) == (1, 5, "joker")
    ok = [*bids((1, 0), (2, 0), (3, 0), (0, 0)), {"seat": 1, "play": "JOKER", "suit": "D"}]
    out = replay(record(rules, hands, "AS", ok + plays((2, "8D"), (3, "2D"), (0, "3D"))))
    assert out["hands"][0]["tricks"][0]["winner"] == 1
    rt = game_from_record(record(rules, hands, "AS", ok))
    assert record_from_game(rt)["hands"][0]["actions"][-1] == {
        "seat": 1,
        "play": "JOKER",
        "suit": "D",
    }


def test_up_the_ante_in_the_replay() -> None:
    rules = {
        "preset": "classic",
        "sequence": "down",
        "max_cards": 2,
        "pack": "104",
        "duplicates": "cancel",
    }
    hands = [["3D", "4D"], ["5S", "AH"], ["5S", "2H"], ["3D", "4D"]]
    acts = bids((1, 0), (2, 0), (3, 0), (0, 0)) + plays(
        (1, "5S"), (2, "5S"), (3, "3D"), (0, "3D"), (1, "AH"), (2, "2H"), (3, "4D"), (0, "4D")
    )
    out = replay(record(rules, hands, "KC", acts))
    t = out["hands"][0]["tricks"]
    assert [(x["winner"], x["value"]) for x in t] == [(None, 1), (1, 2)]
    assert out["hands"][0]["tricks_won"] == [0, 2, 0, 0]


ROOT = Path(__file__).resolve().parents[2]


def _cli(path: Path | str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bot.engine.replay", str(path)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )


def test_cli_prints_the_summary(tmp_path: Path) -> None:
    f = tmp_path / "game.json"
    f.write_text(json.dumps(record(RULES, HANDS3, "8D", FULL_HAND)))
    p = _cli(f)
    assert p.returncode == 0, p.stderr
    assert json.loads(p.stdout) == replay(record(RULES, HANDS3, "8D", FULL_HAND))


def test_cli_help_prints_its_usage_and_reads_no_file() -> None:
    p = _cli("--help")
    assert p.returncode == 0, p.stderr
    assert p.stdout.startswith("usage: python -m bot.engine.replay [-h] file"), p.stdout
    assert '"error"' not in p.stdout  # no replay's JSON error for a file named --help


def test_cli_illegal_record_exits_1(tmp_path: Path) -> None:
    f = tmp_path / "bad.json"
    f.write_text(json.dumps(record(RULES, HANDS3, "8D", FULL_HAND[:5] + plays((2, "3C")))))
    p = _cli(f)
    assert p.returncode == 1
    doc = json.loads(p.stdout)
    assert doc == {
        "format": "ohhell-replay/1",
        "error": {
            "hand": 1,
            "action": 6,
            "rule": "follow-suit",
            "message": "hand 1, action 6: Cat played 3C but must follow hearts",
        },
    }
    assert "Cat played 3C but must follow hearts" in p.stderr
    f.write_text("{not json")
    p = _cli(f)
    assert p.returncode == 1 and json.loads(p.stdout)["error"]["rule"] == "format"


def test_errors_cross_a_process_boundary_whole() -> None:
    """A worker process hands its exception to the parent by pickling it."""
    import pickle

    from bot.engine import IllegalPlay

    err = RecordError(2, 7, "follow-suit", "Player 1 played 10C but must follow diamonds")
    back = pickle.loads(pickle.dumps(err))
    assert type(back) is RecordError
    assert (back.hand, back.action, back.rule) == (2, 7, "follow-suit")
    assert str(back) == str(err) == "hand 2, action 7: Player 1 played 10C but must follow diamonds"
    play = pickle.loads(pickle.dumps(IllegalPlay("you must follow hearts", record="x")))
    assert (play.message, play.rule, play.record_message) == (
        "you must follow hearts",
        "follow-suit",
        "x",
    )
