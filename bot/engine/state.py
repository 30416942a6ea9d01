"""A game's state and phases: every field in plain ints and lists, and what may be read off it.

A hand is one int (bit ``1 << id`` per card) and suit masks come from per-pack tables, so the
rules modules (``dealing``, ``bidding``, ``trump``, ``tricks``, ``scoring``) work on a
:class:`GameState` with a few int operations a move. :class:`bot.engine.game.Game` is this state
with the actions on top.
"""

from __future__ import annotations

from typing import Final, NamedTuple, TypeVar

from bot.engine.actions import Event, Phase
from bot.engine.cards import SUITS, Card, Pack, SuitLetter
from bot.engine.settings import Rules

BIDDING: Final = Phase.BIDDING
TRUMP: Final = Phase.TRUMP_CHOICE
PLAYING: Final = Phase.PLAYING
OVER: Final = Phase.GAME_OVER

NO_TRUMPS: Final = -1
TRUMP_PENDING: Final = -2

NORMAL, EXTRA, TIEBREAK = "normal", "extra", "tiebreak"
"""Kinds of hand: one of the sequence, an extra hand to break a tie, a 001 tie-break deal."""


class Trick(NamedTuple):
    """A completed trick, in card ids: ``cards`` in play order from ``leader``."""

    leader: int
    cards: tuple[int, ...]
    winner: int
    """-1 when every card that could win was cancelled (up the ante)."""
    value: int
    joker_suit: int
    """The suit named for a joker led in no trumps, else -1."""


class HandLog(NamedTuple):
    """Everything about one hand, in card ids; the source of records and replays."""

    number: int
    kind: str
    dealer: int
    cards_each: int
    seats: tuple[int, ...]
    dealt: tuple[tuple[int, ...], ...]
    turned: int
    trump: int
    bid_log: tuple[tuple[int, int], ...]
    trump_choice: tuple[int, int] | None
    tricks: tuple[Trick, ...]
    current: Trick | None
    """The trick in progress (winner -1), if a card of it has been played."""
    bids: tuple[int, ...]
    won: tuple[int, ...]
    points: tuple[int, ...] | None
    totals: tuple[int, ...]
    complete: bool


Deal = tuple[tuple[tuple[int, ...], ...], int]
"""Cards dealt per seat (ids, deal order) and the turned card id (-1 for none)."""

S = TypeVar("S", bound="GameState")


