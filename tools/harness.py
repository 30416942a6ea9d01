"""What a benchmark's own process watches, and does, so that its figures are not its own:
the longest its event loop was late, and its garbage collector's pauses (during either it
answers nothing, so every latency it measures would hold them)."""

from __future__ import annotations

import asyncio
import gc
import json
import sys
import time
from collections.abc import Callable
from typing import Any

FREEZE_EVERY = 5.0
"""Seconds between moves of this process's objects out of the collector's reach."""


async def watch_stalls(longest: list[float], every: float = 0.01) -> None:
    """Keep in `longest[0]` the longest time this process's event loop was late to wake a
    timer: while it is busy (the stand-in, 400 people's waits) requests queue unanswered."""
    loop = asyncio.get_running_loop()
    while True:
        asked = loop.time()
        await asyncio.sleep(every)
        longest[0] = max(longest[0], loop.time() - asked - every)


class CollectorPauses:
    """This process's garbage-collector pauses, while watching: during one the stand-in answers
    nothing, and what it was sent meanwhile reaches it (and its rate limit) bunched."""

    def __init__(self) -> None:
        self.longest = 0.0
        self.total = 0.0
        self._began = 0.0

    def __enter__(self) -> CollectorPauses:
        gc.callbacks.append(self._seen)
        return self

    def __exit__(self, *exc: object) -> None:
        gc.callbacks.remove(self._seen)
        gc.unfreeze()

    @staticmethod
    async def keep_short(every: float = FREEZE_EVERY) -> None:
        """Move what this process holds into the collector's permanent generation every
        `every` seconds, so a full collection only walks what was made since (a run's
        interactions, calls and results pile up: a full collection over them took 263 ms)."""
        while True:
            await asyncio.sleep(every)
            gc.freeze()

    def _seen(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._began = time.perf_counter()
            return
        pause = time.perf_counter() - self._began
        self.longest = max(self.longest, pause)
        self.total += pause


class LinesProcess:
    """A process of the benchmark's own (`python -m MODULE ARGS`), talked to in lines: each line
    `send` writes is its input, each JSON line it writes is handed to `heard`; `collect` ends
    its input and waits for it to finish."""

    def __init__(
        self,
        module: str,
        args: list[str],
        heard: Callable[[dict[str, Any]], None],
        limit: int = 2**16,
    ) -> None:
        self.module = module
        self.args = args
        self.heard = heard
        self.limit = limit
        self._process: asyncio.subprocess.Process | None = None
        self._reading: asyncio.Task[None] | None = None

    async def start(self) -> None:
        self._process = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            self.module,
            *self.args,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            limit=self.limit,
        )
        self._reading = asyncio.create_task(self._read())

    def send(self, line: str) -> None:
        assert self._process is not None and self._process.stdin is not None
        self._process.stdin.write((line + "\n").encode())

    async def _read(self) -> None:
        assert self._process is not None and self._process.stdout is not None
        while line := await self._process.stdout.readline():
            self.heard(json.loads(line))

    async def collect(self) -> int:
        """Everything it writes until it ends (within a minute and a half); its exit status."""
        assert self._process is not None and self._process.stdin is not None
        self._process.stdin.close()
        assert self._reading is not None
        await asyncio.wait_for(self._reading, 90)
        return await self._process.wait()

    async def stop(self) -> None:
        if self._process is not None and self._process.returncode is None:
            self._process.kill()
            await self._process.wait()
