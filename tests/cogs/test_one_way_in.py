"""One way in: the Discord layer calls the service's jobs (`service.lobby.join`) and the
presenter's parts (`presenter.table_messages.schedule_edit`) by name, and neither
`TableService` nor `Presenter` repeats a part's methods or values under a second name
(docs/architecture.md)."""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

from bot.storage import Database
from tests.played import service_on

ROOT = Path(__file__).resolve().parents[2]


def _class(path: Path, name: str) -> ast.ClassDef:
    tree = ast.parse((ROOT / path).read_text())
    return next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == name)


def _rooted_at_self(node: ast.expr) -> bool:
    while isinstance(node, ast.Attribute):
        node = node.value
    return isinstance(node, ast.Name) and node.id == "self"


def forwarders(cls: ast.ClassDef) -> list[str]:
    """The methods (and properties) whose whole body hands on to another object's: one
    statement calling `self.<part>.<method>` with the method's own parameters, or returning
    `self.<part>.<value>`."""
    found = []
    for function in cls.body:
        if not isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        body = function.body
        if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
            body = body[1:]  # the docstring
        if len(body) != 1 or not isinstance(body[0], ast.Return | ast.Expr):
            continue
        value = body[0].value
        if isinstance(value, ast.Await):
            value = value.value
        params = [a.arg for a in function.args.args[1:]]
        if isinstance(value, ast.Call):
            passed = [a.id for a in value.args if isinstance(a, ast.Name)]
            if (
                isinstance(value.func, ast.Attribute)
                and isinstance(value.func.value, ast.Attribute)
                and _rooted_at_self(value.func)
                and passed == params
                and len(value.args) == len(params)
                and not value.keywords
            ):
                found.append(function.name)
        elif (
            isinstance(value, ast.Attribute)
            and isinstance(value.value, ast.Attribute)
            and _rooted_at_self(value)
        ):
            found.append(function.name)
    return found


def copied_values(cls: ast.ClassDef) -> list[str]:
    """What `__init__` keeps as another object's attribute (`self.pacer = ground.pacer`)."""
    init = next(f for f in cls.body if isinstance(f, ast.FunctionDef) and f.name == "__init__")
    return [
        target.attr
        for node in ast.walk(init)
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Attribute)
        for target in node.targets
        if isinstance(target, ast.Attribute) and _rooted_at_self(target)
    ]


def test_the_presenter_forwards_nothing_to_its_parts() -> None:
    presenter = _class(Path("cogs/presenter.py"), "Presenter")
    assert forwarders(presenter) == []
    assert copied_values(presenter) == []


def test_the_service_forwards_nothing_to_its_jobs() -> None:
    assert forwarders(_class(Path("bot/service/service.py"), "TableService")) == []


async def test_the_service_holds_its_jobs_not_their_methods(tmp_path: Path) -> None:
    database = await Database.open(f"sqlite:///{tmp_path / 'ohhell.sqlite3'}")
    try:
        service = service_on(database)
        methods = sorted(name for name, value in vars(service).items() if inspect.ismethod(value))
        assert methods == []
        assert service.lobby.join.__self__ is service.lobby  # a job, reached by name
    finally:
        await database.close()


def test_a_forwarder_is_found() -> None:
    tree = ast.parse(
        "class Facade:\n"
        "    def __init__(self, ground):\n"
        "        self.pacer = ground.pacer\n"
        "        self.parts = Parts()\n"
        "    def schedule(self, table_id):\n"
        "        '''Docstring.'''\n"
        "        self.parts.messages.schedule_edit(table_id)\n"
        "    async def idle(self):\n"
        "        await self.ground.idle()\n"
        "    @property\n"
        "    def scheduling(self):\n"
        "        return self.automatic.scheduling\n"
        "    def publish(self, outcome):\n"
        "        self.ground.remember(outcome)\n"
        "        self.parts.messages.schedule_edit(outcome.table_id)\n"
        "    def renamed(self, table_id):\n"
        "        self.parts.edit(table_id, now=True)\n"
    )
    facade = tree.body[0]
    assert isinstance(facade, ast.ClassDef)
    assert forwarders(facade) == ["schedule", "idle", "scheduling"]
    assert copied_values(facade) == ["pacer"]
