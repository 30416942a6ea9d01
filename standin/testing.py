"""Test helpers: a running stand-in, and a discord.py bot run against it on the test's loop.

    async with running_standin(ack_deadline=0.5) as standin:
        async with run_bot(standin, make_my_bot()) as bot:
            result = await standin.person("Ann").slash(standin.channel, "ohhell start")

tests/conftest.py wraps these in the `standin` fixture.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import sys
import tempfile
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from standin.server import StandIn

if TYPE_CHECKING:
    import discord

ClientT = TypeVar("ClientT", bound="discord.Client")

FAST_GUILD_READY_TIMEOUT = 0.05
"""discord.py waits this long after the last GUILD_CREATE before on_ready (2 s by default);
the stand-in sends every GUILD_CREATE at once, so a short wait loses nothing."""


class ManualClock:
    """A clock for `StandIn(clock=...)` that moves only when told: token lifetimes and the
    answer deadline without waiting for them. (Rate limits always run on real time.)"""

    def __init__(self, start: float = 1000.0) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@asynccontextmanager
async def running_standin(**options: Any) -> AsyncIterator[StandIn]:
    standin = StandIn(**options)
    await standin.start()
    try:
        yield standin
    finally:
        await standin.stop()


def violations_report(standin: StandIn) -> str | None:
    """A failure message naming every violation not taken with `take_violations()`, or None."""
    if not standin.violations:
        return None
    lines = "\n".join(f"  - {v}" for v in standin.violations)
    return f"the bot broke Discord's rules ({len(standin.violations)}):\n{lines}"


@asynccontextmanager
async def run_bot(
    standin: StandIn, bot: ClientT, *, ready_timeout: float = 15.0
) -> AsyncIterator[ClientT]:
    """Log `bot` (a discord.Client, not yet started) into `standin` as a task on this loop, wait
    until it is ready, and close it on exit. Errors from the bot's task are raised here."""
    from cogs.endpoint import point_discord_py_at, restore_discord_py

    previous = point_discord_py_at(standin.api_base, standin.gateway_url)
    bot._connection.guild_ready_timeout = FAST_GUILD_READY_TIMEOUT
    since = standin.sessions_started
    task = asyncio.create_task(bot.start(standin.token), name="standin-bot")
    try:
        ready = asyncio.ensure_future(_ready(standin, bot, since))
        done, _ = await asyncio.wait(
            {task, ready}, timeout=ready_timeout, return_when=asyncio.FIRST_COMPLETED
        )
        if task in done:
            ready.cancel()
            task.result()
            raise RuntimeError("the bot stopped before it was ready")
        if ready not in done:
            ready.cancel()
            raise TimeoutError(f"the bot was not ready within {ready_timeout} s")
        yield bot
    finally:
        await bot.close()
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
        restore_discord_py(previous)


async def _ready(standin: StandIn, bot: discord.Client, since: int) -> None:
    await standin.wait_for_bot(since=since, timeout=3600)
    await bot.wait_until_ready()


class BotProcess:
    """A bot in a subprocess (`python -m module`), pointed at the stand-in through env
    `DISCORD_API_BASE`, `DISCORD_GATEWAY_URL` and `DISCORD_TOKEN`. `sessions`: how many gateway
    sessions (shards) it opens; `start()` waits until all are ready."""

    def __init__(
        self,
        standin: StandIn,
        module: str,
        *,
        env: dict[str, str] | None = None,
        args: Sequence[str] = (),
        cwd: Path | None = None,
        sessions: int = 1,
    ) -> None:
        self.standin = standin
        self.sessions = sessions
        self.module = module
        self.extra_env = env or {}
        self.args = list(args)
        self.cwd = cwd or Path(__file__).resolve().parents[1]
        self.process: asyncio.subprocess.Process | None = None
        self._stderr = tempfile.TemporaryFile()  # noqa: SIM115 - closed in stop()
        self._stderr_at_stop = ""

    @property
    def pid(self) -> int:
        assert self.process is not None
        return self.process.pid

    async def start(self, *, ready_timeout: float = 30.0) -> BotProcess:
        """Start the process and wait until its gateway sessions are ready."""
        since = self.standin.sessions_started
        env = {
            **os.environ,
            "DISCORD_API_BASE": self.standin.api_base,
            "DISCORD_GATEWAY_URL": self.standin.gateway_url,
            "DISCORD_TOKEN": self.standin.token,
            **self.extra_env,
        }
        self.process = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            self.module,
            *self.args,
            env=env,
            cwd=self.cwd,
            stdout=asyncio.subprocess.DEVNULL,
            stderr=self._stderr,
        )
        waiting = asyncio.ensure_future(
            self.standin.wait_for_bot(since=since, timeout=ready_timeout, count=self.sessions)
        )
        exited = asyncio.ensure_future(self.process.wait())
        done, _ = await asyncio.wait({waiting, exited}, return_when=asyncio.FIRST_COMPLETED)
        if exited in done:
            waiting.cancel()
            raise RuntimeError(
                f"bot process exited with {self.process.returncode}:\n{self.stderr()[-3000:]}"
            )
        exited.cancel()
        waiting.result()
        return self

    def stderr(self) -> str:
        """What the process wrote to stderr so far (after `stop()`: all it wrote)."""
        if self._stderr.closed:
            return self._stderr_at_stop
        self._stderr.seek(0)
        return self._stderr.read().decode(errors="replace")

    def kill(self) -> None:
        """SIGKILL: no goodbye to the gateway, no cleanup."""
        assert self.process is not None
        self.process.kill()

    async def wait(self) -> int:
        assert self.process is not None
        return await self.process.wait()

    async def stop(self) -> None:
        """SIGTERM, then SIGKILL if the process has not exited within 5 s."""
        if self.process is not None and self.process.returncode is None:
            self.process.terminate()
            try:
                await asyncio.wait_for(self.process.wait(), 5)
            except TimeoutError:
                self.process.kill()
                await self.process.wait()
        if not self._stderr.closed:
            self._stderr_at_stop = self.stderr()
            self._stderr.close()

    async def __aenter__(self) -> BotProcess:
        return await self.start()

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()
