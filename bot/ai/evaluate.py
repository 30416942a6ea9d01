"""Hand evaluation: how likely each card is to take a trick, and the bid worth most under the
table's scoring."""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence

from bot.engine import Pack, score

from .cards import JOKER_WINS, Suits


def utility(scoring: str, points: int) -> int:
    """Higher is better: under ``negative`` scoring the points are penalties."""
    return -points if scoring == "negative" else points


def card_probs(
    mine: int,
    suits: Suits,
    pack: Pack,
    out: int,
    others_share: float,
    players: int,
    cards_each: int,
    leads_first: bool,
) -> list[float]:
    """Chance each of ``mine`` takes a trick. ``out`` holds the cards that may be in the other
    players' hands; ``others_share`` is the fraction of ``out`` they hold (the rest undealt)."""
    trump = suits.trump
    eff = suits.eff
    masks = suits.masks
    above = suits.above
    f = min(1.0, max(0.0, others_share))
    q = 1 - f
    opp = max(1, players - 1)
    lengths = [(mine & masks[s]).bit_count() for s in range(4)]
    # per side suit: the chance its winners are not ruffed (the same for every card of it)
    safe_of = [-1.0] * 4
    halve = cards_each <= 2 and not leads_first
    probs: list[float] = []
    spare: list[int] = []
    while mine:
        low = mine & -mine
        mine ^= low
        c = low.bit_length() - 1
        e = eff[c]
        if e == JOKER_WINS:
            probs.append(1.0)
            continue
        higher = (above[c] & out).bit_count()
        clear = q**higher
        length = lengths[e]
        if e == trump:
            protect = min(1.0, (length - 1) / (higher + 1)) * 0.55 if higher else 0.0
            p = clear + (1 - clear) * protect
            if p < 0.5:
                spare.append(len(probs))
        else:
            safe = safe_of[e]
            if safe < 0:
                if trump >= 0:
                    each = (masks[e] & out).bit_count() * f / opp
                    trumps_out = (masks[trump] & out).bit_count() * f
                    ruff = 1 - math.exp(-each) * min(1.0, trumps_out / opp)
                    safe = ruff**opp if ruff > 0 else 0.0
                else:
                    safe = 1.0
                    if pack.joker >= 0 and out >> pack.joker & 1:
                        safe = 1 - f / opp
                safe_of[e] = safe
            protect = 0.35 if length > higher and higher <= 2 else 0.0
            p = (clear + (1 - clear) * protect) * safe
            if trump < 0 and length >= 5 and higher == 0:
                p = min(1.0, p + 0.1 * (length - 4))
            if halve:
                p *= 0.5
        probs.append(max(0.0, min(1.0, p)))
    if trump >= 0 and spare:
        ruffs = sum(max(0, 2 - lengths[s]) for s in range(4) if s != trump) * 0.6
        ruffs = min(ruffs, len(spare)) if cards_each > 2 else 0.0
        for i in spare:
            share = ruffs / len(spare)
            probs[i] = probs[i] + (1 - probs[i]) * min(0.8, share)
    return probs


def trick_distribution(probs: Sequence[float]) -> list[float]:
    """Poisson-binomial: the chance of taking 0, 1, ... of the cards' tricks."""
    dist = [1.0]
    for p in probs:
        nxt = [0.0] * (len(dist) + 1)
        for t, q in enumerate(dist):
            nxt[t] += q * (1 - p)
            nxt[t + 1] += q * p
        dist = nxt
    return dist


def bid_values(
    dist: Sequence[float],
    bids: Sequence[int],
    scoring: str,
    cards_each: int,
    players: int,
    control: float = 0.35,
) -> dict[int, float]:
    """Expected utility of each bid, given the trick distribution; a player one trick away from
    its bid steers onto it with chance ``control``."""
    table = _bid_table(scoring, cards_each, players, control)
    out: dict[int, float] = {}
    for b in bids:
        row = table[b]
        v = 0.0
        for t, q in enumerate(dist):
            if q:
                v += q * row[t]
        out[b] = v
    return out


@functools.lru_cache(maxsize=256)
def _bid_table(
    scoring: str, cards_each: int, players: int, control: float
) -> tuple[tuple[float, ...], ...]:
    """``[bid][tricks]``: the utility ``bid_values`` counts for taking ``tricks`` after bidding
    ``bid`` (computed once per table shape: it is the bidding hot path of ``hard``'s samples)."""
    rows = []
    for b in range(cards_each + 1):
        made = utility(scoring, score(scoring, b, b, cards_each, players))
        row = []
        for t in range(cards_each + 1):
            if t == b:
                row.append(float(made))
                continue
            miss = utility(scoring, score(scoring, b, t, cards_each, players))
            if abs(t - b) == 1:
                row.append(control * made + (1 - control) * miss)
            else:
                step = t - 1 if t > b else t + 1
                near = utility(scoring, score(scoring, b, step, cards_each, players))
                row.append(control * near + (1 - control) * miss)
        rows.append(tuple(row))
    return tuple(rows)


def shift_probs(probs: list[float], excess: float) -> list[float]:
    """Others bidding more than the tricks left (excess > 0) fight for them: middling cards win
    less; an underbid table lets them win more."""
    k = max(-0.25, min(0.25, 0.05 * excess))
    return [p if p >= 0.97 else max(0.0, min(1.0, p * (1 - k))) for p in probs]
