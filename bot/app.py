"""The composition root: settings → database → service → the discord.py client. The one place
that knows every part; nothing in the product imports it."""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import gc
import logging
import os
import signal
import time
from collections.abc import Callable
from typing import Any

from bot.clock import Clock, SystemClock
from bot.config import BotSettings
from bot.engine import Action
from bot.metrics import Metrics, timed
from bot.monitor import serving
from bot.service import TableService
from bot.service.my_data import export_of
from bot.service.privacy import Forgotten
from bot.service.review import ReviewService
from bot.storage import Database
from bot.workers import start_workers, worker_pool
from cogs.client import OhHellBot
from cogs.web.links import Links

log = logging.getLogger(__name__)

COLLECTOR_THRESHOLDS = (10_000, 50, 50)
"""The garbage collector's thresholds in the bot process (Python's: 700, 10, 10). A click
makes hundreds of short-lived objects in discord.py and aiohttp; with Python's thresholds the
collector ran about 620 times in a 20-table benchmark, 5 of them full passes over the whole
heap (70-80 ms each, the event loop stopped), 0.9-1.0 s of CPU in all; with these, and what
start-up built frozen out of its passes, 45 times, none full, 0.3-0.4 s."""


def decide_in_worker(game_json: str, seat: int, level: str, seed: int) -> Action:
    """A computer player's decision, from the game's JSON (picklable: runs in a worker)."""
    from bot.ai import LEVELS, NothingToDecide, decide

    if level not in LEVELS:
        raise ValueError(f"no computer level {level!r}")
    # A bug in a level must not stall the table: normal (then random) stands in, and it is logged.
    chain = [level] + [fallback for fallback in ("normal", "random") if fallback != level]
    for i, current in enumerate(chain):
        try:
            return decide(game_json, seat, level=current, seed=seed)
        except NothingToDecide:
            raise
        except Exception:
            if i == len(chain) - 1:
                raise
            log.exception(
                "computer level %s failed for seat %s; %s decides", current, seat, chain[i + 1]
            )
    raise AssertionError("unreachable: the last level's error is raised")


async def build(
    settings: BotSettings,
    *,
    decide: Callable[[str, int, str, int], Action] | None = None,
    workers: int | None = None,
    clock: Clock | None = None,
) -> tuple[OhHellBot, Database, concurrent.futures.Executor | None]:
    """Open the database and build the bot from `settings` (the one place defaults live).
    Computer decisions run in a process pool sized to the machine (or, with ``workers=0``, in a
    thread: tests); `decide` and `clock` stand in for the real ones in tests."""
    database = await _open(settings)
    metrics = Metrics()
    database.store.on_transaction = metrics.transaction_seconds.observe
    pool: concurrent.futures.Executor | None = None
    if workers != 0:
        # Workers that hold none of the bot's sockets and die with it (bot/workers.py).
        pool = worker_pool(workers or os.cpu_count() or 1, settings.log_level)
    decide = decide or decide_in_worker

    async def run_blocking(function: Callable[..., Any], *args: Any) -> Any:
        loop = asyncio.get_running_loop()
        job = metrics.worker(
            "decide" if function is decide else getattr(function, "__name__", "other")
        )
        job.jobs.inc()
        handed = time.perf_counter()
        try:
            ran, result = await loop.run_in_executor(pool, timed, function, *args)
        finally:
            job.jobs.dec()
        job.done(ran, time.perf_counter() - handed)
        return result

    clock = clock or SystemClock()
    service = TableService(
        database,
        decide=decide,
        run_blocking=run_blocking,
        clock=clock.now,
        settings=settings,
    )
    from bot.ai import review

    reviews = ReviewService(
        database.tables,
        database.results,
        database.leases,
        find=review.decisions,
        assess=review.assess,
        run_blocking=run_blocking,
        budget_s=settings.review_budget_s,
        iterations=settings.review_iterations,
    )
    links = None
    if settings.public_url is not None:
        links = Links(await service.keys.link_key(), settings.public_url)
    bot = OhHellBot(
        settings,
        service,
        sync_when_changed=database.command_syncs.sync_when_changed,
        clock=clock,
        reviews=reviews,
        run_blocking=run_blocking,
        metrics=metrics,
        links=links,
    )
    return bot, database, pool


