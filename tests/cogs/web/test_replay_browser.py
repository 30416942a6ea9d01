"""The replay page in a real browser: Debian's headless Chromium, driven by Playwright, steps
with → through every trick and checks each against the record, shows hostile names as text,
follows a link to a hand and trick, makes no request, and fits a 360-pixel-wide phone."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bot.engine.records import replay
from cogs.web.replay import replay_page
from tests.browsers import ARGS, CHROMIUM, needs_chromium, not_blank
from tests.cogs.web.pages import HOSTILE, SHOWN_TRICK, embedded, hostile_record, plays

pytestmark = [needs_chromium, pytest.mark.timeout(300)]


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            yield launched
        finally:
            launched.close()


@pytest.fixture(scope="module")
def record() -> dict[str, Any]:
    return hostile_record(seed=7, max_cards=4)


@pytest.fixture(scope="module")
def page_file(record: dict[str, Any], tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("replay") / "ohhell-game-3.html"
    path.write_text(replay_page(3, record))
    return path


class Watched:
    """A browser tab on the page, with what it asked of the network, its dialogs and errors."""

    def __init__(self, browser: Any, width: int) -> None:
        self.tab = browser.new_page(viewport={"width": width, "height": 800})
        self.requests: list[str] = []
        self.dialogs: list[str] = []
        self.errors: list[str] = []
        self.tab.on("request", lambda r: self.requests.append(r.url))
        self.tab.on("dialog", lambda d: (self.dialogs.append(d.message), d.dismiss()))
        self.tab.on("pageerror", lambda e: self.errors.append(str(e)))
        # A refusal of the page's policy (a style or script it did not allow) is a console error.
        self.tab.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)

    def open(self, path: Path, anchor: str = "") -> None:
        self.tab.goto(path.as_uri() + anchor)

    def shown(self) -> dict[str, Any]:
        result: dict[str, Any] = self.tab.evaluate(SHOWN_TRICK)
        return result

    def quiet(self, path: Path) -> bool:
        """Nothing fetched but the file itself, no dialog, no error."""
        return (
            set(self.requests) <= {path.as_uri(), *(path.as_uri() + a for a in ("#", ""))}
            and not self.dialogs
            and not self.errors
        )


def test_stepping_through_every_trick_shows_the_record(
    browser: Any, record: dict[str, Any], page_file: Path
) -> None:
    players = embedded(page_file.read_text())["players"]
    summary = replay(record)
    expected = []
    for h, (hand, played) in enumerate(zip(summary["hands"], plays(record), strict=True), 1):
        for t, trick in enumerate(hand["tricks"], 1):
            laid, played = played[: len(trick["cards"])], played[len(trick["cards"]) :]
            expected.append((h, t, laid, trick["winner"]))
    assert len(expected) > 10
    tab = Watched(browser, 1280)
    tab.open(page_file)
    for step, (h, t, laid, winner) in enumerate(expected):
        shown = tab.shown()
        assert (shown["hand"], shown["trick"]) == (h, t), step
        assert shown["cards"] == [card for _, card in laid]
        assert shown["names"] == [players[seat] for seat, _ in laid]
        assert shown["winner"] == f"{players[winner]} wins the trick"
        if step:
            assert shown["hash"] == f"#h{h}t{t}"
        tab.tab.keyboard.press("ArrowRight")
    # At the end, → stays on the last trick and Next is off; ← goes back one.
    assert (tab.shown()["hand"], tab.shown()["trick"]) == expected[-1][:2]
    assert tab.tab.is_disabled("#next")
    tab.tab.keyboard.press("ArrowLeft")
    assert (tab.shown()["hand"], tab.shown()["trick"]) == expected[-2][:2]
    tab.tab.click("#prev")
    assert (tab.shown()["hand"], tab.shown()["trick"]) == expected[-3][:2]
    assert tab.quiet(page_file), (tab.requests, tab.dialogs, tab.errors)


def test_a_link_opens_its_hand_and_trick(browser: Any, page_file: Path) -> None:
    tab = Watched(browser, 1280)
    tab.open(page_file, "#h3t2")
    assert (tab.shown()["hand"], tab.shown()["trick"]) == (3, 2)
    tab.tab.click('nav.hands a[href="#h2t1"]')
    # The browser announces the new anchor after the click (hashchange), not during it.
    tab.tab.wait_for_function("document.getElementById('trick').dataset.hand === '2'")
    assert (tab.shown()["hand"], tab.shown()["trick"]) == (2, 1)
    assert tab.quiet(page_file), (tab.requests, tab.dialogs, tab.errors)


def test_hostile_names_are_text_in_the_browser(browser: Any, page_file: Path) -> None:
    tab = Watched(browser, 1280)
    tab.open(page_file)
    text = tab.tab.inner_text("body")
    assert all(name in text for name in HOSTILE)
    assert tab.tab.evaluate("document.querySelectorAll('img').length") == 0
    assert tab.tab.evaluate("document.scripts.length") == 2
    assert tab.dialogs == [] and tab.quiet(page_file)


@pytest.mark.parametrize("width", [1280, 360])
def test_the_page_fits_desktop_and_phone(browser: Any, page_file: Path, width: int) -> None:
    tab = Watched(browser, width)
    tab.open(page_file, "#h2t1")
    assert tab.tab.evaluate("document.documentElement.scrollWidth") <= width
    assert not_blank(tab.tab.screenshot(full_page=True))
    # The cards of the trick are big enough to read on a phone.
    box = tab.tab.locator("#trick .card").first.bounding_box()
    assert box is not None and box["width"] >= 44 and box["height"] >= 60
    assert tab.quiet(page_file)
