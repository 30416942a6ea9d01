"""What an operator watches (docs/deploy.md, "Metrics and health"): the Prometheus metrics of
one bot, in a registry of its own, so that several bots in one process do not mix their counts.

Counted where things happen at a cost that does not show beside a click's: a counter's
increment or a histogram's observation, the labelled series looked up once and kept
(`Series`). What is read off a state instead (open tables, the pacer, the gateway) is read
when Prometheus scrapes, by the collectors given to `before_scrape`."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any, Generic, TypeVar

import aiohttp
from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram

log = logging.getLogger(__name__)

SCRAPE_TIMEOUT = 5.0
"""Seconds a scrape-time collector (a database query) may take before the scrape goes on
without it (its gauges keep what they last read). Prometheus waits 10 s for a scrape."""

ANSWER_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 3.0, 5.0)
"""Seconds from a click to its answer: Discord drops an answer later than 3 s."""
TRANSACTION_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1.0, 5.0)
WORKER_BUCKETS = (0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0)

RATE_LIMIT_SCOPES = frozenset({"user", "global", "shared"})
"""What Discord's X-RateLimit-Scope header may say (anything else is counted as unknown)."""

M = TypeVar("M", Counter, Gauge, Histogram)
T = TypeVar("T")


class Series(Generic[M]):
    """A labelled metric's series by its one label's value, each looked up once: the library's
    `labels()` takes a lock and builds a key on every call."""

    def __init__(self, metric: M) -> None:
        self._metric: M = metric
        self._series: dict[str, M] = {}

    def __call__(self, value: str) -> M:
        series = self._series.get(value)
        if series is None:
            series = self._series[value] = self._metric.labels(value)
        return series


