"""The service refuses an illegal move, rules it cannot play and rules that are not valid with a
code and its values, which cogs/render words (the engine's English is not needed), and
changes nothing."""

from __future__ import annotations

from collections.abc import Awaitable

import pytest

from bot.engine import Action, Bid
from bot.service import Refused, TableService
from bot.service.refusals import Explanation, Illegal, RuleInvalid, RulesInvalid, RulesUnplayable
from cogs.render.common import card_text
from cogs.render.explanations import explanation_text
from tests.databases import sqlite_only
from tests.service.test_service import ANN, BOB, CAT, CHANNEL, GUILD, whose_turn

NAMES = {ANN: "Ann", BOB: "Bob", CAT: "Cat"}


database_url = sqlite_only


async def lobby(service: TableService, channel: int = CHANNEL, **settings: object) -> int:
    outcome = await service.lobby.open_table(
        guild_id=GUILD, channel_id=channel, user_id=ANN, name="Ann", settings=dict(settings)
    )
    table_id = outcome.table.table_id
    await service.lobby.join(table_id, BOB, "Bob")
    await service.lobby.join(table_id, CAT, "Cat")
    return table_id


async def a_card_not_held(service: TableService, table_id: int, user: int) -> int:
    """The id of a card `user` does not hold: what a forged play button would carry."""
    held = {option.card_id for option in (await service.lookups.hand_state(table_id, user)).cards}
    return next(card_id for card_id in range(52) if card_id not in held)


async def refused(action: Awaitable[object]) -> Refused:
    with pytest.raises(Refused) as raised:
        await action
    return raised.value


def problem_of(error: Refused) -> Explanation:
    """What the rules said, as the refusal carries it."""
    assert isinstance(error.reason, (Illegal, RulesUnplayable, RulesInvalid, RuleInvalid))
    return error.reason.problem


async def refused_move(
    service: TableService, table_id: int, user: int, action: Action | int
) -> Explanation:
    """Why `user`'s `action` was refused, which changed nothing."""
    version = (await service.db.tables.load(table_id)).version
    move = await refused(service.playing.act(table_id, user, 1, action))
    assert isinstance(move.reason, Illegal)
    assert (await service.db.tables.load(table_id)).version == version
    return move.reason.problem


async def test_an_illegal_move_is_refused_with_a_code_the_bot_words(
    service: TableService,
) -> None:
    table_id = await lobby(service, preset="classic", sequence="down", max_cards=3)
    await service.lobby.start_game(table_id, ANN)
    mover = await whose_turn(service, table_id)
    waiting = next(user for user in NAMES if user != mover)

    said = await refused_move(service, table_id, waiting, Bid(0))
    assert said.code == "turn_to_bid"
    assert explanation_text(said) == f"it is {NAMES[mover]}'s turn to bid"

    said = await refused_move(
        service, table_id, mover, await a_card_not_held(service, table_id, mover)
    )
    assert said.code == "bidding_not_over"
    assert explanation_text(said) == f"bidding isn't over: waiting for {NAMES[mover]} to bid"

    for _ in NAMES:
        bidder = await whose_turn(service, table_id)
        options = (await service.lookups.hand_state(table_id, bidder)).bid_options
        await service.playing.act(table_id, bidder, 1, Bid(next(o.n for o in options if o.allowed)))
    leader = await whose_turn(service, table_id)
    said = await refused_move(
        service, table_id, leader, await a_card_not_held(service, table_id, leader)
    )
    assert said.code == "not_held"
    assert explanation_text(said) == f"you don't hold {card_text(said.params['card'])}"


async def test_rules_that_cannot_be_played_are_refused_with_a_code_the_bot_words(
    service: TableService,
) -> None:
    table_id = await lobby(service, blind="last", end="target")
    problem = (await service.lookups.table_view(table_id)).start_problem
    assert isinstance(problem, RulesUnplayable)
    assert problem.problem.code == "blind_target"
    version = (await service.db.tables.load(table_id)).version
    unplayable = await refused(service.lobby.start_game(table_id, ANN))
    assert unplayable.code == "rules_unplayable"
    assert explanation_text(problem_of(unplayable)) == (
        "a game that ends at a target score has no last one-card hand: choose blind 'all' or "
        "'none', or end 'sequence'"
    )
    assert (await service.db.tables.load(table_id)).version == version


async def test_rules_that_are_not_valid_are_refused_with_the_setting_the_bot_names(
    service: TableService,
) -> None:
    table_id = await lobby(service)
    version = (await service.db.tables.load(table_id)).version
    forged = await refused(service.lobby.set_rule(table_id, ANN, "max_cards", 0))
    assert forged.code == "rule_invalid"
    assert explanation_text(problem_of(forged)) == "max cards can't take that value"
    assert (await service.db.tables.load(table_id)).version == version

    not_a_preset = await refused(lobby(service, channel=CHANNEL + 1, preset="no-such-preset"))
    assert not_a_preset.code == "rules_invalid"
    assert explanation_text(problem_of(not_a_preset)) == "preset can't take that value"

    not_a_rule = await refused(
        service.lobby.set_channel_defaults(
            guild_id=GUILD,
            channel_id=CHANNEL,
            user_id=ANN,
            settings={"colour": "red"},
            can_manage=True,
        )
    )
    assert not_a_rule.code == "rules_invalid"
    assert explanation_text(problem_of(not_a_rule)) == "there is no rule called colour"
    assert await service.lobby.channel_defaults(CHANNEL) is None
