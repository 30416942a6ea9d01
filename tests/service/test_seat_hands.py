"""The hands of a table's people at the page, from one load: each their own, as their hand
message's state says it, a removed person's too; none in the lobby, none for a stranger."""

from __future__ import annotations

import pytest

from bot.service import TableGone, TableService
from tests.service.test_service import ANN, BOB, CAT, open_lobby, started

STRANGER = 999


async def test_each_seated_person_their_own_hand_from_one_load(service: TableService) -> None:
    t = await started(service)
    await service.host.kick(t, ANN, CAT)  # a computer plays Cat's seat: Cat sees what all see
    loads = service.db.tables.loads
    version, hands = await service.lookups.seat_hands(t, [ANN, BOB, CAT, STRANGER])
    assert service.db.tables.loads == loads + 1
    assert version == (await service.db.tables.load(t)).version
    assert set(hands) == {ANN, BOB, CAT}
    for user in (ANN, BOB, CAT):
        assert hands[user] == await service.lookups.hand_state(t, user)
        assert hands[user].seat == (await service.lookups.hand_state(t, user)).seat
    assert hands[CAT].cards == () and hands[CAT].away == "kicked"
    assert (await service.lookups.seat_hands(t, [BOB]))[1].keys() == {BOB}


async def test_no_hands_before_the_game_nor_at_a_closed_table(service: TableService) -> None:
    t = await open_lobby(service)
    version, hands = await service.lookups.seat_hands(t, [ANN])
    assert hands == {} and version == (await service.db.tables.load(t)).version
    await service.lobby.cancel(t, ANN)
    with pytest.raises(TableGone):
        await service.lookups.seat_hands(t, [ANN])
