"""Random valid settings, a driver that lets levels play whole games, and positions to decide."""

from __future__ import annotations

import random
import typing
from typing import Any

from pydantic import ValidationError

from bot.ai import Level, decide, hard
from bot.ai.params import DEFAULT_PARAMS, HardParams
from bot.ai.position import Position
from bot.engine import PRESETS, Action, Game, Phase, Settings, SettingsError
from bot.engine.settings import ScoringName

OPTIONS: dict[str, list[Any]] = {
    "pack": ["52", "52+joker", "63", "65", "78", "104"],
    "sequence": ["down-up", "up-down", "down", "up", "up-up", "fixed"],
    "trump": ["turned", "spades", "rotation", "bidder"],
    "ace_no_trumps": [True, False],
    "exhausted_trump": ["forbidden", "dealer-last", "before-deal", "none"],
    "bidding": ["hook", "open", "secret", "knock"],
    "bid_changes": [True, False],
    "first_lead": ["dealer", "left"],
    "scoring": list(typing.get_args(ScoringName)),
    "spades_double": [True, False],
    "end": ["sequence", "target"],
    "ties": ["extra-hand", "tiebreakers", "share"],
    "duplicates": ["first-wins", "later-wins", "cancel"],
    "all_cancelled": ["up-the-ante", "first-highest"],
    "blind": ["none", "last", "all"],
}


def random_settings(rng: random.Random) -> tuple[Settings, int]:
    """Valid settings for a short game (at most 3 cards a hand) and a player count."""
    while True:
        players = rng.choice([3, 3, 4, 4, 5, 6, 7])
        doc: dict[str, Any] = {"preset": rng.choice(PRESETS)}
        for field, values in OPTIONS.items():
            if rng.random() < 0.5:
                doc[field] = rng.choice(values)
        doc["max_cards"] = rng.choice([1, 2, 3])
        doc["target"] = rng.choice([5, 12])
        try:
            settings = Settings.model_validate(doc)
            settings.resolve(players)
        except (SettingsError, ValidationError):
            continue
        return settings, players


def seat_to_ask(game: Game, rng: random.Random) -> int:
    """A seat that must act (any of them while bids are simultaneous)."""
    if game.phase is Phase.BIDDING:
        must = [s for s in game.to_act if game.bids[s] is None]
        return rng.choice(must)
    return game.turn


def play_game(
    game: Game,
    levels: list[Level],
    rng: random.Random,
    iterations: int = 2,
    max_actions: int = 2000,
) -> int:
    """Play to the end with ``levels[seat]`` deciding; ``game.apply`` rejects anything
    illegal. Returns the number of decisions."""
    n = 0
    while game.phase is not Phase.GAME_OVER and n < max_actions:
        seat = seat_to_ask(game, rng)
        action = decide(game, seat, level=levels[seat], seed=n, iterations=iterations)
        game.apply(seat, action)
        n += 1
    return n


def mid_hand(seed: int, plays: int, settings: Settings | None = None) -> Game:
    """A hand after the bids and ``plays`` cards, every seat playing as ``normal`` (by default
    4 players, 10 cards, first-to-101's rules)."""
    rules = settings or Settings(preset="first-to-101", sequence="fixed", max_cards=10)
    g = Game.new(rules, 4, seed=seed)
    while g.phase is not Phase.PLAYING or plays:
        if g.phase is Phase.PLAYING:
            plays -= 1
        seat = g.turn
        g.apply(seat, decide(g, seat, level="normal", seed=seed))
    return g


def search_decision(
    g: Game, seat: int, seed: int, iterations: int, params: HardParams = DEFAULT_PARAMS
) -> tuple[Action, int] | None:
    """``hard``'s tree search's decision for ``seat`` (at every card, whatever the others play
    like) and its iterations, from what the seat sees; None where the search can't decide."""
    return hard.searched(Position.at(g, seat, seed, None, iterations, params))
