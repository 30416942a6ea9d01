"""`make demo` explains its notation, plays a game to the end and saves its record, which
replays, and its replay page."""

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
    page = tmp_path / "data" / "demo-replay.html"
    code = await demo("classic", 1, ["easy", "easy", "easy"], out, record=record, page=page)
    assert code == 0, out.getvalue()
    printed = out.getvalue().splitlines()
    assert printed[0] == NOTATION
    assert any(line.startswith("  (") for line in printed)  # a control she cannot press
    summary = replay(json.loads(record.read_text()))
    assert summary["players"][0] == "Ann" and len(summary["hands"]) == 1
    assert printed[-2].startswith(f"Its record is saved in {record}")
    # The replay of the same game, the page /ohhell replay attaches.
    assert printed[-1] == f"Its replay is saved in {page.resolve()}: open it in any web browser."
    html = page.read_text()
    assert html.startswith("<!DOCTYPE html>") and '<script type="application/json"' in html
