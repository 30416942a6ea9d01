"""A scan of every table and column of a database (the live schema, read from the database
itself) for text: where a person's id or name is stored, whatever the code meant to store."""

from __future__ import annotations

from collections.abc import Sequence

from bot.storage.backends import open_backend
from bot.storage.catalog import read_tables
from bot.storage.connection import Row, quoted

Place = tuple[str, str]
"""(table, column)."""


async def places_holding(url: str, needles: Sequence[str]) -> dict[Place, list[Row]]:
    """The rows of each (table, column) that hold any of `needles` in that column's text."""
    backend = await open_backend(url)
    found: dict[Place, list[Row]] = {}
    try:
        for shape in await read_tables(backend):
            columns = ", ".join(quoted(column) for column in shape.columns)
            for row in await backend.fetchall(f"SELECT {columns} FROM {quoted(shape.name)}"):
                for column, value in zip(shape.columns, row, strict=True):
                    if value is not None and any(needle in str(value) for needle in needles):
                        found.setdefault((shape.name, column), []).append(row)
    finally:
        await backend.close()
    return found


async def every_row(url: str) -> dict[str, list[tuple[object, ...]]]:
    """Every row of every table, in a stable order: to show that something changed nothing."""
    backend = await open_backend(url)
    try:
        return {
            shape.name: sorted(
                await backend.fetchall(f"SELECT * FROM {quoted(shape.name)}"), key=repr
            )
            for shape in await read_tables(backend)
        }
    finally:
        await backend.close()
