"""The joker through discord.py and the stand-in: in a hand of more than 20 cards it is offered
beside the four suits' selects, so no suit goes missing."""

from __future__ import annotations

import random
from typing import Any

from bot.engine import Game
from standin.server import StandIn
from standin.world import Message
from tests.bot.conftest import BotFactory
from tests.bot.privacy import CARD, assert_private_hands_stay_private
from tests.bot.test_variants import set_rule
from tools.simulated_people import (
    hand_message,
    my_turn_controls,
    open_table,
    table_embed,
    take_turn,
)

NAMES = ("Ann", "Bob", "Cat")


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


async def test_a_21_card_hand_offers_every_suit_and_the_joker(
    standin: StandIn, start_bot: BotFactory
) -> None:
    async with start_bot() as bot:
        people = [standin.person(n) for n in NAMES]
        bot.tables.service._rng = random.Random(1)
        table, t = await open_table(standin, people, preset="nomination", max_cards=21)
        await set_rule(people[0], table, t, "pack", "63")
        await set_rule(people[0], table, t, "sequence", "down")
        await standin.wait_for(lambda: "63-card pack" in str(table_embed(table)))
        await people[0].click(table, f"oh:start:{t}")
        await standin.wait_for(lambda: all(hand_message(p) for p in people))
        assert "21 cards each" in table_embed(table)["description"]

        # All 63 cards are dealt: someone holds the joker, and (this deal) all four suits.
        hands = [cards_field(m) for p in people if (m := hand_message(p)) is not None]
        held = next(h for h in hands if "🃏" in h)
        assert {face[-1] for face in CARD.findall(held)} == {"♣", "♦", "♥", "♠", "🃏"}
        # Bid, then play the first trick (21 cards each: through the selects); at every step
        # each hand message names every card its holder holds in its controls.
        plays = checked = 0
        while plays < 3:
            for person in people:
                message = hand_message(person)
                assert message is not None
                if any("play" in i for i in message.custom_ids()):
                    checked += 1
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
            await bot.tables.idle()
        assert checked >= 9
        row = await bot.tables.service.db.load_table(t)
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
