"""Finished games stored the way the service stores them, for the history and stats tests."""

from __future__ import annotations

import random

from bot.engine import Game, Phase, Settings
from bot.service.document import Seat, TableDocument
from bot.service.results import results_of
from bot.storage import Database, TableStatus


def played_out(names: list[str], seed: int, preset: str = "classic", max_cards: int = 2) -> Game:
    """A game played to its end by random legal moves."""
    game = Game.new(Settings(preset=preset, max_cards=max_cards), len(names), seed, names=names)
    rng = random.Random(seed)
    while game.phase is not Phase.GAME_OVER:
        seat = game.to_act[0]
        game.apply(seat, rng.choice(game.legal_actions(seat)))
    return game


async def store_finished(
    database: Database,
    guild_id: int,
    channel_id: int,
    seats: list[Seat],
    seed: int,
    *,
    preset: str = "classic",
    max_cards: int = 2,
) -> tuple[int, Game]:
    """A finished table: its document (seats, the game) and its results, as the service saves
    them. Returns the game's number and the game."""
    game = played_out([s.name for s in seats], seed, preset, max_cards)
    document = TableDocument(seats=seats, game=game.to_json())
    row = await database.tables.create(
        guild_id=guild_id,
        channel_id=channel_id,
        host_id=seats[0].user_id or 1,
        preset=preset,
        document=document.model_dump(),
    )
    await database.tables.save(
        row,
        document=document.model_dump(),
        status=TableStatus.FINISHED,
        results=results_of(document, game),
    )
    return row.id, game


def people(*names: str, first_id: int = 1000) -> list[Seat]:
    return [Seat(user_id=first_id + i, name=name) for i, name in enumerate(names)]
