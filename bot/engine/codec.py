"""The saved-game codec: ``Game.to_json`` and ``Game.from_json``.

Compact, versioned JSON (``"v": 1``): the rules' overrides, players, names, seed, and per hand
``[dealer, cards, actions]``. ``cards`` is null when the deal came from the seed (the usual case)
and otherwise lists each seat's cards then the turned card; ``actions`` is one string,
``"{seat}b{bid}"``, ``"{seat}t{suit}"`` and ``"{seat}p{card id}[:{named suit}]"`` separated by
spaces. Loading replays every action through the rules, so a record that doesn't follow them is
refused; every record written by earlier versions must keep loading.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any, Final, TypeVar

from bot.engine.dealing import next_seats, order_for, seeded_deal
from bot.engine.errors import EngineError
from bot.engine.moves import apply_fast, legal_mask
from bot.engine.settings import Settings
from bot.engine.state import BIDDING, OVER, PLAYING, TRUMP, Deal, GameState, HandLog
from bot.engine.tricks import joker_suits

JSON_VERSION: Final = 1

G = TypeVar("G", bound=GameState)
Create = Callable[[Settings, int, int, int, Sequence[str], dict[int, Deal]], G]
"""Makes a game: settings, players, seed, first dealer, names, deals that aren't seeded."""


def to_json(g: GameState) -> str:
    """Compact, versioned JSON: loads back exactly with :func:`from_json`, future deals
    included (deals come from the seed; only deals that didn't are stored)."""
    hands: list[Any] = []
    for h in g.history():
        order = order_for(h.seats, h.dealer)
        seeded = seeded_deal(g, h.number - 1, order, h.cards_each)
        cards: Any = None
        if seeded != (h.dealt, h.turned):
            cards = [list(d) for d in h.dealt] + [h.turned]
        hands.append([h.dealer, cards, _encode_actions(h, next_seats(order, g._np))])
    doc = {
        "v": JSON_VERSION,
        "rules": g._rules.settings.overrides(),
        "players": g._np,
        "names": list(g._names),
        "seed": g._seed,
        "hands": hands,
    }
    return json.dumps(doc, separators=(",", ":"))


def from_json(text: str, create: Create[G]) -> G:
    """Load a game saved by :func:`to_json`; raises :class:`EngineError` if it isn't one."""
    try:
        return _load(json.loads(text), create)
    except EngineError:
        raise
    except (ValueError, TypeError, KeyError, IndexError) as e:
        raise EngineError(f"not a saved game of version {JSON_VERSION}: {e}") from None


def _load(doc: Any, create: Create[G]) -> G:
    if not isinstance(doc, dict) or doc.get("v") != JSON_VERSION:
        raise EngineError(f"not a saved game of version {JSON_VERSION}")
    settings = Settings.model_validate(doc["rules"])
    hands = doc["hands"]
    overrides: dict[int, Deal] = {}
    for i, (_dealer, cards, _actions) in enumerate(hands):
        if cards is not None:
            overrides[i] = (tuple(tuple(c) for c in cards[:-1]), int(cards[-1]))
    first = hands[0][0] if hands else 0
    g = create(settings, doc["players"], doc["seed"], first, doc["names"], overrides)
    for i, (dealer, _cards, actions) in enumerate(hands):
        if g._number != i + 1 or g._dealer != dealer or g._phase is OVER:
            raise EngineError(f"saved hand {i + 1} doesn't follow from the one before")
        for seat, kind, x, suit in _decode_actions(actions):
            want = {"b": BIDDING, "t": TRUMP, "p": PLAYING}[kind]
            if g._number != i + 1 or g._phase is not want or not legal_mask(g, seat) >> x & 1:
                raise EngineError(f"saved hand {i + 1} holds an illegal action")
            if kind == "p" and suit >= 0 and not joker_suits(g, seat) >> suit & 1:
                raise EngineError(f"saved hand {i + 1} names an illegal joker suit")
            apply_fast(g, seat, x, suit)
    return g


def _encode_actions(h: HandLog, nxt: tuple[int, ...]) -> str:
    parts = [f"{s}b{n}" for s, n in h.bid_log]
    if h.trump_choice is not None:
        parts.append(f"{h.trump_choice[0]}t{h.trump_choice[1]}")
    tricks = [*h.tricks, h.current] if h.current is not None else h.tricks
    for t in tricks:
        s = t.leader
        for i, c in enumerate(t.cards):
            named = t.joker_suit if i == 0 and t.joker_suit >= 0 else -1
            parts.append(f"{s}p{c}" + (f":{named}" if named >= 0 else ""))
            s = nxt[s]
    return " ".join(parts)


def _decode_actions(text: str) -> list[tuple[int, str, int, int]]:
    out = []
    for part in text.split():
        for kind in "btp":
            if kind in part:
                seat, rest = part.split(kind)
                x, _, suit = rest.partition(":")
                out.append((int(seat), kind, int(x), int(suit) if suit else -1))
                break
    return out
