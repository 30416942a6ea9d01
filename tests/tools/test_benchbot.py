"""The bot benchmark runs small and ends with its JSON figures; the bot it measures stops cleanly
on SIGTERM and writes the storage counts the benchmark reads."""

from __future__ import annotations

import asyncio
import gc
import io
import json
import os
import time
from pathlib import Path

import pytest

from standin.server import StandIn
from standin.testing import BotProcess
from tools.benchbot import cpu_seconds, main, side_by_side, storage_counts
from tools.harness import CollectorPauses, watch_stalls
from tools.simulated_people import open_table


def test_benchbot_prints_figures_ending_with_json(capsys: pytest.CaptureFixture[str]) -> None:
    """In the pseudo-language: its people read no words, and its bot process speaks it."""
    args = ["--tables", "2", "--preset", "first-to-101", "--target", "50", "--locale", "en-XA"]
    assert main(args) == 0
    fig = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert fig["tables"] == 2 and fig["preset"] == "first-to-101" and fig["locale"] == "en-XA"
    assert fig["cards_played"] > 0
    assert fig["actions_lost"] == 0
    assert isinstance(fig["rate_limited"], int) and fig["rate_limited"] >= 0
    assert fig["rest_calls_per_card"] > 0
    # Each stored action loaded its table row at least once; None would mean no counts.
    assert fig["loads_per_action"] is not None and fig["loads_per_action"] > 0
    assert fig["bot_cpu_ms_per_card"] > 0
    assert fig["harness_peak_rss_mb"] > 0 and fig["harness_longest_gc_pause_ms"] >= 0
    assert fig["harness_longest_stall_ms"] >= 0
    quarters = fig["ack_p99_ms_by_quarter"]
    # Clicks go on from the first second to the last few: every quarter has some.
    assert len(quarters) == 4 and all(q > 0 for q in quarters)


def test_benchbot_runs_two_bot_processes_on_postgres(
    capsys: pytest.CaptureFixture[str], postgres_server: str
) -> None:
    """`--processes 2 --database postgres`: both processes play, and the JSON line says so.
    (The bench starts a PostgreSQL of its own; `postgres_server` skips this test, saying why,
    where none can start.)"""
    args = ["--tables", "2", "--target", "50", "--database", "postgres", "--processes", "2"]
    assert main(args) == 0
    run = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert (run["processes"], run["database"]) == (2, "postgres")
    assert run["cards_played"] > 0 and run["actions_lost"] == 0
    # Both played their part: shard 0's takes every DM click, the other its server's clicks.
    assert len(run["bot_cpu_ms_per_card_by_process"]) == 2
    assert all(ms > 0 for ms in run["bot_cpu_ms_per_card_by_process"])


def test_runs_are_printed_side_by_side() -> None:
    runs = [
        {"processes": 1, "database": "postgres", "ack_p99_ms": 5.5, "actions_lost": 0},
        {"processes": 2, "database": "postgres", "ack_p99_ms": 6.3, "actions_lost": 0},
    ]
    out = io.StringIO()
    side_by_side(runs, out)
    lines = out.getvalue().splitlines()
    assert "1 on postgres" in lines[1] and "2 on postgres" in lines[1]
    p99 = next(line for line in lines if line.startswith("ack p99 (ms)"))
    assert p99.split()[-2:] == ["5.5", "6.3"]


