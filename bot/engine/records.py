"""Game records (``ohhell-record/1``): build a game from one, export one, and check/score one.

The format is documented in docs/records.md. ``replay(record)`` checks a record against its rules
and returns the ``ohhell-replay/1`` summary, or raises :class:`RecordError` naming the hand, the
action (both 1-based) and the rule broken.
"""

from __future__ import annotations

from typing import Any, Final

from pydantic import ValidationError

from bot.engine.actions import Action, Bid, ChooseTrump, Phase, Play
from bot.engine.cards import SUITS, Card, CardError, Pack
from bot.engine.errors import DealError, EngineError, RecordError
from bot.engine.game import Deal, Game, HandLog
from bot.engine.settings import MAX_PLAYERS, MIN_PLAYERS, Settings

RECORD_FORMAT: Final = "ohhell-record/1"
REPLAY_FORMAT: Final = "ohhell-replay/1"

RULE_SLUGS: Final = (
    "format",
    "rules",
    "players",
    "dealer",
    "deal",
    "turned",
    "turn",
    "bid-range",
    "hook",
    "bid-change",
    "trump-choice",
    "follow-suit",
    "joker",
    "card-not-held",
    "game-over",
)


def record_from_game(game: Game) -> dict[str, Any]:
    """The record of ``game`` so far (a game in progress gives a partial record)."""
    cards = game.pack.cards
    hands = []
    for h in game.history():
        hands.append(
            {
                "dealer": h.dealer,
                "cards": [[str(cards[c]) for c in seat_cards] for seat_cards in h.dealt],
                "turned": str(cards[h.turned]) if h.turned >= 0 else None,
                "actions": _actions_of(h, cards, game.players),
            }
        )
    return {
        "format": RECORD_FORMAT,
        "rules": game.rules.settings.overrides(),
        "players": list(game.names),
        "hands": hands,
    }


def _actions_of(h: HandLog, cards: tuple[Card, ...], players: int) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = [{"seat": s, "bid": n} for s, n in h.bid_log]
    if h.trump_choice is not None:
        out.append({"seat": h.trump_choice[0], "trump": SUITS[h.trump_choice[1]]})
    i = h.seats.index(h.dealer)
    order = h.seats[i + 1 :] + h.seats[: i + 1]
    nxt = {a: b for a, b in zip(order, order[1:] + order[:1], strict=True)}
    tricks = [*h.tricks, h.current] if h.current is not None else list(h.tricks)
    for t in tricks:
        s = t.leader
        for j, c in enumerate(t.cards):
            act: dict[str, Any] = {"seat": s, "play": str(cards[c])}
            if j == 0 and t.joker_suit >= 0:
                act["suit"] = SUITS[t.joker_suit]
            out.append(act)
            s = nxt[s]
    return out


def game_from_record(record: dict[str, Any], seed: int = 0) -> Game:
    """The engine state after everything in ``record`` (which may stop mid-hand); deals after
    the record's last hand come from ``seed``. Raises :class:`RecordError`."""
    if not isinstance(record, dict) or record.get("format") != RECORD_FORMAT:
        raise RecordError(None, None, "format", f'a record starts {{"format": "{RECORD_FORMAT}"}}')
    names = record.get("players")
    if (
        not isinstance(names, list)
        or not all(isinstance(n, str) and n for n in names)
        or not MIN_PLAYERS <= len(names) <= MAX_PLAYERS
    ):
        raise RecordError(
            None,
            None,
            "players",
            f'"players" must list {MIN_PLAYERS} to {MAX_PLAYERS} names, one per seat',
        )
    rules_doc = record.get("rules", {})
    try:
        settings = Settings.model_validate(rules_doc)
        rules = settings.resolve(len(names))
    except ValidationError as e:
        detail = e.errors()[0]
        where = ".".join(str(x) for x in detail["loc"])
        raise RecordError(None, None, "rules", f"rules.{where}: {detail['msg']}") from None
    except EngineError as e:
        raise RecordError(None, None, "rules", e.message) from None
    hands = record.get("hands")
    if not isinstance(hands, list) or not all(isinstance(h, dict) for h in hands):
        raise RecordError(None, None, "format", '"hands" must be a list of hands')
    players = len(names)
    overrides: dict[int, Deal] = {}
    for i, h in enumerate(hands):
        overrides[i] = _parse_deal(h, i + 1, rules.pack, players)
    first = 0
    if hands:
        first = hands[0].get("dealer")
        if not isinstance(first, int) or not 0 <= first < players:
            raise RecordError(
                1, None, "dealer", f"the dealer must be a seat from 0 to {players - 1}"
            )
    try:
        game = Game._create(rules, players, seed, first, names, overrides)
    except DealError as e:
        raise RecordError(1, None, e.rule, e.message) from None
    for i, h in enumerate(hands):
        number = i + 1
        if _over(game):
            raise RecordError(number, None, "game-over", "the game was over before this hand")
        if game.dealer != h.get("dealer"):
            raise RecordError(
                number,
                None,
                "dealer",
                f"{game.name(game.dealer)} (seat {game.dealer}) deals this hand, not seat "
                f"{h.get('dealer')}",
            )
        actions = h.get("actions", [])
        if not isinstance(actions, list):
            raise RecordError(number, None, "format", '"actions" must be a list')
        for j, act in enumerate(actions):
            seat, action = _parse_action(act, number, j + 1, rules.pack, players)
            if _over(game):
                raise RecordError(number, j + 1, "game-over", "the game is over")
            if game.hand_number != number:
                raise RecordError(
                    number, j + 1, "turn", "every trick of this hand is played already"
                )
            try:
                game.apply(seat, action)
            except DealError as e:
                raise RecordError(number + 1, None, e.rule, e.message) from None
            except EngineError as e:
                raise RecordError(number, j + 1, e.rule, e.record_message) from None
        if i + 1 < len(hands) and game.hand_number == number and not _over(game):
            raise RecordError(
                number, None, "format", "this hand is unfinished but another hand follows it"
            )
    return game


