"""Hand DMs while their person is at the table's page (cogs/web/presence.py), through the real
client and the stand-in: a person at the page gets no edit of their hand DM and no new hand's
DM while they are there; it catches up to the exact current state when they leave the page;
a finished hand's DM is closed and a finished game's shows its end; someone not at the page
gets their edits as before; a click on a DM left behind shows the hand as it is now and does
not act; and a game with everyone at the page costs fewer REST calls.

The page's seat stream (`presence.arrive` / `leave`) and its actions are stood for here: a
person "at the page" is marked present directly, and acts through the same service call and
publishing a click uses (`TableController.committed`)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from bot.engine import Bid
from bot.service import Outcome, TableStatus
from cogs import render
from cogs.client import OhHellBot
from cogs.render.language import speaking
from standin.driver import Person
from standin.server import StandIn
from standin.world import Message
from tests.end_to_end.conftest import BotFactory
from tools.benchbot import INTERACTION_ROUTES
from tools.simulated_people import game_over, hand_message, my_turn_controls, open_table, take_turn

WEB = {"public_url": "https://ohhell.example.org", "web_port": 0}
EDIT = "PATCH /channels/{channel_id}/messages/{message_id}"
pytestmark = [
    pytest.mark.parametrize("database_url", ["sqlite"], indirect=True),
    pytest.mark.timeout(180),
]


def edits_of(standin: StandIn, message: Message, since: int = 0) -> int:
    """The bot's REST edits of one message (interaction answers are not these)."""
    return sum(
        1 for c in standin.calls[since:] if c.route == EDIT and c.path.endswith(f"/{message.id}")
    )


async def waiting_for(bot: OhHellBot, table_id: int) -> tuple[int | None, int, TableStatus]:
    """Whom the table waits for (a user id, or None), the hand number, and the table's status."""
    table = await bot.tables.service.lookups.table_view(table_id)
    game = table.game
    if game is None or not game.to_act or not table.status.is_open:
        return None, game.hand_number if game else 0, table.status
    return table.seats[game.to_act[0]].user_id, game.hand_number, table.status


async def from_the_page(bot: OhHellBot, table_id: int, user_id: int) -> None:
    """A move made at the page: the first allowed bid or card, by the service call a click
    makes, published as a click's change is."""
    service = bot.tables.service
    state = await service.lookups.hand_state(table_id, user_id)
    action: Any
    if state.bid_options:
        action = Bid(next(o.n for o in state.bid_options if o.allowed))
    else:
        action = next(o.card_id for o in state.cards if o.allowed)
    outcome = await service.playing.act(table_id, user_id, state.hand_number, action)
    with bot.tables.committed(outcome, move_on=outcome.automatic):
        pass


async def one_move(
    standin: StandIn,
    bot: OhHellBot,
    table_id: int,
    people: list[Person],
    at_page: set[int],
) -> bool:
    """The next move: at the page for those there, else a click on the DM. False once the game
    is over. Back when everything it set off has landed."""
    user_id, _, status = await waiting_for(bot, table_id)
    if status is not TableStatus.PLAYING:
        return False
    assert user_id is not None
    person = next(p for p in people if p.id == user_id)
    if user_id in at_page:
        await from_the_page(bot, table_id, user_id)
    else:
        await standin.wait_for(lambda: my_turn_controls(person) is not None)
        controls = my_turn_controls(person)
        assert controls is not None
        result = await take_turn(person, controls[0], controls[1][0])
        assert result.response_type == 7, result.content
    await bot.presenter.ground.idle()
    await bot.presenter.ground.idle()
    return True


def keep_outcomes(bot: OhHellBot) -> list[Outcome]:
    """Every outcome the presenter is handed from now on, newest last."""
    kept: list[Outcome] = []
    remember = bot.presenter.ground.remember

    def keeping(outcome: Outcome) -> None:
        kept.append(outcome)
        remember(outcome)

    bot.presenter.ground.remember = keeping  # type: ignore[method-assign]
    return kept


