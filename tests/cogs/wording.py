"""What the render code does with its messages, read from its syntax (cogs/render): which
message each `.format` fills and with what, and which expressions are translated text.

A message is a literal marked where it is used (`_("…")`, `ngettext("…", "…", n)`,
`pgettext(context, "…")`), or a local name bound to one in the same function. Translated text
is a message, a message formatted, a local name bound to translated text, a join of translated
parts, or a call of a render function that returns translated text.

Glue is `+` or an f-string between two translated texts. A join with a separator is not: it
lists items of one kind (stats, seats' names, sentences of a paragraph) and each is whole."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

RENDER = Path(__file__).resolve().parents[2] / "cogs" / "render"
SINGULAR = {"_": 0, "pgettext": 1}
"""The marks of a message with one form, and where its msgid is among their arguments."""
PLURAL = {"ngettext": 0, "npgettext": 1}
"""The marks of a message whose form its count chooses."""
NUMBERS = frozenset({"number", "signed", "_number"})
"""The render's functions that write a number."""
NAMES = frozenset({"name_text", "player_name", "_mention"})
"""The render's functions that write a person's or a seat's name: a name beside a sentence is
no second sentence, even a computer's name in the language spoken."""


@dataclass(frozen=True)
class Message:
    msgid: str
    plural: bool


@dataclass(frozen=True)
class Filled:
    """A message filled by `.format` somewhere: the placeholders given a number."""

    message: Message
    numbers: frozenset[str]
    where: str


@dataclass(frozen=True)
class Glued:
    """Translated texts joined for display by `+` or an f-string, with what lies between."""

    where: str
    between: tuple[str, ...]


def _name(node: ast.expr) -> str | None:
    return node.id if isinstance(node, ast.Name) else None


def _marked(node: ast.expr) -> Message | None:
    if not isinstance(node, ast.Call) or (name := _name(node.func)) is None:
        return None
    place = SINGULAR.get(name, PLURAL.get(name))
    if place is None or len(node.args) <= place:
        return None
    msgid = node.args[place]
    if not isinstance(msgid, ast.Constant) or not isinstance(msgid.value, str):
        return None
    return Message(msgid.value, name in PLURAL)


class Scope:
    """One function's local names: the messages and the translated text each is bound to."""

    def __init__(self, function: ast.AST, translating: set[str]) -> None:
        self.translating = translating
        self.bound: dict[str, list[ast.expr]] = {}
        self.lines: dict[str, list[tuple[int, ast.expr]]] = {}
        """Each name's plain assignments (not `+=`), by line."""
        for node in ast.walk(function):
            if isinstance(node, ast.Assign):
                targets, value = node.targets, node.value
            elif isinstance(node, ast.AnnAssign | ast.AugAssign) and node.value is not None:
                targets, value = [node.target], node.value
            else:
                continue
            for name in filter(None, map(_name, targets)):
                self.bound.setdefault(name, []).append(value)
                if not isinstance(node, ast.AugAssign):
                    self.lines.setdefault(name, []).append((node.lineno, value))

    def messages(self, node: ast.expr, seen: frozenset[str] = frozenset()) -> list[Message]:
        """The messages `node` may be, unformatted."""
        marked = _marked(node)
        if marked is not None:
            return [marked]
        if isinstance(node, ast.IfExp):
            return self.messages(node.body, seen) + self.messages(node.orelse, seen)
        name = _name(node)
        if name is not None and name not in seen:
            bound = self.bound.get(name, [])
            return [m for value in bound for m in self.messages(value, seen | {name})]
        return []

    def translated(self, node: ast.expr, seen: frozenset[str] = frozenset()) -> bool:
        """Whether `node` is translated text."""
        if self.messages(node, seen):
            return True
        if isinstance(node, ast.Call):
            func = node.func
            if isinstance(func, ast.Attribute) and func.attr == "format":
                return self.translated(func.value, seen)
            if isinstance(func, ast.Attribute) and func.attr == "join" and node.args:
                return any(self.translated(part, seen) for part in _parts(node.args[0]))
            return _name(func) in self.translating and _name(func) not in NAMES
        if isinstance(node, ast.IfExp):
            return self.translated(node.body, seen) or self.translated(node.orelse, seen)
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
            return self.translated(node.left, seen) or self.translated(node.right, seen)
        if isinstance(node, ast.JoinedStr):
            return any(
                self.translated(v.value, seen)
                for v in node.values
                if isinstance(v, ast.FormattedValue)
            )
        name = _name(node)
        if name is not None and name not in seen:
            return any(self.translated(v, seen | {name}) for v in self.bound.get(name, []))
        return False


def _parts(node: ast.expr) -> list[ast.expr]:
    """What a join joins: a list's, a tuple's or a comprehension's elements."""
    if isinstance(node, ast.List | ast.Tuple):
        return list(node.elts)
    if isinstance(node, ast.GeneratorExp | ast.ListComp):
        return [node.elt]
    return [node]


def modules() -> dict[str, ast.Module]:
    return {path.name: ast.parse(path.read_text()) for path in sorted(RENDER.glob("*.py"))}


def functions(tree: ast.Module) -> Iterator[ast.AST]:
    """Each function of a module, and the rest of the module (its top-level dicts of
    lambdas)."""
    defined = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
    yield ast.Module(body=[s for s in tree.body if not isinstance(s, defined)], type_ignores=[])
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            yield node


