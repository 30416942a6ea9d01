"""The arena: a candidate level against a baseline level on fixed deal seeds.

``python -m tools.arena --candidate normal --baseline random --hands 500``

Each deal (one hand, from its seed) is played once with the baseline in every seat (the
control) and once per seat with the candidate in that seat and the baseline in the others, so
every candidate hand has a control hand on the same cards in the same seat. Prints mean points a
hand with 95% confidence intervals, the exact-bid rate, mean |tricks - bid| and the candidate's
decision time p50/p99; the last line is JSON with the figures. Hands run in parallel processes.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import json
import math
import multiprocessing
import os
import statistics
import time
import typing
from dataclasses import asdict, dataclass, fields, replace
from typing import Any

from bot.ai import LEVELS, HardParams, Level, decide
from bot.ai.params import DEFAULT_PARAMS
from bot.engine import Game, Phase, Settings
from tools.stats import mean_ci, percentile

NO_OPENSPIEL = (
    "ismcts is OpenSpiel's bot, and OpenSpiel is not installed: `make arena ARGS='...'` with "
    "ismcts in ARGS installs it (the bench extra), or `.venv/bin/pip install open-spiel`."
)


@dataclass(frozen=True)
class Config:
    candidate: Level
    baseline: Level
    rules: dict[str, Any]
    players: int
    budget_s: float
    iterations: int | None
    seed: int
    params: HardParams = DEFAULT_PARAMS
    """The candidate's values if it is ``hard`` (the baseline's are the defaults)."""


@dataclass(frozen=True)
class SeatResult:
    deal: int
    seat: int
    points: int
    bid: int
    tricks: int
    control_points: int
    control_bid: int
    control_tricks: int


def play_hand(
    cfg: Config, deal: int, levels: list[Level], times: list[float] | None, candidate: int
) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    """Play deal ``deal``'s hand with ``levels[seat]`` in each seat: (points, bids, tricks).
    ``candidate``: the candidate's seat (-1: none), whose decisions are timed."""
    settings = Settings.model_validate(cfg.rules)
    g = Game.new(settings, cfg.players, seed=cfg.seed * 1_000_003 + deal, first_dealer=0)
    first = g.hand_number
    step = 0
    while g.phase is not Phase.GAME_OVER and g.hand_number == first:
        s = g.turn
        t0 = time.perf_counter()
        action = decide(
            g,
            s,
            level=levels[s],
            budget_s=cfg.budget_s,
            seed=(deal * 64 + s) * 4096 + step,
            iterations=cfg.iterations if levels[s] == "hard" else None,
            params=cfg.params if s == candidate else DEFAULT_PARAMS,
        )
        if times is not None and s == candidate:
            times.append(time.perf_counter() - t0)
        g.apply(s, action)
        step += 1
    log = g.history()[first - 1]
    assert log.points is not None
    return log.points, log.bids, log.won


def run_deal(args: tuple[Config, int]) -> tuple[list[SeatResult], list[float]]:
    cfg, deal = args
    n = cfg.players
    control = play_hand(cfg, deal, [cfg.baseline] * n, None, -1)
    out = []
    times: list[float] = []
    for seat in range(n):
        levels = [cfg.baseline] * n
        levels[seat] = cfg.candidate
        pts, bids, won = play_hand(cfg, deal, levels, times, seat)
        out.append(
            SeatResult(
                deal,
                seat,
                pts[seat],
                bids[seat],
                won[seat],
                control[0][seat],
                control[1][seat],
                control[2][seat],
            )
        )
    return out, times


