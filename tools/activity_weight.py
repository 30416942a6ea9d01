"""The Activity's weight: every page and file headless Chromium loads from the bot when a person
opens the Activity in a channel whose table waits for players (the Activity's entry page, the
table's page it goes on to, and each script and style sheet the two load), through the
stand-in's Discord client and proxy. Each is counted once, as sent (compressed, as the bot
serves it to a browser that takes gzip, as every browser does) and as read.

    python -m tools.activity_weight

Target: under 100 kB as sent. It needs Debian's chromium (apt-get install chromium) and
Playwright (the dev extra)."""

from __future__ import annotations

import asyncio
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from bot.app import build
from bot.config import BotSettings
from standin.activity_client import ActivityClient
from standin.server import StandIn
from standin.testing import run_bot
from tools.simulated_people import open_table

CHROMIUM = Path("/usr/bin/chromium")
TARGET = 100_000
"""Bytes the Activity may weigh as sent."""
LOADED = ("document", "script", "stylesheet", "image", "font")
"""What a page loads (not its requests of the bot: the sign-in, the streams)."""
STYLED = (
    "() => [...document.querySelectorAll('link[rel=stylesheet]')].every(l => l.sheet)"
    " && document.querySelector('link[href*=\"lobby.css\"]') !== null"
)
"""The page's style sheets are in, the lobby's among them."""


@dataclass
class Weight:
    """Each page and file loaded: its path and its bytes as sent and as read."""

    loaded: dict[str, tuple[int, int]] = field(default_factory=dict)

    @property
    def sent(self) -> int:
        return sum(sent for sent, _read in self.loaded.values())

    @property
    def read(self) -> int:
        return sum(read for _sent, read in self.loaded.values())

    def lines(self) -> list[str]:
        rows = [
            f"  {shown(path):<24} {sent:>8,} sent {read:>8,} read"
            for path, (sent, read) in sorted(self.loaded.items(), key=lambda item: -item[1][0])
        ]
        total = f"  {'the Activity':<24} {self.sent:>8,} sent {self.read:>8,} read"
        return [*rows, total]


def shown(path: str) -> str:
    """A path as the figures name it: without its query, a table's link as `<link>`."""
    path = path.split("?")[0]
    return "/t/<link>" if path.startswith("/t/") else path


async def weigh(standin: StandIn, served: str, person: Any, channel: Any, ready: str) -> Weight:
    """What Chromium loads from the bot at `served` once `person` opens the Activity in
    `channel`, until the table's page shows `ready` (a CSS selector)."""
    from playwright.async_api import async_playwright

    weight = Weight()
    pending: list[asyncio.Task[None]] = []
    async with ActivityClient(standin, {"/": served}) as client, async_playwright() as playwright:
        browser = await playwright.chromium.launch(
            executable_path=str(CHROMIUM), args=["--headless", "--no-sandbox"]
        )
        try:

            async def count(response: Any) -> None:
                address = urlsplit(response.url)
                path = address.path + (f"?{address.query}" if address.query else "")
                if path in weight.loaded or not response.ok:
                    return
                body = await response.body()
                # As sent: the body's length on the wire (Content-Length: the bot sends every
                # page and file whole, compressed or not).
                length = (await response.all_headers()).get("content-length")
                weight.loaded[path] = (int(length) if length else len(body), len(body))

            def seen(response: Any) -> None:
                address = urlsplit(response.url)
                if (
                    response.url.startswith(client.base_url)
                    and not address.path.startswith("/.standin/")
                    and response.request.resource_type in LOADED
                ):
                    pending.append(asyncio.ensure_future(count(response)))

            page = await browser.new_page()
            page.on("response", seen)
            await page.goto(client.frame_url(client.open(person, channel)))
            await page.wait_for_selector("iframe")
            activity = page.frames[1]
            await activity.wait_for_url("**/t/**", timeout=60_000)
            await activity.wait_for_selector(ready, timeout=60_000)
            # Every style sheet in, the lobby's added by its script too.
            await activity.wait_for_function(STYLED, timeout=60_000)
            await activity.wait_for_load_state("load")
            await asyncio.gather(*pending)
        finally:
            await browser.close()
    return weight


async def measure() -> Weight:
    """The stand-in and the bot with its pages and sign-in on; Ann opens a table in #general
    with Bob, then the Activity there."""
    with tempfile.TemporaryDirectory() as folder:
        async with StandIn(spec_path=None) as standin:
            settings = BotSettings(
                discord_token=standin.token,
                database_path=Path(folder) / "weight.sqlite3",
                _env_file=None,
                public_url="https://ohhell.example.org",
                web_port=0,
                discord_client_secret=standin.client_secret,
                discord_api_base=standin.api_base,
                discord_authorize_url=f"{standin.base_url}/oauth2/authorize",
            )
            bot, database, pool = await build(settings)
            try:
                async with run_bot(standin, bot):
                    assert bot.web is not None
                    ann, bob = standin.person("Ann"), standin.person("Bob")
                    await open_table(standin, [ann, bob], preset="classic")
                    served = f"http://127.0.0.1:{bot.web.port}"
                    return await weigh(standin, served, ann, standin.channel, "#lobby-start")
            finally:
                await database.close()
                if pool is not None:
                    pool.shutdown(cancel_futures=True)


def main(argv: list[str] | None = None) -> int:
    if argv:
        print(__doc__, file=sys.stderr)
        return 2
    if not CHROMIUM.exists():
        print("no headless browser: install Debian's chromium package", file=sys.stderr)
        return 1
    weight = asyncio.run(measure())
    print("The Activity, opened in a channel whose table waits for players:")
    print("\n".join(weight.lines()))
    print(f"target: under {TARGET:,} bytes sent: {'met' if weight.sent < TARGET else 'NOT met'}")
    return 0 if weight.sent < TARGET else 1


if __name__ == "__main__":
    sys.exit(main())
