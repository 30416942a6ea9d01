"""The service refuses an illegal move, rules it cannot play and rules that are not valid with a
code and its values, which cogs/render words (the engine's English is not needed), and
changes nothing."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Mapping
from pathlib import Path
from typing import Any

import pytest

from bot.engine import Action, Bid
from bot.service import Refused, TableService
from bot.storage import Database
from cogs.render.common import card_text
from cogs.render.explanations import explanation_text
from tests.played import service_on
from tests.service.test_service import ANN, BOB, CAT, CHANNEL, GUILD, whose_turn

NAMES = {ANN: "Ann", BOB: "Bob", CAT: "Cat"}


@pytest.fixture
async def service(tmp_path: Path) -> AsyncIterator[TableService]:
    database = await Database.open(f"sqlite:///{tmp_path / 'ohhell.sqlite3'}")
    yield service_on(database)
    await database.close()


async def lobby(service: TableService, channel: int = CHANNEL, **settings: object) -> int:
    outcome = await service.open_table(
        guild_id=GUILD, channel_id=channel, user_id=ANN, name="Ann", settings=dict(settings)
    )
    table_id = outcome.table.table_id
    await service.join(table_id, BOB, "Bob")
    await service.join(table_id, CAT, "Cat")
    return table_id


async def a_card_not_held(service: TableService, table_id: int, user: int) -> int:
    """The id of a card `user` does not hold: what a forged play button would carry."""
    held = {option.card_id for option in (await service.hand_state(table_id, user)).cards}
    return next(card_id for card_id in range(52) if card_id not in held)


async def refused(action: Awaitable[object]) -> Refused:
    with pytest.raises(Refused) as raised:
        await action
    return raised.value


async def refused_move(
    service: TableService, table_id: int, user: int, action: Action | int
) -> Mapping[str, Any]:
    """The parameters of the refusal of `user`'s `action`, which changed nothing."""
    version = (await service.db.load_table(table_id)).version
    move = await refused(service.act(table_id, user, 1, action))
    assert move.code == "illegal"
    assert (await service.db.load_table(table_id)).version == version
    return move.reason.params


async def test_an_illegal_move_is_refused_with_a_code_the_bot_words(
    service: TableService,
) -> None:
    table_id = await lobby(service, preset="classic", sequence="down", max_cards=3)
    await service.start_game(table_id, ANN)
    mover = await whose_turn(service, table_id)
    waiting = next(user for user in NAMES if user != mover)

    params = await refused_move(service, table_id, waiting, Bid(0))
    assert params["explanation_code"] == "turn_to_bid"
    assert explanation_text(params) == f"it is {NAMES[mover]}'s turn to bid"

    params = await refused_move(
        service, table_id, mover, await a_card_not_held(service, table_id, mover)
    )
    assert params["explanation_code"] == "bidding_not_over"
    assert explanation_text(params) == f"bidding isn't over: waiting for {NAMES[mover]} to bid"

    for _ in NAMES:
        bidder = await whose_turn(service, table_id)
        options = (await service.hand_state(table_id, bidder)).bid_options
        await service.act(table_id, bidder, 1, Bid(next(o.n for o in options if o.allowed)))
    leader = await whose_turn(service, table_id)
    params = await refused_move(
        service, table_id, leader, await a_card_not_held(service, table_id, leader)
    )
    assert params["explanation_code"] == "not_held"
    assert explanation_text(params) == f"you don't hold {card_text(params['card'])}"


async def test_rules_that_cannot_be_played_are_refused_with_a_code_the_bot_words(
    service: TableService,
) -> None:
    table_id = await lobby(service, blind="last", end="target")
    problem = (await service.table_view(table_id)).start_problem
    assert problem is not None and problem.code == "rules_unplayable"
    assert problem.params["explanation_code"] == "blind_target"
    version = (await service.db.load_table(table_id)).version
    unplayable = await refused(service.start_game(table_id, ANN))
    assert unplayable.code == "rules_unplayable"
    assert explanation_text(unplayable.reason.params) == (
        "a game that ends at a target score has no last one-card hand: choose blind 'all' or "
        "'none', or end 'sequence'"
    )
    assert (await service.db.load_table(table_id)).version == version


async def test_rules_that_are_not_valid_are_refused_with_the_setting_the_bot_names(
    service: TableService,
) -> None:
    table_id = await lobby(service)
    version = (await service.db.load_table(table_id)).version
    forged = await refused(service.set_rule(table_id, ANN, "max_cards", 0))
    assert forged.code == "rule_invalid"
    assert explanation_text(forged.reason.params) == "max_cards can't take that value"
    assert (await service.db.load_table(table_id)).version == version

    not_a_preset = await refused(lobby(service, channel=CHANNEL + 1, preset="no-such-preset"))
    assert not_a_preset.code == "rules_invalid"
    assert explanation_text(not_a_preset.reason.params) == "preset can't take that value"

    not_a_rule = await refused(
        service.set_channel_defaults(
            guild_id=GUILD,
            channel_id=CHANNEL,
            user_id=ANN,
            settings={"colour": "red"},
            can_manage=True,
        )
    )
    assert not_a_rule.code == "rules_invalid"
    assert explanation_text(not_a_rule.reason.params) == "there is no rule called colour"
    assert await service.channel_defaults(CHANNEL) is None
