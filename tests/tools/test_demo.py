"""`make demo` explains its notation, plays a game to the end and saves its record, which
replays."""

from __future__ import annotations

import io
import json
from pathlib import Path

from bot.engine.records import replay
from tools.demo import NOTATION, demo


async def test_the_demo_explains_its_notation_and_saves_a_record_that_replays(
    tmp_path: Path,
) -> None:
    out = io.StringIO()
    record = tmp_path / "data" / "demo-record.json"
    code = await demo("classic", 1, ["easy", "easy", "easy"], out, record=record)
    assert code == 0, out.getvalue()
    printed = out.getvalue().splitlines()
    assert printed[0] == NOTATION
    assert any(line.startswith("  (") for line in printed)  # a control she cannot press
    summary = replay(json.loads(record.read_text()))
    assert summary["players"][0] == "Ann" and len(summary["hands"]) == 1
    assert printed[-1].startswith(f"Its record is saved in {record}")
