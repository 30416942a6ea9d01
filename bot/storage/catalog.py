"""The live schema, read from the database itself: its tables, their columns and primary keys,
parents before the tables whose foreign keys point at them. What `bot.storage.copy` copies, so
that a table a later migration adds is copied too."""

from __future__ import annotations

from dataclasses import dataclass

from bot.storage.connection import Connection, quoted
from bot.storage.rows import StorageError


@dataclass(frozen=True)
class TableShape:
    name: str
    columns: tuple[str, ...]
    key: tuple[str, ...]
    """The primary key's columns, in order (empty: the table has none)."""
    counters: tuple[str, ...] = ()
    """Columns that take their values from a sequence when none is given (PostgreSQL's
    identity columns): after rows are copied in, the sequence must go on past them."""


async def read_tables(db: Connection) -> list[TableShape]:
    """Every table of the schema (not the schema's own bookkeeping), parents first."""
    if db.dialect.is_postgres:
        shapes, parents = await _postgres_tables(db)
    else:
        shapes, parents = await _sqlite_tables(db)
    return _parents_first(shapes, parents)


async def restart_counters(db: Connection, shape: TableShape) -> None:
    """Set each of the table's sequences to go on after the largest value it holds."""
    for column in shape.counters:
        await db.execute(
            f"SELECT setval(pg_get_serial_sequence(?, ?),"
            f" COALESCE((SELECT MAX({quoted(column)}) FROM {quoted(shape.name)}), 0) + 1, false)",
            (quoted(shape.name), column),
        )


async def _sqlite_tables(db: Connection) -> tuple[list[TableShape], dict[str, set[str]]]:
    names = await db.fetchall(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%'"
        " ESCAPE '\\' ORDER BY name"
    )
    shapes: list[TableShape] = []
    parents: dict[str, set[str]] = {}
    for (name,) in names:
        # (cid, name, type, notnull, default, position in the primary key or 0)
        columns = await db.fetchall(f"PRAGMA table_info({quoted(name)})")
        key = sorted((row for row in columns if row[5]), key=lambda row: row[5])
        shapes.append(
            TableShape(name, tuple(row[1] for row in columns), tuple(row[1] for row in key))
        )
        references = await db.fetchall(f"PRAGMA foreign_key_list({quoted(name)})")
        parents[name] = {row[2] for row in references}
    return shapes, parents


async def _postgres_tables(db: Connection) -> tuple[list[TableShape], dict[str, set[str]]]:
    # schema_version is the backend's bookkeeping (SQLite keeps it in PRAGMA user_version).
    columns = await db.fetchall(
        "SELECT c.relname, a.attname, COALESCE(array_position(k.conkey, a.attnum), 0),"
        " pg_get_serial_sequence(quote_ident(c.relname), a.attname) IS NOT NULL"
        " FROM pg_class c"
        " JOIN pg_namespace n ON n.oid = c.relnamespace"
        " JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped"
        " LEFT JOIN pg_constraint k ON k.conrelid = c.oid AND k.contype = 'p'"
        " WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p')"
        " AND c.relname <> 'schema_version'"
        " ORDER BY c.relname, a.attnum"
    )
    found: dict[str, list[tuple[str, int, bool]]] = {}
    for table, column, key_position, counter in columns:
        found.setdefault(table, []).append((column, key_position, counter))
    shapes = [
        TableShape(
            name,
            tuple(column for column, _, _ in described),
            tuple(c for c, _, _ in sorted((d for d in described if d[1]), key=lambda d: d[1])),
            tuple(column for column, _, counter in described if counter),
        )
        for name, described in found.items()
    ]
    references = await db.fetchall(
        "SELECT child.relname, parent.relname FROM pg_constraint f"
        " JOIN pg_class child ON child.oid = f.conrelid"
        " JOIN pg_class parent ON parent.oid = f.confrelid"
        " JOIN pg_namespace n ON n.oid = f.connamespace"
        " WHERE f.contype = 'f' AND n.nspname = current_schema()"
    )
    parents: dict[str, set[str]] = {name: set() for name in found}
    for child, parent in references:
        parents.setdefault(child, set()).add(parent)
    return shapes, parents


def _parents_first(shapes: list[TableShape], parents: dict[str, set[str]]) -> list[TableShape]:
    """`shapes` in an order where a table comes after every table its foreign keys name (by
    name where the keys leave a choice)."""
    by_name = {shape.name: shape for shape in shapes}
    waiting = {name: (parents.get(name, set()) & by_name.keys()) - {name} for name in by_name}
    ordered: list[TableShape] = []
    while waiting:
        ready = sorted(name for name, needs in waiting.items() if not needs)
        if not ready:
            raise StorageError(f"the foreign keys of {', '.join(sorted(waiting))} go in a circle")
        for name in ready:
            ordered.append(by_name[name])
            del waiting[name]
        for needs in waiting.values():
            needs.difference_update(ready)
    return ordered
