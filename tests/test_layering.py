"""The floors, read off the source: every import points down, the product imports none of the
tools beside it, and no two modules import each other in a circle when they run
(docs/architecture.md)."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PRODUCT = ("bot", "cogs")
TOOLS = ("standin", "tools")
PROJECT = (*PRODUCT, *TOOLS)


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def project_modules() -> dict[str, Path]:
    found: dict[str, Path] = {}
    for top in PROJECT:
        for path in sorted((ROOT / top).rglob("*.py")):
            found[module_name(path)] = path
    return found


MODULES = project_modules()


def imports_of(name: str, path: Path, *, typing: bool = True) -> Iterator[tuple[str, int]]:
    """The project modules `name` imports (at any depth of the file; under `if TYPE_CHECKING:`
    too unless `typing` is false), with the line of each import."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    tree = ast.parse(path.read_text(), str(path))
    typing_only = set() if typing else _under_type_checking(tree)
    for node in ast.walk(tree):
        if id(node) in typing_only:
            continue
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield from _known(alias.name, node.lineno)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - (node.level - 1)]
                base = ".".join([*anchor, base] if base else anchor)
            for alias in node.names:
                if f"{base}.{alias.name}" in MODULES:
                    yield f"{base}.{alias.name}", node.lineno
                else:
                    yield from _known(base, node.lineno)


