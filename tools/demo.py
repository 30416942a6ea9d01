"""`make demo`: a whole table of Oh Hell played offline on the local Discord stand-in.

Ann (a simulated person) opens a table, seats three computer players through the lobby, and
plays her cards by clicking in her DMs; the real bot runs it all. What the channel and Ann's DMs
show is printed as it changes. At the end the game's score chart, its record and its replay (a
page for any browser) are saved; the record replays with
`python -m bot.engine.replay data/demo-record.json`.

    python -m tools.demo [--preset classic] [--max-cards 4] [--levels easy normal hard]
                         [--locale nl]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
from pathlib import Path
from typing import Any

from bot.app import build
from bot.config import BotSettings
from bot.engine import Game
from bot.engine.records import record_from_game
from cogs.render.language import language_of, speaking
from cogs.web.replay import replay_page
from standin.driver import Person
from standin.server import StandIn
from standin.testing import run_bot
from standin.world import PSEUDO_LOCALE, Message, discord_locale
from tools.catalogs import install_pseudo_language
from tools.simulated_people import (
    add_computer,
    game_over,
    my_turn_controls,
    open_table,
    take_turn,
)

LEVELS = ("easy", "normal", "hard")
"""The computer levels the lobby offers."""
NOTATION = (
    "How to read it: [My hand] is a button Ann can press, (0) one she cannot (a label, her bid "
    "as it stands, or a bid the rules forbid), [Choose ▾] a menu, 📎 a file the message carries."
)


def message_text(message: Message) -> list[str]:
    """A message as plain lines: text, embed, then its controls ([enabled] and (disabled))."""
    lines = [message.content] if message.content else []
    for embed in message.embeds:
        for key in ("title", "description"):
            if embed.get(key):
                lines.append(str(embed[key]))
        for field in embed.get("fields", []):
            value = str(field.get("value", "")).replace("\n", "\n    ")
            lines.append(f"  {field['name']}: {value}")
        if embed.get("footer"):
            lines.append(f"  ({embed['footer'].get('text', '')})")
    controls = []
    for component in message.iter_components():
        if component.get("type") == 2:
            label = str(component.get("label", ""))
            controls.append(f"({label})" if component.get("disabled") else f"[{label}]")
        elif component.get("type") == 3:
            controls.append(f"[{component.get('placeholder', 'choose')} ▾]")
    if controls:
        lines.append("  " + " ".join(controls))
    lines += [f"  📎 {a.filename}" for a in message.attachments]
    return lines


class Printer:
    """Prints what changed in the channel and in one person's DMs since the last call."""

    def __init__(self, standin: StandIn, person: Person, out: Any = sys.stdout) -> None:
        self.standin = standin
        self.person = person
        self.out = out
        self._shown: dict[int, list[str]] = {}

    def flush(self) -> None:
        channel = [m for m in self.person.visible_messages(self.standin.channel) if not m.ephemeral]
        for where, messages in (
            ("#general", channel),
            (f"DM to {self.person.name}", self.person.dms()),
        ):
            for message in messages:
                lines = message_text(message)
                before = self._shown.get(message.id)
                if lines == before:
                    continue
                new = [line for line in lines if line not in (before or [])]
                verb = "edited" if before is not None else "new"
                print(f"── {where} ({verb}) " + "─" * 30, file=self.out)
                print("\n".join(new if before is not None else lines), file=self.out)
                self._shown[message.id] = lines
        self.out.flush()


