"""A table's view with the newest hand its game scored, as the channel's post of its scores
said it: rebuilt from the stored game, so a process that did not store the move (and any page
opened after it) shows the hand's tricks as the one that stored it does."""

from __future__ import annotations

from bot.service import Outcome, TableService
from bot.service.notices import HandScore
from bot.storage import Database, TableStatus
from tests.service.test_service import ANN, BOB, choose, open_lobby
from tests.services import service_on


def posted_scores(outcome: Outcome | None) -> list[HandScore]:
    if outcome is None:
        return []
    return [post.notice for post in outcome.posts if isinstance(post.notice, HandScore)]


async def test_the_newest_hand_scored_is_rebuilt_as_its_post_said_it(
    service: TableService, database: Database
) -> None:
    table_id = await open_lobby(service, preset="classic", max_cards=3)
    await service.lobby.join(table_id, BOB, "Bob")
    await service.lobby.add_computer(table_id, ANN, "easy")
    await service.lobby.start_game(table_id, ANN)
    elsewhere = service_on(database)  # another process: nothing of the table in memory
    assert (await elsewhere.lookups.scored_view(table_id))[1] is None
    posted: list[HandScore] = []
    for _ in range(500):
        outcome = await service.playing.step(table_id)
        if outcome is None:
            view = await service.lookups.table_view(table_id)
            if view.status is TableStatus.FINISHED:
                break
            for user in (ANN, BOB):
                state = await service.lookups.hand_state(table_id, user)
                if state.my_turn:
                    action = choose(state)
                    outcome = await service.playing.act(table_id, user, state.hand_number, action)
                    break
        for notice in posted_scores(outcome):
            posted.append(notice)
            assert outcome is not None
            view, scored = await elsewhere.lookups.scored_view(table_id)
            assert view.version == outcome.table.version
            assert scored == notice
            assert await service.lookups.scored_view(table_id) == (outcome.table, notice)
    assert len(posted) >= 5 and all(score.tricks for score in posted)
    # A finished game's page shows its last hand's tricks too.
    view, scored = await service_on(database).lookups.scored_view(table_id)
    assert view.status is TableStatus.FINISHED and scored == posted[-1]
