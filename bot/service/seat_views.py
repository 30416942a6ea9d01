"""The views of a table: what everyone may see of a game, what one person's hand message shows,
how a hand is sorted, why a bid is refused."""

from __future__ import annotations

from typing import Any

from bot.engine import Bid, Card, ChooseTrump, Game, Phase
from bot.engine.cards import SUITS
from bot.engine.state import TRUMP_PENDING
from bot.service.document import TableDocument
from bot.service.turns import running_deadline, waiting_for
from bot.service.views import BidOption, CardOption, HandState, PublicGame, Reason


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


def hand_state(table_id: int, document: TableDocument, game: Game, seat: int) -> HandState:
    """What one person's hand message shows. Read from the game directly; the seat's full
    view (every trick of the hand, every legal action) is built only on their turn, where its
    legal actions and the hook are needed: every action works this out for every seat."""
    phase = game.phase
    away = document.seats[seat].away if document.seats[seat].left else None
    my_turn = seat in waiting_for(game) and away is None
    may_change = phase is Phase.BIDDING and seat in game.to_act and not my_turn
    acting = (my_turn or may_change) and phase in (
        Phase.BIDDING,
        Phase.TRUMP_CHOICE,
        Phase.PLAYING,
    )
    view = game.view(seat) if acting else None
    trump_decided = game.trump_id != TRUMP_PENDING
    trump = game.trump if trump_decided else None
    blind = game.is_blind and phase is not Phase.GAME_OVER
    pack = game.pack
    cards: list[CardOption] = []
    blind_cards: tuple[tuple[str, Card], ...] = ()
    if blind:
        blind_cards = tuple(
            (game.name(s), hand[0]) for s in game.seats if s != seat and (hand := game.hand(s))
        )
    elif phase is not Phase.GAME_OVER:
        legal = game.legal_mask(seat) if phase is Phase.PLAYING and my_turn else 0
        mask = game.hand_mask(seat)
        ids = [i for i in range(pack.size) if mask >> i & 1]
        ids.sort(key=lambda i: card_order(trump, pack.cards[i], i))
        cards = [CardOption(pack.cards[i], i, bool(legal >> i & 1)) for i in ids]
    bid_options: tuple[BidOption, ...] = ()
    trump_options: tuple[str, ...] = ()
    bids_so_far = on_table = None
    if view is not None and phase is Phase.BIDDING:
        legal_bids = {a.n for a in view.legal_actions if isinstance(a, Bid)}
        bid_options = tuple(
            BidOption(n, n in legal_bids, None if n in legal_bids else hook_reason(view, n))
            for n in range(view.cards_each + 1)
        )
        bids_so_far = tuple(
            (view.names[s], bid) for s in view.seats if (bid := view.bids[s]) is not None
        )
    elif view is not None and my_turn and phase is Phase.TRUMP_CHOICE:
        trump_options = tuple(a.suit for a in view.legal_actions if isinstance(a, ChooseTrump))
    elif view is not None and my_turn and phase is Phase.PLAYING:
        on_table = tuple((view.names[s], card) for s, card in view.trick)
    return HandState(
        table_id=table_id,
        seat=seat,
        hand_number=game.hand_number,
        phase=phase,
        cards=tuple(cards),
        blind_cards=blind_cards,
        trump=game.trump,
        turned=game.turned,
        trump_decided=trump_decided,
        my_turn=my_turn,
        bid=game.bids[seat],
        tricks_won=game.tricks_won[seat],
        bid_options=bid_options,
        trump_options=trump_options,
        bids_so_far=bids_so_far,
        on_table=on_table,
        auto_play=document.seats[seat].auto_play,
        game_over=phase is Phase.GAME_OVER,
        away=away,
        deadline=running_deadline(document) if my_turn else None,
        played_out=played_out(document, game, seat, my_turn, blind),
    )


def played_out(document: TableDocument, game: Game, seat: int, my_turn: bool, blind: bool) -> bool:
    """Every card played, or only a last one left that auto-play plays when its turn comes
    (one card is forced: a joker that must name a suit is not, and then shows as a turn)."""
    if game.phase is not Phase.PLAYING or my_turn or document.seats[seat].left:
        return False
    left = game.hand_mask(seat).bit_count()
    return left == 0 or (left == 1 and document.seats[seat].auto_play and not blind)
