"""The game: one engine for every rule system, with a fast path for simulation.

:class:`Game` is the state (``bot.engine.state``) with the actions on top. The rules live in one
module per idea: ``dealing``, ``bidding``, ``trump``, ``tricks``, ``scoring``; ``moves`` is the
fast path (``legal_mask``, ``apply_fast``) that computer players use, ``refusals`` the checks of
the public API (``legal_actions``, ``apply``) and their explanations, ``view`` what a seat sees,
``codec`` the saved-game JSON.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.engine import codec, moves
from bot.engine.actions import (
    Action,
    Bid,
    CardPlayed,
    ChooseTrump,
    Event,
    Play,
    PlayerView,
    TrickView,
)
from bot.engine.bidding import bid
from bot.engine.cards import SUITS, Card
from bot.engine.codec import JSON_VERSION
from bot.engine.dealing import begin_hand, exhausted
from bot.engine.errors import DealError, EngineError, WrongPhase
from bot.engine.refusals import check_bid, check_play, check_trump, who
from bot.engine.settings import Rules, Settings
from bot.engine.state import (
    EXTRA,
    NO_TRUMPS,
    NORMAL,
    OVER,
    TIEBREAK,
    TRUMP_PENDING,
    Deal,
    GameState,
    HandLog,
    Trick,
    bits,
)
from bot.engine.tricks import joker_suits, play
from bot.engine.trump import choose
from bot.engine.view import completed_tricks, current_trick, legal_actions, view

__all__ = [
    "EXTRA",
    "JSON_VERSION",
    "NORMAL",
    "NO_TRUMPS",
    "TIEBREAK",
    "TRUMP_PENDING",
    "Deal",
    "Game",
    "HandLog",
    "Trick",
]


class Game(GameState):
    """A game of Oh Hell. Mutable, like a chess board; every value it hands out is immutable."""

    __slots__ = ()

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
        g.rules = r
        g.pack = r.pack
        g.players = players
        g.names = (
            tuple(names) if names is not None else tuple(f"Player {i + 1}" for i in range(players))
        )
        g.seed = seed
        g.first_dealer = first_dealer
        g.deal_overrides = overrides
        g.hand_number = 0
        g.sequence_dealt = 0
        g.next_kind = NORMAL
        g.next_seats = tuple(range(players))
        g.cards_each = 0
        g.dealer = -1
        g.joker = r.pack.joker
        g.suit_of = r.pack.suit_of
        g.has_duplicates = r.pack.has_duplicates
        g.events = None
        g.running_totals = [0] * players
        g.hands_made = [0] * players
        g.made_above_zero = [0] * players
        g.made_or_over = [0] * players
        g.tiebreak_points = ((),) * players
        g.finished_hands = ()
        g.finished_json = (0, "")
        g.placing = None
        begin_hand(g)
        return g

    # --- the fast path ---------------------------------------------------------------------

    legal_mask = moves.legal_mask
    apply_fast = moves.apply_fast

    def joker_suits(self, seat: int) -> int:
        """Suits (bits 0-3) as which ``seat`` may play the joker now in a no-trumps hand."""
        if not self.joker_no_trumps:
            return 0
        return joker_suits(self, seat)

    # --- the checked public API ------------------------------------------------------------

    def legal_actions(self, seat: int) -> list[Action]:
        """Every action ``seat`` may take now (copies of a duplicated card appear once)."""
        return legal_actions(self, seat)

    def apply(self, seat: int, action: Action) -> list[Event]:
        """Apply ``action`` for ``seat`` after checking it; returns what happened, in order."""
        ev: list[Event] = []
        if isinstance(action, Bid):
            check_bid(self, seat, action.n)
            self.events = ev
            try:
                bid(self, seat, action.n)
            finally:
                self.events = None
        elif isinstance(action, Play):
            card, named = check_play(self, seat, action)
            ev.append(CardPlayed(seat, self.pack.cards[card], SUITS[named] if named >= 0 else None))
            self.events = ev
            try:
                play(self, seat, card, named)
            finally:
                self.events = None
        elif isinstance(action, ChooseTrump):
            suit = check_trump(self, seat, action.suit)
            self.events = ev
            try:
                choose(self, seat, suit)
            finally:
                self.events = None
        else:
            raise TypeError(f"not an action: {action!r}")
        return ev

    def view(self, seat: int) -> PlayerView:
        """Exactly what ``seat`` may see."""
        return view(self, seat)

    def current_trick(self) -> tuple[tuple[int, Card], ...]:
        """The trick in progress as (seat, card) in play order: what everyone sees."""
        return current_trick(self)

    def completed_tricks(self) -> tuple[TrickView, ...]:
        """This hand's finished tricks: what everyone sees (no seat's view is built)."""
        return completed_tricks(self)

    # --- simulation helpers ----------------------------------------------------------------

    def played_mask(self) -> int:
        """Cards played so far in this hand (completed tricks and the current one)."""
        m = self.trick_cards
        for t in self.tricks:
            for c in t.cards:
                m |= 1 << c
        return m

    def unseen_mask(self, seat: int) -> int:
        """Cards whose place ``seat`` doesn't know: the candidates a determinised copy deals
        out again (the other players' hands plus the undealt cards)."""
        m = self.pack.full_mask & ~self.played_mask()
        if self.is_blind:
            for s in self.seats:
                if s != seat:
                    m &= ~self.hands[s]
        else:
            m &= ~self.hands[seat]
        t = self.turned_id
        if t >= 0 and not (self.rules.exhausted_trump == "before-deal" and exhausted(self)):
            m &= ~(1 << t)
        return m

    def with_hands(self, hands: Sequence[int]) -> Game:
        """A copy in which each seat holds ``hands[seat]`` (bitmasks) instead: for play-outs
        from a determinised state. Hand sizes must match, and no card may be held twice or
        have been played this hand."""
        if self.phase is OVER:
            raise WrongPhase("the game is over", rule="game-over", code="game_over")
        if len(hands) != self.players:
            raise DealError(f"give one hand per seat ({self.players})")
        played = self.played_mask()
        seen = 0
        for s, h in enumerate(hands):
            if h.bit_count() != self.hands[s].bit_count():
                raise DealError(
                    f"{who(self, s)} holds {self.hands[s].bit_count()} cards, not {h.bit_count()}"
                )
            if h & (seen | played) or h & ~self.pack.full_mask:
                raise DealError("a card is held twice, played already, or not in the pack")
            seen |= h
        if (
            self.turned_id >= 0
            and self.rules.exhausted_trump == "dealer-last"
            and exhausted(self)
            and self.hands[self.dealer] >> self.turned_id & 1
            and not hands[self.dealer] >> self.turned_id & 1
        ):
            raise DealError("the dealer still holds the turned card (dealer's last card)")
        g = self.copy()
        g.hands = list(hands)
        by_seat: list[list[int]] = [[] for _ in range(self.players)]
        for t in [*self.tricks, Trick(self.leader, tuple(self.trick), -1, 0, -1)]:
            s = t.leader
            for c in t.cards:
                by_seat[s].append(c)
                s = self.next_seat[s]
        dealt = tuple(
            tuple(by_seat[s]) + tuple(bits(hands[s])) if s in self.seats else ()
            for s in range(self.players)
        )
        g.dealt = dealt
        g.deal_overrides = {**self.deal_overrides, self.hand_number - 1: (dealt, self.turned_id)}
        return g

    # --- JSON ------------------------------------------------------------------------------

    def to_json(self) -> str:
        """Compact, versioned JSON: loads back exactly with ``Game.from_json``, future deals
        included (deals come from the seed; only deals that didn't are stored)."""
        return codec.to_json(self)

    @classmethod
    def from_json(cls, text: str) -> Game:
        """Load a game saved by ``to_json``; raises :class:`EngineError` if it isn't one."""
        return codec.from_json(text, cls._create)

    def catch_up(self, text: str) -> bool:
        """Move this game on to the saved game ``text`` when ``text`` is this game played on,
        applying only the actions it adds (checked); False, and the game unchanged, when it is
        not; :class:`EngineError` when an added action is illegal (the game is then spoiled)."""
        return codec.catch_up(self, text)