def run(
    cfg: Config, hands: int, workers: int, progress: bool = True, save: str | None = None
) -> dict[str, Any]:
    deals = max(1, math.ceil(hands / cfg.players))
    results: list[SeatResult] = []
    times: list[float] = []
    started = time.perf_counter()
    jobs = [(cfg, d) for d in range(deals)]
    if workers > 1:
        ctx = multiprocessing.get_context("fork" if os.name == "posix" else "spawn")
        with ctx.Pool(workers) as pool:
            for i, (res, ts) in enumerate(pool.imap_unordered(run_deal, jobs), 1):
                results += res
                times += ts
                if progress and i % max(1, deals // 10) == 0:
                    print(f"  {i}/{deals} deals, {time.perf_counter() - started:.0f} s", flush=True)
    else:
        for i, job in enumerate(jobs, 1):
            res, ts = run_deal(job)
            results += res
            times += ts
            if progress and i % max(1, deals // 10) == 0:
                print(f"  {i}/{deals} deals, {time.perf_counter() - started:.0f} s", flush=True)
    results.sort(key=lambda r: (r.deal, r.seat))
    if save:
        with open(save, "w", encoding="utf-8") as f:
            for r in results:
                f.write(json.dumps(asdict(r)) + "\n")
    cand = [float(r.points) for r in results]
    base = [float(r.control_points) for r in results]
    diff = [a - b for a, b in zip(cand, base, strict=True)]
    cm, cci = mean_ci(cand)
    bm, bci = mean_ci(base)
    dm, dci = mean_ci(diff)
    exact = statistics.fmean(1.0 if r.bid == r.tricks else 0.0 for r in results)
    base_exact = statistics.fmean(
        1.0 if r.control_bid == r.control_tricks else 0.0 for r in results
    )
    err = statistics.fmean(abs(r.tricks - r.bid) for r in results)
    base_err = statistics.fmean(abs(r.control_tricks - r.control_bid) for r in results)
    return {
        "candidate": cfg.candidate,
        "baseline": cfg.baseline,
        "hands": len(results),
        "deals": deals,
        "rules": cfg.rules,
        "players": cfg.players,
        "candidate_points": round(cm, 3),
        "candidate_ci95": [round(cm - cci, 3), round(cm + cci, 3)],
        "baseline_points": round(bm, 3),
        "baseline_ci95": [round(bm - bci, 3), round(bm + bci, 3)],
        "difference": round(dm, 3),
        "ci95": [round(dm - dci, 3), round(dm + dci, 3)],
        "exact_rate": round(exact, 4),
        "baseline_exact_rate": round(base_exact, 4),
        "mean_abs_error": round(err, 3),
        "baseline_mean_abs_error": round(base_err, 3),
        "decisions": len(times),
        "decision_p50_ms": round(percentile(times, 0.50) * 1000, 3),
        "decision_p99_ms": round(percentile(times, 0.99) * 1000, 3),
        "decision_max_ms": round(max(times, default=0.0) * 1000, 3),
        "budget_s": cfg.budget_s,
        "iterations": cfg.iterations,
        "workers": workers,
        "seconds": round(time.perf_counter() - started, 1),
    }


def report(fig: dict[str, Any]) -> str:
    rules = json.dumps(fig["rules"], separators=(",", ":"))
    d = fig["difference"]
    lines = [
        f"arena: {fig['candidate']} vs {fig['baseline']}, {fig['players']} players, rules {rules}",
        f"  {fig['hands']} hands ({fig['deals']} deals x {fig['players']} seats), "
        f"{fig['workers']} worker(s), {fig['seconds']} s",
        f"  candidate: {fig['candidate_points']:.2f} points/hand "
        f"(95% CI {fig['candidate_ci95'][0]:.2f}..{fig['candidate_ci95'][1]:.2f}), "
        f"exact bids {fig['exact_rate']:.1%}, mean |tricks - bid| {fig['mean_abs_error']:.2f}",
        f"  baseline:  {fig['baseline_points']:.2f} points/hand "
        f"(95% CI {fig['baseline_ci95'][0]:.2f}..{fig['baseline_ci95'][1]:.2f}), "
        f"exact bids {fig['baseline_exact_rate']:.1%}, "
        f"mean |tricks - bid| {fig['baseline_mean_abs_error']:.2f}",
        f"  difference: {d:+.2f} points/hand (95% CI {fig['ci95'][0]:+.2f}..{fig['ci95'][1]:+.2f})",
        f"  candidate decision time: p50 {fig['decision_p50_ms']:.2f} ms, "
        f"p99 {fig['decision_p99_ms']:.2f} ms, max {fig['decision_max_ms']:.2f} ms "
        f"over {fig['decisions']} decisions",
    ]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description="Play a candidate level against a baseline level.")
    p.add_argument(
        "--candidate",
        choices=(*LEVELS, "ismcts"),
        default="normal",
        help="ismcts (with --baseline ismcts only): OpenSpiel's ISMCTS bot, "
        "--candidate-simulations a decision",
    )
    p.add_argument(
        "--baseline",
        choices=(*LEVELS, "ismcts"),
        default="random",
        help="ismcts: OpenSpiel's ISMCTS bot on OpenSpiel's oh_hell, duplicate (tools.reference)",
    )
    p.add_argument(
        "--duplicate",
        action="store_true",
        help="duplicate format against a level (as against ismcts): each deal twice, seats swapped",
    )
    p.add_argument("--simulations", type=int, default=1000, help="ismcts: simulations a decision")
    p.add_argument(
        "--candidate-simulations",
        type=int,
        default=None,
        help="candidate ismcts: its simulations a decision (default --simulations)",
    )
    p.add_argument("--uct-c", type=float, default=2.0, help="ismcts: the UCT constant")
    p.add_argument("--first-deal", type=int, default=0, help="duplicate: the first deal number")
    p.add_argument("--hands", type=int, default=500, help="candidate hands (deals x seats)")
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--cards", type=int, default=10, help="cards each (fixed every hand)")
    p.add_argument("--scoring", default="tricks-plus-ten")
    p.add_argument("--rules", default=None, help='Settings as JSON, e.g. \'{"preset": "oh-hell"}\'')
    p.add_argument("--budget", type=float, default=1.0, help="seconds a hard decision")
    p.add_argument("--iterations", type=int, default=None, help="hard: fixed samples instead")
    p.add_argument("--workers", type=int, default=min(2, os.cpu_count() or 1))
    p.add_argument("--seed", type=int, default=0)
    p.add_argument(
        "--save", default=None, help="write each hand's result to this file (JSON lines)"
    )
    p.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="one of hard's values for the candidate (bot.ai.HardParams), e.g. "
        "others_epsilon=0.2; repeatable",
    )
    a = p.parse_args(argv)
    params = hard_params(a.set)
    if a.candidate == "ismcts" and a.baseline != "ismcts":
        raise SystemExit("--candidate ismcts: only with --baseline ismcts")
    if a.baseline == "ismcts" and importlib.util.find_spec("pyspiel") is None:
        raise SystemExit(NO_OPENSPIEL)
    if a.baseline == "ismcts" or a.duplicate:
        return _duplicate(a, params)
    if a.rules:
        rules = json.loads(a.rules)
    else:
        rules = {
            "preset": "first-to-101",
            "sequence": "fixed",
            "max_cards": a.cards,
            "scoring": a.scoring,
        }
    Settings.model_validate(rules).resolve(a.players)
    cfg = Config(a.candidate, a.baseline, rules, a.players, a.budget, a.iterations, a.seed, params)
    fig = run(cfg, a.hands, a.workers, save=a.save)
    fig["set"] = a.set
    print(report(fig))
    print(json.dumps(fig))
    return 0