class Metrics:
    """Every metric of one bot. Hot paths call the plain methods; gauges read off a state are
    set by the collectors run before each scrape (`collect`)."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        r = self.registry

        def timing(name: str, doc: str, buckets: tuple[float, ...], *labels: str) -> Histogram:
            return Histogram(name, doc, labels, buckets=buckets, registry=r)

        self._collectors: list[tuple[str, Callable[[], Awaitable[None]]]] = []
        self._running: dict[str, asyncio.Future[None]] = {}
        """Each collector's last run, while it may still be running."""

        # People's actions, and what the one error handler answered
        self.clicks = Series(
            Counter("ohhell_clicks", "Buttons and selects pressed, by kind.", ["kind"], registry=r)
        )
        self.commands = Series(
            Counter("ohhell_commands", "Slash commands used, by name.", ["command"], registry=r)
        )
        self.refusals = Series(
            Counter(
                "ohhell_refusals",
                "Actions refused (nothing changed), by code.",
                ["code"],
                registry=r,
            )
        )
        self.errors = Series(
            Counter(
                "ohhell_errors",
                "Errors the error handler answered: unexpected, after_commit (the change "
                "stands), corrupt (a stored table that cannot be read).",
                ["kind"],
                registry=r,
            )
        )
        self.answer_seconds = timing(
            "ohhell_click_answer_seconds",
            "Seconds from a click reaching the bot until Discord took its answer.",
            ANSWER_BUCKETS,
        )

        # Discord's REST API
        self._rest_calls = Counter(
            "ohhell_rest_calls",
            "REST calls to Discord by answer (2xx, 3xx, 4xx, 429, 5xx, or error: no answer) "
            "and limit (global: counted in Discord's 50 a second; exempt: interaction answers).",
            ["status", "limit"],
            registry=r,
        )
        self._rest_call_series: dict[tuple[int | None, bool], Counter] = {}
        self.rate_limited = Series(
            Counter(
                "ohhell_rest_rate_limited",
                "429 answers from Discord, by the scope it named (user, global, shared).",
                ["scope"],
                registry=r,
            )
        )
        self.rest_tokens = Series(
            Gauge(
                "ohhell_rest_budget_tokens",
                "Calls the REST budget may make at once: this process's pacer (process), and "
                "the bucket the bot's processes share (shared, PostgreSQL with SHARD_IDS).",
                ["bucket"],
                registry=r,
            )
        )
        self.rest_waiting = Gauge(
            "ohhell_rest_waiting", "Calls waiting at the pacer for the REST budget.", registry=r
        )

        # The database
        self.transaction_seconds = timing(
            "ohhell_database_transaction_seconds",
            "Seconds a write transaction took, waiting for its connection or lock included.",
            TRANSACTION_BUCKETS,
        )
        self.tables_open = Series(
            Gauge(
                "ohhell_tables_open",
                "Open tables in the database, by phase (lobby, playing, paused).",
                ["phase"],
                registry=r,
            )
        )
        self.tables_in_memory = Gauge(
            "ohhell_tables_in_memory",
            "Tables this process holds anything in memory for (open ones, and closed ones "
            "until their last change is shown).",
            registry=r,
        )

        # The outbox (bot/storage/outbox.py): channel posts stored with their change
        self.outbox_waiting = Gauge(
            "ohhell_outbox_waiting",
            "Channel posts stored and not made yet (being made, waiting for a retry, or set "
            "aside for a channel that refused them), in the whole database.",
            registry=r,
        )
        self.outbox_oldest = Gauge(
            "ohhell_outbox_oldest_seconds",
            "Age of the oldest post waiting in the outbox (0: none).",
            registry=r,
        )

        # The worker processes (computer players' decisions, reviews, charts, history)
        self._worker_seconds = timing(
            "ohhell_worker_seconds",
            "Seconds a job ran in a worker (decide: a computer player's decision).",
            WORKER_BUCKETS,
            "job",
        )
        self._worker_wait = timing(
            "ohhell_worker_wait_seconds",
            "Seconds a job waited for a free worker (and to be handed over).",
            WORKER_BUCKETS,
            "job",
        )
        self._worker_jobs = Gauge(
            "ohhell_worker_jobs",
            "Jobs handed to the workers and not done yet.",
            ["job"],
            registry=r,
        )
        self._workers: dict[str, WorkerJob] = {}

        # The gateway and the whole
        self.gateway_latency = Series(
            Gauge(
                "ohhell_gateway_latency_seconds",
                "Heartbeat to acknowledgement, per shard of this process (+Inf: none yet).",
                ["shard"],
                registry=r,
            )
        )
        self.healthy = Gauge(
            "ohhell_healthy",
            "1 while /healthz answers 200: the gateway is connected and the database answers.",
            registry=r,
        )

    # On hot paths

    def rest_call(self, status: int | None, exempt: bool) -> None:
        """One REST call's answer (None: it got none)."""
        series = self._rest_call_series.get((status, exempt))
        if series is None:
            answer = "error" if status is None else "429" if status == 429 else f"{status // 100}xx"
            series = self._rest_calls.labels(answer, "exempt" if exempt else "global")
            self._rest_call_series[status, exempt] = series
        series.inc()

    def worker(self, job: str) -> WorkerJob:
        found = self._workers.get(job)
        if found is None:
            found = self._workers[job] = WorkerJob(
                self._worker_seconds.labels(job),
                self._worker_wait.labels(job),
                self._worker_jobs.labels(job),
            )
        return found

    # At scrape time

    def before_scrape(self, name: str, collect: Callable[[], Awaitable[None]]) -> None:
        """Run `collect` before each scrape: it sets gauges read off a state (a database query,
        what the process holds). Each runs with `SCRAPE_TIMEOUT`; a failure is logged under
        `name` and its gauges keep what they last read."""
        self._collectors.append((name, collect))

    async def collect(self) -> None:
        """Run every collector, at once; within `SCRAPE_TIMEOUT` whatever they do."""
        await asyncio.gather(*(self._collect_one(name, c) for name, c in self._collectors))

    async def _collect_one(self, name: str, collect: Callable[[], Awaitable[None]]) -> None:
        # One run of a collector at a time: a scrape while the last one's query still hangs
        # (a frozen database) waits for that one, instead of taking another connection.
        running = self._running.get(name)
        if running is None or running.done():
            running = self._running[name] = _retrieved(asyncio.ensure_future(collect()))
        try:
            await within(asyncio.shield(running), SCRAPE_TIMEOUT)
        except TimeoutError:
            log.warning("metrics: %s took longer than %.0f s", name, SCRAPE_TIMEOUT)
        except Exception as error:
            log.warning("metrics: %s failed: %s", name, error)


