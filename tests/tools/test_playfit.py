"""The offline fit of normal's learned card choice (``tools.playfit``) on a deal."""

from __future__ import annotations

from bot.ai import learned
from tools import playfit


def test_play_decisions_and_fit_on_a_deal() -> None:
    found = list(playfit.decisions(seed=5, first=0, deals=1))
    assert found
    width = len(learned.PLAY_WEIGHTS[0])
    for xs, ys in found:
        assert len(xs) == len(ys) >= 2
        assert all(len(x) == playfit.GROUPS * width for x in xs)
    weights = playfit.fit(iter(found))
    assert len(weights) == playfit.GROUPS * width