async def shows_now(
    bot: OhHellBot,
    table_id: int,
    person: Person,
    message: Message,
    outcomes: list[Outcome] | None = None,
) -> None:
    """The DM shows exactly the person's hand as it is now (a finished game's: as its last
    outcome left it)."""
    if outcomes is None:
        newest = await bot.tables.service.lookups.newest(table_id)
    else:
        newest = next(o for o in reversed(outcomes) if o.every_hand)
    table, state = newest.table, (newest.every_hand or {})[person.id]
    with speaking(await bot.speakers.person(person.id)):
        rendered = render.hand_message(state, table, render.where_of(table))
    assert rendered.embed is not None
    assert (message.content or None) == (rendered.content or None)
    embed = rendered.embed.to_dict()
    shown = message.embeds[0]
    for key in ("title", "description", "fields", "footer"):
        assert shown.get(key) == embed.get(key), key
    expected = rendered.view.to_components() if rendered.view is not None else []
    assert [controls(row) for row in message.components] == [controls(r) for r in expected]


def controls(row: dict[str, Any]) -> list[tuple[str, bool]]:
    """A row's controls, as what they do and whether they may be used."""
    return [(c.get("custom_id", ""), bool(c.get("disabled"))) for c in row.get("components", [])]


async def game_of_three(
    standin: StandIn, bot: OhHellBot, seed: int = 42
) -> tuple[list[Person], Message, int]:
    bot.tables.service.session.rng = random.Random(seed)
    people = [standin.person(n) for n in ("Ann", "Bob", "Cat")]
    table, table_id = await open_table(standin, people, preset="classic", max_cards=2)
    started = await people[0].click(table, f"oh:start:{table_id}")
    assert started.response_type == 7
    await standin.wait_for(lambda: all(hand_message(p) is not None for p in people))
    await bot.presenter.ground.idle()
    return people, table, table_id


async def test_a_dm_waits_while_its_person_is_at_the_page_and_catches_up(
    standin: StandIn, start_bot: BotFactory
) -> None:
    async with start_bot(settings=WEB) as bot:
        assert bot.web is not None
        presence = bot.web.presence
        people, table_message, table_id = await game_of_three(standin, bot)
        ann, bob, _cat = people
        first = hand_message(ann)
        bobs_first = hand_message(bob)
        assert first is not None and bobs_first is not None
        presence.arrive(table_id, ann.id)
        since = len(standin.calls)

        # The whole first hand: Ann's DM is not edited, Bob's is, as ever.
        while (await waiting_for(bot, table_id))[1] == 1:
            assert await one_move(standin, bot, table_id, people, {ann.id})
        assert edits_of(standin, bobs_first, since) > 0
        # The hand ended: Ann's first DM was closed once (no button of it looks live), and no
        # new DM came for the second hand while she is at the page (it would notify her).
        await standin.wait_for(lambda: edits_of(standin, first, since) > 0, timeout=10)
        assert edits_of(standin, first, since) == 1
        assert first.components == [] and not first.embeds
        assert hand_message(ann) is first or hand_message(ann) is None
        assert len([m for m in ann.dms() if m.embeds]) == 0
        second_bob = hand_message(bob)
        assert second_bob is not None and second_bob is not bobs_first

        # A move or two into the second hand, she leaves the page: her DM catches up.
        assert await one_move(standin, bot, table_id, people, {ann.id})
        presence.leave(table_id, ann.id)
        await bot.presenter.ground.idle()
        caught_up = hand_message(ann)
        assert caught_up is not None and caught_up is not first
        await shows_now(bot, table_id, ann, caught_up)

        # Back at the page till the end: the finished game's DM shows its end.
        presence.arrive(table_id, ann.id)
        outcomes = keep_outcomes(bot)
        while await one_move(standin, bot, table_id, people, {ann.id}):
            pass
        await standin.wait_for(lambda: game_over(table_message))
        await bot.presenter.ground.idle()
        last = hand_message(ann)
        assert last is not None
        table = await bot.tables.service.lookups.table_view(table_id)
        assert table.status is TableStatus.FINISHED
        await shows_now(bot, table_id, ann, last, outcomes)
        assert not any(c.get("disabled") is False for c in last.iter_components())
        assert standin.take_violations() == []


