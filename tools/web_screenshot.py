"""The live table page's picture for the README: a game played on the local Discord stand-in by
simulated people and a computer, the real bot serving its page, and headless Chromium taking a
screenshot at desktop width once a hand is under way and a trick half played.

    python -m tools.web_screenshot [--out docs/images/table-page.png] [--width 1280]

It needs Debian's chromium (apt-get install chromium) and Playwright (the dev extra)."""

from __future__ import annotations

import argparse
import asyncio
import io
import sys
import tempfile
from collections.abc import Awaitable, Callable
from pathlib import Path

from PIL import Image

from bot.app import build
from bot.config import BotSettings
from standin.driver import Person
from standin.server import StandIn
from standin.testing import run_bot
from tools.simulated_people import add_computer, my_turn_controls, open_table, take_turn

CHROMIUM = Path("/usr/bin/chromium")
HALF_PLAYED = (
    "() => { const m = document.getElementById('middle');"
    " return m.querySelectorAll('.play').length >= 2 && !m.classList.contains('done'); }"
)
"""The page shows a trick being played, not yet taken."""


async def play_until(
    standin: StandIn, people: list[Person], shown: Callable[[], Awaitable[bool]], clicks: int = 200
) -> None:
    """Each person on their turn clicks their first allowed control, until `shown` is true."""
    for _ in range(clicks):
        if await shown():
            return
        found = await standin.wait_for(
            lambda: next((p for p in people if my_turn_controls(p)), None), timeout=10
        )
        controls = my_turn_controls(found)
        if controls is not None:
            message, ids = controls
            await take_turn(found, message, ids[0])
            await asyncio.sleep(0.15)
    raise AssertionError("the page never showed what was waited for")


def small_png(png: bytes) -> bytes:
    """The screenshot in at most 256 colours: a fraction of the bytes, the same to the eye."""
    image = Image.open(io.BytesIO(png)).convert("RGB")
    out = io.BytesIO()
    image.quantize(colors=256, method=Image.Quantize.MEDIANCUT).save(out, "PNG", optimize=True)
    return out.getvalue()


async def screenshot(out: Path, width: int, hand: int, computers: int = 1) -> int:
    from playwright.async_api import async_playwright

    with tempfile.TemporaryDirectory() as folder:
        async with StandIn() as standin:
            settings = BotSettings(
                discord_token=standin.token,
                database_path=Path(folder) / "screenshot.sqlite3",
                _env_file=None,
                table_edit_delay=0.05,
                computer_delay=0.2,
                public_url="https://ohhell.example.org",
                web_port=0,
            )
            bot, database, pool = await build(settings)
            try:
                async with run_bot(standin, bot):
                    assert bot.web is not None and bot.links is not None
                    people = [standin.person(name) for name in ("Ann", "Bob", "Cat")]
                    table, table_id = await open_table(
                        standin, people, preset="classic", max_cards=hand + 1
                    )
                    for _ in range(computers):
                        await add_computer(standin, people[0], table, table_id, "normal")
                    link = bot.links.table(standin.guild.id, table_id)
                    address = f"http://127.0.0.1:{bot.web.port}" + link.removeprefix(
                        bot.links.public_url
                    )
                    await people[0].click(table, f"oh:start:{table_id}")
                    async with async_playwright() as playwright:
                        browser = await playwright.chromium.launch(
                            executable_path=str(CHROMIUM), args=["--headless", "--no-sandbox"]
                        )
                        try:
                            page = await browser.new_page(viewport={"width": width, "height": 900})
                            await page.goto(address)

                            async def mid_hand() -> bool:
                                there: bool = await page.evaluate(
                                    f"() => (+document.body.dataset.version > 0) &&"
                                    f" document.getElementById('heading').textContent"
                                    f".startsWith('Hand {hand} ') && ({HALF_PLAYED})()"
                                )
                                return there

                            await play_until(standin, people, mid_hand)
                            png = await page.screenshot(full_page=True)
                        finally:
                            await browser.close()
            finally:
                await database.close()
                if pool is not None:
                    pool.shutdown(cancel_futures=True)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_bytes(small_png(png))
    print(f"The table page at {width} px wide is saved in {out} ({out.stat().st_size} bytes).")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--out", type=Path, default=Path("docs/images/table-page.png"))
    parser.add_argument("--width", type=int, default=1280)
    parser.add_argument("--hand", type=int, default=3, help="the hand to show (default: 3)")
    parser.add_argument(
        "--computers", type=int, default=1, help="computer players beside Ann, Bob and Cat"
    )
    arguments = parser.parse_args(argv)
    if not CHROMIUM.exists():
        print("no headless browser: install Debian's chromium package", file=sys.stderr)
        return 1
    return asyncio.run(
        screenshot(arguments.out, arguments.width, arguments.hand, arguments.computers)
    )


if __name__ == "__main__":
    sys.exit(main())
