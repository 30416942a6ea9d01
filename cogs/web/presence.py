"""Who is at the table's page: each person's open seat streams, by table. The Discord layer asks
it whether a person is at the page (their hand DM need not follow every card while they are)
and is told when the last of their pages closes (their DM catches up)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable


class Presence:
    def __init__(self) -> None:
        self._open: Counter[tuple[int, int]] = Counter()
        self.on_left: list[Callable[[int, int], None]] = []
        """Told (table, person) when a person's last page of a table closes."""

    def arrive(self, table_id: int, user_id: int) -> None:
        """A page of `user_id`'s seat at `table_id` opened its stream."""
        self._open[(table_id, user_id)] += 1

    def leave(self, table_id: int, user_id: int) -> None:
        """One of those pages closed its stream."""
        key = (table_id, user_id)
        if self._open[key] <= 1:
            del self._open[key]
            for told in self.on_left:
                told(table_id, user_id)
        else:
            self._open[key] -= 1

    def at_page(self, table_id: int, user_id: int) -> bool:
        return self._open.get((table_id, user_id), 0) > 0

    def tables(self) -> set[int]:
        return {table_id for table_id, _ in self._open}
