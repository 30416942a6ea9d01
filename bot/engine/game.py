"""The game: one engine for every rule system, with a fast path for simulation.

State is kept in plain ints and lists: a hand is one int (bit ``1 << id`` per card), suit masks
come from per-pack tables, and the public API (``legal_actions``, ``apply``, ``view``) is a thin
checked layer over the fast path (``legal_mask``, ``apply_fast``) that computer players use.
"""

from __future__ import annotations

import functools
import hashlib
import json
import struct
from collections.abc import Sequence
from typing import Any, Final, NamedTuple

from bot.engine.actions import (
    Action,
    Bid,
    BidChanged,
    BidMade,
    BidsRevealed,
    CardPlayed,
    ChooseTrump,
    Event,
    GameOver,
    HandDealt,
    HandScored,
    Phase,
    Play,
    PlayerView,
    TrickView,
    TrickWon,
    TrumpChosen,
)
from bot.engine.cards import HIDDEN, JOKER, SUIT_NAMES, SUITS, Card, Pack, SuitLetter
from bot.engine.errors import (
    DealError,
    EngineError,
    IllegalBid,
    IllegalPlay,
    IllegalTrump,
    NotYourTurn,
    WrongPhase,
)
from bot.engine.scoring import FORMULAS
from bot.engine.settings import TIEBREAK_DEAL_SIZE, Rules, Settings

_BIDDING: Final = Phase.BIDDING
_TRUMP: Final = Phase.TRUMP_CHOICE
_PLAYING: Final = Phase.PLAYING
_OVER: Final = Phase.GAME_OVER

NO_TRUMPS: Final = -1
TRUMP_PENDING: Final = -2
JSON_VERSION: Final = 1

NORMAL, EXTRA, TIEBREAK = "normal", "extra", "tiebreak"


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


