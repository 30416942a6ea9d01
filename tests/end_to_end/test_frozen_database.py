"""A database that hangs (not down: it takes connections and answers nothing): `/healthz` and
`/metrics` answer within their stated limits all the same, again and again, and the bot is
healthy again once the database answers."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator

import aiohttp
import pytest

from bot.metrics import SCRAPE_TIMEOUT
from bot.monitor import DATABASE_ANSWER_TIMEOUT, serving
from standin.server import StandIn
from tests.end_to_end.conftest import BotFactory
from tests.frozen import FreezableRelay

MOMENT = 1.0
"""Seconds an answer may take beyond its limit (the machine is shared and slow): a check with
a timeout of 3 s always gets its answer (docs/deploy.md)."""


@pytest.fixture
async def relay(postgres_server: str) -> AsyncIterator[FreezableRelay]:
    relay = await FreezableRelay(postgres_server).start()
    yield relay
    await relay.close()


@pytest.fixture
def database_url(postgres_url: str, relay: FreezableRelay) -> str:
    """The bot's database (a fresh schema on the test server), reached through the relay."""
    return relay.url_of(postgres_url)


async def timed_get(port: int, path: str) -> tuple[int, str, float]:
    started = time.monotonic()
    async with (
        aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=30)) as session,
        session.get(f"http://127.0.0.1:{port}{path}") as response,
    ):
        return response.status, await response.text(), time.monotonic() - started


async def test_healthz_and_metrics_answer_in_time_while_the_database_hangs(
    standin: StandIn, start_bot: BotFactory, relay: FreezableRelay
) -> None:
    async with (
        start_bot(settings={"metrics_port": 0}) as bot,
        serving(bot.settings, bot, bot.tables.service.db) as port,
    ):
        assert (await timed_get(port, "/healthz"))[:2] == (200, "ok\n")
        relay.freeze()
        try:
            for _ in range(3):
                status, text, took = await timed_get(port, "/healthz")
                assert (status, text) == (
                    503,
                    f"the database did not answer within {DATABASE_ANSWER_TIMEOUT:g} s\n",
                )
                assert took < DATABASE_ANSWER_TIMEOUT + MOMENT, took
            # Checks at once, as an orchestrator and Prometheus would make them.
            answers = await asyncio.gather(
                *(timed_get(port, path) for path in ("/healthz", "/metrics", "/healthz"))
            )
            assert [status for status, _, _ in answers] == [503, 200, 503]
            assert answers[1][1].count("\nohhell_healthy 0.0\n") == 1
            assert max(took for _, _, took in answers) < SCRAPE_TIMEOUT + MOMENT
        finally:
            relay.thaw()
        deadline = time.monotonic() + 15
        while (answer := await timed_get(port, "/healthz"))[0] != 200:
            assert time.monotonic() < deadline, answer
            await asyncio.sleep(0.2)
        assert "\nohhell_healthy 1.0\n" in (await timed_get(port, "/metrics"))[1]
