"""bot.engine stays pure: no Discord, no database, no asyncio, no I/O modules."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import bot.engine

FORBIDDEN = {"discord", "aiosqlite", "asyncio", "sqlite3", "aiohttp", "socket", "subprocess"}
ENGINE = Path(bot.engine.__file__).parent


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(), filename=str(path))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module.split(".")[0])
    return found


def test_engine_imports_nothing_impure() -> None:
    files = sorted(ENGINE.rglob("*.py"))
    assert files, "no engine modules found"
    offenders = {p.name: _imports(p) & FORBIDDEN for p in files if _imports(p) & FORBIDDEN}
    assert offenders == {}


def test_the_check_catches_a_forbidden_import(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text("import asyncio\nfrom discord import Client\n")
    assert _imports(bad) & FORBIDDEN == {"asyncio", "discord"}


def test_only_replay_main_opens_files() -> None:
    for path in ENGINE.rglob("*.py"):
        text = path.read_text()
        if path.name != "replay.py":
            assert "open(" not in text, f"{path.name} opens a file"


def test_importing_the_engine_loads_no_impure_module() -> None:
    # A fresh interpreter: what importing every engine module pulls in, directly or not.
    code = (
        "import sys, bot.engine, bot.engine.records, bot.engine.replay\n"
        "print(' '.join(sorted({m.split('.')[0] for m in sys.modules})))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
        cwd=ENGINE.parents[1],
    ).stdout.split()
    assert {"bot", "pydantic"} <= set(out)
    assert set(out) & {"discord", "aiosqlite", "asyncio", "sqlite3", "aiohttp"} == set()
