"""Finished games looked at again, against a real SQLite file: which games a server sees, a
game's record, a player's stats."""

from __future__ import annotations

from typing import Any

import pytest

from bot.engine import Game
from bot.engine.records import record_from_game, replay
from bot.service import Refused, Seat, TableService
from bot.storage import TableStatus
from tests.finished_games import people, store_finished

GUILD, OTHER_GUILD = 1, 2


async def test_a_server_sees_only_its_own_finished_games(service: TableService) -> None:
    db = service.db
    mine, _ = await store_finished(db, GUILD, 10, people("Ann", "Bob", "Cat"), seed=1)
    theirs, _ = await store_finished(db, OTHER_GUILD, 20, people("Zed", "Yan", "Xi"), seed=2)
    lobby = await db.tables.create(
        guild_id=GUILD, channel_id=11, host_id=1, preset="classic", document={"seats": []}
    )
    cancelled = await db.tables.create(
        guild_id=GUILD, channel_id=12, host_id=1, preset="classic", document={"seats": []}
    )
    await db.tables.save(cancelled, document={"seats": []}, status=TableStatus.CANCELLED)
    page = await service.finished_games.history(GUILD, 1)
    assert [e.game for e in page.entries] == [mine] and not page.has_next
    assert page.entries[0].players == ("Ann", "Bob", "Cat")
    for number in (theirs, lobby.id, cancelled.id, 10**9):
        with pytest.raises(Refused) as refused:
            await service.finished_games.game_record(GUILD, 10, number)
        assert refused.value.reason.code == "no_game"
    with pytest.raises(Refused) as none_yet:
        await service.finished_games.game_record(3, 30)
    assert none_yet.value.reason.code == "no_games"
    for page_number in (0, -1, 2, 10**7):
        with pytest.raises(Refused):
            await service.finished_games.history(GUILD, page_number)


async def test_the_record_defaults_to_the_channel_then_the_server(service: TableService) -> None:
    db = service.db
    here, game = await store_finished(db, GUILD, 10, people("Ann", "Bob", "Cat"), seed=1)
    later, _ = await store_finished(db, GUILD, 11, people("Ann", "Bob", "Dan"), seed=2)
    found = await service.finished_games.game_record(GUILD, 10)
    assert found.game == here
    summary = replay(found.record)
    assert summary["totals"] == list(game.totals) and summary["placing"] == list(game.placing)
    assert (
        await service.finished_games.game_record(GUILD, 99)
    ).game == later  # no game in that channel


async def test_stats_sum_a_players_games(service: TableService) -> None:
    db = service.db
    ann = 1000
    games = []
    for seed in range(6):
        seats = people("Ann", "Bob", "Cat")
        if seed % 2:
            seats[2] = Seat(name="Hard bot", level="hard")
        if seed == 5:
            seats[0].left = True
            seats[0].level = "normal"
        preset = "classic" if seed < 4 else "oh-hell"
        games.append(await store_finished(db, GUILD, 10, seats, seed, preset=preset))
    await store_finished(db, OTHER_GUILD, 10, people("Ann", "Bob", "Cat"), seed=9)
    stats = await service.finished_games.player_stats(GUILD, ann)
    placing = [game.placing[0] for _, game in games]
    assert stats.games == 6
    assert stats.left_early == 1
    assert stats.wins == sum(1 for i, p in enumerate(placing) if p == 1 and i != 5)
    assert dict(stats.places) == {p: placing.count(p) for p in set(placing)}
    assert stats.favourite_preset == ("classic", 4)
    best = max(games, key=lambda g: (g[1].totals[0], -g[0]))
    assert stats.best_game == (best[0], best[1].totals[0])
    errors = []
    made = hands = points = 0
    for _, game in games:
        for hand in replay_hands(game):
            errors.append(hand["bids"][0] - hand["tricks_won"][0])
            made += hand["bids"][0] == hand["tricks_won"][0]
            points += hand["points"][0]
            hands += 1
    assert stats.detail.games == 6 and stats.detail.hands == hands
    assert stats.detail.bid_error == pytest.approx(sum(errors) / len(errors))
    assert stats.detail.bid_miss == pytest.approx(sum(map(abs, errors)) / len(errors))
    assert stats.exact_bid_rate == pytest.approx(made / hands)
    assert stats.points_per_hand == pytest.approx(points / hands)
    (hard,) = stats.computers  # from the stored computer seats, every game
    assert (hard.level, hard.games) == ("hard", 3)
    assert hard.wins == sum(1 for i in (1, 3) if placing[i] == 1)  # game 5 was left early
    history = await db.results.rating_history(GUILD, ann)
    assert stats.rating_history == tuple((p.game, p.rating) for p in history)
    assert [game for game, _ in stats.rating_history] == [number for number, _ in games]
    assert stats.rating == history[-1].rating and stats.rating_change == history[-1].change
    assert stats.rating_change_game == games[-1][0] and stats.unrated_game is None
    # Six games: still provisional, so not ranked (the board ranks settled ratings only).
    assert stats.rating_provisional and stats.rating_history_provisional == (True,) * 6
    mine = await db.results.player_rating(GUILD, ann)
    assert mine is not None and stats.rating_uncertainty == mine.uncertainty > 100
    board = await db.results.leaderboard(GUILD)
    assert stats.rating_rank is None and stats.rating_ranked == board.ranked == 0
    assert [preset for preset, _, _ in stats.preset_ratings] == ["classic", "oh-hell"]
    nobody = await service.finished_games.player_stats(GUILD, 4242)
    assert nobody.games == 0 and nobody.best_game is None and nobody.detail.bid_error is None
    assert nobody.rating is None and nobody.rating_history == () and nobody.computers == ()


