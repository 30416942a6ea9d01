"""Finished games looked at again: a server's history in pages, a game's record, a player's
stats. Read-only; the stored games are decoded outside the event loop (`run_blocking`: the
computer players' worker processes)."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable

from bot import storage
from bot.service.errors import Refused
from bot.service.refusals import NoGame, NoGames, NoPage
from bot.service.results import rated_as
from bot.service.session import Session
from bot.service.summaries import (
    GameRecord,
    HistoryEntry,
    HistoryPage,
    LevelResult,
    PlayerStats,
    game_detail,
    names_and_winners,
    record_of,
    unrated_reason,
)
from bot.service.turns import load_document

HISTORY_PAGE_SIZE = 10
MAX_HISTORY_PAGE = 10_000
"""Pages past this are refused without asking the database (a forged page number)."""
STATS_DETAIL_GAMES = 100
"""A player's stats read at most this many of their newest games for what only the stored
games tell (bid errors): each is decoded, a few ms apiece."""


class History:
    def __init__(
        self, session: Session, history: storage.History, results: storage.Results
    ) -> None:
        self.session = session
        self._history = history
        self._results = results

    async def history(self, guild_id: int, page: int) -> HistoryPage:
        """Page `page` (1-based) of a server's finished games, newest first."""
        if not 1 <= page <= MAX_HISTORY_PAGE:
            raise Refused(NoPage(page=page))
        rows = await self._history.finished_games(
            guild_id, offset=(page - 1) * HISTORY_PAGE_SIZE, limit=HISTORY_PAGE_SIZE + 1
        )
        if not rows and page > 1:
            raise Refused(NoPage(page=page))
        shown = rows[:HISTORY_PAGE_SIZE]
        described = await self.session.run_blocking(names_and_winners, [r.document for r in shown])
        entries = tuple(
            HistoryEntry(
                game=row.table_id,
                channel_id=row.channel_id,
                preset=row.preset,
                finished_at=row.finished_at,
                players=players,
                winners=winners,
            )
            for row, (players, winners) in zip(shown, described, strict=True)
        )
        return HistoryPage(page=page, entries=entries, has_next=len(rows) > HISTORY_PAGE_SIZE)

    async def game_record(
        self, guild_id: int, channel_id: int, game: int | None = None
    ) -> GameRecord:
        """A finished game's record: game `game` of this server, or the newest in this channel
        (or else in this server). Another server's game is no game here."""
        if game is None:
            game = await self._history.last_finished_game(guild_id, channel_id)
            if game is None:
                game = await self._history.last_finished_game(guild_id)
            if game is None:
                raise Refused(NoGames())
        row = await self._history.finished_game(guild_id, game)
        if row is None:
            raise Refused(NoGame(game=game))
        document = load_document(row)
        if document.game is None:
            raise Refused(NoGame(game=game))
        names = [seat.name for seat in document.seats]
        record = await self.session.run_blocking(record_of, document.game, names)
        changes = await self._results.rating_changes(row.id)
        return GameRecord(
            game=row.id,
            record=record,
            channel_id=row.channel_id,
            people=tuple(seat.user_id for seat in document.seats),
            ratings=tuple(changes.get(rated_as(seat)) for seat in document.seats),
        )

    async def names(self, guild_id: int, user_ids: Iterable[int]) -> dict[int, str]:
        """The name each person had at their newest finished game on this server (the pages
        name people from the games they played, not from Discord); nobody who has none."""
        found: dict[int, str] = {}
        for user_id in dict.fromkeys(user_ids):
            seats = await self._history.newest_seats(guild_id, user_id)
            name = seat_name(seats, user_id) if seats is not None else None
            if name is not None:
                found[user_id] = name
        return found

    async def player_stats(self, guild_id: int, user_id: int) -> PlayerStats:
        """A player's results on this server: sums from the results, their ratings, and the
        per-hand detail from their newest stored games."""
        groups = await self._history.player_results(guild_id, user_id)
        best = await self._history.best_game(guild_id, user_id) if groups else None
        computers = await self._history.computer_tables(guild_id, user_id) if groups else []
        games = await self._history.player_games(guild_id, user_id, limit=STATS_DETAIL_GAMES)
        detail = await self.session.run_blocking(game_detail, games, user_id)
        places: Counter[int] = Counter()
        presets: Counter[str] = Counter()
        points = made = hands = 0
        for group in groups:
            places[group.place] += group.games
            presets[group.preset] += group.games
            points += group.points
            made += group.bids_made
            hands += group.hands_played
        total = sum(places.values())
        favourite = min(presets.items(), key=lambda item: (-item[1], item[0]), default=None)
        overall = await self._results.player_rating(guild_id, user_id)
        history = await self._results.rating_history(guild_id, user_id) if overall else []
        last = await self._results.last_game(guild_id, user_id)
        unrated = last if last is not None and last.change is None else None
        by_preset = []
        for preset, _ in sorted(presets.items(), key=lambda item: (-item[1], item[0])):
            rated = await self._results.player_rating(guild_id, user_id, preset)
            if rated is not None:
                by_preset.append((preset, rated.rating, rated.provisional))
        return PlayerStats(
            user_id=user_id,
            games=total,
            wins=sum(g.stayed for g in groups if g.place == 1),
            places=tuple(sorted(places.items())),
            left_early=total - sum(g.stayed for g in groups),
            exact_bid_rate=made / hands if hands else None,
            points_per_hand=points / hands if hands else None,
            best_game=best,
            favourite_preset=favourite,
            detail=detail,
            detail_limit=STATS_DETAIL_GAMES,
            computers=tuple(LevelResult(*found) for found in computers),
            rating=None if overall is None else overall.rating,
            rating_provisional=overall is not None and overall.provisional,
            rating_uncertainty=0 if overall is None else overall.uncertainty,
            rating_change=history[-1].change if history else None,
            rating_change_game=history[-1].game if history else None,
            unrated_game=None if unrated is None else unrated.game,
            unrated_reason=None if unrated is None else unrated_reason(unrated),
            rating_rank=None if overall is None else overall.rank,
            rating_ranked=0 if overall is None else overall.ranked,
            preset_ratings=tuple(by_preset),
            rating_history=tuple((point.game, point.rating) for point in history),
            rating_history_provisional=tuple(point.provisional for point in history),
        )


def seat_name(seats: str, user_id: int) -> str | None:
    """The name of `user_id`'s seat in a document's seats (JSON text), if they have one."""
    try:
        parsed = json.loads(seats)
    except ValueError:
        return None
    for seat in parsed if isinstance(parsed, list) else []:
        if isinstance(seat, dict) and seat.get("user_id") == user_id:
            name = seat.get("name")
            return name if isinstance(name, str) else None
    return None
