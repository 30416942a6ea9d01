"""Benchmark: random full hands per second, this engine against OpenSpiel's ``oh_hell``.

``python -m tools.bench_engine [--seconds S] [--runs N]``. Both engines are driven from Python the
same way: every decision uniformly random among the legal ones, the deal included (OpenSpiel's
chance outcomes, all uniform in oh_hell, are sampled with ``random``). Whole games of
``first-to-101`` are played and their hands counted. The last line of output is JSON.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from typing import Any

from bot.engine.game import Game
from bot.engine.settings import Rules, Settings


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
        seat = g.turn
        while seat >= 0:  # -1 once the game is over
            m = legal_mask(seat)
            n = m.bit_count()
            if n > 1:
                k = int(rand() * n)
                while k:
                    m &= m - 1
                    k -= 1
            apply_fast(seat, (m & -m).bit_length() - 1)
            seat = g.turn
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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--seconds", type=float, default=4.0, help="time per engine and figure")
    parser.add_argument("--slice", type=float, default=0.25, help="length of one timed run")
    args = parser.parse_args(argv)

    standard = Settings(preset="first-to-101").resolve(4)
    # Heavy: 7 players, the 63-card pack with its joker, 9 cards each so the pack is used up,
    # and "no card left to turn: no trumps": every hand runs the joker's no-trump rules.
    heavy = Settings(
        preset="oh-shit", pack="63", sequence="fixed", max_cards=9, exhausted_trump="none"
    ).resolve(7)

    # Short runs of the two engines alternate, so a busy machine slows both alike; the figures
    # are medians over the runs, the ratio the median of the paired runs' ratios.
    runs = max(3, round(args.seconds / args.slice))
    ours: list[float] = []
    theirs: list[float] = []
    heavies: list[float] = []
    have_spiel = openspiel_hands(0.01, seed=0) is not None
    for i in range(runs):
        ours.append(engine_hands(standard, args.slice, seed=1000 + i))
        if have_spiel:
            theirs.append(openspiel_hands(args.slice, seed=2000 + i) or 0.0)
        heavies.append(engine_hands(heavy, args.slice, seed=3000 + i))
    engine = statistics.median(ours)
    heavy_rate = statistics.median(heavies)
    spiel = statistics.median(theirs) if have_spiel else None
    ratio = statistics.median(a / b for a, b in zip(ours, theirs, strict=True)) if spiel else None
    print(f"{runs} runs of {args.slice:.2f} s each, engines alternating; medians")
    print(f"engine    first-to-101, 4 players, 10 cards:      {engine:9.0f} hands/s")
    if spiel is None:
        print("openspiel: pyspiel is not installed (the bench extra: open-spiel) - no ratio")
    else:
        print(f"openspiel oh_hell, players=4, num_tricks_fixed=10: {spiel:9.0f} hands/s")
        print(f"ratio engine/openspiel: {ratio:.2f}  (target >= 2.0, issue 13)")
    print(f"heavy     7 players, 63 cards + joker, no trumps:  {heavy_rate:9.0f} hands/s")
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
