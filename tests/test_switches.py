"""Experiments do not stay in the product: no module-level on/off switch in bot/ or cogs/, read
off the source. A switch is a module-level name bound to a literal that decides which code runs
(bound to True, False or None, or tested as a condition: ``if NAME``, ``not NAME``, ``NAME and
...``, ``NAME == "greedy"``), a module-level object that functions change (a global counter),
or a module constant that code sets from outside (``module.NAME = ...``, ``setattr(module,
...)``). Tuned values are named constants read in arithmetic or compared with variables, or a
frozen parameters object passed in (``bot.ai.params``)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PRODUCT = ("bot", "cogs")
TOOLS = ("tools",)


def _literal(node: ast.expr) -> bool:
    if isinstance(node, ast.UnaryOp):
        node = node.operand
    return isinstance(node, ast.Constant)


def _targets(node: ast.AST) -> list[ast.expr]:
    """What an assignment statement binds (nothing for other nodes)."""
    if isinstance(node, ast.Assign):
        return node.targets
    if isinstance(node, ast.AugAssign | ast.AnnAssign):
        return [node.target]
    return []


def _owner(target: ast.expr) -> str | None:
    """``NAME`` for a target ``NAME.attr``, else None."""
    if isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name):
        return target.value.id
    return None


def _module_names(tree: ast.Module) -> tuple[dict[str, ast.expr], set[str]]:
    """The module-level names bound to a literal (with the literal), and those bound to a
    call (an object)."""
    literals: dict[str, ast.expr] = {}
    objects: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.Assign):
            targets, value = node.targets, node.value
        elif isinstance(node, ast.AnnAssign) and node.value is not None:
            targets, value = [node.target], node.value
        else:
            continue
        for target in targets:
            if isinstance(target, ast.Name):
                if _literal(value):
                    literals[target.id] = value
                elif isinstance(value, ast.Call):
                    objects.add(target.id)
    return literals, objects


def _tested(expr: ast.expr) -> list[ast.expr]:
    """``expr``, tested for truth, and the operands of and / or within it (all tested)."""
    if isinstance(expr, ast.BoolOp):
        return [expr, *(t for v in expr.values for t in _tested(v))]
    return [expr]


def _conditions(tree: ast.AST) -> list[ast.expr]:
    """Every expression tested for truth: tests of if, while, assert and conditional
    expressions, comprehension filters, the operand of not, and every operand of and / or but
    the last (which is the value when the others do not decide it)."""
    found: list[ast.expr] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.If | ast.While | ast.IfExp | ast.Assert):
            found += _tested(node.test)
        elif isinstance(node, ast.comprehension):
            found += [t for f in node.ifs for t in _tested(f)]
        elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            found += _tested(node.operand)
        elif isinstance(node, ast.BoolOp):
            found += [t for v in node.values[:-1] for t in _tested(v)]
    return found


def switches(source: str) -> list[str]:
    """The switches in one module's source, one line each."""
    tree = ast.parse(source)
    literals, objects = _module_names(tree)
    out: list[str] = []
    for name, value in literals.items():
        if isinstance(value, ast.Constant) and (
            value.value is None or isinstance(value.value, bool)
        ):
            out.append(f"{name} = {value.value!r} (line {value.lineno})")
    for cond in _conditions(tree):
        if isinstance(cond, ast.Name) and cond.id in literals:
            out.append(f"{cond.id} tested as a condition (line {cond.lineno})")
    for func in ast.walk(tree):
        if not isinstance(func, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        # a local copy of the switch, tested in the function: ``rivalry = RIVALRY``
        aliases = {
            t.id: node.value.id
            for node in ast.walk(func)
            if isinstance(node, ast.Assign)
            and isinstance(node.value, ast.Name)
            and node.value.id in literals
            for t in node.targets
            if isinstance(t, ast.Name)
        }
        for cond in _conditions(func):
            if isinstance(cond, ast.Name) and cond.id in aliases:
                out.append(f"{aliases[cond.id]} tested as a condition (line {cond.lineno})")
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare):
            # decided before the program runs: every side a literal or a name bound to one
            sides = [node.left, *node.comparators]
            named = [s.id for s in sides if isinstance(s, ast.Name) and s.id in literals]
            if named and len(named) + sum(map(_literal, sides)) == len(sides):
                out.append(f"{named[0]} compared with a literal (line {node.lineno})")
        elif isinstance(node, ast.Global):
            out.append(f"global {', '.join(node.names)} (line {node.lineno})")
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            changed = [t for inner in ast.walk(node) for t in _targets(inner)]
            out += [
                f"{_owner(t)}.{t.attr} changed by a function (line {t.lineno})"
                for t in changed
                if isinstance(t, ast.Attribute) and _owner(t) in objects
            ]
    return sorted(set(out))


