"""No password in any message: database URLs with every kind of mistake, given to the copy
tool, the backup and `python -m bot`; everything each writes (stdout, stderr, its logs, a
traceback) is scanned for the password."""

from __future__ import annotations

import asyncio
import logging
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.storage import backends
from bot.storage.backup import main as backup
from bot.storage.copy import main as copy
from bot.storage.masking import masked, secrets_of

ROOT = Path(__file__).resolve().parents[2]
PASSWORD = "Hunter2Secret"
TOKEN = "MTA5OTk5OTk5OTk5OTk5OTk5OQ.Secret.DoNotPrintThisTokenAnywhere"
WEB_SECRET = "LinkKeyNeverPrintedAnywhere-0123456789abcdef"

MALFORMED = [
    # (the URL, what `masked` shows of it)
    (
        "postgresql+asyncpg://ann:Hunter2Secret@127.0.0.1:1/ohhell",
        "postgresql+asyncpg://ann:***@127.0.0.1:1/ohhell",
    ),
    ("postgresq://ann:Hunter2Secret@127.0.0.1:1/ohhell", "postgresq://ann:***@127.0.0.1:1/ohhell"),
    ("postgres:/ann:Hunter2Secret@127.0.0.1:1/ohhell", "postgres:/ann:***@127.0.0.1:1/ohhell"),
    ("sqlite://ann:Hunter2Secret@host/ohhell", "sqlite://ann:***@host/ohhell"),
    (
        "postgresql://127.0.0.1:1/ohhell?user=ann&password=Hunter2Secret&sslmode=disable",
        "postgresql://127.0.0.1:1/ohhell?user=ann&password=***&sslmode=disable",
    ),
    (
        "postgresql://ann:Hunter@2Secret@127.0.0.1:1/ohhell",
        "postgresql://ann:***@127.0.0.1:1/ohhell",
    ),
    (
        "postgresql://ann:Hunter/2Secret@127.0.0.1:1/ohhell",
        "postgresql://ann:***@127.0.0.1:1/ohhell",
    ),
    (
        "postgresql://ann:Hunter%402Secret@127.0.0.1:1/ohhell",
        "postgresql://ann:***@127.0.0.1:1/ohhell",
    ),
    (
        "postgresql://ann:Hunter2Secret@127.0.0.1:port/ohhell",
        "postgresql://ann:***@127.0.0.1:port/ohhell",
    ),
    ("postgresql://ann:Hunter2Secret@[::1/ohhell", "postgresql://ann:***@[::1/ohhell"),
    ("ann:Hunter2Secret@127.0.0.1/ohhell", "ann:***@127.0.0.1/ohhell"),
    (
        "postgresql://ann:Hunter2Secret@127.0.0.1:1/ohhell",
        "postgresql://ann:***@127.0.0.1:1/ohhell",
    ),
]
URLS = [url for url, _ in MALFORMED]


def assert_no_secret(output: str) -> None:
    """Neither the password nor any piece of it a parser splitting at `@` or `/` may quote."""
    pieces = ("Hunter2Secret", "Hunter", "2Secret", "Hunter@2Secret", TOKEN, "DoNotPrint")
    for piece in (*pieces, WEB_SECRET, "NeverPrinted"):
        assert piece not in output, output


@pytest.mark.parametrize(("url", "shown"), MALFORMED)
def test_masked_hides_the_password_of_any_url(url: str, shown: str) -> None:
    assert masked(url) == shown
    assert_no_secret(masked(url))
    assert secrets_of(url)


def test_a_url_without_a_password_is_shown_as_it_is() -> None:
    for url in ("sqlite:///data/a@b.sqlite3", "postgresql://ann@db/x", "data/ohhell.sqlite3"):
        assert masked(url) == url and secrets_of(url) == []


@pytest.mark.parametrize("url", URLS)
async def test_the_copy_and_the_backup_name_no_password_whatever_the_url(
    url: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.DEBUG)
    sqlite = f"sqlite:///{tmp_path / 'ohhell.sqlite3'}"
    runs = [
        (copy, [url, sqlite]),
        (copy, [sqlite, url, "--replace"]),
        (backup, [str(tmp_path / "backup.sqlite3"), "--database", url]),
    ]
    for command, arguments in runs:
        code = await asyncio.to_thread(command, arguments)
        out, err = capsys.readouterr()
        assert code == 1, (arguments, out, err)
        assert err.count("\n") == 1, err
        assert_no_secret(out + err + caplog.text)


async def test_a_failure_nobody_foresaw_prints_its_traceback_without_the_password(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    async def broken(url: str, **options: object) -> None:
        raise RuntimeError(f"could not open {url}")

    monkeypatch.setattr(backends, "open_backend", broken)
    monkeypatch.setattr("bot.storage.copy.open_backend", broken)
    url = "postgresql://ann:Hunter@2Secret@127.0.0.1:1/ohhell"
    assert await asyncio.to_thread(copy, [url, f"sqlite:///{tmp_path / 'x.sqlite3'}"]) == 1
    out, err = capsys.readouterr()
    assert "Traceback" in err and "RuntimeError: could not open" in err
    assert_no_secret(out + err)


def run_bot(tmp_path: Path, **settings: str) -> tuple[int, str]:
    """`python -m bot` with the token and `settings` (no other Discord or database setting of
    this environment): its exit code and everything it printed."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "DATABASE_"))}
    env.update(DISCORD_TOKEN=TOKEN, PYTHONPATH=str(ROOT), **settings)
    done = subprocess.run(
        [sys.executable, "-m", "bot"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    return done.returncode, done.stdout + done.stderr


@pytest.mark.parametrize("url", URLS)
def test_the_bot_names_no_password_whatever_the_url(url: str, tmp_path: Path) -> None:
    code, output = run_bot(
        tmp_path,
        DATABASE_URL=url,
        LOG_LEVEL="DEBUG",
        PUBLIC_URL="https://ohhell.example.org",
        WEB_SECRET=WEB_SECRET,
        WEB_PORT="0",
    )
    assert code == 1, output
    assert "\nCould not open the database " in f"\n{output}", output
    assert "Traceback" not in output, output
    assert_no_secret(output)


async def test_a_bare_at_or_slash_in_the_password_is_named_with_its_escape(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = f"sqlite:///{tmp_path / 'x.sqlite3'}"
    for mark, escape in (("@", "%40"), ("/", "%2F")):
        url = f"postgresql://ann:Hunter{mark}2Secret@127.0.0.1:1/ohhell"
        assert await asyncio.to_thread(copy, [url, target]) == 1
        err = capsys.readouterr().err
        assert err == (
            "copy: nothing was copied: postgresql://ann:***@127.0.0.1:1/ohhell: the user or"
            f" password holds a '{mark}': write it as {escape}\n"
        ), err


def test_a_web_secret_too_short_is_named_without_its_value(tmp_path: Path) -> None:
    code, output = run_bot(tmp_path, WEB_SECRET="NeverPrinted")
    assert code != 0 and "WEB_SECRET: must be at least 32 characters" in output, output
    assert_no_secret(output)