def translating_functions(trees: dict[str, ast.Module]) -> set[str]:
    """The render's functions that return translated text (by name), found to a fixed point."""
    found: set[str] = set()
    while True:
        more = {
            function.name
            for tree in trees.values()
            for function in ast.walk(tree)
            if isinstance(function, ast.FunctionDef)
            and any(
                isinstance(r, ast.Return)
                and r.value is not None
                and Scope(function, found).translated(r.value)
                for r in ast.walk(function)
            )
        }
        if more <= found:
            return found
        found |= more


def _latest(call: ast.Call, scope: Scope, function: ast.AST) -> list[ast.expr]:
    """What a `name.format(…)` call fills: the values bound to `name` since the last
    `name.format` before it (a function may bind one name anew for each message it
    formats); any other receiver as it is."""
    assert isinstance(call.func, ast.Attribute)
    receiver = call.func.value
    name = _name(receiver)
    if name is None:
        return [receiver]
    since = max(
        (
            node.lineno
            for node in ast.walk(function)
            if isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "format"
            and _name(node.func.value) == name
            and node.lineno < call.lineno
        ),
        default=0,
    )
    bound = [value for line, value in scope.lines.get(name, []) if since < line <= call.lineno]
    return bound or [receiver]


def _is_number(node: ast.expr, scope: Scope, seen: frozenset[str] = frozenset()) -> bool:
    """Whether `node` is a number as the render writes it (or may be one)."""
    if isinstance(node, ast.IfExp):
        return _is_number(node.body, scope, seen) or _is_number(node.orelse, scope, seen)
    name = _name(node)
    if name is not None and name not in seen:
        return any(_is_number(v, scope, seen | {name}) for v in scope.bound.get(name, []))
    return isinstance(node, ast.Call) and _name(node.func) in NUMBERS


def _given(call: ast.Call, scope: Scope) -> dict[str, ast.expr]:
    """The placeholders a `.format` call fills: its keywords, and the dicts it unpacks (a
    dict written there, or a local name bound to one)."""
    given: dict[str, ast.expr] = {}
    unpacked: list[ast.expr] = []
    for keyword in call.keywords:
        if keyword.arg is not None:
            given[keyword.arg] = keyword.value
        else:
            unpacked.append(keyword.value)
    seen: set[str] = set()
    while unpacked:
        value = unpacked.pop()
        name = _name(value)
        if name is not None and name not in seen:
            seen.add(name)
            unpacked += scope.bound.get(name, [])
        elif isinstance(value, ast.Dict):
            for key, item in zip(value.keys, value.values, strict=True):
                if key is None:
                    unpacked.append(item)
                elif isinstance(key, ast.Constant) and isinstance(key.value, str):
                    given[key.value] = item
    return given


def filled(trees: dict[str, ast.Module] | None = None) -> list[Filled]:
    """Every message the render fills with `.format`, and which of its placeholders get a
    number."""
    trees = modules() if trees is None else trees
    translating = translating_functions(trees)
    found: list[Filled] = []
    for file, tree in trees.items():
        for function in functions(tree):
            scope = Scope(function, translating)
            for node in ast.walk(function):
                if not (
                    isinstance(node, ast.Call)
                    and isinstance(node.func, ast.Attribute)
                    and node.func.attr == "format"
                ):
                    continue
                numbers = frozenset(
                    name for name, value in _given(node, scope).items() if _is_number(value, scope)
                )
                for receiver in _latest(node, scope, function):
                    for message in scope.messages(receiver):
                        found.append(Filled(message, numbers, f"{file}:{node.lineno}"))
    return found


def _glue(pieces: list[tuple[bool, str]]) -> tuple[str, ...] | None:
    """What lies between the translated pieces, when two or more are not on lines of their
    own (a piece is translated or not, with its literal text)."""
    between: list[str] = []
    current: str | None = None
    glued = False
    for translated, text in pieces:
        if translated:
            if current is not None:
                between.append(current)
                glued = glued or "\n" not in current
            current = ""
        elif current is not None:
            current += text
    return tuple(between) if glued else None


def glued(trees: dict[str, ast.Module] | None = None) -> list[Glued]:
    """Every place the render joins two translated texts with `+` (or `+=`) or in an
    f-string, other than one a line."""
    trees = modules() if trees is None else trees
    translating = translating_functions(trees)
    found: dict[str, Glued] = {}
    for file, tree in trees.items():
        for function in functions(tree):
            scope = Scope(function, translating)
            for node in ast.walk(function):
                if isinstance(node, ast.BinOp | ast.JoinedStr):
                    pieces = _pieces(node, scope)
                elif isinstance(node, ast.AugAssign) and isinstance(node.op, ast.Add):
                    pieces = _pieces(node.target, scope) + _pieces(node.value, scope)
                else:
                    continue
                between = _glue(pieces)
                where = f"{file}:{node.lineno}"
                if between is not None and where not in found:
                    found[where] = Glued(where, between)
    return list(found.values())


def _pieces(node: ast.expr, scope: Scope) -> list[tuple[bool, str]]:
    """The parts a text is joined from, each translated or not, with its literal text."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [(False, node.value)]
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return _pieces(node.left, scope) + _pieces(node.right, scope)
    if isinstance(node, ast.JoinedStr):
        return [
            piece
            for value in node.values
            for piece in _pieces(
                value.value if isinstance(value, ast.FormattedValue) else value, scope
            )
        ]
    return [(scope.translated(node), "…")]