async def demo(
    preset: str,
    max_cards: int | None,
    levels: list[str],
    out: Any,
    chart: Path | None = None,
    record: Path | None = None,
    locale: str = "en-US",
    page: Path | None = None,
) -> int:
    print(NOTATION, file=out)
    if locale == PSEUDO_LOCALE:
        install_pseudo_language()
    with tempfile.TemporaryDirectory() as folder:
        async with StandIn() as standin:
            settings = BotSettings(
                discord_token=standin.token,
                database_path=Path(folder) / "demo.sqlite3",
                _env_file=None,
                table_edit_delay=0.05,
                computer_delay=0.0,
            )
            bot, database, pool = await build(settings)
            try:
                standin.world.set_guild_locale(standin.guild, locale)
                async with run_bot(standin, bot):
                    ann = standin.person("Ann", locale=locale)
                    printer = Printer(standin, ann, out)
                    options: dict[str, Any] = {"preset": preset}
                    if max_cards:
                        options["max_cards"] = max_cards
                    table, table_id = await open_table(standin, [ann], **options)
                    for level in levels:
                        await add_computer(standin, ann, table, table_id, level)
                    started = await ann.click(table, f"oh:start:{table_id}")
                    if started.response_type != 7:
                        print(f"Start was refused: {started.content}", file=out)
                        return 1
                    clicks = await play(standin, ann, table, printer)
                    await bot.presenter.ground.idle()
                    printer.flush()
                    print(
                        f"\nAnn clicked {clicks} times; the bot made {len(standin.calls)} "
                        "REST calls.",
                        file=out,
                    )
                    if chart is not None:
                        save_chart(standin, ann, chart, out)
                    row = await database.tables.load(table_id)
                    game = Game.from_json(row.document["game"])
                    if record is not None:
                        save_record(game, record, out)
                    if page is not None:
                        with speaking(language_of(locale)):
                            save_replay(table_id, game, page, out)
            finally:
                await database.close()
                if pool is not None:
                    pool.shutdown(cancel_futures=True)
    return 0


def save_chart(standin: StandIn, person: Person, path: Path, out: Any) -> None:
    """Keep the score chart the final standings carry, and say where it is."""
    pictures = [
        attachment
        for message in person.visible_messages(standin.channel)
        for attachment in message.attachments
        if attachment.filename.endswith(".png")
    ]
    if not pictures:
        print("The final standings came without a score chart.", file=out)
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(pictures[-1].data)
    print(f"The game's score chart is saved in {path.resolve()}", file=out)


def save_record(game: Game, path: Path, out: Any) -> None:
    """Keep the game's record (docs/records.md), and say how to replay it."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(record_from_game(game), indent=1) + "\n")
    print(
        f"Its record is saved in {path}: `python -m bot.engine.replay {path}` checks it and "
        "prints its scores.",
        file=out,
    )


def save_replay(number: int, game: Game, path: Path, out: Any) -> None:
    """Keep the game's replay, the page `/ohhell replay` attaches, and say where it is."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(replay_page(number, record_from_game(game)))
    print(f"Its replay is saved in {path.resolve()}: open it in any web browser.", file=out)


async def play(standin: StandIn, person: Person, table: Message, printer: Printer) -> int:
    clicks = 0

    def ready() -> Any:
        printer.flush()
        return game_over(table) or my_turn_controls(person)

    while True:
        found = await standin.wait_for(ready, timeout=120)
        if found is True:
            return clicks
        message, ids = found
        print(f"\n>>> Ann clicks {describe(message, ids[0])}\n", file=printer.out)
        await take_turn(person, message, ids[0])
        clicks += 1


def describe(message: Message, custom_id: str) -> str:
    component = message.component(custom_id)
    if component.get("type") == 3:
        return f"{component['options'][0]['label']} in a menu"
    return str(component.get("label", custom_id))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument(
        "--preset",
        default="classic",
        help="the table's rules, as /ohhell start's preset (default: classic)",
    )
    parser.add_argument(
        "--max-cards",
        type=int,
        default=4,
        help="the most cards a hand deals, for a shorter game (default: 4; 0: the preset's)",
    )
    parser.add_argument(
        "--levels",
        nargs="+",
        choices=LEVELS,
        default=list(LEVELS),
        help="the computer players seated beside Ann, one level each (default: easy normal hard)",
    )
    parser.add_argument(
        "--chart",
        type=Path,
        default=Path("data/demo-chart.png"),
        help="where to save the score chart (default: data/demo-chart.png)",
    )
    parser.add_argument(
        "--record",
        type=Path,
        default=Path("data/demo-record.json"),
        help="where to save the game's record (default: data/demo-record.json)",
    )
    parser.add_argument(
        "--replay",
        type=Path,
        default=Path("data/demo-replay.html"),
        help="where to save the game's replay page (default: data/demo-replay.html)",
    )
    parser.add_argument(
        "--locale",
        default="en-US",
        help="Ann's and the server's Discord locale, which the bot speaks: nl, de, fr, es-ES, "
        f"pt-BR, ro… ({PSEUDO_LOCALE}: the pseudo-language) (default: en-US)",
    )
    args = parser.parse_args(argv)
    return asyncio.run(
        demo(
            args.preset,
            args.max_cards,
            args.levels,
            sys.stdout,
            args.chart,
            args.record,
            discord_locale(args.locale),
            args.replay,
        )
    )


if __name__ == "__main__":
    sys.exit(main())
