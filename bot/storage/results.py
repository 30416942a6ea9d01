"""The leaderboard, a game's rating changes, a player's rating and its history: read from the
running totals and ratings that `save_table` keeps with every stored result
(bot/storage/ratings.py)."""

from __future__ import annotations

from bot.storage.base import Store
from bot.storage.ratings import OVERALL
from bot.storage.rows import (
    BOARD_ORDERS,
    Leaderboard,
    LeaderboardRow,
    PlayerRating,
    RatingPoint,
)

_ORDER_KEYS = {
    "rating": "rating",
    "wins": "wins",
    "win_rate": "1.0 * wins / games",
    "exact_bids": "1.0 * bids_made / CASE WHEN hands > 1 THEN hands ELSE 1 END",
    "points": "1.0 * points / CASE WHEN hands > 1 THEN hands ELSE 1 END",
}
assert set(_ORDER_KEYS) == set(BOARD_ORDERS)

PAGE_SIZE = 10


class Results(Store):
    async def leaderboard(
        self,
        guild_id: int,
        *,
        by: str = "rating",
        preset: str | None = None,
        min_games: int = 1,
        page: int = 1,
        caller_id: int | None = None,
        page_size: int = PAGE_SIZE,
    ) -> Leaderboard:
        """One page of the server's players (people and computer levels) with at least
        `min_games` games, ranked by `by` (then rating, games, id), and the caller's row when
        it is not on the page. A page past the last one has no rows (`pages` says how many)."""
        key = _ORDER_KEYS[by]
        first = (page - 1) * page_size
        query = (
            "WITH ranked AS (SELECT user_id, rating, games, wins, hands, bids_made, points,"
            f" ROW_NUMBER() OVER (ORDER BY {key} DESC, rating DESC, games DESC, user_id)"
            " AS rank, COUNT(*) OVER () AS total FROM ratings"
            " WHERE guild_id = ? AND preset = ? AND games >= ?)"
            " SELECT rank, user_id, rating, games, wins, hands, bids_made, points, total"
            " FROM ranked WHERE (rank > ? AND rank <= ?) OR rank = 1 OR user_id = ?"
            " ORDER BY rank"
        )
        parameters = (
            guild_id,
            OVERALL if preset is None else preset,
            min_games,
            first,
            first + page_size,
            caller_id,
        )
        raw = await self._db.fetchall(query, parameters)
        rows = [
            LeaderboardRow(
                rank=r[0],
                user_id=r[1],
                rating=r[2],
                games=r[3],
                wins=r[4],
                win_rate=r[4] / r[3],
                exact_bid_rate=r[6] / r[5] if r[5] else 0.0,
                points_per_hand=r[7] / r[5] if r[5] else 0.0,
            )
            for r in raw
        ]
        on_page = [row for row in rows if first < row.rank <= first + page_size]
        caller = next((row for row in rows if row.user_id == caller_id), None)
        ranked = raw[0][8] if raw else 0
        caller_games = None
        if caller is None and caller_id is not None:
            caller_games = await self._games_played(guild_id, preset, caller_id)
        return Leaderboard(
            rows=on_page,
            caller=None if caller is None or caller in on_page else caller,
            by=by,
            preset=preset,
            page=page,
            pages=max(1, -(-ranked // page_size)),
            ranked=ranked,
            min_games=min_games,
            caller_games=caller_games or None,
        )

    async def _games_played(self, guild_id: int, preset: str | None, user_id: int) -> int:
        row = await self._db.fetchone(
            "SELECT games FROM ratings WHERE guild_id = ? AND preset = ? AND user_id = ?",
            (guild_id, OVERALL if preset is None else preset, user_id),
        )
        return int(row[0]) if row else 0

    async def rating_changes(
        self, table_id: int, preset: str | None = None
    ) -> dict[int, tuple[int, int]]:
        """A finished game's rating changes: identity → (rating after it, change), overall or
        in `preset`. Empty for a game nobody was rated in."""
        rows = await self._db.fetchall(
            "SELECT user_id, rating, change FROM rating_history WHERE table_id = ? AND preset = ?",
            (table_id, OVERALL if preset is None else preset),
        )
        return {int(r[0]): (int(r[1]), int(r[2])) for r in rows}

    async def rating_history(
        self, guild_id: int, user_id: int, preset: str | None = None
    ) -> list[RatingPoint]:
        """A player's shown rating after each rated game, in the server's rating order (each
        point's change is its rating less the one before), overall or in `preset` (the stats
        chart's points; the last is their rating now)."""
        rows = await self._db.fetchall(
            "SELECT table_id, rating, change FROM rating_history WHERE guild_id = ?"
            " AND user_id = ? AND preset = ? ORDER BY rating_order",
            (guild_id, user_id, OVERALL if preset is None else preset),
        )
        return [RatingPoint(int(r[0]), int(r[1]), int(r[2])) for r in rows]

    async def player_rating(
        self, guild_id: int, user_id: int, preset: str | None = None, *, min_games: int = 1
    ) -> PlayerRating | None:
        """A player's current rating, overall or in `preset`, with their rank by rating as
        /leaderboard ranks it (rating, then games, then id); None if they have none."""
        scope = OVERALL if preset is None else preset
        mine = await self._db.fetchone(
            "SELECT rating, games FROM ratings WHERE guild_id = ? AND preset = ? AND user_id = ?",
            (guild_id, scope, user_id),
        )
        if mine is None:
            return None
        rating, games = int(mine[0]), int(mine[1])
        counts = await self._db.fetchone(
            "SELECT COUNT(*), SUM(CASE WHEN rating > ? OR (rating = ? AND (games > ? OR"
            " (games = ? AND user_id < ?))) THEN 1 ELSE 0 END) FROM ratings"
            " WHERE guild_id = ? AND preset = ? AND games >= ?",
            (rating, rating, games, games, user_id, guild_id, scope, min_games),
        )
        ranked = int(counts[0]) if counts else 0
        above = int(counts[1] or 0) if counts else 0
        rank = above + 1 if games >= min_games else None
        return PlayerRating(rating=rating, games=games, rank=rank, ranked=ranked)

    async def last_game_of(self, guild_id: int, user_id: int) -> int | None:
        """The table id of the last game ``user_id`` finished (or left) in this server, in its
        rating order."""
        row = await self._db.fetchone(
            "SELECT table_id FROM results WHERE guild_id = ? AND user_id = ?"
            " ORDER BY rating_order DESC LIMIT 1",
            (guild_id, user_id),
        )
        return None if row is None else int(row[0])
