"""The views of a table: what everyone may see of a game, what one person's hand message shows,
how a hand is sorted, why a bid is refused."""

from __future__ import annotations

import functools
from typing import Any

from bot.engine import Card, Game, Pack, Phase
from bot.engine.cards import SUITS
from bot.engine.state import TRUMP_PENDING, bits
from bot.service.document import TableDocument
from bot.service.refusals import Hook
from bot.service.turns import running_deadline, waiting_for
from bot.service.views import BidOption, CardOption, HandState, PublicGame, Reason


def card_order(trump: str | None, card: Any, card_id: int) -> tuple[int, int, int]:
    if card.suit is None:  # the joker: the highest trump
        return (0, 0, -card_id)
    is_trump = card.suit == trump
    return (0 if is_trump else 1, SUITS.index(card.suit), -card_id)


@functools.lru_cache(maxsize=4096)
def card_options(pack: Pack, trump: str | None, hand: int, legal: int) -> tuple[CardOption, ...]:
    """A hand's cards in the order a hand message shows them, each with whether it may be
    played. Remembered: most actions leave most hands as they were."""
    ids = bits(hand)
    ids.sort(key=lambda i: card_order(trump, pack.cards[i], i))
    return tuple(CardOption(pack.cards[i], i, bool(legal >> i & 1)) for i in ids)


def public_game(game: Game) -> PublicGame:
    """What everyone at the table may see, read from the game (no seat's view is built)."""
    phase = game.phase
    secret = game.rules.bidding in ("secret", "knock") and phase is Phase.BIDDING
    bids = game.bids
    return PublicGame(
        hand_number=game.hand_number,
        cards_each=game.cards_each,
        dealer=game.dealer,
        seats_in_hand=game.seats,
        phase=phase,
        to_act=waiting_for(game),
        turned=game.turned,
        trump=game.trump,
        trump_decided=game.trump_id != TRUMP_PENDING,
        bids=tuple(None for _ in bids) if secret else bids,
        has_bid=tuple(b is not None for b in bids),
        bid_round=game.bid_round,
        trick=game.current_trick(),
        tricks=game.completed_tricks(),
        tricks_won=game.tricks_won,
        totals=game.totals,
        placing=game.placing,
        blind=game.is_blind,
        lowest_wins=game.rules.scoring == "negative",
    )


def hook_reason(
    bids: tuple[int | None, ...], seats: tuple[int, ...], seat: int, cards_each: int, n: int
) -> Reason | None:
    """Why the bid `n` is refused, when the hook refuses it: the others' bids (as `seat` sees
    them) and `n` would add up to the cards each."""
    others = [b for s, b in enumerate(bids) if s != seat and b is not None]
    if len(others) == len(seats) - 1 and sum(others) + n == cards_each:
        return Hook(total=cards_each)
    return None


def hand_state(
    table_id: int,
    document: TableDocument,
    game: Game,
    seat: int,
    before: HandState | None = None,
) -> HandState:
    """What one person's hand message shows. Read from the game directly, without building the
    seat's view: every action works this out for every seat. `before`, the state shown before
    the last change, is given back when nothing it shows has changed (most seats, most
    actions: they do not act, and the change did not touch their cards, bid or tricks)."""
    phase = game.phase
    away = document.seats[seat].away if document.seats[seat].left else None
    # A person the host removed no longer sees the seat's cards (a computer plays them on):
    # their hand message keeps only what everyone sees.
    removed = away == "kicked"
    my_turn = seat in waiting_for(game) and away is None
    may_change = phase is Phase.BIDDING and seat in game.to_act and not my_turn
    trump_decided = game.trump_id != TRUMP_PENDING
    trump = game.trump if trump_decided else None
    blind = game.is_blind and phase is not Phase.GAME_OVER and not removed
    pack = game.pack
    if (
        before is not None
        and not (my_turn or may_change or blind)
        and not (before.my_turn or before.bid_options or before.blind_cards)
        and before.hand_number == game.hand_number
        and before.phase is phase
        and before.trump == trump
        and before.trump_decided == trump_decided
        and before.bid == game.bids[seat]
        and before.tricks_won == game.tricks_won[seat]
        and before.auto_play == document.seats[seat].auto_play
        and before.away == away
        and before.played_out == played_out(document, game, seat, my_turn, blind)
        and before.cards is card_options(pack, trump, game.hand_mask(seat), 0)
    ):
        return before
    cards: tuple[CardOption, ...] = ()
    blind_cards: tuple[tuple[str, Card], ...] = ()
    legal = 0
    if blind:
        blind_cards = tuple(
            (game.name(s), hand[0]) for s in game.seats if s != seat and (hand := game.hand(s))
        )
    elif phase is not Phase.GAME_OVER and not removed:
        legal = game.legal_mask(seat) if phase is Phase.PLAYING and my_turn else 0
        cards = card_options(pack, trump, game.hand_mask(seat), legal)
    bid_options: tuple[BidOption, ...] = ()
    trump_options: tuple[str, ...] = ()
    joker_suits: tuple[str, ...] = ()
    bids_so_far = on_table = None
    if phase is Phase.BIDDING and (my_turn or may_change):
        legal_bids = set(bits(game.legal_mask(seat)))
        secret = game.rules.bidding in ("secret", "knock")
        seen = tuple(b if not secret or s == seat else None for s, b in enumerate(game.bids))
        size = game.cards_each
        bid_options = tuple(
            BidOption(
                n,
                n in legal_bids,
                None if n in legal_bids else hook_reason(seen, game.seats, seat, size, n),
            )
            for n in range(size + 1)
        )
        bids_so_far = tuple((game.name(s), bid) for s in game.seats if (bid := seen[s]) is not None)
    elif my_turn and phase is Phase.TRUMP_CHOICE:
        trump_options = tuple(SUITS[s] for s in bits(game.legal_mask(seat)))
    elif my_turn and phase is Phase.PLAYING:
        on_table = tuple((game.name(s), card) for s, card in game.current_trick())
        joker = pack.joker
        if not on_table and joker >= 0 and legal >> joker & 1:
            # Led in a no-trumps hand, the joker is named a suit (0 when not no trumps).
            named = game.joker_suits(seat)
            joker_suits = tuple(suit for i, suit in enumerate(SUITS) if named >> i & 1)
    return HandState(
        table_id=table_id,
        seat=seat,
        hand_number=game.hand_number,
        phase=phase,
        cards=cards,
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
        joker_suits=joker_suits,
    )


def played_out(document: TableDocument, game: Game, seat: int, my_turn: bool, blind: bool) -> bool:
    """Every card played, or only a last one left that auto-play plays when its turn comes
    (one card is forced: a joker that must name a suit is not, and then shows as a turn)."""
    if game.phase is not Phase.PLAYING or my_turn or document.seats[seat].left:
        return False
    left = game.hand_mask(seat).bit_count()
    return left == 0 or (left == 1 and document.seats[seat].auto_play and not blind)
