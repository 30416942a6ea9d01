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
    immutable."""

    __slots__ = (
        "_bids",
        "_blind",
        "_bpos",
        "_bround",
        "_changer",
        "_chooser",
        "_dealer",
        "_dealt",
        "_dups",
        "_ev",
        "_failed",
        "_fast",
        "_first_dealer",
        "_follow",
        "_hands",
        "_joker",
        "_json_past",
        "_k",
        "_kind",
        "_leader",
        "_led",
        "_left",
        "_log",
        "_made",
        "_made_over",
        "_made_win",
        "_named",
        "_names",
        "_next",
        "_next_kind",
        "_next_seats",
        "_np",
        "_ntj",
        "_number",
        "_order",
        "_overrides",
        "_pack",
        "_past",
        "_pending",
        "_phase",
        "_placing",
        "_played",
        "_rot",
        "_rules",
        "_seats",
        "_seed",
        "_seq",
        "_size",
        "_smask",
        "_suit_of",
        "_tb",
        "_tmask",
        "_totals",
        "_trick",
        "_tricks",
        "_trump",
        "_trump_choice",
        "_tsm",
        "_turned",
        "_value",
        "_won",
        "turn",
    )

    # The game and its rules.
    _rules: Rules
    _pack: Pack
    _np: int
    _names: tuple[str, ...]
    _seed: int
    _first_dealer: int
    _overrides: dict[int, Deal]
    """Deals that didn't come from the seed, by hand index (0-based)."""
    _phase: Phase
    _fast: bool
    """Playing a hand without the joker's no-trump rules: ``legal_mask`` takes a shortcut."""
    _ev: list[Event] | None
    """Where events go while the checked API applies an action; None on the fast path."""
    # The hand: its place in the game, its seats and deal.
    _number: int
    _seq: int
    _kind: str
    _next_kind: str
    _next_seats: tuple[int, ...]
    _size: int
    _blind: bool
    _dealer: int
    _seats: tuple[int, ...]
    _order: tuple[int, ...]
    """Seats in play order from the dealer's left, the dealer last."""
    _next: tuple[int, ...]
    _rot: tuple[tuple[int, ...], ...]
    """``_rot[s]``: the seats in play order from ``s`` (a dealt seat), so a trick led by ``s``
    is played by ``_rot[s][0]``, ``_rot[s][1]``..."""
    _k: int
    _hands: list[int]
    _dealt: tuple[tuple[int, ...], ...]
    _turned: int
    # Trump and the pack's tables.
    _trump: int
    _smask: tuple[int, ...]
    _tsm: int
    """The trump suit's cards (``_smask[_trump]``), 0 in no trumps."""
    _suit_of: tuple[int, ...]
    _dups: bool
    _joker: int
    _ntj: bool
    """A joker is in the pack and the hand is in no trumps (001's joker rules apply)."""
    # Bidding.
    _bids: list[int]
    _log: list[tuple[int, int]]
    _bpos: int
    _changer: int
    _pending: int
    _bround: int
    _chooser: int
    _trump_choice: tuple[int, int] | None
    # Tricks.
    _leader: int
    turn: int
    """The seat the game waits for first (``to_act[0]``); -1 once the game is over. Read it,
    never set it. A plain attribute rather than a property because simulations read it after
    every move: as a property it cost 6% of ``make bench``'s time."""
    _trick: list[int]
    _tmask: int
    _led: int
    _follow: int
    """The led suit's cards (``_smask[_led]``) while a trick is in progress, else -1 (every
    card): the cards a seat may play, in a hand without the joker's rules, are
    ``hand & _follow or hand``."""
    _named: int
    _value: int
    _left: int
    _tricks: list[Trick]
    _won: list[int]
    _played: list[int]
    _failed: list[int]
    # Scores and the tie-break keys.
    _totals: list[int]
    _made: list[int]
    _made_win: list[int]
    _made_over: list[int]
    _tb: list[tuple[int, ...]]
    _past: tuple[HandLog, ...]
    _json_past: tuple[int, str]
    """How many finished hands the codec has encoded, and their JSON (see ``to_json``)."""
    _placing: tuple[int, ...] | None

    def copy(self: S) -> S:
        """An independent copy (cheap: the rules and past hands are shared, being immutable)."""
        cls = type(self)
        g = cls.__new__(cls)
        # Lists changed in place are copied; the rest are immutable or replaced whole.
        g._bids = self._bids.copy()
        g._blind = self._blind
        g._bpos = self._bpos
        g._bround = self._bround
        g._changer = self._changer
        g._chooser = self._chooser
        g._dealer = self._dealer
        g._dealt = self._dealt
        g._dups = self._dups
        g._ev = self._ev
        g._failed = self._failed.copy()
        g._fast = self._fast
        g._first_dealer = self._first_dealer
        g._follow = self._follow
        g._hands = self._hands.copy()
        g._joker = self._joker
        g._k = self._k
        g._kind = self._kind
        g._leader = self._leader
        g._led = self._led
        g._left = self._left
        g._log = self._log.copy()
        g._made = self._made.copy()
        g._made_over = self._made_over.copy()
        g._made_win = self._made_win.copy()
        g._named = self._named
        g._names = self._names
        g._next = self._next
        g._next_kind = self._next_kind
        g._next_seats = self._next_seats
        g._np = self._np
        g._ntj = self._ntj
        g._number = self._number
        g._order = self._order
        g._overrides = self._overrides
        g._pack = self._pack
        g._past = self._past
        g._json_past = self._json_past
        g._pending = self._pending
        g._phase = self._phase
        g._placing = self._placing
        g._played = self._played.copy()
        g._rot = self._rot
        g._rules = self._rules
        g._seats = self._seats
        g._seed = self._seed
        g._seq = self._seq
        g._size = self._size
        g._smask = self._smask
        g._suit_of = self._suit_of
        g._tb = self._tb
        g._tmask = self._tmask
        g._totals = self._totals.copy()
        g._trick = self._trick.copy()
        g._tricks = self._tricks.copy()
        g._trump = self._trump
        g._trump_choice = self._trump_choice
        g._tsm = self._tsm
        g.turn = self.turn
        g._turned = self._turned
        g._value = self._value
        g._won = self._won.copy()
        return g

    # --- reading the state -----------------------------------------------------------------

    @property
    def rules(self) -> Rules:
        return self._rules

    @property
    def pack(self) -> Pack:
        return self._rules.pack

    @property
    def players(self) -> int:
        return self._np

    @property
    def names(self) -> tuple[str, ...]:
        return self._names

    @property
    def seed(self) -> int:
        return self._seed

    @property
    def phase(self) -> Phase:
        return self._phase

    @property
    def hand_number(self) -> int:
        """1-based, counting extra and tie-break hands."""
        return self._number

    @property
    def cards_each(self) -> int:
        return self._size

    @property
    def dealer(self) -> int:
        return self._dealer

    @property
    def seats(self) -> tuple[int, ...]:
        """Seats dealt in this hand (a tie-break deal deals only the tied players)."""
        return self._seats

    @property
    def is_blind(self) -> bool:
        return self._blind

    @property
    def trump(self) -> SuitLetter | None:
        """The trump suit, or None for no trumps (or not chosen yet)."""
        return SUITS[self._trump] if self._trump >= 0 else None

    @property
    def trump_id(self) -> int:
        """0-3 for clubs..spades, -1 no trumps, -2 not chosen yet."""
        return self._trump

    @property
    def turned(self) -> Card | None:
        return self._pack.cards[self._turned] if self._turned >= 0 else None

    @property
    def bids(self) -> tuple[int | None, ...]:
        """Every bid, secret or not (for the service and tests; players read ``view``)."""
        return tuple(b if b >= 0 else None for b in self._bids)

    @property
    def bid_round(self) -> int:
        """Which round of bidding (knock bidding goes round until nobody changes)."""
        return self._bround

    @property
    def tricks_won(self) -> tuple[int, ...]:
        return tuple(self._won)

    @property
    def totals(self) -> tuple[int, ...]:
        return tuple(self._totals)

    @property
    def placing(self) -> tuple[int, ...] | None:
        return self._placing

    @property
    def leader(self) -> int:
        return self._leader

    @property
    def trick_ids(self) -> tuple[int, ...]:
        return tuple(self._trick)

    @property
    def led_id(self) -> int:
        """The suit led to the trick in progress (0-3; a joker led counts as the trump suit, or
        in no trumps as the suit it was named), or -1 between tricks."""
        return self._led if self._trick else -1

    @property
    def to_act(self) -> tuple[int, ...]:
        """Seats that may act now: the one the game waits for first (several when bidding is
        simultaneous; with bid changes, also the previous bidder)."""
        ph = self._phase
        if ph is PLAYING:
            return (self.turn,)
        if ph is BIDDING:
            if self._pending:
                return tuple(s for s in self._order if self._pending >> s & 1)
            nxt = self._order[self._bpos]
            return (nxt, self._changer) if self._changer >= 0 else (nxt,)
        if ph is TRUMP:
            return (self._chooser,)
        return ()

    def hand_mask(self, seat: int) -> int:
        return self._hands[seat]

    def hand(self, seat: int) -> tuple[Card, ...]:
        return self._pack.cards_of(self._hands[seat])

    def history(self) -> tuple[HandLog, ...]:
        """Every hand so far, the one in progress last (if a hand is in progress)."""
        if self._phase is OVER:
            return self._past
        return (*self._past, current_log(self))

    def name(self, seat: int) -> str:
        return self._names[seat]


def current_log(g: GameState, points: tuple[int, ...] | None = None) -> HandLog:
    """The hand in progress as a :class:`HandLog` (``points`` once it is complete)."""
    complete = points is not None
    return HandLog(
        number=g._number,
        kind=g._kind,
        dealer=g._dealer,
        cards_each=g._size,
        seats=g._seats,
        dealt=g._dealt,
        turned=g._turned,
        trump=g._trump,
        bid_log=tuple(g._log),
        trump_choice=g._trump_choice,
        tricks=tuple(g._tricks),
        current=Trick(g._leader, tuple(g._trick), -1, g._value, g._named) if g._trick else None,
        bids=tuple(g._bids),
        won=tuple(g._won),
        points=points,
        totals=tuple(g._totals),
        complete=complete,
    )


def start_play(g: GameState) -> None:
    """Bidding (and any trump choice) is over: the first lead."""
    g._phase = PLAYING
    g._fast = not g._ntj
    lead = g._dealer if g._rules.first_lead == "dealer" else g._order[0]
    g._leader = lead
    g.turn = lead


def bits(m: int) -> list[int]:
    """The set bits of ``m``, lowest first."""
    out = []
    while m:
        low = m & -m
        out.append(low.bit_length() - 1)
        m ^= low
    return out
