"""Every preset, every player count, secret bids, computers from the lobby, a 23-card hand —
each a real game through discord.py and the stand-in, checked for leaked cards."""

from __future__ import annotations

import re
from typing import Any

import pytest

from bot.engine import Game
from standin.driver import Person
from standin.server import StandIn
from standin.world import Message
from tests.end_to_end.conftest import BotFactory
from tests.end_to_end.privacy import assert_private_hands_stay_private
from tools.simulated_people import (
    add_computer,
    game_over,
    hand_message,
    my_turn_controls,
    open_table,
    play_until_over,
    table_embed,
    take_turn,
)

NAMES = ("Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus")


def has_bid_count(table: Message, count: int) -> Any:
    said = f"{count} of 3 has bid" if count == 1 else f"{count} of 3 have bid"
    return lambda: said in str(table_embed(table))


async def set_rule(host: Person, table: Message, t: int, field: str, value: str) -> None:
    editor = await host.click(table, f"oh:rules:{t}")
    assert editor.reply is not None, editor
    page = next(i for i, page in enumerate(_pages()) if field in page)
    message = editor.reply
    if page:
        await host.click(message, f"oh:rulepg:{t}:0:{page}")
    result = await host.select(message, f"os:rule:{t}:0:{field}", [value])
    assert result.response_type == 7, result


def _pages() -> tuple[tuple[str, ...], ...]:
    from cogs.render import RULE_PAGES

    return RULE_PAGES


async def finish_and_check(
    standin: StandIn, bot: Any, people: list[Person], table: Message, t: int
) -> Game:
    await play_until_over(standin, people, table)
    await bot.presenter.ground.idle()
    row = await bot.tables.service.db.tables.load(t)
    game = Game.from_json(row.document["game"])
    seats = {seat["name"]: i for i, seat in enumerate(row.document["seats"])}
    checked = assert_private_hands_stay_private(standin, people, game, seats)
    assert checked > 0
    return game


PRESETS = ["oh-hell", "oh-shit", "oh-shit-half", "classic", "nomination", "first-to-101"]


# Every preset's rules on SQLite; on PostgreSQL one preset's whole game: the backend stores and
# loads the game, and its other tests cover that, while the rules are the same on both.
@pytest.mark.parametrize(
    ("database_url", "preset"),
    [*(("sqlite", preset) for preset in PRESETS), ("postgres", "classic")],
    indirect=["database_url"],
)
async def test_a_whole_game_of_each_preset(
    standin: StandIn, start_bot: BotFactory, preset: str
) -> None:
    async with start_bot() as bot:
        people = [standin.person(n) for n in NAMES[:2]]
        table, t = await open_table(standin, people, preset=preset)
        await add_computer(standin, people[0], table, t, "easy")
        await add_computer(standin, people[1], table, t, "normal")
        started = await people[0].click(table, f"oh:start:{t}")
        assert started.response_type == 7
        game = await finish_and_check(standin, bot, people, table, t)
        assert game.placing is not None
        assert game_over(table)
        board = await people[0].slash(standin.channel, "leaderboard", preset=preset)
        assert board.reply is not None
        # One game: provisional ratings, listed below the line, unranked.
        lines = board.reply.embeds[0]["description"].splitlines()
        assert lines[0] == "*Not ranked yet: provisional ratings (shown with ?)*"
        assert any(
            line.startswith(f"<@{people[0].id}> — **") and "?** · " in line for line in lines
        )


@pytest.mark.parametrize("players", [3, 4, 5, 6, 7])
async def test_every_player_count(standin: StandIn, start_bot: BotFactory, players: int) -> None:
    async with start_bot() as bot:
        people = [standin.person(n) for n in NAMES[:players]]
        table, t = await open_table(standin, people, preset="classic", max_cards=2)
        assert f"{players} seated" in table_embed(table)["description"]
        await people[0].click(table, f"oh:start:{t}")
        game = await finish_and_check(standin, bot, people, table, t)
        assert game.players == players


async def test_secret_bids_are_revealed_together(standin: StandIn, start_bot: BotFactory) -> None:
    async with start_bot() as bot:
        people = [standin.person(n) for n in NAMES[:3]]
        table, t = await open_table(standin, people, preset="oh-shit-half", max_cards=3)
        await people[0].click(table, f"oh:start:{t}")
        await standin.wait_for(lambda: all(my_turn_controls(p) for p in people))
        for count, person in enumerate(people[:2], start=1):
            controls = my_turn_controls(person)
            assert controls is not None
            await take_turn(person, *controls[:1], controls[1][0])
            await standin.wait_for(has_bid_count(table, count), timeout=5)
            players = next(f for f in table_embed(table)["fields"] if f["name"] == "Players")
            assert "bid 0" not in players["value"] and "has bid" in players["value"]
        controls = my_turn_controls(people[2])
        assert controls is not None
        await take_turn(people[2], controls[0], controls[1][0])
        await standin.wait_for(lambda: "bid 0" in str(table_embed(table)), timeout=5)
        await finish_and_check(standin, bot, people, table, t)


