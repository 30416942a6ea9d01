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
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final, TypeVar

from bot.engine.dealing import order_for, seat_order, seeded_deal
from bot.engine.errors import EngineError
from bot.engine.moves import apply_fast, legal_mask
from bot.engine.settings import Settings
from bot.engine.state import BIDDING, OVER, PLAYING, TRUMP, Deal, GameState, HandLog, current_log
from bot.engine.tricks import joker_suits

JSON_VERSION: Final = 1

G = TypeVar("G", bound=GameState)
Create = Callable[[Settings, int, int, int, Sequence[str], dict[int, Deal]], G]
"""Makes a game: settings, players, seed, first dealer, names, deals that aren't seeded."""

_PHASE_OF: Final = {"b": BIDDING, "t": TRUMP, "p": PLAYING}
_ACTION: Final = re.compile(r"([0-9]+)([btp])([0-9]+)(?::([0-9]+))?")
"""One action as ``to_json`` writes it: seat, kind, value, and a joker's named suit."""


def to_json(g: GameState) -> str:
    """Compact, versioned JSON: loads back exactly with :func:`from_json`, future deals
    included (deals come from the seed; only deals that didn't are stored). A finished hand is
    encoded once per game: every save writes it again, and it never changes."""
    past = g.finished_hands
    done, encoded = g.finished_json
    if done != len(past):
        more = [_dumps(_hand_entry(g, h)) for h in past[done:]]
        encoded = ",".join([encoded, *more] if encoded else more)
        g.finished_json = (len(past), encoded)
    hands = [encoded] if encoded else []
    if g.phase is not OVER:
        hands.append(_dumps(_hand_entry(g, current_log(g))))
    head = _dumps(
        {
            "v": JSON_VERSION,
            "rules": g.rules.settings.overrides(),
            "players": g.players,
            "names": list(g.names),
            "seed": g.seed,
            "hands": [],
        }
    )
    # "hands" is the last key: its list closes the document.
    return head[: -len("[]}")] + "[" + ",".join(hands) + "]}"


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"))


def _hand_entry(g: GameState, h: HandLog) -> list[Any]:
    """One hand as saved: ``[dealer, cards, actions]``."""
    cards: Any = None
    # A deal that wasn't given came from the seed; a given one is stored unless it is the
    # seeded deal anyway.
    if h.number - 1 in g.deal_overrides:
        order = order_for(h.seats, h.dealer)
        if seeded_deal(g, h.number - 1, order, h.cards_each) != (h.dealt, h.turned):
            cards = [list(d) for d in h.dealt] + [h.turned]
    nxt = seat_order(h.seats, h.dealer, g.players)[1]
    return [h.dealer, cards, _encode_actions(h, nxt)]


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
    _replay(g, hands, 1)
    return g


def renamed(text: str, names: Mapping[int, str]) -> str:
    """A saved game with the players of some seats (seat -> name) given other names: the same
    game in the same form, whose hands load as before. Raises :class:`EngineError` for text
    that is not a saved game or a seat it does not have."""
    try:
        doc = json.loads(text)
        if not isinstance(doc, dict) or doc.get("v") != JSON_VERSION:
            raise EngineError(f"not a saved game of version {JSON_VERSION}")
        players = list(doc["names"])
        for seat, name in names.items():
            if not 0 <= seat < len(players):
                raise EngineError(f"the saved game has no seat {seat}")
            players[seat] = name
    except (ValueError, TypeError, KeyError) as e:
        raise EngineError(f"not a saved game of version {JSON_VERSION}: {e}") from None
    doc["names"] = players
    return _dumps(doc)


