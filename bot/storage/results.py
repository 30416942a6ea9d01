"""Finished games' results and the leaderboard read from them."""

from __future__ import annotations

from typing import Any

from bot.storage.base import Store
from bot.storage.rows import Leaderboard, LeaderboardRow


class Results(Store):
    async def leaderboard(
        self,
        guild_id: int,
        *,
        preset: str | None = None,
        caller_id: int | None = None,
        limit: int = 10,
    ) -> Leaderboard:
        """Players ranked by wins, then win rate, then average place (games left early count
        as played and not won)."""
        query = (
            "SELECT user_id, COUNT(*) AS games, SUM(place = 1 AND NOT left_early) AS wins,"
            " AVG(place) AS average_place, SUM(bids_made) AS bids_made,"
            " SUM(hands_played) AS hands FROM results WHERE guild_id = ?"
        )
        parameters: list[Any] = [guild_id]
        if preset is not None:
            query += " AND preset = ?"
            parameters.append(preset)
        query += " GROUP BY user_id"
        async with self._db.execute(query, parameters) as cursor:
            raw = [tuple(row) async for row in cursor]
        rows = sorted(
            raw,
            key=lambda r: (-r[2], -(r[2] / r[1]), r[3], r[0]),
        )
        ranked = [
            LeaderboardRow(
                rank=position,
                user_id=r[0],
                games=r[1],
                wins=r[2],
                win_rate=r[2] / r[1],
                average_place=float(r[3]),
                exact_bid_rate=(r[4] / r[5]) if r[5] else 0.0,
            )
            for position, r in enumerate(rows, start=1)
        ]
        top = ranked[:limit]
        caller = next((row for row in ranked[limit:] if row.user_id == caller_id), None)
        return Leaderboard(top=top, caller=caller)

    async def last_game_of(self, guild_id: int, user_id: int) -> int | None:
        """The table id of the last game ``user_id`` finished (or left) in this server."""
        async with self._db.execute(
            "SELECT table_id FROM results WHERE guild_id = ? AND user_id = ?"
            " ORDER BY finished_at DESC, table_id DESC LIMIT 1",
            (guild_id, user_id),
        ) as cursor:
            row = await cursor.fetchone()
        return None if row is None else int(row[0])
