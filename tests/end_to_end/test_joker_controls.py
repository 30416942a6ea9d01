"""The joker through discord.py and the stand-in: led in a no-trumps hand it is played as a
suit its holder names on the hand message; in a hand of more than 20 cards it is offered beside
the four suits' selects, so no suit goes missing."""

from __future__ import annotations

import random
from typing import Any

from bot.engine import JOKER, Bid, Game, Phase, Play, Settings
from standin.driver import Person
from standin.server import StandIn
from standin.world import Message
from tests.end_to_end.conftest import BotFactory
from tests.end_to_end.privacy import CARD, assert_private_hands_stay_private
from tests.end_to_end.test_variants import set_rule
from tools.simulated_people import (
    buttons,
    game_over,
    hand_message,
    my_turn_controls,
    open_table,
    play_until_over,
    table_embed,
    take_turn,
)

NAMES = ("Ann", "Bob", "Cat")


def first_deal(settings: Settings, rng_seed: int) -> Game:
    """The game a table opened by a service whose random source is `Random(rng_seed)` starts
    with (the service draws the table's seed when it opens, and deals from it at start)."""
    seed = random.Random(rng_seed).randrange(2**62)
    return Game.new(settings, players=3, seed=seed, first_dealer=seed % 3, names=NAMES)


def joker_lead_seed(settings: Settings) -> tuple[int, int]:
    """A random source whose first hand has no trumps and whose first leader holds the joker,
    and that leader's seat."""
    for rng_seed in range(20_000):
        game = first_deal(settings, rng_seed)
        if game.trump is not None or JOKER not in game.hand(0) + game.hand(1) + game.hand(2):
            continue
        for seat in game.to_act:
            game.apply(seat, Bid(0))
        leader = game.to_act[0]
        if game.phase is Phase.PLAYING and JOKER in game.hand(leader):
            return rng_seed, leader
    raise AssertionError("no such deal")


def hand_of(person: Person) -> Message:
    message = hand_message(person)
    assert message is not None, person
    return message


def cards_field(message: Message) -> str:
    return next(f["value"] for f in message.embeds[0]["fields"] if f["name"] == "Cards")


def offered_faces(message: Message) -> list[str]:
    """The faces the hand message's play controls name (buttons and select options)."""
    labels: list[str] = []
    for c in message.iter_components():
        if c.get("type") == 2 and c["custom_id"].startswith("oh:play:"):
            labels.append(c["label"])
        labels.extend(o["label"] for o in c.get("options", []))
    return CARD.findall(" ".join(labels))


async def test_the_joker_led_in_no_trumps_is_played_as_the_suit_named(
    standin: StandIn, start_bot: BotFactory
) -> None:
    settings = Settings(preset="oh-shit", pack="52+joker", sequence="down", max_cards=5)
    rng_seed, leader_seat = joker_lead_seed(settings)
    async with start_bot() as bot:
        people = [standin.person(n) for n in NAMES]
        # The service draws each table's seed from its random source when the table opens.
        bot.tables.service.session.rng = random.Random(rng_seed)
        table, t = await open_table(standin, people, preset="oh-shit", max_cards=5, sequence="down")
        await set_rule(people[0], table, t, "pack", "52+joker")
        await standin.wait_for(lambda: "53-card pack" in str(table_embed(table)))
        started = await people[0].click(table, f"oh:start:{t}")
        assert started.response_type == 7, started.content
        await standin.wait_for(lambda: all(my_turn_controls(p) for p in people))
        for person in people:  # secret bids: everyone bids 0 at once
            controls = my_turn_controls(person)
            assert controls is not None
            bid = await take_turn(person, controls[0], f"oh:bid:{t}:1:0")
            assert bid.response_type == 7, bid.content
        leader = people[leader_seat]
        await standin.wait_for(lambda: my_turn_controls(leader))
        message = hand_message(leader)
        assert message is not None and "🃏" in cards_field(message)
        assert "no trumps" in str(message.embeds[0]).lower()
        named = {b["label"]: b for b in buttons(message) if b["label"].startswith("🃏 as")}
        # Nothing played yet: every suit may be named; the joker alone is not offered.
        assert list(named) == ["🃏 as ♣", "🃏 as ♦", "🃏 as ♥", "🃏 as ♠"]
        assert all(not b["disabled"] for b in named.values())
        assert not any(b["label"] == "🃏" for b in buttons(message))

        # Forged ids are refused and change nothing: a suit named for another card, a suit
        # index out of range, the joker unnamed.
        db = bot.tables.service.db
        await bot.presenter.ground.idle()
        version = (await db.tables.load(t)).version
        hearts = named["🃏 as ♥"]["custom_id"]
        joker_id = hearts.split(":")[4].split("-")[0]
        plain = next(
            b for b in buttons(message) if CARD.fullmatch(b["label"]) and b["label"] != "🃏"
        )
        for forged in (
            f"{plain['custom_id']}-2",
            f"oh:play:{t}:1:{joker_id}-4",
            f"oh:play:{t}:1:{joker_id}",
        ):
            result = await leader.click_forged(message, forged)
            assert result.ephemeral and "not for you" in (result.content or ""), (forged, result)
        assert (await db.tables.load(t)).version == version

        played = await leader.click(message, hearts)

        assert played.response_type == 7, played.content
        await bot.presenter.ground.idle()
        row = await bot.tables.service.db.tables.load(t)
        game = Game.from_json(row.document["game"])
        first = game.completed_tricks()[0] if game.completed_tricks() else None
        if first is None:
            assert game.current_trick()[0] == (leader_seat, JOKER)
            assert game.view(leader_seat).led == "H"
        else:
            assert (first.leader, first.cards[0], first.joker_suit) == (leader_seat, JOKER, "H")
        actions = [
            e.payload for e in await bot.tables.service.db.tables.events(t) if e.kind == "action"
        ]
        assert repr(Play(JOKER, "H")) in [a["action"] for a in actions]
        await standin.wait_for(lambda: "🃏" in str(table_embed(table)))
        await play_until_over(standin, people, table)
        await bot.presenter.ground.idle()
        assert game_over(table)
        row = await bot.tables.service.db.tables.load(t)
        game = Game.from_json(row.document["game"])
        seats = {seat["name"]: i for i, seat in enumerate(row.document["seats"])}
        assert assert_private_hands_stay_private(standin, people, game, seats) > 0