def catch_up(g: GameState, text: str) -> bool:
    """Bring `g` up to the saved game `text` when `text` is `g` played on (the same game, with
    `g`'s hands and more actions after them), replaying only the actions `g` has not had,
    checked as :func:`from_json` checks them: a game another process moved on costs the
    actions it added, not the whole game. False, with `g` unchanged, when `text` is not `g`
    played on (or holds a deal that did not come from the seed); :class:`EngineError` when an
    added action breaks the rules, and `g` is then half moved on."""
    if g.phase is OVER:
        return False
    try:
        old, new = json.loads(to_json(g)), json.loads(text)
    except ValueError:
        return False
    if not isinstance(new, dict) or any(new.get(key) != old[key] for key in _SAME_GAME):
        return False
    old_hands, new_hands = old["hands"], new["hands"]
    k = len(old_hands)
    if not k or not isinstance(new_hands, list) or len(new_hands) < k:
        return False
    if new_hands[: k - 1] != old_hands[: k - 1] or any(h[1] is not None for h in new_hands[k:]):
        return False
    dealer, cards, done = old_hands[-1]
    if not isinstance(new_hands[k - 1], list) or new_hands[k - 1][:2] != [dealer, cards]:
        return False
    actions = new_hands[k - 1][2]
    if not isinstance(actions, str):
        return False
    if done and not (actions == done or actions.startswith(done + " ")):
        return False
    try:
        _replay(g, [[dealer, None, actions[len(done) :].lstrip(" ")], *new_hands[k:]], k)
    except (ValueError, TypeError, KeyError, IndexError) as e:
        raise EngineError(f"not a saved game of version {JSON_VERSION}: {e}") from None
    return True


_SAME_GAME: Final = ("v", "rules", "players", "names", "seed")


def _replay(g: GameState, hands: list[Any], first: int) -> None:
    """Apply the saved `hands` to `g`, the first of them hand number `first`, each action
    checked against the rules."""
    phase_of = _PHASE_OF
    for i, (dealer, _cards, actions) in enumerate(hands):
        number = first + i
        if g.hand_number != number or g.dealer != dealer or g.phase is OVER:
            raise EngineError(f"saved hand {number} doesn't follow from the one before")
        for seat, kind, x, suit in _decode_actions(actions):
            if g.hand_number != number or g.phase is not phase_of[kind]:
                raise EngineError(f"saved hand {number} holds an illegal action")
            if not legal_mask(g, seat) >> x & 1:
                raise EngineError(f"saved hand {number} holds an illegal action")
            if suit >= 0 and kind == "p" and not joker_suits(g, seat) >> suit & 1:
                raise EngineError(f"saved hand {number} names an illegal joker suit")
            apply_fast(g, seat, x, suit)


def _encode_actions(h: HandLog, nxt: Sequence[int]) -> str:
    parts = [f"{s}b{n}" for s, n in h.bid_log]
    if h.trump_choice is not None:
        parts.append(f"{h.trump_choice[0]}t{h.trump_choice[1]}")
    tricks = [*h.tricks, h.current] if h.current is not None else h.tricks
    for t in tricks:
        s = t.leader
        lead = len(parts)
        for c in t.cards:
            parts.append(f"{s}p{c}")
            s = nxt[s]
        if t.joker_suit >= 0 and t.cards:
            parts[lead] += f":{t.joker_suit}"
    return " ".join(parts)


def _decode_actions(text: str) -> list[tuple[int, str, int, int]]:
    """(seat, kind, value, named suit or -1) for each action of a hand's actions string."""
    # As to_json writes them, the actions are tokens separated by single spaces, and the same
    # few hundred tokens recur from hand to hand and game to game: each is read once.
    out = list(map(_TOKENS.get, text.split(" ")))
    if None not in out:
        return out  # type: ignore[return-value]  # no None in it
    return _decode_new_tokens(text)


_TOKENS: dict[str, tuple[int, str, int, int]] = {}
"""Tokens read already, by their text (seats x kinds x values: a few thousand at most)."""
_MAX_TOKENS: Final = 20_000


def _decode_new_tokens(text: str) -> list[tuple[int, str, int, int]]:
    out = []
    for part in text.split(" "):
        action = _TOKENS.get(part)
        if action is None:
            m = _ACTION.fullmatch(part)
            if m is None:
                return _decode_loose(text)
            seat, kind, x, suit = m.groups()
            action = (int(seat), kind, int(x), int(suit) if suit is not None else -1)
            if len(_TOKENS) < _MAX_TOKENS:
                _TOKENS[part] = action
        out.append(action)
    return out


def _decode_loose(text: str) -> list[tuple[int, str, int, int]]:
    """Any other actions string, read as it always was: tokens split on any whitespace, a
    token without b, t or p skipped."""
    out = []
    for part in text.split():
        for kind in "btp":
            if kind in part:
                seat, rest = part.split(kind)
                x, _, suit = rest.partition(":")
                out.append((int(seat), kind, int(x), int(suit) if suit else -1))
                break
    return out
