"""The metrics and health endpoints (METRICS_PORT) of the real bot against the stand-in: scraped
during a game, the counters move; /healthz follows the gateway and the database."""

from __future__ import annotations

import asyncio
import time

import aiohttp
import pytest
from prometheus_client.parser import text_string_to_metric_families

from bot.monitor import serving
from standin.server import StandIn
from tests.databases import stopped
from tests.end_to_end.conftest import BotFactory
from tools.simulated_people import (
    add_computer,
    hand_message,
    open_table,
    play_until_over,
)

Samples = dict[tuple[str, frozenset[tuple[str, str]]], float]


async def scrape(port: int) -> Samples:
    async with (
        aiohttp.ClientSession() as session,
        session.get(f"http://127.0.0.1:{port}/metrics") as response,
    ):
        assert response.status == 200
        text = await response.text()
    return {
        (sample.name, frozenset(sample.labels.items())): sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    }


def value(samples: Samples, name: str, **labels: str) -> float:
    return samples.get((name, frozenset(labels.items())), 0.0)


async def healthz(port: int) -> tuple[int, str]:
    async with (
        aiohttp.ClientSession() as session,
        session.get(f"http://127.0.0.1:{port}/healthz") as response,
    ):
        return response.status, await response.text()


async def test_a_scrape_during_a_game_sees_the_counters_move(
    standin: StandIn, start_bot: BotFactory
) -> None:
    async with start_bot(settings={"metrics_port": 0}) as bot:
        database = bot.tables.service.db
        async with serving(bot.settings, bot, database) as port:
            before = await scrape(port)
            assert value(before, "ohhell_healthy") == 1
            ann, bob = standin.person("Ann"), standin.person("Bob")
            table, table_id = await open_table(standin, [ann, bob], preset="classic", max_cards=2)
            await add_computer(standin, ann, table, table_id, "easy")
            refused = await bob.click(table, f"oh:start:{table_id}")  # only the host starts
            assert refused.ephemeral
            lobby = await scrape(port)
            assert value(lobby, "ohhell_tables_open", phase="lobby") == 1
            assert value(lobby, "ohhell_refusals_total", code="host_only") == 1
            assert value(lobby, "ohhell_clicks_total", kind="join") == 1

            edits = "PATCH /channels/{channel_id}/messages/{message_id}"
            standin.rate_limits.inject_429(edits, times=2, retry_after=0.01)
            await ann.click(table, f"oh:start:{table_id}")
            await standin.wait_for(lambda: all(hand_message(p) for p in (ann, bob)))
            playing = await scrape(port)
            assert value(playing, "ohhell_tables_open", phase="playing") == 1
            assert value(playing, "ohhell_tables_open", phase="lobby") == 0
            panel = (await ann.click(table, f"oh:hostctl:{table_id}")).reply
            assert panel is not None
            resume = (await ann.click(panel, f"oh:pause:{table_id}")).reply or panel
            paused = await scrape(port)
            assert value(paused, "ohhell_tables_open", phase="paused") == 1
            assert value(paused, "ohhell_tables_open", phase="playing") == 0
            await ann.click(resume, f"oh:resume:{table_id}")
            clicks = await play_until_over(standin, [ann, bob], table)
            await bot.presenter.ground.idle()
            after = await scrape(port)

    def moved(name: str, **labels: str) -> float:
        return value(after, name, **labels) - value(before, name, **labels)

    played = sum(moved("ohhell_clicks_total", kind=k) for k in ("bid", "bidsel", "play", "trump"))
    assert played == clicks > 0
    assert moved("ohhell_commands_total", command="ohhell start") == 1
    # Every click is answered: join, level picker, the level, the refused start, the start,
    # the host panel, pause, resume.
    assert moved("ohhell_click_answer_seconds_count") == clicks + 8
    assert moved("ohhell_rest_calls_total", status="2xx", limit="exempt") >= clicks
    assert moved("ohhell_rest_calls_total", status="2xx", limit="global") > 0
    assert moved("ohhell_rest_calls_total", status="429", limit="global") == 2
    assert moved("ohhell_rest_rate_limited_total", scope="shared") == 2
    assert value(after, "ohhell_rest_calls_total", status="1xx", limit="global") == 0  # gateway
    assert moved("ohhell_database_transaction_seconds_count") > clicks
    assert moved("ohhell_worker_seconds_count", job="decide") > 0
    assert moved("ohhell_worker_wait_seconds_count", job="decide") > 0
    assert value(after, "ohhell_worker_jobs", job="decide") == 0
    assert value(after, "ohhell_tables_open", phase="playing") == 0
    assert ("ohhell_gateway_latency_seconds", frozenset({("shard", "0")})) in after
    assert value(after, "ohhell_rest_budget_tokens", bucket="process") >= 0
    # Every post the game stored (its hands' scores, the standings) was made.
    assert ("ohhell_outbox_waiting", frozenset()) in after
    assert (
        value(after, "ohhell_outbox_waiting") == value(after, "ohhell_outbox_oldest_seconds") == 0
    )


@pytest.mark.parametrize("database_url", ["postgres"], indirect=True)
async def test_healthz_follows_the_database_and_the_gateway(
    standin: StandIn, start_bot: BotFactory, postgres_server: str
) -> None:
    async with (
        start_bot(settings={"metrics_port": 0}) as bot,
        serving(bot.settings, bot, bot.tables.service.db) as port,
    ):
        assert await healthz(port) == (200, "ok\n")
        async with stopped(postgres_server):
            status, reason = await healthz(port)
            assert status == 503
            assert reason.startswith("the database did not answer")
            assert value(await scrape(port), "ohhell_healthy") == 0
        deadline = time.monotonic() + 10
        while (answer := await healthz(port))[0] != 200 and time.monotonic() < deadline:
            await asyncio.sleep(0.1)
        assert answer == (200, "ok\n")
        assert value(await scrape(port), "ohhell_healthy") == 1
        await bot.close()
        assert await healthz(port) == (503, "the gateway is not connected\n")