def test_people_at_the_page_play_there_and_cost_fewer_rest_calls(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """`--at-page`: the people at the page sign in, open their seat's stream and move with
    `POST /act`; the run says how soon those moves were answered and shown to the other
    players' pages, and the hand DMs that wait cut the REST calls a card."""
    figures = []
    for share in ("0", "1"):
        assert main(["--tables", "1", "--target", "50", "--at-page", share]) == 0
        figures.append(json.loads(capsys.readouterr().out.strip().splitlines()[-1]))
    away, there = figures
    assert (away["at_page"], there["at_page"]) == (0.0, 1.0)
    assert away["page_moves"] == 0 and away["act_p99_ms"] is None
    assert there["cards_played"] > 0 and there["actions_lost"] == 0 and there["refused"] == 0
    # Every move was the page's (no DM click but the table's opening and start).
    assert there["page_moves"] >= there["cards_played"] / 2
    assert 0 < there["act_p50_ms"] <= there["act_p99_ms"]
    assert 0 < there["shown_p50_ms"] <= there["shown_p99_ms"]
    assert there["rest_calls_per_card"] < away["rest_calls_per_card"] / 2


def test_the_share_at_the_page_is_from_0_to_1() -> None:
    with pytest.raises(SystemExit):
        main(["--tables", "1", "--at-page", "1.5"])


def test_several_processes_need_postgres() -> None:
    with pytest.raises(SystemExit):
        main(["--tables", "1", "--processes", "2"])


def test_cpu_seconds_reads_this_process_own_cpu_time() -> None:
    sum(i * i for i in range(300_000))  # some CPU time to read
    times = os.times()
    read = cpu_seconds(os.getpid())
    assert read > 0
    # The same kernel counters as times(2), in clock ticks: at most a few ticks apart.
    assert read == pytest.approx(times.user + times.system, abs=0.05)


async def test_a_sigterm_stops_the_bot_cleanly_and_it_writes_its_storage_counts(
    standin: StandIn, tmp_path: Path
) -> None:
    env = {
        "DATABASE_PATH": str(tmp_path / "sigterm.sqlite3"),
        "LOG_LEVEL": "INFO",
        "COMPUTER_DELAY": "0",
        "DEV_GUILD_ID": "",
    }
    written = tmp_path / "counts.json"
    assert storage_counts(written) is None
    process = BotProcess(standin, "tools.bot_process", env=env, args=[str(written)])
    await process.start()
    try:
        # Open a table and have a second person join: one table created, one save at least.
        await open_table(standin, [standin.person("Ann"), standin.person("Ben")])
    finally:
        await process.stop()  # SIGTERM, SIGKILL after 5 s
    assert process.process is not None
    log = process.stderr()
    # 0, not -15 (killed by SIGTERM) nor -9 (SIGKILLed because it did not stop).
    assert process.process.returncode == 0, log
    assert "Traceback" not in log, log
    assert "storage" not in log, log  # counted through the code, not read back from the log
    counts = storage_counts(written)
    assert counts is not None, log
    loads, saves = counts
    assert loads >= 1 and saves >= 1, log
    await standin.wait_for(lambda: not standin.connected)


@pytest.mark.parametrize("after", [0.0, 3.0], ids=["while-the-bot-starts", "while-playing"])
async def test_ctrl_c_stops_the_run_and_its_bot(after: float) -> None:
    import asyncio
    import signal
    import sys

    root = Path(__file__).resolve().parents[2]
    run = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "tools.benchbot",
        "--tables",
        "4",
        cwd=root,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    try:
        # Wait until its bot is running (a child process), and the tables are being played.
        children = Path(f"/proc/{run.pid}/task/{run.pid}/children")
        for _ in range(300):
            bots = children.read_text().split()
            if bots:
                break
            await asyncio.sleep(0.1)
        assert bots, "the benchmark started no bot"
        await asyncio.sleep(after)
        run.send_signal(signal.SIGINT)
        _, err = await asyncio.wait_for(run.communicate(), 60)
    finally:
        if run.returncode is None:
            run.kill()
            await run.wait()
    assert run.returncode == 130, err.decode()[-2000:]
    assert "interrupted" in err.decode()
    assert not any(Path(f"/proc/{pid}").exists() for pid in bots), "its bot is still running"


async def test_the_harness_moves_its_objects_out_of_the_collectors_reach_and_back() -> None:
    """While watching, what the harness holds goes to the permanent generation now and then
    (a full collection then walks only what is new); afterwards it comes back."""
    with CollectorPauses() as pauses:
        freezing = asyncio.create_task(pauses.keep_short(every=0.01))
        await asyncio.sleep(0.05)
        freezing.cancel()
        assert gc.get_freeze_count() > 0
        gc.collect()
    assert gc.get_freeze_count() == 0
    assert pauses.longest > 0 and pauses.total >= pauses.longest


async def test_a_busy_harness_loop_is_seen_as_a_stall() -> None:
    longest = [0.0]
    watching = asyncio.create_task(watch_stalls(longest, every=0.005))
    await asyncio.sleep(0.02)
    time.sleep(0.08)  # the loop cannot wake the watcher meanwhile
    await asyncio.sleep(0.02)
    watching.cancel()
    assert longest[0] >= 0.05
