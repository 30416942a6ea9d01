"""Where ``normal``'s learned card choice (``learned.learned_card``) comes from: self-play
hands of ``normal`` in which, at every decision with two or more distinct legal cards, each card
is tried on a copy of the game and the hand played out by ``normal`` in every seat
(``hard.rollout`` on the real deal: one play-out a card, the same each time as ``normal`` is
deterministic), and a ridge regression of each card's points, less the decision's mean, on its
features less theirs.

``python -m tools.playfit --seed 9200 --deals 3000`` prints the weights to paste into
``learned.PLAY_WEIGHTS``, every seat playing as ``normal`` does (the ones there were fitted on
88,000 decisions of 3,000 deals with every seat playing the rule-of-thumb card: commit
3391573). About 4 minutes on one core. An offline tool, not part of the bot: kept so that the
constants can be remade and checked (``tests/tools/test_playfit.py`` runs it on a deal).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator

from bot.ai import decide, hard, learned, normal
from bot.ai.cards import note_void
from bot.ai.common import legal_cards
from bot.ai.knowledge import PlaySituation, Table
from bot.engine import Game, Phase, Settings
from tools.bidfit import RULES, solve

GROUPS = 7
"""Weight rows (``learned.PLAY_WEIGHTS``): want x lead, want x follow, no want x lead, no want
x follow; need 0; every trick left needed; last to play."""


def _groups(p: PlaySituation, want: bool) -> list[int]:
    out = [(0 if want else 2) + (1 if p.trick else 0)]
    need = p.bid - p.won
    if need == 0:
        out.append(4)
    if need > 0 and need == p.left:
        out.append(5)
    if p.trick and not p.after:
        out.append(6)
    return out


def decisions(seed: int, first: int, deals: int) -> Iterator[tuple[list[list[float]], list[float]]]:
    """Per decision: each candidate card's features spread over the weight rows (zero outside
    the decision's rows) and its points played out."""
    width = len(learned.PLAY_WEIGHTS[0])
    for deal in range(first, first + deals):
        g = Game.new(
            Settings.model_validate(RULES), 4, seed=seed * 1_000_003 + deal, first_dealer=deal % 4
        )
        number = g.hand_number
        step = 0
        while g.phase is not Phase.GAME_OVER and g.hand_number == number:
            s = g.turn
            if g.phase is Phase.PLAYING:
                t = Table.from_view(g.view(s), g.rules)
                ids = list(legal_cards(t))
                if len(ids) > 1:
                    p = normal.situation(t)
                    choice, want, _ = normal.rule_card(p, list(ids))
                    rows = _groups(p, want)
                    xs = []
                    for f in learned.card_features(p, ids, choice):
                        x = [0.0] * (GROUPS * width)
                        for r in rows:
                            x[r * width : (r + 1) * width] = [
                                a + b
                                for a, b in zip(x[r * width : (r + 1) * width], f, strict=True)
                            ]
                        xs.append(x)
                    ys = []
                    for c in ids:
                        h = g.copy()
                        h.apply_fast(s, c, -1)
                        voids = list(t.voids)
                        if t.led >= 0:
                            note_void(voids, t.suits.eff, t.led, s, c)
                        ys.append(hard.rollout(h, s, RULES["scoring"], voids))
                    yield xs, ys
            g.apply(s, decide(g, s, level="normal", seed=step))
            step += 1


def fit(found: Iterator[tuple[list[list[float]], list[float]]], ridge: float = 1.0) -> list[float]:
    """Ridge regression of each card's points less the decision's mean on its features less
    theirs."""
    d = GROUPS * len(learned.PLAY_WEIGHTS[0])
    ata = [[ridge if i == j else 0.0 for j in range(d)] for i in range(d)]
    aty = [0.0] * d
    for xs, ys in found:
        n = len(ys)
        mx = [sum(col) / n for col in zip(*xs, strict=True)]
        my = sum(ys) / n
        for x, y in zip(xs, ys, strict=True):
            cx = [a - b for a, b in zip(x, mx, strict=True)]
            cy = y - my
            nz = [(i, v) for i, v in enumerate(cx) if v]
            for i, v in nz:
                aty[i] += v * cy
                row = ata[i]
                for j, u in nz:
                    row[j] += v * u
    return solve(ata, aty)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description="Fit normal's learned card choice from self-play.")
    p.add_argument("--seed", type=int, default=9200)
    p.add_argument("--first-deal", type=int, default=0)
    p.add_argument("--deals", type=int, default=3000)
    a = p.parse_args(argv)
    w = fit(decisions(a.seed, a.first_deal, a.deals))
    width = len(learned.PLAY_WEIGHTS[0])
    print("PLAY_WEIGHTS = (")
    for r in range(GROUPS):
        print(f"    ({', '.join(f'{x:.4f}' for x in w[r * width : (r + 1) * width])}),")
    print(")")
    return 0


if __name__ == "__main__":
    sys.exit(main())