class GameState:
    """Every field of a game. Mutable, like a chess board; every value it hands out is
    immutable.

    The fields are public and documented (as python-chess's ``Board`` has ``turn`` and
    ``occupied_co``): read any of them. Only the rules modules of ``bot.engine`` write them;
    everything else changes a game through its actions (``apply``, ``apply_fast``). Seats,
    cards and suits are ints: a card is its id in the pack (``1 << id`` in a mask), a suit 0-3
    (clubs, diamonds, hearts, spades), -1 means none; a list indexed by seat has an entry for
    every seat at the table, dealt in or not.
    """

    __slots__ = (
        "bid_changer",
        "bid_log",
        "bid_round",
        "bidder_index",
        "cards_each",
        "deal_overrides",
        "dealer",
        "dealt",
        "dealt_in",
        "events",
        "finished_hands",
        "finished_json",
        "first_dealer",
        "follow_cards",
        "hand_kind",
        "hand_number",
        "hands",
        "hands_made",
        "has_duplicates",
        "is_blind",
        "joker",
        "joker_no_trumps",
        "leader",
        "led_suit",
        "made_above_zero",
        "made_or_over",
        "named_suit",
        "names",
        "next_kind",
        "next_seat",
        "next_seats",
        "orders_from",
        "pack",
        "pending_bids",
        "phase",
        "placing",
        "plain_play",
        "play_order",
        "players",
        "rules",
        "running_totals",
        "seat_bids",
        "seats",
        "seed",
        "sequence_dealt",
        "suit_cards",
        "suit_of",
        "suits_failed",
        "suits_played",
        "tiebreak_points",
        "trick",
        "trick_cards",
        "trick_value",
        "tricks",
        "tricks_left",
        "trump_cards",
        "trump_choice",
        "trump_chooser",
        "trump_id",
        "turn",
        "turned_id",
        "won",
    )

    # --- the game and its rules ------------------------------------------------------------
    rules: Rules
    """The resolved rules the game is played by."""
    pack: Pack
    """``rules.pack``."""
    players: int
    """Seats at the table."""
    names: tuple[str, ...]
    """Each seat's name, for messages."""
    seed: int
    """Every deal comes from it and the hand number (``dealing.seeded_deal``)."""
    first_dealer: int
    """The seat that dealt the first hand."""
    deal_overrides: dict[int, Deal]
    """Deals that didn't come from the seed, by hand index (0-based)."""
    phase: Phase
    """Bidding, trump choice, playing, or game over."""
    plain_play: bool
    """Playing a hand without the joker's no-trump rules: ``legal_mask`` and ``apply_fast``
    take a shortcut."""
    events: list[Event] | None
    """Where events go while the checked API applies an action; None on the fast path."""

    # --- the hand: its place in the game, its seats and deal --------------------------------
    hand_number: int
    """1-based, counting extra and tie-break hands."""
    sequence_dealt: int
    """Hands of the sequence (``rules.sizes``) dealt so far: the next normal hand's index."""
    hand_kind: str
    """``NORMAL``, ``EXTRA`` or ``TIEBREAK``."""
    next_kind: str
    """The kind of hand to deal next."""
    next_seats: tuple[int, ...]
    """The seats to deal in next (a tie-break deal deals only the tied players)."""
    cards_each: int
    """Cards dealt to each seat this hand."""
    is_blind: bool
    """Blind hand: each seat sees the others' cards but not its own."""
    dealer: int
    """The seat that dealt this hand."""
    seats: tuple[int, ...]
    """Seats dealt in this hand."""
    play_order: tuple[int, ...]
    """The seats dealt in, in play order from the dealer's left, the dealer last."""
    next_seat: tuple[int, ...]
    """``next_seat[s]``: the seat after ``s`` in play order, -1 for a seat not dealt in."""
    orders_from: tuple[tuple[int, ...], ...]
    """``orders_from[s]``: the seats in play order from ``s`` (a dealt seat), so a trick led by
    ``s`` is played by ``orders_from[s][0]``, ``orders_from[s][1]``..."""
    dealt_in: int
    """How many seats are dealt in (``len(play_order)``): the cards in a full trick."""
    hands: list[int]
    """Each seat's cards now, as a mask."""
    dealt: tuple[tuple[int, ...], ...]
    """Each seat's cards as dealt, in deal order."""
    turned_id: int
    """The card turned for trump, -1 for none."""

    # --- trump and the pack's tables --------------------------------------------------------
    trump_id: int
    """0-3 for clubs..spades, ``NO_TRUMPS`` (-1), or ``TRUMP_PENDING`` (-2: the highest
    bidder chooses it once bidding is over)."""
    suit_cards: tuple[int, ...]
    """Each suit's cards as a mask, the joker counted in the trump suit."""
    trump_cards: int
    """The trump suit's cards (``suit_cards[trump_id]``), 0 in no trumps."""
    suit_of: tuple[int, ...]
    """``pack.suit_of``: each card id's suit, 4 for the joker."""
    has_duplicates: bool
    """The pack holds cards twice (who wins a trick follows ``rules.duplicates``)."""
    joker: int
    """The joker's card id, -1 in a pack without one."""
    joker_no_trumps: bool
    """A joker is in the pack and the hand is in no trumps (001's joker rules apply)."""

    # --- bidding ----------------------------------------------------------------------------
    seat_bids: list[int]
    """Each seat's bid, -1 until it bids (every bid, secret or not)."""
    bid_log: list[tuple[int, int]]
    """Every bid and bid change in order, as (seat, bid)."""
    bidder_index: int
    """Bidding in turn: the next bidder's place in ``play_order``."""
    bid_changer: int
    """The seat that may still change its bid (with ``rules.bid_changes``: the previous
    bidder), or -1."""
    pending_bids: int
    """Secret or knock bidding: the seats (bits) whose bid the round waits for, else 0."""
    bid_round: int
    """Which round of bidding (knock bidding goes round until nobody changes)."""
    trump_chooser: int
    """The seat that chooses trump, -1 until bidding is over."""
    trump_choice: tuple[int, int] | None
    """(seat, suit) once trump has been chosen."""

    # --- tricks -----------------------------------------------------------------------------
    leader: int
    """The seat that led (or leads) the trick in progress; -1 while bidding."""
    turn: int
    """The seat the game waits for first (``to_act[0]``); -1 once the game is over. Simulations
    read it after every move: a property would cost 6% of ``make bench``'s time."""
    trick: list[int]
    """The trick in progress: its card ids in play order from ``leader``."""
    trick_cards: int
    """The trick in progress as a mask."""
    led_suit: int
    """The suit led to the trick in progress (a joker led counts as the trump suit, or in no
    trumps as the suit named); stale between tricks (``led_id`` is -1 then)."""
    follow_cards: int
    """The led suit's cards (``suit_cards[led_suit]``) while a trick is in progress, else -1
    (every card): the cards a seat may play, in a hand without the joker's rules, are
    ``hand & follow_cards or hand``."""
    named_suit: int
    """The suit named for a joker led in no trumps, else -1."""
    trick_value: int
    """Tricks the trick in progress is worth (1, more once tricks are cancelled: up the
    ante)."""
    tricks_left: int
    """Tricks still to finish this hand, the one in progress included."""
    tricks: list[Trick]
    """This hand's finished tricks."""
    won: list[int]
    """Tricks each seat has won this hand."""
    suits_played: list[int]
    """Joker rules: the suits (bits) each seat has played this hand."""
    suits_failed: list[int]
    """Joker rules: the suits (bits) each seat has failed to follow this hand."""

    # --- scores and the tie-break keys -------------------------------------------------------
    running_totals: list[int]
    """Each seat's points so far."""
    hands_made: list[int]
    """Hands in which each seat made its bid exactly."""
    made_above_zero: list[int]
    """Hands in which each seat made a bid above zero."""
    made_or_over: list[int]
    """Hands in which each seat took at least its bid."""
    tiebreak_points: tuple[tuple[int, ...], ...]
    """Each seat's points in the tie-break deals, in order (the last ranking keys)."""
    finished_hands: tuple[HandLog, ...]
    """Every finished hand."""
    finished_json: tuple[int, str]
    """How many finished hands the codec has encoded, and their JSON (see ``to_json``)."""
    placing: tuple[int, ...] | None
    """Each seat's place once the game is over (shared places repeat), else None."""

    def copy(self: S) -> S:
        """An independent copy (cheap: the rules and past hands are shared, being immutable)."""
        cls = type(self)
        g = cls.__new__(cls)
        # The lists are copied (they change in place); the rest are immutable or replaced whole.
        g.bid_changer = self.bid_changer
        g.bid_log = self.bid_log.copy()
        g.bid_round = self.bid_round
        g.bidder_index = self.bidder_index
        g.cards_each = self.cards_each
        g.deal_overrides = self.deal_overrides
        g.dealer = self.dealer
        g.dealt = self.dealt
        g.dealt_in = self.dealt_in
        g.events = self.events
        g.finished_hands = self.finished_hands
        g.finished_json = self.finished_json
        g.first_dealer = self.first_dealer
        g.follow_cards = self.follow_cards
        g.hand_kind = self.hand_kind
        g.hand_number = self.hand_number
        g.hands = self.hands.copy()
        g.hands_made = self.hands_made.copy()
        g.has_duplicates = self.has_duplicates
        g.is_blind = self.is_blind
        g.joker = self.joker
        g.joker_no_trumps = self.joker_no_trumps
        g.leader = self.leader
        g.led_suit = self.led_suit
        g.made_above_zero = self.made_above_zero.copy()
        g.made_or_over = self.made_or_over.copy()
        g.named_suit = self.named_suit
        g.names = self.names
        g.next_kind = self.next_kind
        g.next_seat = self.next_seat
        g.next_seats = self.next_seats
        g.orders_from = self.orders_from
        g.pack = self.pack
        g.pending_bids = self.pending_bids
        g.phase = self.phase
        g.placing = self.placing
        g.plain_play = self.plain_play
        g.play_order = self.play_order
        g.players = self.players
        g.rules = self.rules
        g.running_totals = self.running_totals.copy()
        g.seat_bids = self.seat_bids.copy()
        g.seats = self.seats
        g.seed = self.seed
        g.sequence_dealt = self.sequence_dealt
        g.suit_cards = self.suit_cards
        g.suit_of = self.suit_of
        g.suits_failed = self.suits_failed.copy()
        g.suits_played = self.suits_played.copy()
        g.tiebreak_points = self.tiebreak_points
        g.trick = self.trick.copy()
        g.trick_cards = self.trick_cards
        g.trick_value = self.trick_value
        g.tricks = self.tricks.copy()
        g.tricks_left = self.tricks_left
        g.trump_cards = self.trump_cards
        g.trump_choice = self.trump_choice
        g.trump_chooser = self.trump_chooser
        g.trump_id = self.trump_id
        g.turn = self.turn
        g.turned_id = self.turned_id
        g.won = self.won.copy()
        return g

    # --- values read off the fields ----------------------------------------------------------

    @property
    def trump(self) -> SuitLetter | None:
        """The trump suit, or None for no trumps (or not chosen yet)."""
        return SUITS[self.trump_id] if self.trump_id >= 0 else None

    @property
    def turned(self) -> Card | None:
        return self.pack.cards[self.turned_id] if self.turned_id >= 0 else None

    @property
    def bids(self) -> tuple[int | None, ...]:
        """Every bid, secret or not (for the service and tests; players read ``view``)."""
        return tuple(b if b >= 0 else None for b in self.seat_bids)

    @property
    def tricks_won(self) -> tuple[int, ...]:
        return tuple(self.won)

    @property
    def totals(self) -> tuple[int, ...]:
        return tuple(self.running_totals)

    @property
    def trick_ids(self) -> tuple[int, ...]:
        return tuple(self.trick)

    @property
    def led_id(self) -> int:
        """The suit led to the trick in progress (0-3; a joker led counts as the trump suit, or
        in no trumps as the suit it was named), or -1 between tricks."""
        return self.led_suit if self.trick else -1

    @property
    def to_act(self) -> tuple[int, ...]:
        """Seats that may act now: the one the game waits for first (several when bidding is
        simultaneous; with bid changes, also the previous bidder)."""
        ph = self.phase
        if ph is PLAYING:
            return (self.turn,)
        if ph is BIDDING:
            if self.pending_bids:
                return tuple(s for s in self.play_order if self.pending_bids >> s & 1)
            nxt = self.play_order[self.bidder_index]
            return (nxt, self.bid_changer) if self.bid_changer >= 0 else (nxt,)
        if ph is TRUMP:
            return (self.trump_chooser,)
        return ()

    def hand_mask(self, seat: int) -> int:
        return self.hands[seat]

    def hand(self, seat: int) -> tuple[Card, ...]:
        return self.pack.cards_of(self.hands[seat])

    def history(self) -> tuple[HandLog, ...]:
        """Every hand so far, the one in progress last (if a hand is in progress)."""
        if self.phase is OVER:
            return self.finished_hands
        return (*self.finished_hands, current_log(self))

    def name(self, seat: int) -> str:
        return self.names[seat]


