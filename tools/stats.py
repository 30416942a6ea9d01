"""Small statistics the arenas print: a mean with its 95% interval, a percentile."""

from __future__ import annotations

import math
import statistics


def mean_ci(xs: list[float]) -> tuple[float, float]:
    """Mean and the half-width of its 95% confidence interval (normal approximation)."""
    m = statistics.fmean(xs)
    if len(xs) < 2:
        return m, math.inf
    return m, 1.96 * statistics.stdev(xs) / math.sqrt(len(xs))


def percentile(xs: list[float], q: float) -> float:
    s = sorted(xs)
    if not s:
        return 0.0
    i = min(len(s) - 1, max(0, math.ceil(q * len(s)) - 1))
    return s[i]
