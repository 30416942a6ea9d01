"""A check over every byte a page received from the bot, against the game's record: a seat's
stream names no card but its own person's, of each hand, beside the cards everyone has seen
(and, in a blind hand, the others' cards the rule shows it);
the public stream, and every other answer, no card anyone holds. Cards are looked for both as
the page's codes ("QS", "10H") and as the faces it shows ("Q♠", "10♥")."""

from __future__ import annotations

import json
import re
from typing import Any

CODE = re.compile(r"(?<![A-Za-z0-9])(?:10|[2-9JQKA])[CDHS](?![A-Za-z0-9])|JOKER")
FACE = re.compile(r"(10|[2-9JQKA])([♣♦♥♠])")
SUIT_LETTERS = {"♣": "C", "♦": "D", "♥": "H", "♠": "S"}
PUBLIC_FIELDS = ("trick", "tricks", "last", "turned", "earlier")
"""The fields of a table push that show cards: those played, and the one turned up."""
TOKENS = re.compile(r"[A-Za-z0-9_.~-]{20,}")
"""Links, sessions and access tokens: random letters, which are no cards."""


def cards_named(text: str) -> set[str]:
    """Every card `text` names, as codes."""
    text = TOKENS.sub(" ", text)
    named = set(CODE.findall(text))
    named |= {rank + SUIT_LETTERS[suit] for rank, suit in FACE.findall(text)}
    if "🃏" in text:
        named.add("JOKER")
    return named


def seen_by_all(record: dict[str, Any], hands: int) -> set[str]:
    """The cards everyone has seen by the end of hand `hands`: those played, those turned."""
    seen: set[str] = set()
    for hand in record["hands"][:hands]:
        seen |= {action["play"] for action in hand["actions"] if "play" in action}
        if hand["turned"]:
            seen.add(hand["turned"])
    return seen


def turned_by(record: dict[str, Any], hands: int) -> set[str]:
    return {hand["turned"] for hand in record["hands"][:hands] if hand["turned"]}


def events(raw: bytes) -> list[tuple[str, Any]]:
    """The events of a Server-Sent Events stream, every byte of it accounted for: each block an
    event (`id`, `event`, `retry`, `data` lines) or a comment (a keep-alive)."""
    blocks = raw.split(b"\n\n")
    assert blocks[-1] == b"", f"a stream cut inside an event: {blocks[-1][:200]!r}"
    found = []
    for block in blocks[:-1]:
        lines = block.decode().split("\n")
        if all(line.startswith(":") for line in lines):
            continue
        fields = dict(line.split(": ", 1) for line in lines)
        assert set(fields) <= {"id", "event", "retry", "data"}, block[:200]
        found.append((fields.get("event", "message"), json.loads(fields["data"])))
    return found


def check_stream(raw: bytes, record: dict[str, Any], seat: int | None) -> int:
    """Fails naming the card if a page's stream (`seat`'s own, or the public one for None)
    named a card its reader could not know. Returns how many of the seat's hands it sent."""
    hands = 0
    for name, data in events(raw):
        text = json.dumps(data, ensure_ascii=False)
        if name == "hand":
            assert seat is not None, "a hand in the public stream"
            if data is None:
                continue
            number = data["hand"]
            dealt = record["hands"][number - 1]["cards"]
            own = set(dealt[seat])
            mine = {k: v for k, v in data.items() if k not in ("now", "blind")}
            named = cards_named(json.dumps(mine, ensure_ascii=False))
            assert named <= own, (named - own, own, text)
            # What is on the table now: cards played.
            named = cards_named(data["now"] or "")
            assert named <= seen_by_all(record, number), (named, text)
            # A blind hand's: the others' cards, which the rule shows this seat alone.
            others = {card for other, cards in enumerate(dealt) if other != seat for card in cards}
            assert {b["card"] for b in data["blind"]} <= others, text
            hands += 1
        elif name == "table":
            number = data.get("hand") or len(record["hands"])
            public = {k: v for k, v in data.items() if k in PUBLIC_FIELDS}
            rest = {k: v for k, v in data.items() if k not in PUBLIC_FIELDS}
            named = cards_named(json.dumps(public, ensure_ascii=False))
            seen = seen_by_all(record, number)
            assert named <= seen, (named - seen, number)
            named = cards_named(json.dumps(rest, ensure_ascii=False))
            assert named <= turned_by(record, number), (named, rest)
        else:
            assert not cards_named(text), (name, text)
    return hands
