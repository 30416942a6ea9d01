"""Compare arena runs saved with ``--save``, paired by deal (by deal and seat for runs
against a level, where each hand is paired with the all-baseline hand on the same cards).

``python -m tools.pair runs/a.jsonl runs/b.jsonl`` prints, for each file, the candidate's margin
over the reference a hand (95% interval, per deal), its exact rate and how often it took more or
fewer tricks than it bid; then, for each file after the first, the paired difference of its
margin from the first file's on the deals both played.
"""

from __future__ import annotations

import argparse
import json
from collections import defaultdict

from tools.stats import mean_ci


def margins(path: str) -> tuple[dict[int, float], dict[str, float]]:
    """Per deal: the candidate's mean points a hand less the reference's; and a summary."""
    per: dict[int, float] = defaultdict(float)
    exact = over = under = hands = 0
    bids = 0.0
    with open(path, encoding="utf-8") as f:
        for line in f:
            r = json.loads(line)
            if "control_points" in r:  # the arena against a level: one candidate seat a hand
                per[r["deal"] * 64 + r["seat"]] += r["points"] - r["control_points"]
            else:
                sign = 1.0 if r["side"] == "candidate" else -1.0
                per[r["deal"]] += sign * r["points"] / 4
            if r.get("side", "candidate") == "candidate":
                hands += 1
                bids += r["bid"]
                exact += r["bid"] == r["tricks"]
                over += r["tricks"] > r["bid"]
                under += r["tricks"] < r["bid"]
    summary = {
        "hands": hands,
        "exact": exact / max(1, hands),
        "over": over,
        "under": under,
        "bid": bids / max(1, hands),
    }
    return dict(per), summary


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description="Paired comparison of saved duplicate runs.")
    p.add_argument("files", nargs="+")
    a = p.parse_args(argv)
    runs = [margins(f) for f in a.files]
    first = runs[0][0]
    for path, (per, s) in zip(a.files, runs, strict=True):
        m, ci = mean_ci(list(per.values()))
        print(
            f"{path}: {len(per)} deals (or seats), margin {m:+.2f} ({m - ci:+.2f}..{m + ci:+.2f}), "
            f"exact {s['exact']:.1%}, over/under {s['over']}/{s['under']} of {s['hands']}, "
            f"mean bid {s['bid']:.2f}"
        )
        if per is not first:
            both = sorted(set(per) & set(first))
            if both:
                d, dci = mean_ci([per[k] - first[k] for k in both])
                print(f"  paired against {a.files[0]} on {len(both)} deals: {d:+.2f} (+-{dci:.2f})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