async def test_a_23_card_hand_plays_through_selects(
    standin: StandIn, start_bot: BotFactory
) -> None:
    async with start_bot() as bot:
        people = [standin.person(n) for n in NAMES[:3]]
        table, t = await open_table(standin, people, preset="nomination", max_cards=23)
        await set_rule(people[0], table, t, "pack", "104")
        await set_rule(people[0], table, t, "sequence", "down")
        await standin.wait_for(lambda: "104-card pack" in str(table_embed(table)))
        await people[0].click(table, f"oh:start:{t}")
        await standin.wait_for(lambda: all(hand_message(p) for p in people))
        first = hand_message(people[0])
        assert first is not None
        assert "23 cards each" in table_embed(table)["description"]
        mover = next(p for p in people if my_turn_controls(p))
        controls = my_turn_controls(mover)
        assert controls is not None
        assert any(c.get("type") == 3 for c in controls[0].iter_components())
        # Bid and play the first trick through selects.
        for _ in range(3 + 3):
            found = await standin.wait_for(
                lambda: next((p for p in people if my_turn_controls(p)), None), timeout=5
            )
            message, ids = my_turn_controls(found) or (None, [])
            assert message is not None
            result = await take_turn(found, message, ids[0])
            assert result.response_type == 7, result.content
        await bot.presenter.ground.idle()
        row = await bot.tables.service.db.tables.load(t)
        game = Game.from_json(row.document["game"])
        assert game.cards_each == 23 and len(game.history()[-1].tricks) == 1
        seats = {seat["name"]: i for i, seat in enumerate(row.document["seats"])}
        assert_private_hands_stay_private(standin, people, game, seats)


@pytest.mark.parametrize(
    "options",
    [
        {"preset": "nomination", "trump": "bidder", "max_cards": 3},
        {"preset": "nomination", "bidding": "knock", "max_cards": 3},
        {"preset": "oh-shit-half", "trump": "bidder", "bidding": "knock", "max_cards": 2},
    ],
    ids=["trump-by-bidder", "knocking", "both"],
)
async def test_bidder_trump_and_knocking_controls(
    standin: StandIn, start_bot: BotFactory, options: dict[str, Any]
) -> None:
    async with start_bot() as bot:
        people = [standin.person(n) for n in NAMES[:3]]
        table, t = await open_table(standin, people, **options)
        await people[0].click(table, f"oh:start:{t}")
        await finish_and_check(standin, bot, people, table, t)
        kinds = [e.kind for e in await bot.tables.service.db.tables.events(t)]
        if options.get("trump") == "bidder":
            assert "TrumpChosen" in kinds
        if options.get("bidding") == "knock":
            assert "BidsRevealed" in kinds


async def test_the_leaderboard_after_several_games(standin: StandIn, start_bot: BotFactory) -> None:
    async with start_bot() as bot:
        people = [standin.person(n) for n in NAMES[:3]]
        for _ in range(3):
            table, t = await open_table(standin, people, preset="classic", max_cards=1)
            await people[0].click(table, f"oh:start:{t}")
            await play_until_over(standin, people, table)
            await bot.presenter.ground.idle()
        provisional = await people[1].slash(standin.channel, "leaderboard")
        assert provisional.reply is not None  # three games: nobody's rating is settled yet
        lines = provisional.reply.embeds[0]["description"].splitlines()
        # Listed all the same, below the line, each with its `?` and no place.
        assert lines[0] == "*Not ranked yet: provisional ratings (shown with ?)*"
        assert len(lines) == 4 and {line.split(" — ")[0] for line in lines[1:]} == {
            f"<@{p.id}>" for p in people
        }
        assert all(re.search(r" — \*\*[\d,]+\?\*\* · ", line) for line in lines[1:])
        assert "0 ranked (settled ratings)" in provisional.reply.embeds[0]["footer"]["text"]
        # Wins are a count: ranked without a settled rating.
        counted = await people[1].slash(standin.channel, "leaderboard", by="wins")
        assert counted.reply is not None
        lines = counted.reply.embeds[0]["description"].splitlines()
        assert [line.split(" ")[0] for line in lines] == ["**1.**", "**2.**", "**3.**"]
        assert all("? · " in line for line in lines)
        assert "· 3 players ·" in counted.reply.embeds[0]["footer"]["text"]
        # As if they had played enough games to settle their ratings.
        await bot.tables.service.db.store.backend.execute("UPDATE ratings SET sigma = 1")
        board = await people[1].slash(standin.channel, "leaderboard")
        assert board.reply is not None
        rows = board.reply.embeds[0]["description"].splitlines()
        assert len(rows) == 3
        assert all("3 games" in row for row in rows)
        ratings = [int(row.split("— **")[1].split("**")[0].replace(",", "")) for row in rows]
        assert ratings == sorted(ratings, reverse=True)
        by_wins = await people[1].slash(standin.channel, "leaderboard", by="wins")
        assert by_wins.reply is not None
        rows = by_wins.reply.embeds[0]["description"].splitlines()
        wins = [int(row.split("— **")[1].split(" win")[0]) for row in rows]
        assert wins == sorted(wins, reverse=True)
        assert sum(wins) >= 3  # shared first places count for each
        only_other = await people[1].slash(standin.channel, "leaderboard", preset="oh-hell")
        assert only_other.reply is not None
        assert "Nobody here has a rating yet" in only_other.reply.embeds[0]["description"]
