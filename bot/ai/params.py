"""``hard``'s tuned values, as one frozen object passed down to the code that reads them.

The defaults are what was measured best (docs/ai.md); the arena's ``--set name=value`` builds
another one to measure a different value, so no module is ever changed at run time.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, fields


@dataclass(frozen=True, slots=True)
class HardParams:
    """The values ``hard`` decides with: its tree search (``bot.ai.search``), the quick model
    of the others' bids that weighs the search's deals (``bot.ai.playout``), the inference
    from the others' bids and plays (``bot.ai.infer``) and the sampling race (``bot.ai.hard``).
    """

    ucb_c: float = 3.0
    """The search's UCB exploration constant, in points."""
    epsilon: float = 0.1
    """The chance that this seat plays a random card in a greedy play-out."""
    others_epsilon: float = 0.3
    """The same for the other seats: opponents that miss more of the tricks they want than the
    greedy rule does (0.3 measured above 0.1, 0.2 and 0.4 against ISMCTS)."""
    batch: int = 64
    """Search iterations between looks at the clock."""
    settle_from: int = 512
    """Search iterations before a decision may end early, when its most visited choice can't
    be caught in the time left."""
    quick_sigma: float = 1.0
    """How fast a fresh deal's weight falls with the distance of a seat's quick estimate of its
    tricks from its bid."""
    quick_tries: int = 8
    """Fresh deals tried for one search iteration before the likeliest is taken."""
    adapt_samples: int = 12
    """Inferred samples that look for a hand with which ``normal`` remakes another seat's plays;
    none found, and ``hard`` plays its cards by the search instead of the race."""
    adapt_plays: int = 2
    """Plays a seat must have made this hand before it is judged so (1 measured worse)."""
    prune_from: int = 24
    """Samples of the race before a candidate may be dropped ..."""
    prune_every: int = 8
    """... and how often the candidates are compared after that."""
    prune_z: float = 2.5
    """A candidate this many standard errors behind the leader (paired over the same samples)
    is dropped, so the samples go to the candidates still in doubt."""
    miss_one: float = 0.2
    """A sample's weight per seat whose modelled bid is one away from its real bid ..."""
    miss_more: float = 0.02
    """... and per seat two or more away."""
    play_miss: float = 0.25
    """A sample's weight per play of this hand that ``normal`` would not remake with the seat's
    sampled cards."""
    redeal_rounds: int = 40
    """Rounds of dealing the dropped hands again before a sample is taken as it is."""

    def __post_init__(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise ValueError(f"{f.name} must be a number, not {value!r}")
            if not math.isfinite(value):
                raise ValueError(f"{f.name} must be finite, not {value}")
            if f.name in _CHANCES and not 0.0 <= value <= 1.0:
                raise ValueError(f"{f.name} is a chance: between 0 and 1, not {value}")
            if f.name in _COUNTS and (not isinstance(value, int) or value < _COUNTS[f.name]):
                raise ValueError(
                    f"{f.name} is a whole number of at least {_COUNTS[f.name]}, not {value}"
                )
            if f.name in _POSITIVE and value <= 0:
                raise ValueError(f"{f.name} must be above 0, not {value}")


_CHANCES = frozenset({"epsilon", "others_epsilon", "miss_one", "miss_more", "play_miss"})
_COUNTS = {
    "batch": 1,
    "settle_from": 0,
    "quick_tries": 1,
    "adapt_samples": 1,
    "adapt_plays": 1,
    "prune_from": 1,
    "prune_every": 1,
    "redeal_rounds": 1,
}
_POSITIVE = frozenset({"ucb_c", "quick_sigma", "prune_z"})

DEFAULT_PARAMS = HardParams()
"""The values ``hard`` plays with."""