def current_log(g: GameState, points: tuple[int, ...] | None = None) -> HandLog:
    """The hand in progress as a :class:`HandLog` (``points`` once it is complete)."""
    complete = points is not None
    return HandLog(
        number=g.hand_number,
        kind=g.hand_kind,
        dealer=g.dealer,
        cards_each=g.cards_each,
        seats=g.seats,
        dealt=g.dealt,
        turned=g.turned_id,
        trump=g.trump_id,
        bid_log=tuple(g.bid_log),
        trump_choice=g.trump_choice,
        tricks=tuple(g.tricks),
        current=Trick(g.leader, tuple(g.trick), -1, g.trick_value, g.named_suit)
        if g.trick
        else None,
        bids=tuple(g.seat_bids),
        won=tuple(g.won),
        points=points,
        totals=tuple(g.running_totals),
        complete=complete,
    )


def start_play(g: GameState) -> None:
    """Bidding (and any trump choice) is over: the first lead."""
    g.phase = PLAYING
    g.plain_play = not g.joker_no_trumps
    lead = g.dealer if g.rules.first_lead == "dealer" else g.play_order[0]
    g.leader = lead
    g.turn = lead


def bits(m: int) -> list[int]:
    """The set bits of ``m``, lowest first."""
    out = []
    while m:
        low = m & -m
        out.append(low.bit_length() - 1)
        m ^= low
    return out
