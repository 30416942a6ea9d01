"""The Oh Hell rules engine: pure, typed, deterministic from a seed.

>>> from bot.engine import Game, Settings, Bid
>>> game = Game.new(Settings(preset="first-to-101"), players=4, seed=1, names=["A", "B", "C", "D"])
>>> game.phase, game.to_act
(<Phase.BIDDING: 'bidding'>, (1,))
>>> events = game.apply(1, Bid(2))

The checked API: ``Game.new``, ``phase``, ``to_act``, ``legal_actions(seat)``,
``apply(seat, action) -> list[Event]``, ``view(seat) -> PlayerView`` (exactly what a seat may
see), ``to_json()``/``Game.from_json``, ``copy()``. Errors are :class:`EngineError` subclasses.

The fast path for simulation (the same rules; the checked API is built on it):
``legal_mask(seat)`` (card ids / bid values / suits as bits), ``apply_fast(seat, x)``, ``turn``,
``hand_mask(seat)``, ``unseen_mask(seat)``, ``played_mask()`` and ``with_hands(masks)`` for a
determinised copy. Records: ``bot.engine.records``; the command ``python -m bot.engine.replay``.

The state's fields (``phase``, ``hands``, ``seat_bids``, ``trick``...) are public, documented
attributes (``bot.engine.state.GameState``): read them; only the rules modules write them.
"""

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
from bot.engine.cards import HIDDEN, JOKER, PACKS, SUITS, Card, CardError, Pack, pack
from bot.engine.errors import (
    DealError,
    EngineError,
    IllegalBid,
    IllegalPlay,
    IllegalTrump,
    NotYourTurn,
    RecordError,
    SettingsError,
    WrongPhase,
)
from bot.engine.game import Game, HandLog, Trick
from bot.engine.scoring import score
from bot.engine.settings import PRESETS, Rules, Settings

__all__ = [
    "HIDDEN",
    "JOKER",
    "PACKS",
    "PRESETS",
    "SUITS",
    "Action",
    "Bid",
    "BidChanged",
    "BidMade",
    "BidsRevealed",
    "Card",
    "CardError",
    "CardPlayed",
    "ChooseTrump",
    "DealError",
    "EngineError",
    "Event",
    "Game",
    "GameOver",
    "HandDealt",
    "HandLog",
    "HandScored",
    "IllegalBid",
    "IllegalPlay",
    "IllegalTrump",
    "NotYourTurn",
    "Pack",
    "Phase",
    "Play",
    "PlayerView",
    "RecordError",
    "Rules",
    "Settings",
    "SettingsError",
    "Trick",
    "TrickView",
    "TrickWon",
    "TrumpChosen",
    "WrongPhase",
    "pack",
    "score",
]
