"""How long ``hard``'s sampler takes to deal one sample that follows the bids and the plays.

``python -m tools.bench_sampler`` plays deals of OpenSpiel's ``oh_hell`` rules (4 players, 10
cards) with ``normal`` in every seat and, at every third play from the third trick on, times
``infer.consistent_sample`` (CPU time of this thread) for 40 samples. Prints the mean.
"""

from __future__ import annotations

import argparse
import random
import time

from bot.ai import decide
from bot.ai.infer import BidModel, PlayModel, consistent_sample
from bot.ai.knowledge import Table
from bot.ai.params import DEFAULT_PARAMS
from bot.ai.sanitise import Determiniser, public_game
from bot.engine import Phase
from tools.reference import new_game


def measure(seed: int, deals: int, samples: int) -> tuple[int, float]:
    """(samples dealt, CPU seconds they took)."""
    total = 0.0
    count = 0
    for deal in range(deals):
        g = new_game(seed, deal)
        first = g.hand_number
        step = 0
        while g.phase is not Phase.GAME_OVER and g.hand_number == first:
            s = g.turn
            view = g.view(s)
            if g.phase is Phase.PLAYING and step % 3 == 0 and len(view.tricks) >= 2:
                rng = random.Random(step)
                table = Table.from_view(view, g.rules)
                det = Determiniser(public_game(g, table, rng), table)
                bids = BidModel(table, DEFAULT_PARAMS)
                plays = PlayModel(table, DEFAULT_PARAMS)
                t0 = time.thread_time()
                for _ in range(samples):
                    consistent_sample(det, bids, rng, plays)
                total += time.thread_time() - t0
                count += samples
            g.apply(s, decide(g, s, level="normal", seed=step))
            step += 1
    return count, total


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description="Time hard's sampler (consistent_sample).")
    p.add_argument("--seed", type=int, default=11)
    p.add_argument("--deals", type=int, default=12)
    p.add_argument("--samples", type=int, default=40, help="samples a position")
    a = p.parse_args(argv)
    count, total = measure(a.seed, a.deals, a.samples)
    print(f"{count} samples, {total / max(1, count) * 1000:.2f} ms a sample (CPU)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