async def test_stats_name_the_game_of_the_last_change_and_why_a_last_game_did_not_count(
    service: TableService,
) -> None:
    db = service.db
    ann = 1000
    rated, _ = await store_finished(db, GUILD, 10, people("Ann", "Bob", "Cat"), seed=1)
    seats = people("Ann", "Bob", "Cat")
    seats[0] = Seat(user_id=ann, name="Ann", left=True, level="normal", away="kicked")
    removed, _ = await store_finished(db, GUILD, 10, seats, seed=2)
    stats = await service.finished_games.player_stats(GUILD, ann)
    assert (stats.rating_change_game, stats.unrated_game) == (rated, removed)
    assert stats.unrated_reason == "removed"
    assert stats.rating_change == (await db.results.rating_history(GUILD, ann))[-1].change
    # Bob's last game rated him; a game where everyone else was removed did not.
    bob = await service.finished_games.player_stats(GUILD, 1001)
    assert (bob.rating_change_game, bob.unrated_game) == (removed, None)
    alone = people("Ann", "Bob", "Dan")
    for seat in (alone[0], alone[2]):
        seat.left, seat.level, seat.away = True, "normal", "kicked"
    await store_finished(db, GUILD, 10, alone, seed=3)
    bob = await service.finished_games.player_stats(GUILD, 1001)
    assert bob.unrated_reason == "too_few_rated" and bob.rating_change_game == removed
    # Everyone who was rated left: nobody's rating moved.
    gone = people("Ann", "Bob", "Cat")[1:] + people("Eve", first_id=1005)
    for seat in gone:
        seat.left, seat.level, seat.away = True, "normal", "left"
    await store_finished(db, GUILD, 10, gone, seed=4)
    cat = await service.finished_games.player_stats(GUILD, 1002)
    assert cat.unrated_reason == "nobody_stayed" and cat.rating_change_game == removed


def replay_hands(game: Game) -> list[dict[str, Any]]:
    return [h for h in replay(record_from_game(game))["hands"] if h["complete"]]


async def test_a_table_with_two_computers_of_one_level_counts_once(service: TableService) -> None:
    db = service.db
    ann = 1000
    seats = people("Ann", "Bob")
    seats += [Seat(name="Hard 1", level="hard"), Seat(name="Hard 2", level="hard")]
    seats.append(Seat(name="Easy", level="easy"))
    _, game = await store_finished(db, GUILD, 10, seats, seed=3)
    await store_finished(db, GUILD, 10, people("Ann", "Bob", "Cat"), seed=4)
    won = int(game.placing[0] == 1)
    assert await db.history.computer_tables(GUILD, ann) == [("easy", 1, won), ("hard", 1, won)]
    assert await db.history.computer_tables(OTHER_GUILD, ann) == []
    # The stats count people's games only: the computer seats are not Ann's.
    assert (await service.finished_games.player_stats(GUILD, ann)).games == 2
