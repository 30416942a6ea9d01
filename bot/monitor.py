"""The metrics and health endpoints (METRICS_PORT, docs/deploy.md): `/metrics` for Prometheus
and `/healthz` for whatever restarts the bot, served by aiohttp on the bot's own event loop,
and the gauges read off the bot and its database at each scrape."""

from __future__ import annotations

import asyncio
import errno
import logging
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from aiohttp import web
from prometheus_client.aiohttp import make_aiohttp_handler

from bot.config import BotSettings
from bot.metrics import Metrics, within
from bot.storage import Database
from cogs.client import OhHellBot

log = logging.getLogger(__name__)

DATABASE_ANSWER_TIMEOUT = 2.0
"""Seconds the database has to answer `SELECT 1` before the bot counts as unhealthy."""


class Health:
    """Whether the bot is healthy (`problem`), answered within `DATABASE_ANSWER_TIMEOUT` and a
    moment whatever the database does: frozen, it gets no more than one check at a time (a
    check asked for while the last one hangs waits for that one)."""

    def __init__(self, bot: OhHellBot, database: Database) -> None:
        self.bot = bot
        self.database = database
        self._answering: asyncio.Future[None] | None = None

    async def problem(self) -> str | None:
        """None while the bot is healthy: every gateway shard of this process connected, and
        the database answering. Otherwise what is wrong, in one line."""
        bot = self.bot
        if bot.is_closed() or not bot.is_ready():
            return "the gateway is not connected"
        down = sorted(shard_id for shard_id, shard in bot.shards.items() if shard.is_closed())
        if down:
            return f"gateway shards not connected: {', '.join(map(str, down))}"
        if self._answering is None or self._answering.done():
            self._answering = asyncio.ensure_future(self.database.store.answer())
            self._answering.add_done_callback(lambda done: done.cancelled() or done.exception())
        try:
            await within(asyncio.shield(self._answering), DATABASE_ANSWER_TIMEOUT)
        except TimeoutError:
            return f"the database did not answer within {DATABASE_ANSWER_TIMEOUT:g} s"
        except Exception as error:
            text = (str(error) or type(error).__name__).splitlines()[0][:200]
            return f"the database did not answer: {text}"
        return None


def watch(metrics: Metrics, bot: OhHellBot, database: Database, checked: Health) -> None:
    """The gauges read at each scrape: open tables (one query), what the process holds, the
    REST budget, gateway latency, health."""
    pacer = bot.presenter.ground.pacer

    async def tables() -> None:
        for phase, count in (await database.tables.open_by_phase()).items():
            metrics.tables_open(phase).set(count)

    async def process() -> None:
        metrics.tables_in_memory.set(len(bot.presenter.cached_tables()))
        metrics.rest_waiting.set(pacer.waiting)
        metrics.rest_tokens("process").set(pacer.level())
        for shard_id, latency in bot.latencies:
            metrics.gateway_latency(str(shard_id)).set(latency)

    async def shared_budget() -> None:
        level = await database.budget.level(rate=pacer.rate, burst=pacer.burst)
        metrics.rest_tokens("shared").set(level)

    async def outbox() -> None:
        waiting, oldest = await database.outbox.waiting()
        metrics.outbox_waiting.set(waiting)
        metrics.outbox_oldest.set(0.0 if oldest is None else max(0.0, time.time() - oldest))

    async def healthy() -> None:
        metrics.healthy.set(await checked.problem() is None)

    metrics.before_scrape("open tables", tables)
    metrics.before_scrape("process", process)
    if pacer.shared:
        metrics.before_scrape("shared REST budget", shared_budget)
    metrics.before_scrape("outbox", outbox)
    metrics.before_scrape("health", healthy)


@asynccontextmanager
async def serving(settings: BotSettings, bot: OhHellBot, database: Database) -> AsyncIterator[int]:
    """Serve `/metrics` and `/healthz` on METRICS_HOST:METRICS_PORT while the block runs
    (nothing without METRICS_PORT); yields the port (0: none)."""
    if settings.metrics_port is None:
        yield 0
        return
    metrics = bot.metrics
    checked = Health(bot, database)
    watch(metrics, bot, database, checked)
    page = make_aiohttp_handler(metrics.registry)

    async def metrics_page(request: web.Request) -> web.StreamResponse:
        await metrics.collect()
        return await page(request)

    async def healthz(request: web.Request) -> web.StreamResponse:
        problem = await checked.problem()
        if problem is None:
            return web.Response(text="ok\n")
        return web.Response(status=503, text=f"{problem}\n")

    app = web.Application()
    app.router.add_get("/metrics", metrics_page)
    app.router.add_get("/healthz", healthz)
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, settings.metrics_host, settings.metrics_port)
    try:
        try:
            await site.start()
        except OSError as error:
            raise MetricsUnavailable(_cannot_listen(settings, error)) from None
        port = _port(runner, settings.metrics_port)
        log.info("metrics on http://%s:%d/metrics", settings.metrics_host, port)
        yield port
    finally:
        await runner.cleanup()


class MetricsUnavailable(Exception):
    """The metrics cannot be served as METRICS_HOST and METRICS_PORT say: one line, naming
    the setting to change."""


def _cannot_listen(settings: BotSettings, error: OSError) -> str:
    where = f"{settings.metrics_host}:{settings.metrics_port}"
    reason = (error.strerror or str(error) or type(error).__name__).splitlines()[0]
    if error.errno == errno.EADDRINUSE:
        return (
            f"METRICS_PORT: {where} is in use by another program (another bot process?):"
            " stop it, or set another port"
        )
    if error.errno == errno.EACCES:
        return f"METRICS_PORT: this user may not listen on {where} ({reason}): set one above 1023"
    return (
        f"METRICS_HOST: cannot listen on {where} ({reason}): set an address of this machine,"
        " e.g. 127.0.0.1, or 0.0.0.0 for every interface"
    )


def _port(runner: web.AppRunner, asked: int) -> int:
    """The port listened on: the one asked for, or the one the system chose for 0."""
    for address in runner.addresses:
        if isinstance(address, tuple) and len(address) >= 2:
            return int(address[1])
    return asked
