"""``hard``'s plan for its own later plays (issue #17's fourth round): a tree of its own
information sets, shared by the play-outs of one decision.

In a play-out ``hard``'s own seat plays as ``normal`` does (``hard.OWN_MODEL``) until one of its
later situations has been reached ``OWN_TREE_FROM`` times in this decision's play-outs; from
then on it chooses there by UCB1 over its distinct legal cards, with the mean of the play-outs
through each. A situation is what the seat knows then, keyed by the candidate at the root, the
bids, the cards not yet played, the trick so far and the tricks it has taken: never the
sampled deal, so the plan is one the seat could follow (no strategy fusion). The others keep
playing as ``normal``.
"""

from __future__ import annotations

import math
from collections.abc import Hashable

OWN_TREE = False
"""Plan ``hard``'s own later plays in its play-outs with the tree (else: as ``normal``)."""
OWN_TREE_FROM = 8
"""Visits of a situation before its choice leaves ``normal``'s card."""
OWN_TREE_C = 4.0
"""UCB1's exploration constant, in points."""


class OwnTree:
    """The statistics of one decision's play-outs at ``hard``'s own later situations."""

    __slots__ = ("nodes", "path")

    def __init__(self) -> None:
        self.nodes: dict[Hashable, tuple[list[int], dict[int, list[float]]]] = {}
        self.path: list[tuple[list[int], dict[int, list[float]], int]] = []

    def choose(self, key: Hashable, moves: list[int], default: int) -> int:
        """The card to play at situation ``key`` among ``moves``; ``default`` is ``normal``'s."""
        node = self.nodes.get(key)
        if node is None:
            node = self.nodes[key] = ([0], {})
        visits, stats = node
        c = default
        if visits[0] >= OWN_TREE_FROM:
            untried = [m for m in moves if m not in stats]
            if untried:
                c = untried[0]
            else:
                ln = math.log(visits[0])
                best = -math.inf
                for m in moves:
                    n, total = stats[m]
                    u = total / n + OWN_TREE_C * math.sqrt(ln / n)
                    if u > best:
                        best, c = u, m
        self.path.append((visits, stats, c))
        return c

    def back(self, value: float) -> None:
        """Add a play-out's value to every situation it chose at."""
        for visits, stats, c in self.path:
            visits[0] += 1
            st = stats.get(c)
            if st is None:
                stats[c] = [1, value]
            else:
                st[0] += 1
                st[1] += value
        self.path.clear()
