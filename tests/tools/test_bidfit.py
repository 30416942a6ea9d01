"""The offline fit of normal's bid correction (``tools.bidfit``) on a few deals."""

from __future__ import annotations

import pytest

from tools import bidfit


def test_solve() -> None:
    x = bidfit.solve([[2.0, 1.0], [1.0, 3.0]], [3.0, 5.0])
    assert x == pytest.approx([0.8, 1.4])


def test_records_and_fit_on_a_few_deals() -> None:
    recs = list(bidfit.records(seed=5, first=0, deals=2))
    assert len(recs) == 8
    for r in recs:
        assert r["plain"] in r["points"] and r["bid"] in r["points"]
        assert all(abs(b - r["plain"]) <= 3 or b == r["bid"] for b in r["points"])
    weights = bidfit.fit(recs)
    assert set(weights) == set(bidfit.STEPS)
    assert all(len(w) == len(bidfit.features(recs[0])) for w in weights.values())
