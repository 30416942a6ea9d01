"""Helpers for the views of a table: what everyone may see of a game, how a hand is sorted, why a
bid is refused."""

from __future__ import annotations

from typing import Any

from bot.engine import Game, Phase
from bot.engine.cards import SUITS
from bot.service.turns import waiting_for
from bot.service.views import PublicGame, Reason


def card_order(trump: str | None, card: Any, card_id: int) -> tuple[int, int, int]:
    if card.suit is None:  # the joker: the highest trump
        return (0, 0, -card_id)
    is_trump = card.suit == trump
    return (0 if is_trump else 1, SUITS.index(card.suit), -card_id)


def public_game(game: Game) -> PublicGame:
    view = game.view(game.seats[0])
    secret = game.rules.bidding in ("secret", "knock") and view.phase is Phase.BIDDING
    bids = tuple(None if secret else b for b in game.bids)
    return PublicGame(
        hand_number=view.hand_number,
        cards_each=view.cards_each,
        dealer=view.dealer,
        seats_in_hand=view.seats,
        phase=view.phase,
        to_act=waiting_for(game),
        turned=view.turned,
        trump=view.trump,
        trump_decided=view.trump_decided,
        bids=bids,
        has_bid=view.has_bid,
        bid_round=view.bid_round,
        trick=view.trick,
        tricks=view.tricks,
        tricks_won=view.tricks_won,
        totals=view.totals,
        placing=view.placing,
        blind=game.is_blind,
        lowest_wins=game.rules.scoring == "negative",
    )


def hook_reason(view: Any, n: int) -> Reason | None:
    others = [b for s, b in enumerate(view.bids) if s != view.seat and b is not None]
    if len(others) == len(view.seats) - 1 and sum(others) + n == view.cards_each:
        return Reason("hook", {"total": view.cards_each})
    return None