def settings_from_outside(source: str) -> list[str]:
    """Where a module sets another module's attribute: ``module.NAME = ...`` or
    ``setattr(module, ...)`` on an imported module (or ``importlib.import_module``'s)."""
    tree = ast.parse(source)
    modules: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            modules |= {(a.asname or a.name).split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            modules |= {a.asname or a.name for a in node.names if (a.asname or a.name).islower()}
        elif (
            isinstance(node, ast.Assign)
            and isinstance(node.value, ast.Call)
            and isinstance(node.value.func, ast.Attribute)
            and node.value.func.attr == "import_module"
        ):
            modules |= {t.id for t in node.targets if isinstance(t, ast.Name)}
    out: list[str] = []
    for node in ast.walk(tree):
        out += [
            f"{_owner(t)}.{t.attr} set (line {t.lineno})"
            for t in _targets(node)
            if isinstance(t, ast.Attribute) and _owner(t) in modules and t.attr.isupper()
        ]
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id == "setattr"
            and node.args
            and isinstance(node.args[0], ast.Name)
            and node.args[0].id in modules
        ):
            out.append(f"setattr({node.args[0].id}, ...) (line {node.lineno})")
    return out


def _files(tops: tuple[str, ...]) -> list[Path]:
    return [p for top in tops for p in sorted((ROOT / top).rglob("*.py"))]


@pytest.mark.parametrize("path", _files(PRODUCT), ids=lambda p: str(p.relative_to(ROOT)))
def test_no_switch_in_the_product(path: Path) -> None:
    assert switches(path.read_text()) == []


def test_nothing_sets_a_product_module_s_constants() -> None:
    found = {
        str(p.relative_to(ROOT)): settings_from_outside(p.read_text())
        for p in _files((*PRODUCT, *TOOLS))
    }
    assert {path: lines for path, lines in found.items() if lines} == {}


SWITCHED = """
import random
from dataclasses import dataclass

FRESH = True
BID_OTHERS_EPSILON: float | None = None
ROLLOUT = "greedy"
SHED = 1
RIVALRY = 0.0
TILT = 0.5
DEPTH = 99

@dataclass
class Measured:
    decisions: int = 0

MEASURED = Measured()
_calls = 0

def play(g, r):
    global _calls
    _calls += 1
    MEASURED.decisions += 1
    greedy = ROLLOUT == "greedy" and r > 0
    if SHED >= 0:
        return 1
    gain = 1.0
    rivalry = RIVALRY
    if rivalry:
        gain -= rivalry
    x = TILT if g else 0.0
    return [c for c in range(DEPTH) if not TILT]
"""

TUNED = """
from typing import Final

C: Final = 3.0
BATCH = 64
PRUNE_FROM = 24
SPLIT = -1
MAX_PAGE = 10_000
ALL = "all"
VALUES = (0.95, 0.85)
LEARNED_FOR = (10, 4, "tricks-plus-ten")
log = logging.getLogger(__name__)
DEFAULT = Params()

def run(n, rules, e):
    batch = BATCH
    if n >= PRUNE_FROM and n % batch == 0:
        return C * n
    if (rules.cards, rules.players, rules.scoring) == LEARNED_FOR:
        return VALUES[0]
    if e == SPLIT or not 1 <= n <= MAX_PAGE:
        log.info(f"split {rules.preset or ALL}")
    local = Params()
    local.count += 1
    return DEFAULT.c
"""


def test_the_check_finds_each_kind_of_switch() -> None:
    found = "\n".join(switches(SWITCHED))
    for switch in (
        "FRESH = True",
        "BID_OTHERS_EPSILON = None",
        "ROLLOUT compared with a literal",
        "SHED compared with a literal",
        "RIVALRY tested as a condition",
        "TILT tested as a condition",
        "MEASURED.decisions changed by a function",
        "global _calls",
    ):
        assert switch in found, switch
    assert "DEPTH" not in found  # a bound read in arithmetic, not a switch by itself


def test_tuned_values_are_not_switches() -> None:
    assert switches(TUNED) == []


def test_the_check_finds_constants_set_from_outside() -> None:
    source = """
import importlib
from bot.ai import hard, search

hard.PLAY_SEARCH = False
search.ROLLOUT = "random"
mod = importlib.import_module("bot.ai.search")
setattr(mod, "FRESH", True)
search.greedy(1)
"""
    found = "\n".join(settings_from_outside(source))
    assert "hard.PLAY_SEARCH set" in found
    assert "search.ROLLOUT set" in found
    assert "setattr(mod, ...)" in found
    assert len(settings_from_outside(source)) == 3
