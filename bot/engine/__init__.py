"""The Oh Hell rules engine: pure, typed, deterministic from a seed.

>>> from bot.engine import Game, Settings
>>> game = Game.new(Settings(preset="first-to-101"), players=4, seed=1)
>>> game.phase
<Phase.BIDDING: 'bidding'>
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
