"""The post-game review: a seat's decisions in a recorded game, each judged by ``hard``.

Two plain functions of picklable inputs, so the bot runs them in its worker processes:

- ``decisions(record, seat)``: every real decision the seat made (a first bid in each bidding
  round, a trump choice, a card with more than one legal choice), with what it could see of the
  moment (the trick so far, its bid and tricks).
- ``assess(record, decision, budget_s, seed, iterations)``: ``hard``'s choice at that moment,
  judged from the seat's view only (the record is cut just before the decision and the game
  rebuilt; then the same path as ``bot.ai.decide``: the seat's ``PlayerView``, a sanitised copy
  with every unseen card dealt again), and what its choice is estimated to be worth over the
  one made: the mean difference of the two on the samples both were valued on.
"""

from __future__ import annotations

import copy
import math
import time
from dataclasses import dataclass
from typing import Any, Literal

from bot.engine import Action, Bid, Card, ChooseTrump, Game, Phase, Play
from bot.engine.records import game_from_record

from . import hard
from .params import DEFAULT_PARAMS
from .position import Position

Kind = Literal["bid", "trump", "play"]


@dataclass(frozen=True)
class Decision:
    """One decision of ``seat``: the ``index``-th action (0-based) of hand ``hand`` (1-based)
    in the record, and what the seat saw when it made it."""

    seat: int
    hand: int
    index: int
    kind: Kind
    action: Action
    trick: int
    """The trick it was made in (1-based; 0 for a bid or a trump choice)."""
    trick_cards: tuple[Card, ...]
    """The cards already played to that trick, in order."""
    bid: int | None
    """The seat's bid at the time (None while bidding)."""
    won: int
    """Tricks the seat had taken so far this hand."""


@dataclass(frozen=True)
class Assessment:
    """``hard``'s judgement of one decision."""

    decision: Decision
    choice: Action
    """What ``hard`` would have done."""
    cost: float
    """Points (utility: penalties saved under ``negative``) ``hard``'s choice is estimated to
    be worth over the decision made: the mean paired difference. 0 when they agree."""
    error: float
    """The standard error of ``cost`` (infinite with fewer than two shared samples)."""
    choice_tricks: float
    """Tricks the seat is expected to take with ``hard``'s choice."""
    actual_tricks: float
    """... and with the decision made."""
    samples: int
    """Samples ``hard``'s choice was valued on."""


def _action_of(act: dict[str, Any]) -> Action:
    if "bid" in act:
        return Bid(int(act["bid"]))
    if "trump" in act:
        return ChooseTrump(act["trump"])
    return Play(Card.parse(act["play"]), act.get("suit"))


def cut(record: dict[str, Any], hand: int, index: int) -> dict[str, Any]:
    """The record up to (not including) action ``index`` of hand ``hand``."""
    out = copy.copy(record)
    hands = [dict(h) for h in record["hands"][:hand]]
    hands[-1]["actions"] = list(hands[-1]["actions"][:index])
    out["hands"] = hands
    return out


def decisions(record: dict[str, Any], seat: int) -> list[Decision]:
    """Every decision ``seat`` made in ``record``, in order. A bid change and a card or bid
    that was the only legal one are not decisions."""
    found: list[Decision] = []
    for number, hand in enumerate(record["hands"], start=1):
        game = game_from_record(cut(record, number, 0))
        for index, act in enumerate(hand["actions"]):
            action = _action_of(act)
            if act["seat"] == seat:
                decision = _decision(game, seat, number, index, action)
                if decision is not None:
                    found.append(decision)
            game.apply(act["seat"], action)
    return found


def _decision(game: Game, seat: int, number: int, index: int, action: Action) -> Decision | None:
    view = game.view(seat)
    if seat not in view.to_act or len(view.legal_actions) < 2:
        return None
    if view.phase is Phase.BIDDING and view.has_bid[seat]:
        return None
    kind: Kind = "play"
    if view.phase is Phase.BIDDING:
        kind = "bid"
    elif view.phase is Phase.TRUMP_CHOICE:
        kind = "trump"
    playing = kind == "play"
    return Decision(
        seat=seat,
        hand=number,
        index=index,
        kind=kind,
        action=action,
        trick=len(view.tricks) + 1 if playing else 0,
        trick_cards=tuple(card for _, card in view.trick) if playing else (),
        bid=view.bids[seat] if playing else None,
        won=view.tricks_won[seat],
    )


def assess(
    record: dict[str, Any],
    decision: Decision,
    budget_s: float,
    seed: int = 0,
    iterations: int | None = None,
) -> Assessment:
    """``hard``'s judgement of ``decision``, from what its seat could see then. ``budget_s``:
    the time limit (``hard`` stops at 90% of it, or sooner when one choice is clearly best);
    ``iterations``: a fixed number of samples instead (reproducible for a given ``seed``)."""
    start = time.perf_counter()
    game = game_from_record(cut(record, decision.hand, decision.index))
    deadline = None if iterations is not None else start + budget_s * 0.9
    # the same randomness, view and sanitised copy as bot.ai.decide
    pos = Position.at(game, decision.seat, seed, deadline, iterations, DEFAULT_PARAMS)
    choice, sampled = hard.assess(pos, decision.action)
    mine = sampled.get(choice, [])
    theirs = sampled.get(decision.action, [])
    shared = min(len(mine), len(theirs))
    cost, error = 0.0, math.inf
    if choice == decision.action:
        error = 0.0
    elif shared:
        gaps = [a[0] - b[0] for a, b in zip(mine[:shared], theirs[:shared], strict=True)]
        cost = sum(gaps) / shared
        if shared > 1:
            spread = sum((g - cost) ** 2 for g in gaps) / (shared - 1)
            error = math.sqrt(spread / shared)
    return Assessment(
        decision=decision,
        choice=choice,
        cost=cost,
        error=error,
        choice_tricks=_mean_tricks(mine),
        actual_tricks=_mean_tricks(theirs),
        samples=len(mine),
    )


def _mean_tricks(sampled: hard.Sampled) -> float:
    return sum(t for _, t in sampled) / len(sampled) if sampled else 0.0


__all__ = ["Assessment", "Decision", "assess", "decisions"]