async def test_a_click_on_a_dm_left_behind_shows_the_hand_now_and_does_not_act(
    standin: StandIn, start_bot: BotFactory
) -> None:
    async with start_bot(settings=WEB) as bot:
        assert bot.web is not None
        people, _, table_id = await game_of_three(standin, bot)
        # Play until it is someone's turn whose DM shows it, then they go to the page.
        while True:
            user_id, _, _ = await waiting_for(bot, table_id)
            person = next(p for p in people if p.id == user_id)
            controls = my_turn_controls(person)
            if controls is not None:
                break
            await one_move(standin, bot, table_id, people, set())
        bot.web.presence.arrive(table_id, person.id)
        left_behind, ids = controls
        # They move at the page, and the others play on: the DM still offers that moment.
        await from_the_page(bot, table_id, person.id)
        await bot.presenter.ground.idle()
        assert my_turn_controls(person) == (left_behind, ids)
        service = bot.tables.service
        before = await service.lookups.table_view(table_id)

        clicked = await take_turn(person, left_behind, ids[0])

        # The answer is the hand as it is now, in place; nothing was done.
        assert clicked.response_type == 7, clicked.content
        assert await service.lookups.table_view(table_id) == before
        await shows_now(bot, table_id, person, left_behind)
        assert standin.take_violations() == []


async def whole_game_calls(standin: StandIn, bot: OhHellBot, *, at_page: bool) -> int:
    """The REST calls outside interactions of one game of three, everyone moving at the page
    (the same seed, the same moves), marked present or not."""
    assert bot.web is not None
    await bot.presenter.ground.idle()
    since = len(standin.calls)
    people, table, table_id = await game_of_three(standin, bot)
    everyone = {p.id for p in people}
    if at_page:
        for person in people:
            bot.web.presence.arrive(table_id, person.id)
    while await one_move(standin, bot, table_id, people, everyone):
        pass
    await standin.wait_for(lambda: game_over(table))
    await bot.presenter.ground.idle()
    for person in people if at_page else ():
        bot.web.presence.leave(table_id, person.id)
    await bot.presenter.ground.idle()
    return sum(1 for c in standin.calls[since:] if not c.route.startswith(INTERACTION_ROUTES))


async def test_a_game_with_everyone_at_the_page_makes_fewer_rest_calls(
    standin: StandIn, start_bot: BotFactory
) -> None:
    async with start_bot(settings=WEB, edit_delay=0.3) as bot:
        away = await whole_game_calls(standin, bot, at_page=False)
        there = await whole_game_calls(standin, bot, at_page=True)
    assert there < away * 0.7, (there, away)


async def test_a_slow_turn_mentions_nobody_who_is_at_the_page(
    standin: StandIn, start_bot: BotFactory
) -> None:
    async with start_bot(settings=WEB, turn_ping_after=0.3) as bot:
        assert bot.web is not None
        people = [standin.person(n) for n in ("Ann", "Bob", "Cat")]
        table, t = await open_table(standin, people, preset="classic", max_cards=2, timer=0)
        await people[0].click(table, f"oh:start:{t}")
        await standin.wait_for(lambda: all(hand_message(p) for p in people))
        mover = next(p for p in people if my_turn_controls(p))
        bot.web.presence.arrive(t, mover.id)
        nudged: list[tuple[int, ...]] = []
        ping = bot.presenter._ping

        async def pinging(table: Any, marker: Any, waiting: tuple[int, ...]) -> None:
            nudged.append(waiting)
            await ping(table, marker, waiting)

        bot.presenter._ping = pinging
        await standin.wait_for(lambda: nudged, timeout=5)
        await bot.presenter.ground.idle()
        assert nudged == [(mover.id,)]
        assert not [
            m
            for m in people[0].visible_messages(standin.channel)
            if "your turn at the table" in m.content
        ]
