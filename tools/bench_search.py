"""How many iterations ``hard``'s tree search (``bot.ai.search``) makes a decision.

``python -m tools.bench_search --deals 4`` plays deals of OpenSpiel's ``oh_hell`` rules (4
players, 10 cards) with the search deciding seat 0's bids and cards as ``hard``'s would (at
every card, though the others play as ``normal``), ``--budget`` seconds a decision, and
``normal`` in the other seats; it prints per phase the iterations a decision (median), the
time a decision takes and the iterations a second.
"""

from __future__ import annotations

import argparse
import statistics
import time

from bot.ai import decide, hard
from bot.ai.params import DEFAULT_PARAMS
from bot.ai.position import Position
from bot.engine import Action, Game, Phase
from tools.reference import new_game


def searched(g: Game, seat: int, seed: int, budget_s: float) -> tuple[Action, int] | None:
    """The search's decision for ``seat`` within ``budget_s`` (it stops at 90% of it, as
    ``hard`` does) and its iterations; None where the search can't decide."""
    deadline = time.perf_counter() + budget_s * 0.9
    return hard.searched(Position.at(g, seat, seed, deadline, None, DEFAULT_PARAMS))


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description="Iterations a decision of hard's tree search.")
    p.add_argument("--seed", type=int, default=12)
    p.add_argument("--deals", type=int, default=4)
    p.add_argument("--budget", type=float, default=1.0)
    a = p.parse_args(argv)
    rows: dict[str, list[tuple[int, float]]] = {"bid": [], "card": []}
    for deal in range(a.deals):
        g = new_game(a.seed, deal)
        first = g.hand_number
        step = 0
        while g.phase is not Phase.GAME_OVER and g.hand_number == first:
            s = g.turn
            found = None
            if s == 0 and len(g.legal_actions(s)) > 1:
                phase = "bid" if g.phase is Phase.BIDDING else "card"
                t0 = time.perf_counter()
                found = searched(g, s, step, a.budget)
                if found is not None:
                    rows[phase].append((found[1], time.perf_counter() - t0))
            g.apply(s, found[0] if found else decide(g, s, level="normal", seed=step))
            step += 1
    for phase, xs in rows.items():
        if not xs:
            continue
        mid_its = float(statistics.median(x[0] for x in xs))
        rate = sum(x[0] for x in xs) / sum(x[1] for x in xs)
        took = statistics.median(x[1] for x in xs)
        print(
            f"{phase}: {len(xs)} decisions, {mid_its:.0f} iterations a decision (median), "
            f"{took * 1000:.0f} ms (median), {rate:.0f} iterations a second of decision time"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