def _point_at_stand_in(settings: BotSettings) -> None:
    from cogs.endpoint import point_discord_py_at

    if settings.discord_api_base and settings.discord_gateway_url:
        point_discord_py_at(settings.discord_api_base, settings.discord_gateway_url)


async def run(settings: BotSettings) -> Database:
    """Run the bot until it is closed (SIGTERM, or Ctrl-C). Returns its database, closed: what
    it served (`tables.loads`, `tables.saves`) can still be read."""
    _point_at_stand_in(settings)
    bot, database, pool = await build(settings, workers=settings.computer_workers)
    assert settings.discord_token is not None
    starting: asyncio.Future[None] | None = None
    if pool is not None:  # while the bot logs in: the first computer move waits for none
        count = settings.computer_workers or os.cpu_count() or 1
        starting = asyncio.ensure_future(asyncio.to_thread(start_workers, pool, count))
    gc.collect()
    gc.freeze()  # the modules and what start-up built live as long as the process
    gc.set_threshold(*COLLECTOR_THRESHOLDS)
    # SIGTERM (docker stop, systemd, BotProcess.stop) closes the bot like Ctrl-C does: the
    # gateway says goodbye, background work stops, and the database is closed below.
    loop = asyncio.get_running_loop()
    closing: list[asyncio.Task[None]] = []

    def on_sigterm() -> None:
        log.info("SIGTERM: closing")
        if not closing:
            closing.append(loop.create_task(bot.close()))

    with contextlib.suppress(NotImplementedError):  # no signal handlers on Windows' loop
        loop.add_signal_handler(signal.SIGTERM, on_sigterm)
    try:
        async with bot, serving(settings, bot, database):
            if bot.web is not None:  # before logging in: a port in use is told at once
                await bot.web.start()
            await bot.start(settings.discord_token.get_secret_value())
    finally:
        with contextlib.suppress(NotImplementedError):
            loop.remove_signal_handler(signal.SIGTERM)
        if closing:
            await closing[0]
        await database.close()
        if starting is not None:
            await asyncio.gather(starting, return_exceptions=True)
        if pool is not None:
            pool.shutdown(cancel_futures=True)
    return database


async def sync_commands(settings: BotSettings) -> None:
    """`python -m bot sync`: sync the slash commands now, even if they did not change (someone
    removed them by hand, or another program overwrote them). Logs in over HTTP only, no
    gateway session, so it may run beside the bot's processes."""
    _point_at_stand_in(settings)
    bot, database, _ = await build(settings, workers=0)
    assert settings.discord_token is not None
    try:
        await database.command_syncs.forget()
        async with bot:
            # Logging in runs setup_hook, which finds nothing stored, so syncs and stores.
            await bot.login(settings.discord_token.get_secret_value())
    finally:
        await database.close()


async def _open(settings: BotSettings) -> Database:
    return await Database.open(
        settings.database,
        pool_size=settings.database_pool_size,
        post_lease=settings.post_retry_after,
    )


async def person_data(settings: BotSettings, user_id: int) -> bytes:
    """`python -m bot my-data USER_ID`: what `/ohhell my-data` gives the person, for one who
    cannot use it (they are in no server with the bot). Not paced: the operator asks."""
    database = await _open(settings)
    try:
        rows = await database.privacy.person_rows(user_id)
        return export_of(rows, time.time()).data
    finally:
        await database.close()


async def forget_person(settings: BotSettings, user_id: int) -> Forgotten:
    """`python -m bot forget USER_ID`: what `/ohhell forget-me` does, for a person who asked
    the operator. Tables they leave are shown by the running bot at their next change."""
    from cogs.render.privacy import former_player

    database = await _open(settings)
    try:
        service = TableService(database, decide=decide_in_worker, settings=settings)
        offer = await service.privacy.offer_erasure(user_id)
        return await service.privacy.forget(user_id, offer.token, former_player)
    finally:
        await database.close()
