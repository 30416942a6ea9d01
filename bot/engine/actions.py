"""Actions, events and the player view: small immutable values."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from bot.engine.cards import Card, SuitLetter


class Phase(Enum):
    BIDDING = "bidding"
    TRUMP_CHOICE = "trump-choice"
    PLAYING = "playing"
    GAME_OVER = "game-over"


# --- actions -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Bid:
    n: int


@dataclass(frozen=True, slots=True)
class Play:
    """Play ``card``; ``suit`` names the suit of a joker led in no trumps."""

    card: Card
    suit: SuitLetter | None = None


@dataclass(frozen=True, slots=True)
class ChooseTrump:
    suit: SuitLetter


Action = Bid | Play | ChooseTrump


# --- events --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class HandDealt:
    hand: int
    dealer: int
    cards_each: int
    seats: tuple[int, ...]
    turned: Card | None
    trump: SuitLetter | None
    """None means no trumps, or (``trump_decided`` false) that the highest bidder will choose."""
    trump_decided: bool
    blind: bool


@dataclass(frozen=True, slots=True)
class BidMade:
    seat: int
    bid: int | None
    """None while bids are secret (simultaneous bidding)."""


@dataclass(frozen=True, slots=True)
class BidChanged:
    seat: int
    old: int
    new: int


@dataclass(frozen=True, slots=True)
class BidsRevealed:
    bids: tuple[int | None, ...]
    round: int
    again: bool
    """Knocking: the bids added up to the tricks, so everyone bids again."""


@dataclass(frozen=True, slots=True)
class TrumpChosen:
    seat: int
    suit: SuitLetter


@dataclass(frozen=True, slots=True)
class CardPlayed:
    seat: int
    card: Card
    suit: SuitLetter | None = None
    """The suit named for a joker led in no trumps."""


@dataclass(frozen=True, slots=True)
class TrickWon:
    leader: int
    cards: tuple[Card, ...]
    """In play order from the leader."""
    winner: int | None
    """None when every card that could win was cancelled ("up the ante")."""
    value: int


@dataclass(frozen=True, slots=True)
class HandScored:
    hand: int
    bids: tuple[int | None, ...]
    tricks: tuple[int, ...]
    points: tuple[int, ...]
    totals: tuple[int, ...]
    tiebreak: bool = False
    """A tie-break deal: its points order the tied players and are not added to totals."""


@dataclass(frozen=True, slots=True)
class GameOver:
    placing: tuple[int, ...]
    totals: tuple[int, ...]


Event = (
    HandDealt
    | BidMade
    | BidChanged
    | BidsRevealed
    | TrumpChosen
    | CardPlayed
    | TrickWon
    | HandScored
    | GameOver
)


# --- the player view -----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TrickView:
    leader: int
    seats: tuple[int, ...]
    cards: tuple[Card, ...]
    winner: int | None
    value: int
    joker_suit: SuitLetter | None = None


@dataclass(frozen=True, slots=True)
class PlayerView:
    """Exactly what one seat may see."""

    seat: int
    names: tuple[str, ...]
    phase: Phase
    hand_number: int
    cards_each: int
    dealer: int
    seats: tuple[int, ...]
    """The seats dealt in this hand (all of them, except in a tie-break deal)."""
    to_act: tuple[int, ...]
    hand: tuple[Card, ...]
    """This seat's cards; in a blind hand its own card is hidden (see ``blind``)."""
    blind: bool
    visible_hands: tuple[tuple[Card, ...] | None, ...]
    """Other seats' cards where this seat may see them (a blind hand), else None."""
    hand_sizes: tuple[int, ...]
    turned: Card | None
    trump: SuitLetter | None
    trump_decided: bool
    bids: tuple[int | None, ...]
    """Bids this seat may see; in secret bidding only its own until all are revealed."""
    has_bid: tuple[bool, ...]
    bid_round: int
    trick: tuple[tuple[int, Card], ...]
    """The current trick: (seat, card) in play order."""
    led: SuitLetter | None
    trick_value: int
    tricks: tuple[TrickView, ...]
    """Completed tricks of this hand."""
    tricks_won: tuple[int, ...]
    totals: tuple[int, ...]
    legal_actions: tuple[Action, ...]
    placing: tuple[int, ...] | None
