"""`python -m bot` when something is wrong before the first game: each failure is one line that
says what to fix, names the part that failed, and never prints the token."""

from __future__ import annotations

import asyncio
import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from standin.server import StandIn

ROOT = Path(__file__).resolve().parents[2]
TOKEN = "MTA5OTk5OTk5OTk5OTk5OTk5OQ.Secret.DoNotPrintThisTokenAnywhere"
"""A token shaped like Discord's; no output may hold any part of it."""


def run_bot_process(env: dict[str, str], tmp_path: Path, *args: str) -> tuple[int, str]:
    """`python -m bot` in `tmp_path` (no .env there): its exit code, and stdout and stderr."""
    full = {k: v for k, v in os.environ.items() if not k.startswith("DISCORD_")}
    full.update(DATABASE_PATH=str(tmp_path / "db.sqlite3"), PYTHONPATH=str(ROOT))
    full.update(env)
    done = subprocess.run(
        [sys.executable, "-m", "bot", *args],
        cwd=tmp_path,
        env=full,
        capture_output=True,
        text=True,
        timeout=60,
    )
    return done.returncode, done.stdout + done.stderr


def assert_no_token(output: str) -> None:
    for part in TOKEN.split("."):
        assert part not in output, output


@pytest.mark.parametrize(
    ("env", "named", "accepts"),
    [
        ({"LOG_LEVEL": "verbose"}, "LOG_LEVEL", "DEBUG, INFO, WARNING, ERROR (got 'verbose')"),
        ({"SHARD_IDS": "0", "SHARD_COUNT": ""}, "SHARD_IDS", "needs SHARD_COUNT"),
        ({"SHARD_IDS": "0,x", "SHARD_COUNT": "2"}, "SHARD_IDS", "separated by commas"),
        ({"SHARD_IDS": "2", "SHARD_COUNT": "2"}, "SHARD_IDS", "from 0 to 1"),
        ({"COMPUTER_WORKERS": "many"}, "COMPUTER_WORKERS", "a whole number (got 'many')"),
        ({"TABLE_EDIT_DELAY": "-1"}, "TABLE_EDIT_DELAY", "0 or more (got '-1')"),
    ],
)
def test_a_bad_setting_is_one_line_naming_it_and_what_it_accepts(
    tmp_path: Path, env: dict[str, str], named: str, accepts: str
) -> None:
    code, output = run_bot_process({"DISCORD_TOKEN": TOKEN, **env}, tmp_path)
    assert code == 1
    assert output.strip().count("\n") == 0, output
    assert output.startswith(f"{named}: ") and accepts in output, output
    assert_no_token(output)


def test_a_bad_setting_in_env_file_is_named_without_the_token(tmp_path: Path) -> None:
    (tmp_path / ".env").write_text(f"DISCORD_TOKEN={TOKEN}\nSHARD_IDS=0\n")
    code, output = run_bot_process({"SHARD_COUNT": ""}, tmp_path)
    assert code == 1 and output.startswith("SHARD_IDS: needs SHARD_COUNT"), output
    assert_no_token(output)


def test_a_sqlite_file_in_a_folder_that_cannot_be_made_is_named_as_the_database(
    tmp_path: Path,
) -> None:
    (tmp_path / "plain-file").write_text("not a folder")
    where = tmp_path / "plain-file" / "data" / "ohhell.sqlite3"
    code, output = run_bot_process({"DISCORD_TOKEN": TOKEN, "DATABASE_PATH": str(where)}, tmp_path)
    assert code == 1
    assert output.startswith(f"Could not open the database sqlite:///{where} "), output
    assert "DATABASE_PATH" in output and "Discord" not in output, output
    assert "Traceback" not in output, output
    assert_no_token(output)


def test_a_postgresql_that_refuses_the_connection_is_named_without_its_password(
    tmp_path: Path,
) -> None:
    url = "postgresql://ann:Hunter2Password@127.0.0.1:1/ohhell"  # nothing listens on port 1
    code, output = run_bot_process({"DISCORD_TOKEN": TOKEN, "DATABASE_URL": url}, tmp_path)
    assert code == 1
    assert output.startswith("Could not open the database postgresql://ann:***@127.0.0.1:1/"), (
        output
    )
    assert "PostgreSQL server is running" in output and "Discord" not in output, output
    assert "Hunter2Password" not in output and "Traceback" not in output, output
    assert_no_token(output)


def test_a_bot_that_cannot_reach_discord_says_so_in_one_line(tmp_path: Path) -> None:
    code, output = run_bot_process(
        {
            "DISCORD_TOKEN": TOKEN,
            "DISCORD_API_BASE": "http://127.0.0.1:9/api/v10",
            "DISCORD_GATEWAY_URL": "ws://127.0.0.1:9/",
        },
        tmp_path,
    )
    assert code == 1
    assert "Traceback" not in output
    assert "Could not reach Discord" in output and "network" in output
    assert_no_token(output)


@pytest.mark.standin(spec_path=None)
async def test_a_wrong_token_says_to_check_it_on_the_developer_portal(
    standin: StandIn, tmp_path: Path
) -> None:
    env = {
        "DISCORD_TOKEN": TOKEN,
        "DISCORD_API_BASE": standin.api_base,
        "DISCORD_GATEWAY_URL": standin.gateway_url,
    }
    code, output = await asyncio.to_thread(run_bot_process, env, tmp_path)
    assert code == 1
    assert "Traceback" not in output
    assert "refused the token" in output and "developer portal" in output
    # Nothing about voice, which this bot does not use (discord.py warns of its libraries).
    assert "voice" not in output and "PyNaCl" not in output, output
    assert_no_token(output)


def test_a_metrics_port_in_use_is_one_line_naming_the_setting(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        code, output = run_bot_process(
            {"DISCORD_TOKEN": TOKEN, "METRICS_PORT": str(port)}, tmp_path
        )
    assert code == 1
    assert output == (
        f"METRICS_PORT: 127.0.0.1:{port} is in use by another program (another bot process?):"
        " stop it, or set another port\n"
    ), output
    assert_no_token(output)


@pytest.mark.parametrize("host", ["no-such-host.invalid", "999.1.1.1", "192.0.2.1"])
def test_a_metrics_host_it_cannot_listen_on_is_one_line_naming_the_setting(
    tmp_path: Path, host: str
) -> None:
    env = {"DISCORD_TOKEN": TOKEN, "METRICS_PORT": "0", "METRICS_HOST": host}
    code, output = run_bot_process(env, tmp_path)
    assert code == 1
    assert output.startswith(f"METRICS_HOST: cannot listen on {host}:0 ("), output
    assert output.count("\n") == 1 and "Traceback" not in output, output
    assert_no_token(output)