class Game:
    """A game of Oh Hell. Mutable, like a chess board; every value it hands out is immutable."""

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
        "_hands",
        "_joker",
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
        "_turn",
        "_turned",
        "_value",
        "_won",
    )

    _rules: Rules
    _pack: Pack
    _np: int
    _names: tuple[str, ...]
    _seed: int
    _first_dealer: int
    _overrides: dict[int, Deal]
    _phase: Phase
    _fast: bool
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
    _next: list[int]
    _k: int
    _hands: list[int]
    _dealt: tuple[tuple[int, ...], ...]
    _turned: int
    _trump: int
    _smask: list[int]
    _suit_of: tuple[int, ...]
    _dups: bool
    _ev: list[Event] | None
    _joker: int
    _ntj: bool
    _bids: list[int]
    _log: list[tuple[int, int]]
    _bpos: int
    _changer: int
    _pending: int
    _bround: int
    _chooser: int
    _trump_choice: tuple[int, int] | None
    _leader: int
    _turn: int
    _trick: list[int]
    _tmask: int
    _led: int
    _named: int
    _value: int
    _left: int
    _tricks: list[Trick]
    _won: list[int]
    _played: list[int]
    _failed: list[int]
    _totals: list[int]
    _made: list[int]
    _made_win: list[int]
    _made_over: list[int]
    _tb: list[tuple[int, ...]]
    _past: tuple[HandLog, ...]
    _placing: tuple[int, ...] | None

    # --- construction ----------------------------------------------------------------------

    @classmethod
    def new(
        cls,
        rules: Settings | Rules,
        players: int,
        seed: int = 0,
        first_dealer: int = 0,
        names: Sequence[str] | None = None,
    ) -> Game:
        """A new game, first hand dealt. Deals are a function of ``seed`` and the hand number."""
        return cls._create(rules, players, seed, first_dealer, names, {})

    @classmethod
    def _create(
        cls,
        rules: Settings | Rules,
        players: int,
        seed: int,
        first_dealer: int,
        names: Sequence[str] | None,
        overrides: dict[int, Deal],
    ) -> Game:
        r = rules.resolve(players) if isinstance(rules, Settings) else rules
        if r.players != players:
            raise EngineError(f"these rules were resolved for {r.players} players, not {players}")
        if not 0 <= first_dealer < players:
            raise EngineError(f"first_dealer must be a seat from 0 to {players - 1}")
        if names is not None and len(names) != players:
            raise EngineError(f"give {players} names, one per seat (got {len(names)})")
        g = cls.__new__(cls)
        g._rules = r
        g._pack = r.pack
        g._np = players
        g._names = (
            tuple(names) if names is not None else tuple(f"Player {i + 1}" for i in range(players))
        )
        g._seed = seed
        g._first_dealer = first_dealer
        g._overrides = overrides
        g._number = 0
        g._seq = 0
        g._next_kind = NORMAL
        g._next_seats = tuple(range(players))
        g._size = 0
        g._dealer = -1
        g._joker = r.pack.joker
        g._suit_of = r.pack.suit_of
        g._dups = r.pack.has_duplicates
        g._ev = None
        g._totals = [0] * players
        g._made = [0] * players
        g._made_win = [0] * players
        g._made_over = [0] * players
        g._tb = [()] * players
        g._past = ()
        g._placing = None
        g._begin_hand()
        return g

    def copy(self) -> Game:
        """An independent copy (cheap: the rules and past hands are shared, being immutable)."""
        g = Game.__new__(Game)
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
        g._pending = self._pending
        g._phase = self._phase
        g._placing = self._placing
        g._played = self._played.copy()
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
        g._turn = self._turn
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
    def turn(self) -> int:
        """The seat the game waits for first (``to_act[0]``); -1 once the game is over."""
        return self._turn

    @property
    def to_act(self) -> tuple[int, ...]:
        """Seats that may act now: the one the game waits for first (several when bidding is
        simultaneous; with bid changes, also the previous bidder)."""
        ph = self._phase
        if ph is _PLAYING:
            return (self._turn,)
        if ph is _BIDDING:
            if self._pending:
                return tuple(s for s in self._order if self._pending >> s & 1)
            nxt = self._order[self._bpos]
            return (nxt, self._changer) if self._changer >= 0 else (nxt,)
        if ph is _TRUMP:
            return (self._chooser,)
        return ()

    def hand_mask(self, seat: int) -> int:
        return self._hands[seat]

    def hand(self, seat: int) -> tuple[Card, ...]:
        return self._pack.cards_of(self._hands[seat])

    def history(self) -> tuple[HandLog, ...]:
        """Every hand so far, the one in progress last (if a hand is in progress)."""
        if self._phase is _OVER:
            return self._past
        return (*self._past, self._current_log())

    def name(self, seat: int) -> str:
        return self._names[seat]

    # --- the deal --------------------------------------------------------------------------

    def _begin_hand(self) -> None:
        ev = self._ev
        r = self._rules
        pk = self._pack
        num = self._number
        kind = self._next_kind
        if kind == NORMAL:
            size = r.size_at(self._seq)
            blind = r.is_blind(self._seq, size)
            self._seq += 1
        elif kind == EXTRA:
            size = self._size
            blind = r.blind == "all" and size == 1
        else:
            size = TIEBREAK_DEAL_SIZE
            blind = False
        seats = self._next_seats
        np_ = self._np
        if num == 0:
            dealer = self._first_dealer
        else:
            dealer = (self._dealer + 1) % np_
            while dealer not in seats:
                dealer = (dealer + 1) % np_
        i = seats.index(dealer)
        order = seats[i + 1 :] + seats[: i + 1]
        nxt = [-1] * np_
        for a, b in zip(order, order[1:] + order[:1], strict=True):
            nxt[a] = b
        self._number = num + 1
        self._kind = kind
        self._size = size
        self._blind = blind
        self._dealer = dealer
        self._seats = seats
        self._order = order
        self._next = nxt
        self._k = len(order)

        deal = self._overrides.get(num)
        if deal is None:
            deal = self._seeded_deal(num, order, size)
        else:
            self._check_deal(deal, order, size)
        dealt, turned = deal
        self._dealt = dealt
        self._turned = turned
        hands = [0] * np_
        for s in order:
            hands[s] = sum(map(_ONE.__lshift__, dealt[s]))
        self._hands = hands

        if r.trump == "turned":
            ace = turned >= 0 and r.ace_no_trumps and pk.cards[turned].rank == "A"
            if turned < 0 or pk.suit_of[turned] == 4 or ace:
                trump = NO_TRUMPS
            else:
                trump = pk.suit_of[turned]
        elif r.trump == "spades":
            trump = 3
        elif r.trump == "rotation":
            trump = (0, 1, 2, 3, NO_TRUMPS)[num % 5]
        else:
            trump = TRUMP_PENDING
        self._set_trump(trump)

        self._phase = _BIDDING
        self._fast = False
        self._bids = [-1] * np_
        self._log = []
        self._bpos = 0
        self._changer = -1
        self._bround = 1
        self._chooser = -1
        self._trump_choice = None
        self._pending = self._all_pending() if r.bidding in ("secret", "knock") else 0
        self._leader = -1
        self._turn = order[0]
        self._trick = []
        self._tmask = 0
        self._led = -1
        self._named = -1
        self._value = 1
        self._left = size
        self._tricks = []
        self._won = [0] * np_
        self._played = [0] * np_
        self._failed = [0] * np_
        if ev is not None:
            ev.append(
                HandDealt(
                    hand=num + 1,
                    dealer=dealer,
                    cards_each=size,
                    seats=seats,
                    turned=self.turned,
                    trump=self.trump,
                    trump_decided=trump != TRUMP_PENDING,
                    blind=blind,
                )
            )

    def _all_pending(self) -> int:
        m = 0
        for s in self._order:
            m |= 1 << s
        return m

    def _set_trump(self, trump: int) -> None:
        self._trump = trump
        sm = list(self._pack.suit_masks)
        jk = self._joker
        if jk >= 0 and trump >= 0:
            sm[trump] |= 1 << jk
        self._smask = sm
        self._ntj = jk >= 0 and trump == NO_TRUMPS

    def _seeded_deal(self, num: int, order: tuple[int, ...], size: int) -> Deal:
        """Hand ``num``'s deal: a shuffle keyed by SHAKE-128 of (seed, hand number), so every
        deal is reproducible from the seed alone, on any machine."""
        r = self._rules
        n = self._pack.size
        keys = _keys_struct(n).unpack(
            hashlib.shake_128(f"ohhell:{self._seed}:{num}".encode()).digest(4 * n + 4)
        )
        deck = sorted(range(n), key=keys.__getitem__)
        k = len(order)
        dealt: list[tuple[int, ...]] = [()] * self._np
        for i, s in enumerate(order):
            dealt[s] = tuple(deck[i : k * size : k])
        turned = -1
        if r.trump == "turned":
            if k * size < n:
                turned = deck[k * size]
            elif r.exhausted_trump == "dealer-last":
                turned = deck[k * size - 1]
            elif r.exhausted_trump == "before-deal":
                turned = keys[n] % n
        return tuple(dealt), turned

    def _check_deal(self, deal: Deal, order: tuple[int, ...], size: int) -> None:
        dealt, turned = deal
        pk = self._pack
        r = self._rules
        num = self._number
        if len(dealt) != self._np:
            raise DealError(f"the deal lists {len(dealt)} seats, not {self._np}")
        used = [0] * pk.size
        for s in range(self._np):
            cards = dealt[s]
            want = size if s in order else 0
            if len(cards) != want:
                who = self._names[s]
                raise DealError(
                    f"{who} was dealt {len(cards)} cards; hand {num} deals {want} each"
                    if want
                    else f"{who} is not in hand {num}'s deal but was dealt cards"
                )
            for c in cards:
                if not 0 <= c < pk.size or used[c]:
                    name = pk.cards[c] if 0 <= c < pk.size else c
                    raise DealError(f"{name} is dealt more often than the pack holds it")
                used[c] = 1
        exhausted = len(order) * size == pk.size
        if r.trump != "turned":
            if turned >= 0:
                raise DealError(f"trump is '{r.trump}', so no card is turned", rule="turned")
            return
        if not exhausted:
            if turned < 0:
                raise DealError("a card must be turned up for trump", rule="turned")
            if not 0 <= turned < pk.size or used[turned]:
                raise DealError(
                    "the turned card must be an undealt card of the pack", rule="turned"
                )
        elif r.exhausted_trump == "dealer-last":
            if turned not in dealt[self._dealer]:
                raise DealError("the turned card must be the dealer's last card", rule="turned")
        elif r.exhausted_trump == "before-deal":
            if not 0 <= turned < pk.size:
                raise DealError("a card must be turned before the deal", rule="turned")
        elif turned >= 0:
            raise DealError("every card is dealt, so no card is turned (no trumps)", rule="turned")

    # --- the fast path ---------------------------------------------------------------------

    def legal_mask(self, seat: int) -> int:
        """What ``seat`` may do now, as a bitmask: card ids while playing, bid values while
        bidding, suits 0-3 when choosing trump; 0 when it may do nothing."""
        if self._fast and seat == self._turn:
            h = self._hands[seat]
            if self._trick:
                f = h & self._smask[self._led]
                if f:
                    return f
            return h
        ph = self._phase
        if ph is _PLAYING:
            if seat != self._turn:
                return 0
            h = self._hands[seat]
            if self._ntj:
                return self._nt_legal(seat, h)
            if self._trick:
                f = h & self._smask[self._led]
                if f:
                    return f
            return h
        if ph is _BIDDING:
            return self._bid_mask(seat)
        if ph is _TRUMP:
            return 0b1111 if seat == self._chooser else 0
        return 0

    def apply_fast(self, seat: int, x: int, suit: int = -1) -> None:
        """Apply a move from ``legal_mask`` unchecked: a card id, a bid, or a trump suit.
        ``suit`` names a joker led in no trumps (default: the lowest suit allowed)."""
        if self._fast:
            self._play(seat, x, -1)
            return
        ph = self._phase
        if ph is _PLAYING:
            if x == self._joker and self._ntj and not self._trick and suit < 0:
                m = self._joker_suits(seat)
                suit = (m & -m).bit_length() - 1
            self._play(seat, x, suit)
        elif ph is _BIDDING:
            self._bid(seat, x)
        elif ph is _TRUMP:
            self._choose(seat, x)
        else:
            raise WrongPhase("the game is over")

    def joker_suits(self, seat: int) -> int:
        """Suits (bits 0-3) as which ``seat`` may play the joker now in a no-trumps hand."""
        if not self._ntj:
            return 0
        return self._joker_suits(seat)

    def _joker_suits(self, seat: int) -> int:
        if self._left == 1:
            return 0b1111
        h = self._hands[seat] & ~(1 << self._joker)
        played = self._played[seat]
        failed = self._failed[seat]
        sm = self._smask
        m = 0
        for s in range(4):
            # Holding s, the player can't have failed s; without s, failing s bars the joker
            # (001: a card played in a suit not followed earlier is a revoke).
            if (not played >> s & 1 if h & sm[s] else True) and not failed >> s & 1:
                m |= 1 << s
        return m

    def _nt_legal(self, seat: int, h: int) -> int:
        # 001, no trumps: the joker may be played as suit X only if the player has not played
        # X yet, or has run out of X without having failed to follow X, or in the final trick;
        # never as a suit the player has failed to follow (docs/rules.md).
        jb = 1 << self._joker
        if self._trick:
            led = self._led
            f = h & self._smask[led]
            legal = f if f else h & ~jb
            if h & jb and self._joker_suits(seat) >> led & 1:
                legal |= jb
            return legal
        legal = h & ~jb
        if h & jb and self._joker_suits(seat):
            legal |= jb
        return legal

    def _bid_mask(self, seat: int) -> int:
        full = (1 << (self._size + 1)) - 1
        if self._pending:
            return full if self._pending >> seat & 1 else 0
        m = 0
        if seat == self._order[self._bpos]:
            m = full
            if self._bpos == self._k - 1 and self._rules.bidding == "hook":
                f = self._hook_forbidden()
                if f >= 0:
                    m &= ~(1 << f)
        elif seat == self._changer:
            m = full & ~(1 << self._bids[seat])
        return m

    def _hook_forbidden(self) -> int:
        rest = self._size - sum(self._bids[s] for s in self._order[:-1])
        return rest if 0 <= rest <= self._size else -1

    def _bid(self, seat: int, n: int) -> None:
        ev = self._ev
        self._log.append((seat, n))
        if self._pending:
            self._bids[seat] = n
            self._pending &= ~(1 << seat)
            if ev is not None:
                ev.append(BidMade(seat, None))
            if not self._pending:
                again = (
                    self._rules.bidding == "knock"
                    and self._bround < 3
                    and sum(self._bids[s] for s in self._order) == self._size
                )
                if ev is not None:
                    ev.append(BidsRevealed(self.bids, self._bround, again))
                if again:
                    self._bround += 1
                    for s in self._order:
                        self._bids[s] = -1
                    self._pending = self._all_pending()
                    self._turn = self._order[0]
                else:
                    self._end_bidding()
            elif seat == self._turn:
                p = self._pending
                for s in self._order:
                    if p >> s & 1:
                        self._turn = s
                        break
            return
        if seat == self._changer and seat != self._order[self._bpos]:
            old = self._bids[seat]
            self._bids[seat] = n
            if ev is not None:
                ev.append(BidChanged(seat, old, n))
            return
        self._bids[seat] = n
        if ev is not None:
            ev.append(BidMade(seat, n))
        self._bpos += 1
        if self._bpos == self._k:
            self._changer = -1
            self._end_bidding()
        else:
            self._changer = seat if self._rules.bid_changes else -1
            self._turn = self._order[self._bpos]

    def _end_bidding(self) -> None:
        if self._trump == TRUMP_PENDING:
            best = -1
            for s in self._order:
                if self._bids[s] > best:
                    best = self._bids[s]
                    self._chooser = s
            self._phase = _TRUMP
            self._turn = self._chooser
            return
        self._start_play()

    def _choose(self, seat: int, suit: int) -> None:
        ev = self._ev
        self._trump_choice = (seat, suit)
        self._set_trump(suit)
        if ev is not None:
            ev.append(TrumpChosen(seat, SUITS[suit]))
        self._start_play()

    def _start_play(self) -> None:
        self._phase = _PLAYING
        self._fast = not self._ntj
        lead = self._dealer if self._rules.first_lead == "dealer" else self._order[0]
        self._leader = lead
        self._turn = lead

    def _play(self, seat: int, card: int, named: int) -> None:
        bit = 1 << card
        self._hands[seat] ^= bit
        trick = self._trick
        if not trick:
            s = self._suit_of[card]
            if s == 4:
                if self._trump >= 0:
                    s = self._trump
                    named = -1
                else:
                    s = named
            else:
                named = -1
            self._named = named
            self._led = s
            if self._ntj and card != self._joker:
                self._played[seat] |= 1 << s
        elif self._ntj and card != self._joker:
            s = self._suit_of[card]
            if s != self._led:
                self._failed[seat] |= 1 << self._led
            self._played[seat] |= 1 << s
        trick.append(card)
        self._tmask |= bit
        if len(trick) < self._k:
            self._turn = self._next[seat]
        else:
            self._finish_trick()

    def _finish_trick(self) -> None:
        ev = self._ev
        trick = self._trick
        tm = self._tmask
        leader = self._leader
        value = self._value
        jk = self._joker
        if self._ntj and tm >> jk & 1:
            idx = trick.index(jk)
        elif not self._dups:
            w = tm & self._smask[self._trump] if self._trump >= 0 else 0
            if not w:
                w = tm & self._smask[self._led]
            idx = trick.index(w.bit_length() - 1)
        else:
            idx = self._duplicate_winner()
        if idx >= 0:
            winner = leader
            nxt = self._next
            for _ in range(idx):
                winner = nxt[winner]
            self._won[winner] += value
            self._value = 1
            self._leader = winner
        else:
            winner = -1
            self._value = value + 1
        done = Trick(leader, tuple(trick), winner, value, self._named)
        self._tricks.append(done)
        self._trick = []
        self._tmask = 0
        self._left -= 1
        if ev is not None:
            cards = self._pack.cards
            ev.append(
                TrickWon(
                    leader,
                    tuple(cards[c] for c in done.cards),
                    winner if winner >= 0 else None,
                    value,
                )
            )
        if self._left:
            self._turn = self._leader
        else:
            self._end_hand()

    def _duplicate_winner(self) -> int:
        """Position of the winning card in the trick, or -1 (all cancelled, up the ante)."""
        pk = self._pack
        trick = self._trick
        suit_of, rank_of, face_of = pk.suit_of, pk.rank_of, pk.face_of
        rule = self._rules.duplicates
        trump = self._trump
        suits = (trump, self._led) if trump >= 0 else (self._led,)
        faces = [face_of[c] for c in trick]
        for s in suits:
            pos = [i for i, c in enumerate(trick) if suit_of[c] == s]
            if not pos:
                continue
            if rule == "cancel":
                alive = [i for i in pos if faces.count(faces[i]) == 1]
                if alive:
                    return max(alive, key=lambda i: rank_of[trick[i]])
                continue
            best = pos[0]
            for i in pos[1:]:
                rk, bk = rank_of[trick[i]], rank_of[trick[best]]
                if rk > bk or (rk == bk and rule == "later-wins"):
                    best = i
            return best
        # Cancellation removed every card that could win.
        if self._rules.all_cancelled == "up-the-ante" and self._left > 1:
            return -1
        # first-highest, and (reading, docs/rules.md) the last trick under up-the-ante too.
        s = trump if trump >= 0 and any(suit_of[c] == trump for c in trick) else self._led
        best = -1
        for i, c in enumerate(trick):
            if suit_of[c] == s and (best < 0 or rank_of[c] > rank_of[trick[best]]):
                best = i
        return best

    # --- the end of a hand and of the game -------------------------------------------------

    def _end_hand(self) -> None:
        ev = self._ev
        r = self._rules
        formula = FORMULAS[r.scoring]
        n = self._size
        k = self._k
        double = r.spades_double and r.trump == "turned" and self._turned >= 0 and self._trump == 3
        points = [0] * self._np
        bids = self._bids
        won = self._won
        tiebreak = self._kind == TIEBREAK
        for s in self._order:
            b, t = bids[s], won[s]
            p = formula(b, t, n, k)
            points[s] = p * 2 if double else p
            if not tiebreak:
                self._totals[s] += points[s]
                if t == b:
                    self._made[s] += 1
                    if b:
                        self._made_win[s] += 1
                if t >= b:
                    self._made_over[s] += 1
        log = self._current_log(tuple(points))
        self._past = (*self._past, log)
        if ev is not None:
            ev.append(
                HandScored(
                    self._number,
                    self.bids,
                    tuple(won),
                    tuple(points),
                    tuple(self._totals),
                    tiebreak,
                )
            )
        if tiebreak:
            sign = -1 if r.scoring == "negative" else 1
            tb = list(self._tb)
            for s in self._order:
                tb[s] = (*tb[s], sign * points[s])
            self._tb = tb
            best = max(sign * points[s] for s in self._order)
            top = tuple(s for s in self._seats if sign * points[s] == best)
            if len(top) > 1:
                self._next_hand(TIEBREAK, top)
            else:
                self._game_over()
            return
        if r.end == "sequence":
            if self._kind == NORMAL and self._seq < len(r.sizes):
                self._next_hand(NORMAL, tuple(range(self._np)))
                return
        elif max(self._totals) < r.target:
            self._next_hand(NORMAL, tuple(range(self._np)))
            return
        keys = self._keys()
        top_key = max(keys)
        top = tuple(s for s in range(self._np) if keys[s] == top_key)
        if len(top) > 1 and r.ties == "extra-hand":
            self._next_hand(EXTRA, tuple(range(self._np)))
        elif len(top) > 1 and r.ties == "tiebreakers":
            self._next_hand(TIEBREAK, top)
        else:
            self._game_over()

    def _keys(self) -> list[tuple[int, ...]]:
        sign = -1 if self._rules.scoring == "negative" else 1
        if self._rules.ties != "tiebreakers":
            return [(sign * t,) for t in self._totals]
        return [
            (sign * self._totals[s], self._made[s], self._made_win[s], self._made_over[s])
            + self._tb[s]
            for s in range(self._np)
        ]

    def _next_hand(self, kind: str, seats: tuple[int, ...]) -> None:
        self._next_kind = kind
        self._next_seats = seats
        self._begin_hand()

    def _game_over(self) -> None:
        ev = self._ev
        keys = self._keys()
        distinct = sorted(set(keys), reverse=True)
        self._placing = tuple(distinct.index(key) + 1 for key in keys)
        self._phase = _OVER
        self._fast = False
        self._turn = -1
        if ev is not None:
            ev.append(GameOver(self._placing, tuple(self._totals)))

    def _current_log(self, points: tuple[int, ...] | None = None) -> HandLog:
        complete = points is not None
        return HandLog(
            number=self._number,
            kind=self._kind,
            dealer=self._dealer,
            cards_each=self._size,
            seats=self._seats,
            dealt=self._dealt,
            turned=self._turned,
            trump=self._trump,
            bid_log=tuple(self._log),
            trump_choice=self._trump_choice,
            tricks=tuple(self._tricks),
            current=Trick(self._leader, tuple(self._trick), -1, self._value, self._named)
            if self._trick
            else None,
            bids=tuple(self._bids),
            won=tuple(self._won),
            points=points,
            totals=tuple(self._totals),
            complete=complete,
        )

    # --- the checked public API ------------------------------------------------------------

    def legal_actions(self, seat: int) -> list[Action]:
        """Every action ``seat`` may take now (copies of a duplicated card appear once)."""
        m = self.legal_mask(seat)
        ph = self._phase
        if ph is _BIDDING:
            return [Bid(n) for n in _bits(m)]
        if ph is _TRUMP:
            return [ChooseTrump(SUITS[s]) for s in _bits(m)]
        if ph is not _PLAYING:
            return []
        out: list[Action] = []
        seen: set[Card] = set()
        cards = self._pack.cards
        for c in _bits(m):
            card = cards[c]
            if card in seen:
                continue
            seen.add(card)
            if c == self._joker and self._ntj and not self._trick:
                out.extend(Play(JOKER, SUITS[s]) for s in _bits(self._joker_suits(seat)))
            else:
                out.append(Play(card))
        return out

    def apply(self, seat: int, action: Action) -> list[Event]:
        """Apply ``action`` for ``seat`` after checking it; returns what happened, in order."""
        ev: list[Event] = []
        if isinstance(action, Bid):
            self._check_bid(seat, action.n)
            self._ev = ev
            try:
                self._bid(seat, action.n)
            finally:
                self._ev = None
        elif isinstance(action, Play):
            card, named = self._check_play(seat, action)
            ev.append(
                CardPlayed(seat, self._pack.cards[card], SUITS[named] if named >= 0 else None)
            )
            self._ev = ev
            try:
                self._play(seat, card, named)
            finally:
                self._ev = None
        elif isinstance(action, ChooseTrump):
            suit = self._check_trump(seat, action.suit)
            self._ev = ev
            try:
                self._choose(seat, suit)
            finally:
                self._ev = None
        else:
            raise TypeError(f"not an action: {action!r}")
        return ev

    def _who(self, seat: int) -> str:
        return self._names[seat] if 0 <= seat < self._np else f"seat {seat}"

    def _phase_error(self, seat: int, doing: str) -> WrongPhase:
        ph = self._phase
        if ph is _OVER:
            return WrongPhase("the game is over", rule="game-over")
        if ph is _BIDDING:
            waiting = ", ".join(self._who(s) for s in self.to_act)
            msg = f"bidding isn't over: waiting for {waiting} to bid"
        elif ph is _TRUMP:
            msg = f"{self._who(self._chooser)} must choose trump first"
        else:
            msg = "bidding is over: play a card"
        return WrongPhase(msg, record=f"{self._who(seat)} tried to {doing}, but {msg}")

    def _check_bid(self, seat: int, n: int) -> None:
        if self._phase is not _BIDDING:
            raise self._phase_error(seat, f"bid {n}")
        who = self._who(seat)
        if not self._legal_seat(seat):
            raise NotYourTurn(f"there is no seat {seat}")
        if seat not in self._seats:
            raise NotYourTurn(
                "you are not in this tie-break deal", record=f"{who} is not in this tie-break deal"
            )
        if n >= 0 and self._bid_mask(seat) >> n & 1:
            return
        if not self._bid_mask(seat):
            if self._pending:
                raise NotYourTurn(
                    "you have bid already: waiting for the others",
                    record=f"{who} bid twice in one round",
                )
            turn = self._who(self._order[self._bpos])
            if self._bids[seat] >= 0:
                if not self._rules.bid_changes:
                    raise IllegalBid(
                        "bids can't be changed at this table",
                        rule="bid-change",
                        record=f"{who} bid again, but bids can't be changed at this table",
                    )
                raise IllegalBid(
                    "you can't change your bid any more: the next player has bid",
                    rule="bid-change",
                    record=f"{who} changed the bid after the next player had bid",
                )
            raise NotYourTurn(
                f"it is {turn}'s turn to bid", record=f"{who} bid out of turn: it is {turn}'s turn"
            )
        size = self._size
        if not 0 <= n <= size:
            raise IllegalBid(
                f"bid from 0 to {size}: there are {size} tricks",
                record=f"{who} bid {n}, but bids run from 0 to {size}",
            )
        if not self._pending and seat == self._changer and seat != self._order[self._bpos]:
            raise IllegalBid(
                f"your bid is {n} already",
                rule="bid-change",
                record=f"{who} changed the bid to {n}, which it already was",
            )
        raise IllegalBid(
            f"as the dealer you can't bid {n}: the bids would add up to {size} tricks",
            rule="hook",
            record=f"{who} (the dealer) bid {n}, making the bids add up to {size} tricks",
        )

    def _legal_seat(self, seat: int) -> bool:
        return 0 <= seat < self._np

    def _check_trump(self, seat: int, suit: str) -> int:
        if self._phase is not _TRUMP:
            if self._phase is _OVER or self._rules.trump == "bidder":
                raise self._phase_error(seat, "choose trump")
            raise IllegalTrump(
                f"trump is '{self._rules.trump}' at this table: nobody chooses it",
                rule="trump-choice",
            )
        if seat != self._chooser:
            c = self._who(self._chooser)
            raise NotYourTurn(
                f"{c} chooses trump (the highest bid)",
                record=f"{self._who(seat)} chose trump, but {c} chooses (the highest bid)",
            )
        if suit not in SUITS:
            raise IllegalTrump(f"choose a suit: one of {', '.join(SUITS)}")
        return SUITS.index(suit)

    def _check_play(self, seat: int, action: Play) -> tuple[int, int]:
        if self._phase is not _PLAYING:
            raise self._phase_error(seat, f"play {action.card}")
        who = self._who(seat)
        if seat != self._turn:
            t = self._who(self._turn)
            raise NotYourTurn(
                f"it is {t}'s turn", record=f"{who} played out of turn: it is {t}'s turn"
            )
        h = self._hands[seat]
        card = action.card
        if card == HIDDEN:
            if not self._blind or h.bit_count() != 1:
                raise IllegalPlay(
                    "only a blind hand's unseen card may be played unseen", rule="card-not-held"
                )
            c = h.bit_length() - 1
            card = self._pack.cards[c]
        held = [i for i in self._pack.ids(card) if h >> i & 1]
        if not held:
            raise IllegalPlay(
                f"you don't hold {card}",
                rule="card-not-held",
                record=f"{who} played {card} but doesn't hold it",
            )
        legal = self.legal_mask(seat)
        ok = [i for i in held if legal >> i & 1]
        is_joker = held[0] == self._joker
        if not ok:
            if is_joker and self._ntj:
                raise self._joker_error(seat, card)
            led = SUIT_NAMES[self._led]
            raise IllegalPlay(
                f"you must follow {led}", record=f"{who} played {card} but must follow {led}"
            )
        named = -1
        if is_joker and self._ntj and not self._trick:
            if action.suit is None:
                raise IllegalPlay(
                    "name the suit of the joker you lead (no trumps)",
                    rule="joker",
                    record=f"{who} led the joker without naming its suit",
                )
            named = SUITS.index(action.suit)
            if not self._joker_suits(seat) >> named & 1:
                raise self._joker_error(seat, card, named)
        elif action.suit is not None:
            raise IllegalPlay(
                "name a suit only when you lead the joker in no trumps",
                rule="joker",
                record=f"{who} named a suit for {card}, which isn't a joker led in no trumps",
            )
        return ok[0], named

    def _joker_error(self, seat: int, card: Card, named: int = -1) -> IllegalPlay:
        s = named if named >= 0 else self._led
        suit = SUIT_NAMES[s]
        if self._failed[seat] >> s & 1:
            why = f"you have failed to follow {suit} this hand"
        else:
            why = f"you have played {suit} and still hold {suit}"
        they = why.replace("you", "they")
        return IllegalPlay(
            f"the joker can't be played as {suit} now: {why}",
            rule="joker",
            record=f"{self._who(seat)} played the joker as {suit}, but {they}",
        )

    # --- the player view -------------------------------------------------------------------

    def view(self, seat: int) -> PlayerView:
        """Exactly what ``seat`` may see."""
        pk = self._pack
        cards = pk.cards
        np_ = self._np
        blind = self._blind and self._phase is not _OVER
        own = () if blind else pk.cards_of(self._hands[seat])
        visible: list[tuple[Card, ...] | None] = [None] * np_
        if blind:
            for s in self._seats:
                if s != seat:
                    visible[s] = pk.cards_of(self._hands[s])
        secret = self._rules.bidding in ("secret", "knock") and self._phase is _BIDDING
        bids = tuple(
            (b if b >= 0 and (not secret or s == seat) else None) for s, b in enumerate(self._bids)
        )
        has_bid = tuple(b >= 0 for b in self._bids)
        trick = []
        s = self._leader
        for c in self._trick:
            trick.append((s, cards[c]))
            s = self._next[s]
        tricks = tuple(self._trick_view(t) for t in self._tricks)
        legal = tuple(self.legal_actions(seat))
        if blind and self._phase is _PLAYING:
            legal = tuple(Play(HIDDEN) for _ in legal)
        return PlayerView(
            seat=seat,
            names=self._names,
            phase=self._phase,
            hand_number=self._number,
            cards_each=self._size,
            dealer=self._dealer,
            seats=self._seats,
            to_act=self.to_act,
            hand=own,
            blind=blind,
            visible_hands=tuple(visible),
            hand_sizes=tuple(h.bit_count() for h in self._hands),
            turned=self.turned,
            trump=self.trump,
            trump_decided=self._trump != TRUMP_PENDING,
            bids=bids,
            has_bid=has_bid,
            bid_round=self._bround,
            trick=tuple(trick),
            led=SUITS[self._led] if self._trick and self._led >= 0 else None,
            trick_value=self._value,
            tricks=tricks,
            tricks_won=tuple(self._won),
            totals=tuple(self._totals),
            legal_actions=legal,
            placing=self._placing,
        )

    def _trick_view(self, t: Trick) -> TrickView:
        seats = []
        s = t.leader
        for _ in t.cards:
            seats.append(s)
            s = self._next[s]
        cards = self._pack.cards
        return TrickView(
            leader=t.leader,
            seats=tuple(seats),
            cards=tuple(cards[c] for c in t.cards),
            winner=t.winner if t.winner >= 0 else None,
            value=t.value,
            joker_suit=SUITS[t.joker_suit] if t.joker_suit >= 0 else None,
        )

    # --- simulation helpers ----------------------------------------------------------------

    def played_mask(self) -> int:
        """Cards played so far in this hand (completed tricks and the current one)."""
        m = self._tmask
        for t in self._tricks:
            for c in t.cards:
                m |= 1 << c
        return m

    def unseen_mask(self, seat: int) -> int:
        """Cards whose place ``seat`` doesn't know: the candidates a determinised copy deals
        out again (the other players' hands plus the undealt cards)."""
        m = self._pack.full_mask & ~self.played_mask()
        if self._blind:
            for s in self._seats:
                if s != seat:
                    m &= ~self._hands[s]
        else:
            m &= ~self._hands[seat]
        t = self._turned
        if t >= 0 and not (self._rules.exhausted_trump == "before-deal" and self._exhausted()):
            m &= ~(1 << t)
        return m

    def _exhausted(self) -> bool:
        return self._k * self._size == self._pack.size

    def with_hands(self, hands: Sequence[int]) -> Game:
        """A copy in which each seat holds ``hands[seat]`` (bitmasks) instead: for play-outs
        from a determinised state. Hand sizes must match, and no card may be held twice or
        have been played this hand."""
        if self._phase is _OVER:
            raise WrongPhase("the game is over", rule="game-over")
        if len(hands) != self._np:
            raise DealError(f"give one hand per seat ({self._np})")
        played = self.played_mask()
        seen = 0
        for s, h in enumerate(hands):
            if h.bit_count() != self._hands[s].bit_count():
                raise DealError(
                    f"{self._who(s)} holds {self._hands[s].bit_count()} cards, not {h.bit_count()}"
                )
            if h & (seen | played) or h & ~self._pack.full_mask:
                raise DealError("a card is held twice, played already, or not in the pack")
            seen |= h
        if (
            self._turned >= 0
            and self._rules.exhausted_trump == "dealer-last"
            and self._exhausted()
            and self._hands[self._dealer] >> self._turned & 1
            and not hands[self._dealer] >> self._turned & 1
        ):
            raise DealError("the dealer still holds the turned card (dealer's last card)")
        g = self.copy()
        g._hands = list(hands)
        by_seat: list[list[int]] = [[] for _ in range(self._np)]
        for t in [*self._tricks, Trick(self._leader, tuple(self._trick), -1, 0, -1)]:
            s = t.leader
            for c in t.cards:
                by_seat[s].append(c)
                s = self._next[s]
        dealt = tuple(
            tuple(by_seat[s]) + tuple(_bits(hands[s])) if s in self._seats else ()
            for s in range(self._np)
        )
        g._dealt = dealt
        g._overrides = {**self._overrides, self._number - 1: (dealt, self._turned)}
        return g

    # --- JSON ------------------------------------------------------------------------------

    def to_json(self) -> str:
        """Compact, versioned JSON: loads back exactly with ``Game.from_json``, future deals
        included (deals come from the seed; only deals that didn't are stored)."""
        hands: list[Any] = []
        for h in self.history():
            order = self._order_for(h.seats, h.dealer)
            seeded = self._seeded_deal(h.number - 1, order, h.cards_each)
            cards: Any = None
            if seeded != (h.dealt, h.turned):
                cards = [list(d) for d in h.dealt] + [h.turned]
            hands.append([h.dealer, cards, _encode_actions(h, self._next_for(h))])
        doc = {
            "v": JSON_VERSION,
            "rules": self._rules.settings.overrides(),
            "players": self._np,
            "names": list(self._names),
            "seed": self._seed,
            "hands": hands,
        }
        return json.dumps(doc, separators=(",", ":"))

    def _order_for(self, seats: tuple[int, ...], dealer: int) -> tuple[int, ...]:
        i = seats.index(dealer)
        return seats[i + 1 :] + seats[: i + 1]

    def _next_for(self, h: HandLog) -> list[int]:
        order = self._order_for(h.seats, h.dealer)
        nxt = [-1] * self._np
        for a, b in zip(order, order[1:] + order[:1], strict=True):
            nxt[a] = b
        return nxt

    @classmethod
    def from_json(cls, text: str) -> Game:
        """Load a game saved by ``to_json``; raises :class:`EngineError` if it isn't one."""
        try:
            return cls._load(json.loads(text))
        except EngineError:
            raise
        except (ValueError, TypeError, KeyError, IndexError) as e:
            raise EngineError(f"not a saved game of version {JSON_VERSION}: {e}") from None

    @classmethod
    def _load(cls, doc: Any) -> Game:
        if not isinstance(doc, dict) or doc.get("v") != JSON_VERSION:
            raise EngineError(f"not a saved game of version {JSON_VERSION}")
        settings = Settings.model_validate(doc["rules"])
        hands = doc["hands"]
        overrides: dict[int, Deal] = {}
        for i, (_dealer, cards, _actions) in enumerate(hands):
            if cards is not None:
                overrides[i] = (tuple(tuple(c) for c in cards[:-1]), int(cards[-1]))
        first = hands[0][0] if hands else 0
        g = cls._create(settings, doc["players"], doc["seed"], first, doc["names"], overrides)
        for i, (dealer, _cards, actions) in enumerate(hands):
            if g._number != i + 1 or g._dealer != dealer or g._phase is _OVER:
                raise EngineError(f"saved hand {i + 1} doesn't follow from the one before")
            for seat, kind, x, suit in _decode_actions(actions):
                want = {"b": _BIDDING, "t": _TRUMP, "p": _PLAYING}[kind]
                if g._number != i + 1 or g._phase is not want or not g.legal_mask(seat) >> x & 1:
                    raise EngineError(f"saved hand {i + 1} holds an illegal action")
                if kind == "p" and suit >= 0 and not g._joker_suits(seat) >> suit & 1:
                    raise EngineError(f"saved hand {i + 1} names an illegal joker suit")
                g.apply_fast(seat, x, suit)
        return g


_ONE: Final = 1


@functools.cache
def _keys_struct(n: int) -> struct.Struct:
    return struct.Struct(f"<{n + 1}I")


def _bits(m: int) -> list[int]:
    out = []
    while m:
        low = m & -m
        out.append(low.bit_length() - 1)
        m ^= low
    return out


def _encode_actions(h: HandLog, nxt: list[int]) -> str:
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
