"""Benchmark: random full hands per second, this engine against OpenSpiel's ``oh_hell``.

``python -m bot.engine.bench [--seconds S] [--runs N]``. Both engines are driven from Python the
same way: every decision uniformly random among the legal ones, the deal included (OpenSpiel's
chance outcomes are sampled with ``random``). The last line of output is JSON with the figures.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from bot.engine.actions import Phase
from bot.engine.game import Game
from bot.engine.settings import Rules, Settings

_OVER = Phase.GAME_OVER


def engine_hands(rules: Rules, seconds: float, seed: int) -> float:
    """Hands per second: whole games under ``rules``, uniformly random legal decisions."""
    rng = random.Random(seed)
    rand = rng.random
    hands = 0
    game_seed = seed
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        g = Game.new(rules, rules.players, seed=game_seed)
        game_seed += 1
        legal_mask = g.legal_mask
        apply_fast = g.apply_fast
        while g.phase is not _OVER:
            seat = g.turn
            m = legal_mask(seat)
            k = int(rand() * m.bit_count())
            while k:
                m &= m - 1
                k -= 1
            apply_fast(seat, (m & -m).bit_length() - 1)
        hands += g.hand_number
        now = time.perf_counter()
        if now >= deadline:
            return hands / (now - start)


def openspiel_hands(seconds: float, seed: int) -> float | None:
    """Hands per second for OpenSpiel's oh_hell (players=4, num_tricks_fixed=10), or None."""
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game("oh_hell", {"players": 4, "num_tricks_fixed": 10})
    rng = random.Random(seed)
    choice = rng.choice
    hands = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(choice(state.chance_outcomes())[0])
            else:
                state.apply_action(choice(state.legal_actions()))
        hands += 1
        if hands % 50 == 0:
            now = time.perf_counter()
            if now >= deadline:
                return hands / (now - start)


def _median(runs: int, measure: Callable[[int], float | None]) -> float | None:
    figures = [measure(i) for i in range(runs)]
    if any(f is None for f in figures):
        return None
    return statistics.median(f for f in figures if f is not None)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--seconds", type=float, default=2.0, help="length of one run")
    parser.add_argument("--runs", type=int, default=5, help="runs per figure (median)")
    args = parser.parse_args(argv)

    standard = Settings(preset="first-to-101").resolve(4)
    # Heavy: 7 players, the 63-card pack with its joker, 9 cards each so the pack is used up,
    # and "no card left to turn: no trumps": every hand runs the joker's no-trump rules.
    heavy = Settings(
        preset="oh-shit", pack="63", sequence="fixed", max_cards=9, exhausted_trump="none"
    ).resolve(7)

    ours: list[float] = []
    theirs: list[float | None] = []
    heavies: list[float] = []
    for i in range(args.runs):  # interleaved, so machine noise hits both alike
        ours.append(engine_hands(standard, args.seconds, seed=1000 + i))
        theirs.append(openspiel_hands(args.seconds, seed=2000 + i))
        heavies.append(engine_hands(heavy, args.seconds, seed=3000 + i))
    engine = statistics.median(ours)
    spiel = (
        None
        if any(t is None for t in theirs)
        else statistics.median(t for t in theirs if t is not None)
    )
    heavy_rate = statistics.median(heavies)
    ratio = engine / spiel if spiel else None
    print(
        f"engine   first-to-101, 4 players, 10 cards: {engine:10.0f} hands/s  (runs: "
        + ", ".join(f"{x:.0f}" for x in ours)
        + ")"
    )
    if spiel is None:
        print("openspiel: pyspiel not installed (pip install open-spiel) — no ratio")
    else:
        print(
            f"openspiel oh_hell, 4 players, 10 tricks:    {spiel:10.0f} hands/s  (runs: "
            + ", ".join(f"{x:.0f}" for x in theirs if x is not None)
            + ")"
        )
        print(f"ratio engine/openspiel: {ratio:.2f}")
    print(f"heavy    7 players, 63 cards + joker, no trumps, 9 cards: {heavy_rate:10.0f} hands/s")
    out: dict[str, Any] = {
        "engine_hands_per_s": round(engine, 1),
        "openspiel_hands_per_s": round(spiel, 1) if spiel is not None else None,
        "ratio": round(ratio, 3) if ratio is not None else None,
        "heavy_hands_per_s": round(heavy_rate, 1),
    }
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