def _under_type_checking(tree: ast.AST) -> set[int]:
    """The ids of the nodes only the type checker runs: the bodies of `if TYPE_CHECKING:`."""
    found: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and (
            (isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING")
            or (isinstance(node.test, ast.Attribute) and node.test.attr == "TYPE_CHECKING")
        ):
            found.update(id(inner) for statement in node.body for inner in ast.walk(statement))
    return found


def _known(dotted: str, line: int) -> Iterator[tuple[str, int]]:
    """The deepest project module a dotted import names (``bot.engine.Game`` -> bot.engine)."""
    parts = dotted.split(".")
    while parts:
        candidate = ".".join(parts)
        if candidate in MODULES:
            yield candidate, line
            return
        parts.pop()


def third_party_of(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            names.add(node.module.split(".")[0])
    return names


def floor(module: str) -> str:
    """engine, ai, storage, service, app (the composition root and its settings), cogs, tool."""
    parts = module.split(".")
    if parts[0] in TOOLS:
        return "tool"
    if parts[0] == "cogs":
        return "cogs"
    if len(parts) > 1 and parts[1] in ("engine", "ai", "storage", "service"):
        return parts[1]
    return "app"


# What each floor may import of the project (besides itself).
ALLOWED: dict[str, set[str]] = {
    "engine": set(),
    "ai": {"engine"},
    "storage": {"engine"},
    "service": {"engine", "storage", "app"},
    "cogs": {"engine", "service", "app"},
    "app": {"engine", "ai", "storage", "service", "cogs"},
    "tool": {"engine", "ai", "storage", "service", "cogs", "app"},
}
# The config, the clock and the metrics are leaves every floor above the engine may read; the
# composition root (bot.app, bot.__main__, and bot.monitor, which serves the metrics) is
# imported by nobody else in the product.
LEAVES = {"bot.config", "bot.clock", "bot.metrics"}
ROOTS = {"bot.app", "bot.__main__", "bot.monitor"}


def edges(*, typing: bool = True) -> Iterator[tuple[str, str, int]]:
    """Every import between project modules; without `typing`, only those that run."""
    for name, path in MODULES.items():
        for target, line in imports_of(name, path, typing=typing):
            if target != name:
                yield name, target, line


def layering_problems(found: list[tuple[str, str, int]]) -> list[str]:
    problems = []
    for source, target, line in found:
        src, dst = floor(source), floor(target)
        where = f"{MODULES[source].relative_to(ROOT)}:{line}: {source} imports {target}"
        if source.split(".")[0] in PRODUCT and target.split(".")[0] in TOOLS:
            problems.append(f"{where} (the product imports a tool)")
        elif target in ROOTS and source not in ROOTS and source.split(".")[0] in PRODUCT:
            problems.append(f"{where} (only the composition root may import the wiring)")
        elif (
            src != dst
            and dst not in ALLOWED[src]
            and not (target in LEAVES and src not in ("engine", "ai"))
        ):
            problems.append(f"{where} (an import that points up or sideways: {src} -> {dst})")
    return problems


def cycles(found: list[tuple[str, str, int]]) -> list[list[str]]:
    """Every strongly connected group of more than one module (Tarjan)."""
    graph: dict[str, set[str]] = {name: set() for name in MODULES}
    for source, target, _ in found:
        graph[source].add(target)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph[node]):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                group.append(top)
                if top == node:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for name in sorted(graph):
        if name not in index:
            visit(name)
    return groups


def test_every_import_points_down() -> None:
    assert layering_problems(list(edges())) == []


def test_no_import_cycles() -> None:
    """An import only the type checker reads (`if TYPE_CHECKING:`) still has to point down,
    but may close a circle: a handler typed with the client that builds it
    (cogs/interaction.py)."""
    assert cycles(list(edges(typing=False))) == []


def test_only_the_type_checker_may_close_a_circle(tmp_path: Path) -> None:
    source = tmp_path / "handler.py"
    source.write_text(
        "from typing import TYPE_CHECKING\n"
        "import cogs.errors\n"
        "if TYPE_CHECKING:\n"
        "    from cogs.client import OhHellBot\n"
    )
    assert [target for target, _ in imports_of("cogs.handler", source)] == [
        "cogs.errors",
        "cogs.client",
    ]
    assert [target for target, _ in imports_of("cogs.handler", source, typing=False)] == [
        "cogs.errors"
    ]


@pytest.mark.parametrize(
    ("floor_name", "forbidden"),
    [
        ("engine", {"discord", "aiosqlite", "asyncpg", "sqlite3", "asyncio", "aiohttp"}),
        ("ai", {"discord", "aiosqlite", "asyncpg", "sqlite3", "aiohttp"}),
        ("storage", {"discord"}),
        ("service", {"discord", "aiohttp"}),
    ],
)
def test_floors_import_no_discord_or_io_they_should_not(
    floor_name: str, forbidden: set[str]
) -> None:
    found = {
        name: sorted(third_party_of(path) & forbidden)
        for name, path in MODULES.items()
        if floor(name) == floor_name
    }
    assert {name: hits for name, hits in found.items() if hits} == {}


def test_the_product_does_not_import_dev_only_packages() -> None:
    dev_only = {"jsonschema", "pytest", "hypothesis", "pyspiel", "open_spiel"}
    found = {
        name: sorted(third_party_of(path) & dev_only)
        for name, path in MODULES.items()
        if name.split(".")[0] in PRODUCT
    }
    assert {name: hits for name, hits in found.items() if hits} == {}


# The checks themselves must be able to fail: each bad import below is caught.
def test_an_upward_import_is_caught() -> None:
    assert layering_problems([("bot.engine.cards", "bot.service", 1)])
    assert layering_problems([("bot.service", "cogs", 1)])
    assert layering_problems([("bot.storage", "bot.service", 1)])
    assert layering_problems([("cogs", "standin", 1)])
    assert layering_problems([("bot.ai", "bot.storage", 1)])
    assert layering_problems([("cogs", "bot.app", 1)])
    assert not layering_problems([("cogs", "bot.service", 1)])


def test_a_cycle_is_caught() -> None:
    assert cycles([("bot.config", "bot.clock", 1), ("bot.clock", "bot.config", 1)]) == [
        ["bot.clock", "bot.config"]
    ]


# cogs/web/ writes pages for browsers: from the service's views and the catalogs (cogs/render),
# never from Discord's objects, so the same page can be attached to a message or served; and
# the settings (where the pages are served).
WEB_MAY_IMPORT = ("bot.config", "bot.engine", "bot.service", "cogs.render", "cogs.web")


def web_problems(found: list[tuple[str, str]], third_party: dict[str, set[str]]) -> list[str]:
    """The imports a module of cogs/web/ may not make: discord, or a project module outside
    `WEB_MAY_IMPORT` (`found`: the (module, import) pairs; `third_party`: by module)."""
    problems = [
        f"{name} imports {target}"
        for name, target in found
        if not any(target == a or target.startswith(a + ".") for a in WEB_MAY_IMPORT)
    ]
    problems += [
        f"{name} imports discord" for name, hits in third_party.items() if "discord" in hits
    ]
    return problems


def test_the_web_room_renders_from_the_service_and_the_catalogs_only() -> None:
    web = {name: path for name, path in MODULES.items() if name.startswith("cogs.web")}
    assert "cogs.web.replay" in web
    found = [(name, target) for name, path in web.items() for target, _ in imports_of(name, path)]
    third_party = {name: third_party_of(path) for name, path in web.items()}
    assert web_problems(found, third_party) == []
    # The check itself can fail.
    assert web_problems([("cogs.web.replay", "cogs.client")], {}) == [
        "cogs.web.replay imports cogs.client"
    ]
    assert web_problems([], {"cogs.web.replay": {"discord"}}) == ["cogs.web.replay imports discord"]
