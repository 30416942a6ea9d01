"""Run the bot (`python -m bot`) under cProfile timed by CPU, not the wall clock, so time spent
waiting (for the network, for the GIL) is left out: `python -m tools.cpu_profile OUT`.
`make bench-bot ARGS='--profile OUT'` starts the bot this way; read OUT with `pstats`."""

from __future__ import annotations

import cProfile
import sys
import time

from bot.__main__ import main


def profile(out: str) -> int:
    profiler = cProfile.Profile(time.thread_time)
    profiler.enable()
    try:
        return main([])
    finally:
        profiler.disable()
        profiler.dump_stats(out)


if __name__ == "__main__":
    sys.exit(profile(sys.argv[1]))