async def test_a_21_card_hand_offers_every_suit_and_the_joker(
    standin: StandIn, start_bot: BotFactory
) -> None:
    async with start_bot() as bot:
        people = [standin.person(n) for n in NAMES]
        bot.tables.service.session.rng = random.Random(1)
        table, t = await open_table(standin, people, preset="nomination", max_cards=21)
        await set_rule(people[0], table, t, "pack", "63")
        await set_rule(people[0], table, t, "sequence", "down")
        await standin.wait_for(lambda: "63-card pack" in str(table_embed(table)))
        await people[0].click(table, f"oh:start:{t}")
        await standin.wait_for(lambda: all(hand_message(p) for p in people))
        assert "21 cards each" in table_embed(table)["description"]

        # All 63 cards are dealt: someone holds the joker, and (this deal) all four suits.
        holder = next(p for p in people if "🃏" in cards_field(hand_of(p)))
        held = CARD.findall(cards_field(hand_of(holder)))
        assert {face[-1] for face in held} == {"♣", "♦", "♥", "♠", "🃏"}
        # Bid, then play the first trick (21 cards each: through the selects); at every step
        # each hand message names every card its holder holds in its controls.
        plays = checked = 0
        while plays < 3:
            for person in people:
                message = hand_message(person)
                assert message is not None
                if any("play" in i for i in message.custom_ids()):
                    checked += person is holder and f"os:playsel:{t}" in str(message.custom_ids())
                    assert set(offered_faces(message)) == set(CARD.findall(cards_field(message)))
            mover = await standin.wait_for(
                lambda: next((p for p in people if my_turn_controls(p)), None), timeout=5
            )
            message, ids = my_turn_controls(mover) or (None, [])
            assert message is not None
            if any(i.startswith((f"os:playsel:{t}", f"oh:play:{t}")) for i in ids):
                plays += 1
            result = await take_turn(mover, message, _last_suit_first(message, ids))
            assert result.response_type == 7, result.content
            await bot.presenter.ground.idle()
        assert checked >= 1  # the joker's holder, with selects
        row = await bot.tables.service.db.tables.load(t)
        game = Game.from_json(row.document["game"])
        assert game.cards_each == 21 and len(game.history()[-1].tricks) == 1
        seats = {seat["name"]: i for i, seat in enumerate(row.document["seats"])}
        assert_private_hands_stay_private(standin, people, game, seats)


def _last_suit_first(message: Message, ids: list[str]) -> str:
    """The control to use: the last enabled select (the suit that used to go missing), else
    the first control."""
    selects: list[Any] = [
        c for c in message.iter_components() if c.get("type") == 3 and c["custom_id"] in ids
    ]
    return selects[-1]["custom_id"] if selects else ids[0]
