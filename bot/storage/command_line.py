"""What the storage commands (`copy`, `backup`) share: errors in one line, progress on the
terminal."""

from __future__ import annotations

import time


def one_line(error: BaseException) -> str:
    """An error's message, its first line only."""
    text = str(error).strip() or type(error).__name__
    return text.splitlines()[0]


class ProgressLine:
    """Progress on stdout: on a terminal, one line kept up to date; elsewhere (a log), a line
    every `EVERY` seconds. A finished line always stays."""

    EVERY = 10.0

    def __init__(self, live: bool) -> None:
        self.live = live
        self.shown_at = time.monotonic()

    def show(self, line: str, *, finished: bool) -> None:
        if finished:
            print(f"\r{line}" if self.live else line, flush=True)
        elif self.live:
            print(f"\r{line}", end="", flush=True)
        elif time.monotonic() - self.shown_at >= self.EVERY:
            print(line, flush=True)
        else:
            return
        self.shown_at = time.monotonic()
