"""A click costs one load of the table row and no decode of the game (issue 13), and nothing
of a table stays in memory once it closes."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from bot.engine import Game
from standin.server import StandIn
from tests.end_to_end.conftest import BotFactory
from tools.simulated_people import (
    hand_message,
    my_turn_controls,
    open_table,
    play_until_over,
    take_turn,
)

SUIT = re.compile("[♣♦♥♠]")


@contextmanager
def counting(bot: Any, monkeypatch: pytest.MonkeyPatch) -> Iterator[Counter[str]]:
    """Counts the table-row loads, the documents among them read from the database, and the
    full game decodes made meanwhile."""
    counts: Counter[str] = Counter()
    db = bot.tables.service.db
    load_table = db.tables.load
    from_json = Game.from_json

    async def counted_load(table_id: int, known: Any = None) -> Any:
        counts["loads"] += 1
        row = await load_table(table_id, known)
        counts["documents read"] += row is not known
        return row

    def counted_decode(cls: type[Game], text: str) -> Game:
        counts["decodes"] += 1
        return from_json(text)

    with monkeypatch.context() as patch:
        patch.setattr(db.tables, "load", counted_load)
        patch.setattr(Game, "from_json", classmethod(counted_decode))
        yield counts


async def test_a_bid_and_a_card_each_cost_one_load_and_no_decode(
    standin: StandIn, start_bot: BotFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with start_bot() as bot:
        people = [standin.person(n) for n in ("Ann", "Bob", "Cat", "Dan")]
        table, t = await open_table(standin, people, preset="classic", max_cards=5)
        await people[0].click(table, f"oh:start:{t}")
        measured: dict[str, Counter[str]] = {}
        while len(measured) < 2:
            mover = await standin.wait_for(
                lambda: next((p for p in people if my_turn_controls(p)), None), timeout=10
            )
            await bot.presenter.ground.idle()  # steady state: the last click's messages are out
            message, ids = my_turn_controls(mover) or (None, [])
            assert message is not None
            kind = ids[0].split(":")[1]
            # A card once a trick is under way, with three or more in hand: the hand goes on
            # after it, even if forced cards are played at once (a new hand sends new DMs).
            cards = next(f["value"] for f in message.embeds[0]["fields"] if f["name"] == "Cards")
            under_way = "On the table" in str(message.embeds) and len(SUIT.findall(cards)) > 2
            with counting(bot, monkeypatch) as counts:
                result = await take_turn(mover, message, ids[0])
                assert result.response_type == 7, result
                await bot.presenter.ground.idle()
            if kind == "bid" or (kind == "play" and under_way):
                measured.setdefault(kind, counts)
        for kind in ("bid", "play"):
            assert measured[kind]["loads"] <= 1 and measured[kind]["decodes"] == 0, measured
            # The row this process saved last is still the stored one: its version is read,
            # not its document.
            assert measured[kind]["documents read"] == 0, measured
        assert all(hand_message(p) is not None for p in people)


async def test_the_count_sees_a_load_and_a_decode(
    standin: StandIn, start_bot: BotFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with start_bot() as bot:
        ann, bob, cat = (standin.person(n) for n in ("Ann", "Bob", "Cat"))
        table, t = await open_table(standin, [ann, bob, cat], preset="classic", max_cards=3)
        await ann.click(table, f"oh:start:{t}")
        # The click is answered before the bot hands the start on to its background work:
        # once the hands are out, that work exists, and idle() waits for all of it.
        await standin.wait_for(lambda: all(hand_message(p) for p in (ann, bob, cat)))
        await bot.presenter.ground.idle()
        with counting(bot, monkeypatch) as counts:
            # Cold caches: the next look reads the document and decodes the game.
            bot.tables.service.session._games.clear()
            bot.tables.service.session._rows.clear()
            await bot.tables.service.lookups.hand_state(t, ann.id)
        assert counts == Counter({"loads": 1, "decodes": 1, "documents read": 1})


async def test_fifty_finished_tables_leave_nothing_in_memory(
    standin: StandIn, start_bot: BotFactory
) -> None:
    async with start_bot() as bot:
        people = [standin.person(n) for n in ("Ann", "Bob", "Cat")]
        for _ in range(50):
            table, t = await open_table(
                standin, people, preset="classic", max_cards=1, sequence="down"
            )
            started = await people[0].click(table, f"oh:start:{t}")
            assert started.response_type == 7, started
            await play_until_over(standin, people, table)
        await bot.presenter.ground.idle()
        assert len(await bot.tables.service.db.tables.open_ids()) == 0
        assert bot.presenter.cached_tables() == set()
        assert bot.tables.service.session.cached_tables() == set()
