"""Where ``normal``'s bid correction (``learned.adjust_bid``) comes from: self-play hands in
which one seat's bid is forced to each bid near its model bid, and a least-squares fit, per bid
change, of the points the change gained.

``python -m tools.bidfit --seed 9400 --deals 2500`` prints the weights to paste into
``learned.ADJUST_WEIGHTS`` (8-15 minutes on one core). Every seat plays as ``normal`` does, with
its learned corrections, so each run fits them again (``learned.ADJUST_WEIGHTS`` says which run
gave the weights there). For each deal and seat the hand is played once as ``normal`` bids,
then once for every other legal bid within 3 of the model's bid before the correction (the
seats after it see the forced bid and answer it).
An offline tool, not part of the bot: kept so that the constants can be remade and checked
(``tests/tools/test_bidfit.py`` runs it on a few deals).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator
from typing import Any

from bot.ai import decide, learned, normal
from bot.ai.knowledge import Table
from bot.engine import Bid, Game, Phase, Settings

RULES: dict[str, Any] = {
    "preset": "first-to-101",
    "sequence": "fixed",
    "max_cards": 10,
    "scoring": "tricks-plus-ten",
}
"""The table the correction is learned for (and applied to): 4 players, 10 cards."""
STEPS = (-2, -1, 1)


def _play(seed: int, deal: int, seat: int, forced: int | None) -> tuple[dict[str, Any], int]:
    """Deal ``deal`` played by ``normal`` in every seat, ``seat``'s bid forced to ``forced``
    (None: its own): what ``seat`` saw when it bid, and its points."""
    g = Game.new(
        Settings.model_validate(RULES), 4, seed=seed * 1_000_003 + deal, first_dealer=deal % 4
    )
    first = g.hand_number
    step = 0
    info: dict[str, Any] = {}
    while g.phase is not Phase.GAME_OVER and g.hand_number == first:
        s = g.turn
        if s == seat and g.phase is Phase.BIDDING:
            probs, others, legal, scoring, n, k = normal.bid_inputs(
                Table.from_view(g.view(s), g.rules)
            )
            plain = normal.model_bid(probs, others, legal, scoring, n, k)
            action = decide(g, s, level="normal", seed=step)
            assert isinstance(action, Bid)
            info = {"probs": probs, "others": others, "legal": legal, "plain": plain}
            info.update(bid=action.n)
            if forced is not None:
                action = Bid(forced)
        else:
            action = decide(g, s, level="normal", seed=step)
        g.apply(s, action)
        step += 1
    points = g.history()[first - 1].points
    assert points is not None
    return info, points[seat]


def records(seed: int, first: int, deals: int) -> Iterator[dict[str, Any]]:
    """One record a deal and seat: what the seat saw, its model bid before the correction
    (``plain``) and after (``bid``), and the points (``points``: bid -> points) for every bid
    tried."""
    for deal in range(first, first + deals):
        for seat in range(4):
            info, pts = _play(seed, deal, seat, None)
            points = {info["bid"]: pts}
            for b in info["legal"]:
                if abs(b - info["plain"]) <= 3 and b not in points:
                    points[b] = _play(seed, deal, seat, b)[1]
            yield {**info, "deal": deal, "seat": seat, "points": points}


def features(r: dict[str, Any]) -> list[float]:
    return learned.adjust_features(r["probs"], r["others"], r["plain"], 10, 4)


def solve(a: list[list[float]], b: list[float]) -> list[float]:
    """``a x = b`` by Gaussian elimination with partial pivoting."""
    n = len(b)
    m = [[*row, b[i]] for i, row in enumerate(a)]
    for col in range(n):
        piv = max(range(col, n), key=lambda r: abs(m[r][col]))
        m[col], m[piv] = m[piv], m[col]
        for r in range(n):
            if r != col and m[col][col]:
                f = m[r][col] / m[col][col]
                m[r] = [x - f * y for x, y in zip(m[r], m[col], strict=True)]
    return [m[i][n] / m[i][i] if m[i][i] else 0.0 for i in range(n)]


def fit(recs: list[dict[str, Any]], ridge: float = 1e-6) -> dict[int, list[float]]:
    """Per bid change: least-squares weights of ``features`` for the points it gained over the
    model's bid before the correction."""
    out: dict[int, list[float]] = {}
    for step in STEPS:
        xs: list[list[float]] = []
        ys: list[float] = []
        for r in recs:
            pts = {int(k): v for k, v in r["points"].items()}
            plain = r["plain"]
            if plain + step in pts and plain in pts:
                xs.append(features(r))
                ys.append(pts[plain + step] - pts[plain])
        d = len(xs[0]) if xs else len(learned.ADJUST_WEIGHTS[step])
        ata = [[ridge if i == j else 0.0 for j in range(d)] for i in range(d)]
        aty = [0.0] * d
        for x, y in zip(xs, ys, strict=True):
            for i in range(d):
                aty[i] += x[i] * y
                xi = x[i]
                row = ata[i]
                for j in range(d):
                    row[j] += xi * x[j]
        out[step] = solve(ata, aty)
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description="Fit normal's bid correction from self-play.")
    p.add_argument("--seed", type=int, default=9100)
    p.add_argument("--first-deal", type=int, default=0)
    p.add_argument("--deals", type=int, default=2000)
    p.add_argument("--save", default=None, help="write the records (JSON lines) to this file")
    p.add_argument("--load", default=None, help="fit records saved before instead of playing")
    a = p.parse_args(argv)
    if a.load:
        with open(a.load, encoding="utf-8") as f:
            recs = [json.loads(line) for line in f]
    else:
        recs = []
        for r in records(a.seed, a.first_deal, a.deals):
            recs.append(r)
            if a.save:
                with open(a.save, "a", encoding="utf-8") as f:
                    f.write(json.dumps(r) + "\n")
    weights = fit(recs)
    print(f"# {len(recs)} records")
    print("ADJUST_WEIGHTS = {")
    for step, w in weights.items():
        print(f"    {step}: ({', '.join(f'{x:.4f}' for x in w)}),")
    print("}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
