"""Benchmark: how long the score chart takes to draw (10 players × 20 hands by default).

``python -m tools.bench_chart [--players N] [--hands H] [--runs R] [--out FILE]`` draws the
chart R times in one worker process, the way the bot does at the end of a game (the first draw
there also imports matplotlib: reported apart as ``first_ms``), and prints the median and worst
of the others in ms. ``--out`` keeps the PNG to look at. The last line of output is JSON.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import json
import random
import statistics
import time
from pathlib import Path

from bot.service.summaries import ScoreChart
from cogs.render.charts import score_chart_png


def sample_chart(players: int, hands: int, seed: int = 7) -> ScoreChart:
    """A game's worth of running totals: bids met about half the time."""
    rng = random.Random(seed)
    totals: list[tuple[int, ...]] = []
    made: list[tuple[bool, ...]] = []
    for _ in range(players):
        total, row, met = 0, [], []
        for hand in range(hands):
            ok = rng.random() < 0.5
            total += 10 + hand % 7 if ok else -(hand % 3)
            row.append(total)
            met.append(ok)
        totals.append(tuple(row))
        made.append(tuple(met))
    names = tuple(f"Player {i + 1}" for i in range(players))
    return ScoreChart(123, names, tuple(range(1, hands + 1)), tuple(totals), tuple(made), 101)


def timed_draw(chart: ScoreChart) -> tuple[float, float, bytes]:
    """One draw in the worker: (wall ms, the worker's CPU ms, the PNG). On a busy machine the
    CPU time is the steadier figure."""
    start, cpu = time.perf_counter(), time.process_time()
    png = score_chart_png(chart)
    return (time.perf_counter() - start) * 1000, (time.process_time() - cpu) * 1000, png


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=10)
    parser.add_argument("--hands", type=int, default=20)
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args(argv)
    chart = sample_chart(args.players, args.hands)
    with concurrent.futures.ProcessPoolExecutor(max_workers=1) as pool:
        first, _, png = pool.submit(timed_draw, chart).result()
        runs = [pool.submit(timed_draw, chart).result() for _ in range(args.runs)]
    times = [wall for wall, _, _ in runs]
    cpu = [cpu for _, cpu, _ in runs]
    if args.out is not None:
        args.out.write_bytes(png)
        print(f"chart saved to {args.out}")
    figures = {
        "players": args.players,
        "hands": args.hands,
        "first_ms": round(first, 1),
        "median_ms": round(statistics.median(times), 1),
        "max_ms": round(max(times), 1),
        "cpu_median_ms": round(statistics.median(cpu), 1),
        "png_bytes": len(png),
    }
    print(
        f"score chart {args.players} players × {args.hands} hands: median "
        f"{figures['median_ms']} ms, worst {figures['max_ms']} ms, worker CPU median "
        f"{figures['cpu_median_ms']} ms (first, importing matplotlib: {figures['first_ms']} ms)"
    )
    print(json.dumps(figures))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