def _over(game: Game) -> bool:
    return game.phase is Phase.GAME_OVER


def _parse_deal(h: dict[str, Any], number: int, pack: Pack, players: int) -> Deal:
    cards = h.get("cards")
    if not isinstance(cards, list) or len(cards) != players:
        raise RecordError(number, None, "deal", f'"cards" must hold one list per seat ({players})')
    used: set[int] = set()
    dealt: list[tuple[int, ...]] = []
    for seat_cards in cards:
        if not isinstance(seat_cards, list):
            raise RecordError(number, None, "deal", '"cards" must hold one list per seat')
        ids = []
        for text in seat_cards:
            card = _card(text, pack, number, None, "deal")
            free = [c for c in pack.ids(card) if c not in used]
            if not free:
                raise RecordError(
                    number, None, "deal", f"{card} is dealt more often than the pack holds it"
                )
            used.add(free[0])
            ids.append(free[0])
        dealt.append(tuple(ids))
    turned_text = h.get("turned")
    turned = -1
    if turned_text is not None:
        card = _card(turned_text, pack, number, None, "turned")
        copies = pack.ids(card)
        free = [c for c in copies if c not in used]
        dealer = h.get("dealer")
        mine = (
            [c for c in copies if c in dealt[dealer]]
            if isinstance(dealer, int) and 0 <= dealer < players
            else []
        )
        turned = (free or mine or list(copies))[0]
    return tuple(dealt), turned


def _card(text: Any, pack: Pack, hand: int, action: int | None, rule: str) -> Card:
    if not isinstance(text, str):
        raise RecordError(hand, action, "format", f"{text!r} is not a card")
    try:
        card = Card.parse(text)
    except CardError as e:
        raise RecordError(hand, action, "format", str(e)) from None
    if not pack.ids(card):
        raise RecordError(hand, action, rule, f"{card} is not in the {pack.name}-card pack")
    return card


def _parse_action(act: Any, hand: int, index: int, pack: Pack, players: int) -> tuple[int, Action]:
    if not isinstance(act, dict) or not isinstance(act.get("seat"), int):
        raise RecordError(hand, index, "format", 'an action is {"seat": n, "bid"|"play"|"trump"}')
    seat = act["seat"]
    if not 0 <= seat < players:
        raise RecordError(hand, index, "turn", f"there is no seat {seat}")
    if "bid" in act:
        n = act["bid"]
        if not isinstance(n, int) or isinstance(n, bool):
            raise RecordError(hand, index, "format", f"a bid is a whole number, not {n!r}")
        return seat, Bid(n)
    if "trump" in act:
        suit = act["trump"]
        if suit not in SUITS:
            raise RecordError(
                hand, index, "trump-choice", f"trump must be one of C, D, H, S, not {suit!r}"
            )
        return seat, ChooseTrump(suit)
    if "play" in act:
        card = _card(act["play"], pack, hand, index, "card-not-held")
        suit = act.get("suit")
        if suit is not None and suit not in SUITS:
            raise RecordError(
                hand, index, "joker", f"the joker's suit must be C, D, H or S, not {suit!r}"
            )
        return seat, Play(card, suit)
    raise RecordError(hand, index, "format", 'an action needs "bid", "play" or "trump"')


def replay(record: dict[str, Any]) -> dict[str, Any]:
    """Check ``record`` and score it: the ``ohhell-replay/1`` summary (see docs/records.md)."""
    game = game_from_record(record)
    cards = game.pack.cards
    recorded = len(record["hands"])
    out_hands = []
    for h in game.history()[:recorded]:
        tricks = []
        for t in h.tricks:
            tricks.append(
                {
                    "leader": t.leader,
                    "cards": [str(cards[c]) for c in t.cards],
                    "winner": t.winner if t.winner >= 0 else None,
                    "value": t.value,
                }
            )
        out_hands.append(
            {
                "hand": h.number,
                "dealer": h.dealer,
                "cards_each": h.cards_each,
                "trump": SUITS[h.trump] if h.trump >= 0 else None,
                "bids": [b if b >= 0 else None for b in h.bids],
                "tricks": tricks,
                "tricks_won": list(h.won),
                "points": list(h.points) if h.points is not None else None,
                "totals": list(h.totals),
                "complete": h.complete,
            }
        )
    over = game.phase is Phase.GAME_OVER
    return {
        "format": REPLAY_FORMAT,
        "players": list(game.names),
        "hands": out_hands,
        "totals": list(game.totals),
        "game_over": over,
        "placing": list(game.placing) if over and game.placing is not None else None,
    }
