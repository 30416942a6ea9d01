"""Benchmark: the CPU of the service's part of a click, without Discord.

``python -m tools.bench_service [--tables N] [--target T] [--runs R]`` (``make bench-service``).
Tables of four people are played to the end through ``TableService`` on a real SQLite file,
each person choosing their first allowed bid or card, and the CPU time of every
``Playing.act`` (load, rules, save, the hand states and table view of the outcome) is
summed. ``make bench-bot`` measures the whole bot, whose figure drifts with the host and
includes discord.py; this one is the service floor alone, steady to a few per cent from run to
run, so a change to the service can be compared before and after. The last line is JSON.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bot.engine import Action, Bid, Phase
from bot.service import HandState, TableGone, TableService
from bot.storage import Database

PEOPLE = (101, 102, 103, 104)


def _computer(game_json: str, seat: int, level: str, seed: int) -> Action:
    """Never asked: every seat is a person (the service wants a decider all the same)."""
    raise AssertionError("no computer seats in this benchmark")


async def _inline(function: Any, *args: Any) -> Any:
    return function(*args)


def _choice(state: HandState) -> Bid | int:
    """The first bid or card the hand message offers."""
    if state.phase is Phase.BIDDING:
        return Bid(next(option.n for option in state.bid_options if option.allowed))
    return next(option.card_id for option in state.cards if option.allowed)


async def _whose_turn(service: TableService, table_id: int) -> tuple[int, HandState]:
    for user in PEOPLE:
        state = await service.lookups.hand_state(table_id, user)
        if state.my_turn:
            return user, state
    raise AssertionError(f"table {table_id}: nobody's turn")


async def one_run(folder: Path, tables: int, target: int) -> tuple[int, float]:
    """Play `tables` games to `target`; (actions, CPU seconds spent in `act`)."""
    database = await Database.open(f"sqlite:///{folder / 'bench_service.sqlite3'}")
    service = TableService(database, decide=_computer, run_blocking=_inline, rng=random.Random(7))
    try:
        open_ids = []
        for t in range(tables):
            opened = await service.lobby.open_table(
                guild_id=1,
                channel_id=10 + t,
                user_id=PEOPLE[0],
                name="P0",
                settings={"preset": "first-to-101", "target": target},
            )
            table_id = opened.table.table_id
            for n, user in enumerate(PEOPLE[1:], 1):
                await service.lobby.join(table_id, user, f"P{n}")
            await service.lobby.start_game(table_id, PEOPLE[0])
            open_ids.append(table_id)
        actions = 0
        cpu = 0.0
        while open_ids:
            # One action a table in turn, as many tables' clicks interleave in the bot.
            for table_id in list(open_ids):
                try:
                    user, state = await _whose_turn(service, table_id)
                except TableGone:  # the game is over
                    open_ids.remove(table_id)
                    continue
                choice = _choice(state)
                started = time.thread_time()
                await service.playing.act(table_id, user, state.hand_number, choice)
                cpu += time.thread_time() - started
                actions += 1
        return actions, cpu
    finally:
        await database.close()


async def bench(tables: int, target: int, runs: int) -> dict[str, Any]:
    per_action = []
    actions = 0
    for _ in range(runs):
        with tempfile.TemporaryDirectory() as folder:
            actions, cpu = await one_run(Path(folder), tables, target)
        per_action.append(cpu / actions * 1e6)
    return {
        "tables": tables,
        "target": target,
        "actions_per_run": actions,
        "act_cpu_us": sorted(round(x, 1) for x in per_action),
        "act_cpu_us_median": round(statistics.median(per_action), 1),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=10, help="tables played side by side")
    parser.add_argument("--target", type=int, default=50, help="the games' target score")
    parser.add_argument("--runs", type=int, default=3, help="runs (a new database each)")
    args = parser.parse_args(argv)
    figures = asyncio.run(bench(args.tables, args.target, args.runs))
    print(
        f"{figures['actions_per_run']} actions a run over {args.tables} tables: "
        f"Playing.act {figures['act_cpu_us_median']} µs of CPU an action "
        f"(runs: {', '.join(str(x) for x in figures['act_cpu_us'])})"
    )
    print(json.dumps(figures))
    return 0


if __name__ == "__main__":
    sys.exit(main())
