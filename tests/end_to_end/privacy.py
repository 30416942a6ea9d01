"""A check over every revision of every message each person could see: no card of another
player's hand appears before it is played."""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

from bot.engine import Game
from cogs.render import card_text
from standin.driver import Person
from standin.server import StandIn
from standin.world import Message

CARD = re.compile(r"(?:10|11|12|13|[2-9JQKA])[♣♦♥♠]|🃏")
HAND_TITLE = re.compile(r"Your hand — hand (\d+)")
TABLE_HAND = re.compile(r"^Hand (\d+) ·")
EARLIER = re.compile(r"\((\d+) earlier tricks?\)")
SCORED = re.compile(r"\*\*(?:Hand (\d+)|Tie-break deal) scored\*\*")
PUBLIC_KINDS = {
    "join",
    "leave",
    "addcpu",
    "rules",
    "start",
    "cancel",
    "hand",
    "scores",
    "hostctl",
    "back",
    "rematch",
}


def _revisions(message: Message) -> list[dict[str, Any]]:
    states = [
        {"content": r.content, "embeds": r.embeds, "components": r.components}
        for r in message.history
    ]
    states.append(
        {"content": message.content, "embeds": message.embeds, "components": message.components}
    )
    return states


def _labels(components: list[dict[str, Any]]) -> list[str]:
    out: list[str] = []
    for row in components:
        for child in row.get("components", [row]):
            out.append(str(child.get("label", "")))
            out.extend(str(o.get("label", "")) for o in child.get("options", []))
            out.append(str(child.get("placeholder", "")))
    return out


def _check_post(content: str, played: Any, hands: dict[int, Any]) -> None:
    """A channel post names cards only in a hand's score, and only cards played in it."""
    parts = SCORED.split(content)
    assert not CARD.findall(parts[0]), f"a channel message's text names cards: {content!r}"
    every = [card for number in hands for card in played(number)]
    for number, block in zip(parts[1::2], parts[2::2], strict=True):
        allowed = Counter(played(int(number)) if number else every)
        shown = Counter(CARD.findall(block))
        assert not shown - allowed, f"a score post names cards not played: {shown - allowed}"


def _field(embed: dict[str, Any], name: str) -> str:
    return " ".join(f.get("value", "") for f in embed.get("fields", []) if f["name"] == name)


def assert_private_hands_stay_private(
    standin: StandIn, people: list[Person], game: Game, seats: dict[str, int]
) -> int:
    """Fails naming the message and card if anyone saw a card they could not know. Returns the
    number of message revisions checked."""
    faces = [card_text(c) for c in game.pack.cards]
    hands = {log.number: log for log in game.history()}

    def played(number: int) -> list[str]:
        log = hands[number]
        order = [faces[c] for t in log.tricks for c in t.cards]
        if log.current is not None:
            order += [faces[c] for c in log.current.cards]
        return order

    def turned(number: int) -> Counter[str]:
        log = hands[number]
        return Counter([faces[log.turned]] if log.turned >= 0 else [])

    checked = 0
    channel_messages = [m for m in standin.world.messages.values() if not m.channel.is_dm]
    for message in channel_messages:
        if message.ephemeral:
            continue
        for state in _revisions(message):
            checked += 1
            for row in state["components"]:
                for child in row.get("components", [row]):
                    kind = str(child.get("custom_id", "")).split(":")[1:2]
                    assert not kind or kind[0] in PUBLIC_KINDS, (
                        f"public message {message.id} carries a private control {child}"
                    )
            for embed in state["embeds"]:
                match = TABLE_HAND.match(embed.get("description", "") or "")
                if match is None:
                    assert not CARD.findall(str(embed)), f"cards outside a hand: {embed}"
                    continue
                number = int(match[1])
                tricks_text = _field(embed, "Tricks this hand")
                shown = CARD.findall(tricks_text + " " + _field(embed, "On the table"))
                earlier = EARLIER.search(tricks_text)
                skip = 0
                if earlier is not None:
                    skip = sum(len(t.cards) for t in hands[number].tricks[: int(earlier[1])])
                order = played(number)[skip:]
                assert Counter(shown) == Counter(order[: len(shown)]), (
                    f"table message {message.id} shows {shown} in hand {number}, but the first "
                    f"cards played were {order[: len(shown)]}"
                )
                head = CARD.findall(embed.get("description", ""))
                assert not Counter(head) - turned(number), (
                    f"table message {message.id} shows {head} beside the turned card"
                )
            _check_post(state["content"] or "", played, hands)

    for person in people:
        seat = seats[person.name]
        private = person.dms() + person.ephemerals()
        for message in private:
            for state in _revisions(message):
                checked += 1
                for embed in state["embeds"]:
                    match = HAND_TITLE.match(embed.get("title", "") or "")
                    if match is None:
                        continue
                    number = int(match[1])
                    log = hands[number]
                    own = Counter(faces[c] for c in log.dealt[seat])
                    cards = Counter(CARD.findall(_field(embed, "Cards")))
                    assert not cards - own, (
                        f"{person.name}'s hand {number} shows {cards - own}, not dealt to them"
                    )
                    blind = CARD.findall(_field(embed, "Blind hand"))
                    others = Counter(
                        faces[c] for s, dealt in enumerate(log.dealt) if s != seat for c in dealt
                    )
                    assert not Counter(blind) - others, f"blind view shows {blind}"
                    assert not set(blind) & set(own) or len(log.dealt[seat]) != 1, (
                        f"{person.name} saw their own blind card in hand {number}"
                    )
                    table = CARD.findall(_field(embed, "Now"))
                    order = played(number)
                    assert not Counter(table) - Counter(order), (
                        f"{person.name}'s hand {number} shows {table} on the table, not played"
                    )
                    # A select names a card in its placeholder and its options: compare faces.
                    labels = set(CARD.findall(" ".join(_labels(state["components"]))))
                    assert labels <= set(own), (
                        f"{person.name}'s controls show {labels - set(own)}, not dealt to them"
                    )
                    trump_field = Counter(CARD.findall(_field(embed, "Trump")))
                    assert not trump_field - turned(number)
    return checked