def hard_params(specs: list[str]) -> HardParams:
    """``hard``'s values with the ``NAME=VALUE`` settings ``specs`` (``bot.ai.HardParams``),
    each name and value checked: anything else ends the run with what is wrong."""
    kinds = {f.name: typing.get_type_hints(HardParams)[f.name] for f in fields(HardParams)}
    changes: dict[str, Any] = {}
    for spec in specs:
        name, eq, text = spec.partition("=")
        name = name.strip()
        if not eq:
            raise SystemExit(f"--set {spec!r}: write NAME=VALUE, e.g. others_epsilon=0.2")
        if name not in kinds:
            raise SystemExit(f"--set {spec!r}: hard has no value {name!r}: {', '.join(kinds)}")
        kind = kinds[name]
        try:
            changes[name] = kind(text.strip())
        except ValueError:
            what = "a whole number" if kind is int else "a number"
            raise SystemExit(f"--set {spec!r}: {name} takes {what}, not {text!r}") from None
    try:
        return replace(DEFAULT_PARAMS, **changes)
    except ValueError as e:
        raise SystemExit(f"--set: {e}") from None


def _duplicate(a: argparse.Namespace, params: HardParams) -> int:
    """The candidate against a reference opponent in duplicate format (``tools.reference``)."""
    from tools import reference

    if a.rules or a.players != 4 or a.cards != 10 or a.scoring != "tricks-plus-ten":
        raise SystemExit("duplicate/ismcts: OpenSpiel's oh_hell rules only (4 players, 10 cards)")
    m = reference.Match(
        a.candidate,
        a.baseline,
        a.seed,
        a.budget,
        a.iterations,
        a.simulations,
        a.uct_c,
        a.candidate_simulations,
        params,
    )
    deals = max(1, math.ceil(a.hands / 4))
    results, times = reference.run(m, deals, first_deal=a.first_deal, save=a.save)
    fig = reference.figures(m, results, times)
    fig["set"] = a.set
    print(reference.report(fig))
    print(json.dumps(fig))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
