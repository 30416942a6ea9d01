"""Finished games looked up again: a server's recent games, one game's stored row, and a
player's results summed up for their stats. Read-only; no schema of its own. `results` has a
row for every seat, computer players' too (negative ids): a person's queries name their id."""

from __future__ import annotations

from dataclasses import dataclass

from bot.storage.ratings import COMPUTER_IDS
from bot.storage.rows import (
    TABLE_COLUMNS,
    TableRow,
    TableStatus,
    possible_table_id,
    row_to_table,
)
from bot.storage.store import Repository


@dataclass(frozen=True)
class FinishedGame:
    """A finished table as stored: its facts and its document's JSON text (left unparsed:
    the service reads it outside the event loop)."""

    table_id: int
    channel_id: int
    preset: str
    finished_at: float
    document: str


@dataclass(frozen=True)
class ResultGroup:
    """A player's results with one preset and one place, summed."""

    preset: str
    place: int
    games: int
    stayed: int
    """Games at this place played to the end (not left early; at place 1: wins)."""
    points: int
    bids_made: int
    hands_played: int


@dataclass(frozen=True)
class PlayerGame:
    """One of a player's finished games, for the per-hand detail of their stats."""

    table_id: int
    place: int
    left_early: bool
    seats: str
    """The document's seats, as JSON text."""
    game: str | None
    """The engine's game JSON."""


_FINISHED = TableStatus.FINISHED.value


class History(Repository):
    async def finished_games(
        self, guild_id: int, *, offset: int = 0, limit: int = 10
    ) -> list[FinishedGame]:
        """A server's finished games, newest first (the primary key walked backwards: a page
        reads only its own rows and the ones before it)."""
        rows = await self._db.fetchall(
            "SELECT id, channel_id, preset, updated_at, document FROM tables"
            " WHERE guild_id = ? AND status = ? ORDER BY id DESC LIMIT ? OFFSET ?",
            (guild_id, _FINISHED, limit, offset),
        )
        return [FinishedGame(r[0], r[1], r[2], r[3], r[4]) for r in rows]

    async def last_finished_game(self, guild_id: int, channel_id: int | None = None) -> int | None:
        """The newest finished game in a channel (or, without one, in the server)."""
        query = "SELECT id FROM tables WHERE guild_id = ? AND status = ?"
        parameters: list[object] = [guild_id, _FINISHED]
        if channel_id is not None:
            query += " AND channel_id = ?"
            parameters.append(channel_id)
        row = await self._db.fetchone(query + " ORDER BY id DESC LIMIT 1", parameters)
        return None if row is None else int(row[0])

    async def finished_game(self, guild_id: int, table_id: int) -> TableRow | None:
        """A finished game of this server, or None (another server's game, an open or a
        cancelled table, no such table, an id no table can have: all the same to the caller)."""
        if not possible_table_id(table_id):
            return None
        row = await self._db.fetchone(
            f"SELECT {TABLE_COLUMNS} FROM tables WHERE id = ? AND guild_id = ? AND status = ?",
            (table_id, guild_id, _FINISHED),
        )
        return None if row is None else row_to_table(row)

    async def player_results(self, guild_id: int, user_id: int) -> list[ResultGroup]:
        """A player's results on a server, summed by preset and place (a few rows, however
        many games)."""
        # `unindexed`: grouping by the bare column let SQLite pick results_by_guild (guild,
        # preset) to save a sort, scanning the whole server (33 ms with 100,000 results);
        # this way it reads only the player's rows through results_by_player (under 1 ms).
        preset = self._db.dialect.unindexed("preset")
        rows = await self._db.fetchall(
            "SELECT preset, place, COUNT(*), SUM(1 - left_early), SUM(points), SUM(bids_made),"
            " SUM(hands_played) FROM results WHERE guild_id = ? AND user_id = ?"
            f" GROUP BY {preset}, place",
            (guild_id, user_id),
        )
        return [ResultGroup(*row) for row in rows]

    async def best_game(self, guild_id: int, user_id: int) -> tuple[int, int] | None:
        """(game, points) of a player's highest-scoring game (of equals, the first in the
        server's rating order)."""
        row = await self._db.fetchone(
            "SELECT table_id, points FROM results WHERE guild_id = ? AND user_id = ?"
            " ORDER BY points DESC, rating_order LIMIT 1",
            (guild_id, user_id),
        )
        return None if row is None else (int(row[0]), int(row[1]))

    async def computer_tables(self, guild_id: int, user_id: int) -> list[tuple[str, int, int]]:
        """(level, games, wins) of a player's games at tables with a computer player of each
        level, every stored game (results before schema 3 have no computer seats). A game
        counts once per level however many seats it had; a win is first place, stayed."""
        # One probe of the table's seats per game (the primary key), DISTINCT so that two
        # seats of one level count once.
        rows = await self._db.fetchall(
            "SELECT level, COUNT(*), SUM(won) FROM (SELECT DISTINCT c.user_id AS level,"
            " r.table_id, CASE WHEN r.place = 1 AND r.left_early = 0 THEN 1 ELSE 0 END AS won"
            " FROM results AS r"
            " JOIN results AS c ON c.table_id = r.table_id"
            " WHERE r.guild_id = ? AND r.user_id = ? AND c.user_id < 0) GROUP BY level",
            (guild_id, user_id),
        )
        found = {int(r[0]): (int(r[1]), int(r[2])) for r in rows}
        return sorted(
            (level, *found[identity])
            for level, identity in COMPUTER_IDS.items()
            if identity in found
        )

    async def player_games(self, guild_id: int, user_id: int, *, limit: int) -> list[PlayerGame]:
        """A player's newest finished games (the last in the server's rating order) with
        their seats and game JSON (only those two parts of each document are handed out)."""
        # The newest games are picked first, then only their documents are read (SQLite
        # works out a result's columns before it sorts).
        seats = self._db.dialect.json_text("t.document", "seats")
        game = self._db.dialect.json_text("t.document", "game")
        rows = await self._db.fetchall(
            f"SELECT r.table_id, r.place, r.left_early, {seats}, {game}"
            " FROM (SELECT table_id, place, left_early, rating_order FROM results"
            " WHERE guild_id = ? AND user_id = ? ORDER BY rating_order DESC LIMIT ?)"
            " AS r JOIN tables AS t ON t.id = r.table_id ORDER BY r.rating_order DESC",
            (guild_id, user_id, limit),
        )
        return [PlayerGame(r[0], r[1], bool(r[2]), r[3], r[4]) for r in rows]

    async def newest_seats(self, guild_id: int, user_id: int) -> str | None:
        """The seats (JSON text) of a person's newest finished game on a server (where the
        pages find the name they played under), or None."""
        seats = self._db.dialect.json_text("t.document", "seats")
        row = await self._db.fetchone(
            f"SELECT {seats} FROM (SELECT table_id FROM results WHERE guild_id = ? AND"
            " user_id = ? ORDER BY rating_order DESC LIMIT 1) AS r JOIN tables AS t"
            " ON t.id = r.table_id",
            (guild_id, user_id),
        )
        return None if row is None or row[0] is None else str(row[0])
