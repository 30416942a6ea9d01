"""The bot as `make bench-bot` runs it: `python -m bot`, which writes, once SIGTERM has stopped
it, the table-row loads and saves its database served to COUNTS as JSON for the benchmark; with
`--profile OUT`, under cProfile timed by CPU, not the wall clock, so time spent waiting (for the
network, for the GIL) is left out (read OUT with `pstats`).

    python -m tools.bot_process COUNTS [--profile OUT] [--pseudo]
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import json
import os
import sys
import time
from pathlib import Path

from bot.app import run
from bot.config import BotSettings
from tools.catalogs import install_pseudo_language


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("counts", type=Path, help="where to write the counts (JSON)")
    parser.add_argument("--profile", type=Path, help="profile the bot into this file")
    parser.add_argument(
        "--pseudo",
        action="store_true",
        help="the bot also speaks the pseudo-language (tools/catalogs.py) to whoever reads it",
    )
    args = parser.parse_args(argv)
    if args.pseudo:
        install_pseudo_language()
    settings = BotSettings()
    settings.configure_logging()
    profiler = cProfile.Profile(time.thread_time) if args.profile else None
    if profiler is not None:
        # Only this process: a forked worker (computer players, charts) would inherit the
        # profiler and take seconds to exit under it, past BotProcess.stop's wait.
        os.register_at_fork(after_in_child=profiler.disable)
        profiler.enable()
    try:
        database = asyncio.run(run(settings))
    finally:
        if profiler is not None:
            profiler.disable()
            profiler.dump_stats(args.profile)
    counts = {"table_loads": database.tables.loads, "table_saves": database.tables.saves}
    args.counts.write_text(json.dumps(counts))
    return 0


if __name__ == "__main__":
    sys.exit(main())
