"""How long a post-game review takes, and how many decisions it shows.

``python -m tools.bench_review --preset first-to-101 --max-cards 10 --budget 0.3``

Plays one whole game with a level in every seat (``normal`` by default), then reviews seat 0 as
the bot does: the decisions found in a worker process, then judged one at a time in it. Prints
the time in all, per decision (p50, max), and how many decisions ``hard`` judged behind its
choice by half a point or more, and of those by two standard errors (what the review shows);
the last line is JSON.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import json
import statistics
import time

from bot.ai import LEVELS, Level, decide
from bot.ai.review import assess, decisions
from bot.engine import Game, Phase, Settings
from bot.engine.records import record_from_game


def play(preset: str, max_cards: int, players: int, level: Level, seed: int) -> Game:
    game = Game.new(Settings(preset=preset, max_cards=max_cards), players, seed=seed)
    while game.phase is not Phase.GAME_OVER:
        if game.phase is Phase.BIDDING:
            seat = next(s for s in game.to_act if game.bids[s] is None)
        else:
            seat = game.turn
        game.apply(seat, decide(game, seat, level=level, seed=seed))
    return game


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--preset", default="first-to-101")
    parser.add_argument("--max-cards", type=int, default=10)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--level", choices=LEVELS, default="normal")
    parser.add_argument("--budget", type=float, default=0.3)
    parser.add_argument("--seed", type=int, default=21)
    args = parser.parse_args()
    game = play(args.preset, args.max_cards, args.players, args.level, args.seed)
    record = record_from_game(game)
    start = time.perf_counter()
    times: list[float] = []
    behind = sure = 0
    with concurrent.futures.ProcessPoolExecutor(1) as pool:
        found = pool.submit(decisions, record, 0).result()
        finding = time.perf_counter() - start
        for decision in found:
            began = time.perf_counter()
            judged = pool.submit(assess, record, decision, args.budget, args.seed).result()
            times.append(time.perf_counter() - began)
            behind += judged.cost >= 0.5
            sure += judged.cost >= max(0.5, 2 * judged.error)
    total = time.perf_counter() - start
    figures = {
        "preset": args.preset,
        "max_cards": args.max_cards,
        "players": args.players,
        "hands": len(game.history()),
        "decisions": len(found),
        "budget_s": args.budget,
        "total_s": round(total, 1),
        "finding_s": round(finding, 2),
        "decision_p50_ms": round(statistics.median(times) * 1000) if times else 0,
        "decision_max_ms": round(max(times) * 1000) if times else 0,
        "behind_half_a_point": behind,
        "shown": sure,
    }
    print(
        f"{figures['hands']} hands, {len(found)} decisions of seat 0 ({args.level}): "
        f"{total:.1f} s in all (finding them {finding:.2f} s), a decision p50 "
        f"{figures['decision_p50_ms']} ms, max {figures['decision_max_ms']} ms; "
        f"{behind} were half a point or more behind hard's choice, {sure} of them by two "
        "standard errors (shown)"
    )
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
