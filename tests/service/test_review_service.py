"""The review service on a real SQLite file: who may review which game, one review a person at
a time, progress, and the result's shape (hard judging with a few samples)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from bot.ai import review as ai_review
from bot.engine import Game
from bot.engine.records import record_from_game
from bot.service import Refused, TableService
from bot.service.refusals import ReviewNotFinished
from bot.service.review import COSTLIEST, MIN_COST, SURE, Review, ReviewService
from bot.storage import CorruptRow, Database, TableStatus
from tests.databases import sqlite_only
from tests.service.test_service import ANN, BOB, CAT, GUILD, play_a_game
from tests.services import run_inline, service_on

OTHER_GUILD = 2


database_url = sqlite_only


def reviews_of(database: Database) -> ReviewService:
    return ReviewService(
        database.tables,
        database.results,
        database.leases,
        find=ai_review.decisions,
        assess=ai_review.assess,
        run_blocking=run_inline,
        budget_s=1.0,
        iterations=8,
    )


@pytest.fixture
def service_options() -> dict[str, Any]:
    return {"rng": random.Random(3)}


async def test_a_player_s_review_judges_every_decision_with_progress(
    database: Database, service: TableService
) -> None:
    table_id = await play_a_game(service, preset="classic", max_cards=3)
    seen: list[tuple[int, int]] = []

    async def progress(done: int, total: int) -> None:
        seen.append((done, total))

    review = await reviews_of(database).review(GUILD, ANN, table_id, progress)
    assert isinstance(review, Review)
    total = review.decisions
    assert total > 0 and seen == [(i, total) for i in range(total + 1)]
    game = Game.from_json((await database.tables.load(table_id)).document["game"])
    assert [h.hand for h in review.hands] == [log.number for log in game.history()]
    for hand, log in zip(review.hands, game.history(), strict=True):
        assert hand.bid == log.bids[0] and hand.taken == log.won[0]
        assert len(hand.cards) == log.cards_each
        if hand.hard_bid is not None:
            assert 0 <= hand.hard_bid <= log.cards_each
            assert hand.hard_tricks is not None and 0 <= hand.hard_tricks <= log.cards_each
    moments = [m for h in review.hands for m in h.moments]
    assert all(m.cost >= MIN_COST and m.made != m.better for m in moments)
    costs = [m.cost for m in review.costliest]
    assert costs == sorted(costs, reverse=True) and len(costs) == min(COSTLIEST, len(moments))
    assert costs[:1] == sorted((m.cost for m in moments), reverse=True)[:1]
    # Ann always bid 0 (the first allowed bid): hard bids otherwise somewhere in 5 hands
    assert all(h.bid == 0 for h in review.hands if h.hard_bid is not None)
    assert review.agreed < review.decisions
    # the default is the person's last game here, and the same samples give the same review
    assert await reviews_of(database).review(GUILD, ANN) == review
    # shown: exactly the decisions hard judges clearly worse (half a point and 2 errors)
    record = record_from_game(game)
    judged = [ai_review.assess(record, d, 1.0, table_id, 8) for d in ai_review.decisions(record, 0)]
    assert len(judged) == review.decisions and review.not_theirs == 0
    clearly = [
        (j.decision.hand, j.decision.action, j.choice)
        for j in judged
        if j.choice != j.decision.action and j.cost >= max(MIN_COST, SURE * j.error)
    ]
    assert [(m.hand, m.made, m.better) for m in moments] == clearly
    assert any(j.choice != j.decision.action and j.cost < 2 * j.error for j in judged)


async def test_decisions_a_computer_made_for_the_person_are_left_out(
    database: Database, service: TableService
) -> None:
    table_id = await play_a_game(service, ann_leaves_after=3, preset="classic", max_cards=3)
    review = await reviews_of(database).review(GUILD, ANN, table_id)
    game = Game.from_json((await database.tables.load(table_id)).document["game"])
    everything = ai_review.decisions(record_from_game(game), 0)
    assert review.decisions == 3 and review.not_theirs == len(everything) - 3 > 0


async def test_refusals(database: Database, service: TableService) -> None:
    reviews = reviews_of(database)
    with pytest.raises(Refused, match="review_no_games"):
        await reviews.review(GUILD, ANN)
    elsewhere = await play_a_game(
        service, guild=OTHER_GUILD, channel=20, preset="classic", max_cards=1
    )
    with pytest.raises(Refused, match="review_no_games"):
        await reviews.review(GUILD, ANN)  # no game in this server
    with pytest.raises(Refused, match="review_no_game"):
        await reviews.review(GUILD, ANN, elsewhere)  # a game of another server
    for forged in (0, -5, 10**6):
        with pytest.raises(Refused, match="review_no_game"):
            await reviews.review(GUILD, ANN, forged)
    mine = await play_a_game(service, preset="classic", max_cards=1)
    with pytest.raises(Refused, match="review_not_player"):
        await reviews.review(GUILD, CAT, mine)
    lobby = await service.lobby.open_table(
        guild_id=GUILD, channel_id=30, user_id=ANN, name="Ann", settings={"preset": "classic"}
    )
    with pytest.raises(Refused, match="review_not_finished") as refused:
        await reviews.review(GUILD, ANN, lobby.table.table_id)
    assert refused.value.reason == ReviewNotFinished(refused.value.reason.game, TableStatus.LOBBY)
    assert (await reviews.review(GUILD, BOB, mine)).decisions >= 0
    assert reviews.running() == set()


async def test_one_review_at_a_time_per_person(database: Database, service: TableService) -> None:
    table_id = await play_a_game(service, preset="classic", max_cards=2)
    reviews = reviews_of(database)
    refusals: list[str] = []
    others: list[Review] = []

    async def progress(done: int, total: int) -> None:
        if done == 1:
            try:
                await reviews.review(GUILD, ANN, table_id)
            except Refused as error:
                refusals.append(error.code)
            others.append(await reviews.review(GUILD, BOB, table_id))  # another person may

    first = await reviews.review(GUILD, ANN, table_id, progress)
    assert refusals == ["review_running"] and len(others) == 1
    assert reviews.running() == set()
    assert await reviews.review(GUILD, ANN, table_id) == first  # free again once done


async def test_a_refused_or_failed_review_frees_the_person(
    database: Database, service: TableService
) -> None:
    table_id = await play_a_game(service, preset="classic", max_cards=1)

    def broken(*args: Any) -> Any:
        raise RuntimeError("a worker died")

    reviews = ReviewService(
        database.tables,
        database.results,
        database.leases,
        find=ai_review.decisions,
        assess=broken,
        run_blocking=run_inline,
    )
    with pytest.raises(RuntimeError):
        await reviews.review(GUILD, ANN, table_id)
    assert reviews.running() == set()
    with pytest.raises(Refused):
        await reviews.review(GUILD, CAT, table_id)
    assert reviews.running() == set()


async def test_a_finished_game_that_does_not_load_is_a_corrupt_row(
    database: Database, service: TableService
) -> None:
    """A stored game whose record no longer loads is answered as a corrupt row (a clear
    answer), not an unexpected error, and the person may review again at once."""
    mine = await play_a_game(service, preset="classic", max_cards=1)
    row = await database.tables.load(mine)
    await database.tables.save(row, document={**row.document, "game": '{"v": 1}'})
    reviews = reviews_of(database)
    with pytest.raises(CorruptRow):
        await reviews.review(GUILD, ANN, mine)
    assert reviews.running() == set()


async def test_one_review_at_a_time_per_person_across_processes(postgres_url: str) -> None:
    """Two processes on one PostgreSQL: a person's second review is refused in the other
    process too; a review whose process died frees the person once its lease runs out."""
    now = [1_000_000.0]
    one = await Database.open(postgres_url, lambda: now[0])
    other = await Database.open(postgres_url, lambda: now[0])
    try:
        service = service_on(one)
        table_id = await play_a_game(service, preset="classic", max_cards=2)
        here, there = reviews_of(one), reviews_of(other)
        refusals: list[str] = []

        async def progress(done: int, total: int) -> None:
            if done == 1:
                try:
                    await there.review(GUILD, ANN, table_id)
                except Refused as error:
                    refusals.append(error.code)

        await here.review(GUILD, ANN, table_id, progress)
        assert refusals == ["review_running"]
        assert (await there.review(GUILD, ANN, table_id)).table_id == table_id
        # A process that died mid-review: its lease holds the person until it runs out.
        assert await one.leases.take_lease("review", ANN, "a process that died", 60)
        with pytest.raises(Refused, match="review_running"):
            await there.review(GUILD, ANN, table_id)
        now[0] += 61
        assert (await there.review(GUILD, ANN, table_id)).table_id == table_id
    finally:
        await one.close()
        await other.close()


async def test_a_review_stops_when_its_person_erases_themselves_and_stores_no_lease_again(
    database: Database, service: TableService
) -> None:
    """/ohhell forget-me while the person's own review runs deletes the review's lease: the
    review's next renewal finds it gone, so it stores nothing of them again and stops."""
    table_id = await play_a_game(service, preset="classic", max_cards=2)
    leases: list[list[Any]] = []

    async def progress(done: int, total: int) -> None:
        if done == 1:
            offer = await service.privacy.offer_erasure(ANN)
            await service.privacy.forget(ANN, offer.token, lambda n: f"Former player {n}")
        if done >= 1:
            leases.append(
                await database.store.backend.fetchall("SELECT * FROM leases WHERE key = ?", (ANN,))
            )

    with pytest.raises(Refused) as stopped:
        await reviews_of(database).review(GUILD, ANN, table_id, progress)
    assert stopped.value.code == "review_not_player"
    assert leases == [[]]  # gone at the erasure, and not stored again by the review's renewal
    assert await database.store.backend.fetchall("SELECT * FROM leases WHERE key = ?", (ANN,)) == []


async def test_a_review_whose_lease_ran_out_and_was_taken_stops(
    database: Database, service: TableService
) -> None:
    table_id = await play_a_game(service, preset="classic", max_cards=2)

    async def progress(done: int, total: int) -> None:
        if done == 1:  # as if the lease ran out and another process's review took it
            await database.store.backend.execute(
                "UPDATE leases SET holder = 'another' WHERE key = ?", (ANN,)
            )

    with pytest.raises(Refused, match="review_running"):
        await reviews_of(database).review(GUILD, ANN, table_id, progress)
    rows = await database.store.backend.fetchall("SELECT holder FROM leases WHERE key = ?", (ANN,))
    assert rows == [("another",)]
