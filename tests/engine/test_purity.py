"""bot.engine stays pure: no Discord, no database, no asyncio, no I/O modules."""

from __future__ import annotations

import ast
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