async def within(awaitable: Awaitable[T], seconds: float) -> T:
    """`awaitable`'s result if it comes within `seconds`, else `TimeoutError` at `seconds`:
    unlike `asyncio.wait_for`, which waits for what it cancels to end, and a driver cancelled
    while its server is frozen may take a minute to. What is left over is cancelled, and ends
    on its own."""
    task = asyncio.ensure_future(awaitable)
    try:
        done, _ = await asyncio.wait({task}, timeout=seconds)
    except asyncio.CancelledError:
        _abandon(task)
        raise
    if task in done:
        return task.result()
    _abandon(task)
    raise TimeoutError


_ABANDONED: set[asyncio.Future[Any]] = set()
"""Work `within` gave up on, held until it ends (the loop keeps only weak references)."""


def _abandon(task: asyncio.Future[Any]) -> None:
    task.cancel()
    _ABANDONED.add(_retrieved(task))
    task.add_done_callback(_ABANDONED.discard)


def _retrieved(task: asyncio.Future[T]) -> asyncio.Future[T]:
    """`task`, whose failure counts as seen even if nobody awaits it any more (no "exception
    was never retrieved" in the log)."""
    task.add_done_callback(lambda done: done.cancelled() or done.exception())
    return task


class WorkerJob:
    """One kind of job's series: jobs under way, time run, time waited."""

    def __init__(self, ran: Histogram, waited: Histogram, jobs: Gauge) -> None:
        self.ran = ran
        self.waited = waited
        self.jobs = jobs

    def done(self, ran: float, took: float) -> None:
        """A job done: `ran` seconds in the worker, `took` seconds from handing it over."""
        self.ran.observe(ran)
        self.waited.observe(max(0.0, took - ran))


def timed(function: Callable[..., Any], *args: Any) -> tuple[float, Any]:
    """`function(*args)` and the seconds it ran, in a worker (picklable)."""
    started = time.perf_counter()
    result = function(*args)
    return time.perf_counter() - started, result


def rest_trace(metrics: Metrics) -> aiohttp.TraceConfig:
    """discord.py's public hook into its HTTP client (`http_trace`): every REST call's answer,
    and the 429s discord.py waits out and tries again, which it does not report otherwise."""

    async def answered(
        session: aiohttp.ClientSession, context: Any, params: aiohttp.TraceRequestEndParams
    ) -> None:
        response = params.response
        if response.status < 200:
            return  # the gateway's websocket (101 Switching Protocols), not a REST call
        metrics.rest_call(response.status, _exempt(params.url.raw_path))
        if response.status == 429:
            scope = response.headers.get("X-RateLimit-Scope", "")
            metrics.rate_limited(scope if scope in RATE_LIMIT_SCOPES else "unknown").inc()

    async def failed(
        session: aiohttp.ClientSession, context: Any, params: aiohttp.TraceRequestExceptionParams
    ) -> None:
        metrics.rest_call(None, _exempt(params.url.raw_path))

    trace = aiohttp.TraceConfig()
    trace.on_request_end.append(answered)
    trace.on_request_exception.append(failed)
    return trace


def _exempt(path: str) -> bool:
    """Interaction answers (the callback and the interaction's webhook) are not counted in
    Discord's global limit."""
    return "/interactions/" in path or "/webhooks/" in path
