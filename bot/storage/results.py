"""A finished game's results, stored with its ratings (`record`, in the save that finishes it);
the leaderboard, a game's rating changes, a player's rating and its history: read from the
running totals and ratings kept with every stored result (bot/storage/ratings.py)."""

from __future__ import annotations

from collections.abc import Sequence

from bot.storage.connection import Connection
from bot.storage.ratings import (
    OVERALL,
    PROVISIONAL_SIGMA,
    is_provisional,
    rate_game,
    uncertainty,
)
from bot.storage.rows import (
    BOARD_ORDERS,
    COUNT_ORDERS,
    LastGame,
    Leaderboard,
    LeaderboardRow,
    PlayerRating,
    PlayerResult,
    RatingPoint,
    TableRow,
)
from bot.storage.store import Repository

_ORDER_KEYS = {
    "rating": "rating",
    "wins": "wins",
    "win_rate": "1.0 * wins / games",
    "exact_bids": "1.0 * bids_made / CASE WHEN hands > 1 THEN hands ELSE 1 END",
    "points": "1.0 * points / CASE WHEN hands > 1 THEN hands ELSE 1 END",
}
assert set(_ORDER_KEYS) == set(BOARD_ORDERS)

PAGE_SIZE = 10


class Results(Repository):
    async def leaderboard(
        self,
        guild_id: int,
        *,
        by: str = "rating",
        preset: str | None = None,
        page: int = 1,
        caller_id: int | None = None,
        page_size: int = PAGE_SIZE,
    ) -> Leaderboard:
        """One page of the server's players (people and computer levels): the ranked ones by
        `by` (then rating, games, id), then the unranked ones in the same order. An order that
        is a count (`COUNT_ORDERS`) ranks everyone; the others rank settled ratings and list
        the provisional ones below. With the caller's row when it is not on the page. A page
        past the last one has no rows (`pages` says how many)."""
        everyone = by in COUNT_ORDERS
        first = (page - 1) * page_size
        query = (
            "WITH scoped AS (SELECT user_id, rating, games, wins, hands, bids_made, points,"
            " CASE WHEN sigma <= ? THEN 0 ELSE 1 END AS unsettled FROM ratings"
            " WHERE guild_id = ? AND preset = ?),"
            " listed AS (SELECT user_id, rating, games, wins, hands, bids_made, points,"
            f" unsettled, ROW_NUMBER() OVER (ORDER BY {'' if everyone else 'unsettled, '}"
            f"{_ORDER_KEYS[by]} DESC, rating DESC, games DESC, user_id) AS position,"
            " COUNT(*) OVER () AS total, SUM(1 - unsettled) OVER () AS settled FROM scoped)"
            " SELECT position, user_id, rating, games, wins, hands, bids_made, points,"
            " unsettled, total, settled FROM listed"
            " WHERE (position > ? AND position <= ?) OR position = 1 OR user_id = ?"
            " ORDER BY position"
        )
        parameters = (
            PROVISIONAL_SIGMA,
            guild_id,
            OVERALL if preset is None else preset,
            first,
            first + page_size,
            caller_id,
        )
        raw = await self._db.fetchall(query, parameters)
        rows = [
            LeaderboardRow(
                rank=int(r[0]) if everyone or not r[8] else None,
                user_id=r[1],
                rating=r[2],
                games=r[3],
                wins=r[4],
                win_rate=r[4] / r[3],
                exact_bid_rate=r[6] / r[5] if r[5] else 0.0,
                points_per_hand=r[7] / r[5] if r[5] else 0.0,
                provisional=bool(r[8]),
            )
            for r in raw
        ]
        on_page = [
            row for row, r in zip(rows, raw, strict=True) if first < r[0] <= first + page_size
        ]
        caller = next((row for row in rows if row.user_id == caller_id), None)
        total = int(raw[0][9]) if raw else 0
        ranked = total if everyone else int(raw[0][10] or 0) if raw else 0
        return Leaderboard(
            rows=on_page,
            caller=None if caller is None or caller in on_page else caller,
            by=by,
            preset=preset,
            page=page,
            pages=max(1, -(-total // page_size)),
            ranked=ranked,
            unranked=total - ranked,
        )

    async def rating_changes(
        self, table_id: int, preset: str | None = None
    ) -> dict[int, tuple[int, int, bool]]:
        """A finished game's rating changes: identity → (rating after it, change, whether it
        is still provisional), overall or in `preset`. Empty for a game nobody was rated in."""
        rows = await self._db.fetchall(
            "SELECT user_id, rating, change, sigma FROM rating_history"
            " WHERE table_id = ? AND preset = ?",
            (table_id, OVERALL if preset is None else preset),
        )
        return {int(r[0]): (int(r[1]), int(r[2]), is_provisional(float(r[3]))) for r in rows}

    async def rating_history(
        self, guild_id: int, user_id: int, preset: str | None = None
    ) -> list[RatingPoint]:
        """A player's shown rating after each rated game, in the server's rating order (each
        point's change is its rating less the one before), overall or in `preset` (the stats
        chart's points; the last is their rating now)."""
        rows = await self._db.fetchall(
            "SELECT table_id, rating, change, sigma FROM rating_history WHERE guild_id = ?"
            " AND user_id = ? AND preset = ? ORDER BY rating_order",
            (guild_id, user_id, OVERALL if preset is None else preset),
        )
        return [
            RatingPoint(int(r[0]), int(r[1]), int(r[2]), is_provisional(float(r[3]))) for r in rows
        ]

    async def player_rating(
        self, guild_id: int, user_id: int, preset: str | None = None
    ) -> PlayerRating | None:
        """A player's current rating, overall or in `preset`, with their rank as /leaderboard
        ranks it by rating (rating, then games, then id, among settled ratings: none while
        theirs is provisional); None if they have none."""
        scope = OVERALL if preset is None else preset
        mine = await self._db.fetchone(
            "SELECT rating, games, sigma FROM ratings"
            " WHERE guild_id = ? AND preset = ? AND user_id = ?",
            (guild_id, scope, user_id),
        )
        if mine is None:
            return None
        rating, games, sigma = int(mine[0]), int(mine[1]), float(mine[2])
        counts = await self._db.fetchone(
            "SELECT COUNT(*), SUM(CASE WHEN rating > ? OR (rating = ? AND (games > ? OR"
            " (games = ? AND user_id < ?))) THEN 1 ELSE 0 END) FROM ratings"
            " WHERE guild_id = ? AND preset = ? AND sigma <= ?",
            (rating, rating, games, games, user_id, guild_id, scope, PROVISIONAL_SIGMA),
        )
        ranked = int(counts[0]) if counts else 0
        above = int(counts[1] or 0) if counts else 0
        provisional = is_provisional(sigma)
        return PlayerRating(
            rating=rating,
            games=games,
            rank=None if provisional else above + 1,
            ranked=ranked,
            provisional=provisional,
            uncertainty=uncertainty(sigma),
        )

    async def last_game(self, guild_id: int, user_id: int) -> LastGame | None:
        """A player's last game in this server's rating order, its change of their overall
        rating (if it rated them), and what says why not: whether the host removed them, and
        how many of its seats were rated and stayed."""
        row = await self._db.fetchone(
            "SELECT r.table_id, r.removed, h.change FROM results AS r"
            " LEFT JOIN rating_history AS h ON h.table_id = r.table_id"
            " AND h.user_id = r.user_id AND h.preset = ?"
            " WHERE r.guild_id = ? AND r.user_id = ? ORDER BY r.rating_order DESC LIMIT 1",
            (OVERALL, guild_id, user_id),
        )
        if row is None:
            return None
        seats = await self._db.fetchone(
            "SELECT COUNT(*), SUM(1 - left_early) FROM results WHERE table_id = ? AND removed = 0",
            (row[0],),
        )
        assert seats is not None
        return LastGame(
            game=int(row[0]),
            change=None if row[2] is None else int(row[2]),
            removed=bool(row[1]),
            rated_seats=int(seats[0]),
            stayed_seats=int(seats[1] or 0),
        )

    async def last_game_of(self, guild_id: int, user_id: int) -> int | None:
        """The table id of the last game ``user_id`` finished (or left) in this server, in its
        rating order."""
        row = await self._db.fetchone(
            "SELECT table_id FROM results WHERE guild_id = ? AND user_id = ?"
            " ORDER BY rating_order DESC LIMIT 1",
            (guild_id, user_id),
        )
        return None if row is None else int(row[0])

    async def record(
        self,
        db: Connection,
        table: TableRow,
        results: Sequence[PlayerResult],
        preset: str,
        now: float,
    ) -> None:
        """A finished game's results, one row a seat (in seat order), and their ratings: called
        inside `Tables.save`'s transaction, so a result is never stored without its rating. The
        results carry the game's place in its server's rating order, which rating it fixed."""
        order = await rate_game(
            db,
            guild_id=table.guild_id,
            table_id=table.id,
            preset=preset,
            finished_at=now,
            results=results,
        )
        await db.executemany(
            "INSERT INTO results (table_id, seat, guild_id, user_id, preset, place, players,"
            " points, bids_made, hands_played, left_early, removed, finished_at, rating_order)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [
                (
                    table.id,
                    seat,
                    table.guild_id,
                    result.user_id,
                    preset,
                    result.place,
                    len(results),
                    result.points,
                    result.bids_made,
                    result.hands_played,
                    int(result.left_early),
                    int(result.removed),
                    now,
                    order,
                )
                for seat, result in enumerate(results)
            ],
        )
