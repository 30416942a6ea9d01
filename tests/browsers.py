"""A real browser for the tests of the web pages: Debian's headless Chromium, driven by
Playwright (its async API, so a test can run the bot on the same event loop), and axe-core's
accessibility check. Without the browser, the tests that need it are skipped with one line
saying what to install."""

from __future__ import annotations

import io
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

CHROMIUM = Path("/usr/bin/chromium")
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
needs_chromium = pytest.mark.skipif(
    not CHROMIUM.exists(),
    reason="no headless browser: install Debian's chromium package (apt-get install chromium)",
)


@asynccontextmanager
async def chromium() -> AsyncIterator[Any]:
    """The browser, for as long as the block runs."""
    from playwright.async_api import async_playwright

    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            yield browser
        finally:
            await browser.close()


def not_blank(png: bytes) -> bool:
    """Whether a screenshot shows something: more than a few colours."""
    image = Image.open(io.BytesIO(png)).convert("RGB")
    colours = image.getcolors(maxcolors=1 << 20)
    return colours is not None and len(colours) > 50


async def serious_violations(page: Any) -> list[str]:
    """axe-core's check of the page as it is shown: each serious or critical violation, as
    "rule: where". axe's script is evaluated by the browser's debugger, which the page's own
    Content-Security-Policy does not govern."""
    import axe_playwright_python

    source = (Path(axe_playwright_python.__file__).parent / "axe.min.js").read_text()
    await page.evaluate(source)
    results = await page.evaluate("axe.run(document, {resultTypes: ['violations']})")
    return [
        f"{violation['id']}: {node['target']}"
        for violation in results["violations"]
        if violation["impact"] in ("serious", "critical")
        for node in violation["nodes"]
    ]
