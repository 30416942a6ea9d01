"""`python -m tools.activity_weight`: what Chromium loads from the bot when a person opens the
Activity, every page and file once, each as sent and as read; under 100 kB as sent."""

from __future__ import annotations

import pytest

from cogs.web.assets import ASSETS
from tests.browsers import needs_chromium
from tools.activity_weight import TARGET, measure

pytestmark = [needs_chromium, pytest.mark.timeout(120)]


async def test_the_activity_and_everything_it_loads_weigh_under_100_kb_as_sent() -> None:
    weight = await measure()
    loaded = {path.split("?")[0]: sizes for path, sizes in weight.loaded.items()}
    pages = [path for path in loaded if not path.startswith("/static/")]
    assert "/" in pages and any(path.startswith("/t/") for path in pages), pages
    files = {path.removeprefix("/static/") for path in loaded} - set(pages)
    assert {"discord-sdk.js", "session.js", "activity.js", "seat.js", "table.js"} <= files
    assert {"lobby.js", "lobby.css", "table.css", "pages.css"} <= files
    for name in files:
        assert loaded[f"/static/{name}"] == (len(ASSETS[name].gzipped), len(ASSETS[name].body))
    assert weight.sent < TARGET < weight.read
