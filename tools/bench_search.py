"""How many iterations ``hard``'s tree search (``bot.ai.search``) makes a decision.

``python -m tools.bench_search --deals 4`` plays deals of OpenSpiel's ``oh_hell`` rules (4
players, 10 cards) with ``hard`` (the search on for bids and at every card) in seat 0 and
``normal`` in the others, at ``--budget`` seconds a decision, and prints per phase the
iterations and determinisations a decision (median, from ``search.MEASURED``) and the iterations
a second.
"""

from __future__ import annotations

import argparse
import statistics
import time

from bot.ai import Level, decide, hard, search
from bot.engine import Phase
from tools.reference import new_game


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description="Iterations a decision of hard's tree search.")
    p.add_argument("--seed", type=int, default=12)
    p.add_argument("--deals", type=int, default=4)
    p.add_argument("--budget", type=float, default=1.0)
    p.add_argument("--rollout", default=search.ROLLOUT)
    a = p.parse_args(argv)
    hard.PLAY_SEARCH = True
    hard.ADAPTIVE = False  # the search at every card, though the others play as normal
    hard.BID_SEARCH = True
    search.ROLLOUT = a.rollout
    rows: dict[str, list[tuple[int, int, float]]] = {"bid": [], "card": []}
    for deal in range(a.deals):
        g = new_game(a.seed, deal)
        first = g.hand_number
        step = 0
        while g.phase is not Phase.GAME_OVER and g.hand_number == first:
            s = g.turn
            phase = "bid" if g.phase is Phase.BIDDING else "card"
            before = search.MEASURED.decisions
            t0 = time.perf_counter()
            level: Level = "hard" if s == 0 else "normal"
            action = decide(g, s, level=level, budget_s=a.budget, seed=step)
            took = time.perf_counter() - t0
            if search.MEASURED.decisions > before:
                its, dets = search.MEASURED.last
                rows[phase].append((its, dets, took))
            g.apply(s, action)
            step += 1
    for phase, xs in rows.items():
        if not xs:
            continue
        mid_its = float(statistics.median(x[0] for x in xs))
        mid_dets = float(statistics.median(x[1] for x in xs))
        rate = sum(x[0] for x in xs) / sum(x[2] for x in xs)
        took = statistics.median(x[2] for x in xs)
        print(
            f"{phase}: {len(xs)} decisions, {mid_its:.0f} iterations and {mid_dets:.0f} "
            f"determinisations a decision (median), {took * 1000:.0f} ms (median), "
            f"{rate:.0f} iterations a second of decision time ({a.rollout} play-outs)"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
