"""What the web pages read of a finished game and its players: each seat's person and rating
change with the record, and the names people played under, only from this server's games."""

from __future__ import annotations

from bot.service import Seat, TableService
from tests.finished_games import people, store_finished

GUILD, OTHER_GUILD = 1, 2


async def test_a_games_record_comes_with_its_people_and_rating_changes(
    service: TableService,
) -> None:
    seats = [*people("Ann", "Bob"), Seat(name="Hard bot", level="hard")]
    game, _ = await store_finished(service.db, GUILD, 10, seats, seed=3)
    found = await service.finished_games.game_record(GUILD, 10, game)
    assert found.channel_id == 10
    assert found.people == (1000, 1001, None)
    changes = await service.db.results.rating_changes(game)
    assert changes and found.ratings[0] == changes[1000] and found.ratings[1] == changes[1001]
    assert len(found.ratings) == 3
    # Each change is the rating less the start, and every new rating is provisional.
    assert all(r is not None and r[2] for r in found.ratings[:2])
    assert {r[1] for r in found.ratings if r is not None} != {0}


async def test_names_are_the_newest_game_on_this_server(service: TableService) -> None:
    db = service.db
    await store_finished(db, GUILD, 10, people("Ann", "Bob", "Cat"), seed=1)
    await store_finished(db, GUILD, 10, people("Annie", "Bob", "Cat"), seed=2)
    await store_finished(db, OTHER_GUILD, 20, people("Zed", "Yan", "Xi", first_id=1000), seed=3)
    names = await service.finished_games.names(GUILD, [1000, 1001, 1000, 4242])
    assert names == {1000: "Annie", 1001: "Bob"}
    assert await service.finished_games.names(OTHER_GUILD, [1000]) == {1000: "Zed"}
    assert await service.finished_games.names(3, [1000]) == {}
