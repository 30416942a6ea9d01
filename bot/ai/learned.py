"""``normal``'s learned corrections, fitted offline from self-play (``tools.bidfit``,
``tools.playfit``) and used only at the table they were fitted for (``LEARNED_FOR``): a
correction of the model's bid, and a card choice over the rule-of-thumb card."""

from __future__ import annotations

import operator

from .cards import bits
from .evaluate import card_probs
from .knowledge import PlaySituation

ADJUST_MARGIN = 1.0
"""Points of predicted gain a lower bid must show before ``adjust_bid`` takes it."""

# fmt: off
ADJUST_WEIGHTS: dict[int, tuple[float, ...]] = {
    -2: (0.4841, 2.0815, 1.1619, -2.2074, 0.6375, -0.9216, 1.5876, -6.0582, -0.1288, 0.0000,
         -0.1255, 0.2318, 0.2445, 0.0644),
    -1: (2.1412, 0.9782, 1.4054, -1.1611, 0.4977, -0.1702, 1.0300, -4.6080, -0.4209, -0.0423,
         -0.1830, 0.0780, 0.1025, 0.0907),
    1: (-2.9890, -0.8890, 0.9174, 0.1863, -0.2323, 0.6929, -0.1347, 2.9012, 0.0194, -0.0306,
        -0.7026, 0.0927, 0.0037, 0.0426),
}
# fmt: on
"""Per bid change (-2, -1, +1): weights of ``adjust_features`` for the points the change gains
over the model's bid, fitted by least squares on 10,000 self-play hands in which one seat's bid
was forced to each bid within 3 of its model bid, every seat playing the learned card choice
(``python -m tools.bidfit --seed 9400 --deals 2500`` with the fit before these in place:
commit 8460c89)."""

PLAY_MARGIN = 0.5
"""Points more the learned card choice (``learned_card``) must predict for a card before it
replaces the rule-of-thumb card."""
LEARNED_FOR = (10, 4, "tricks-plus-ten")
"""(cards each, players, scoring): the table both learned corrections were fitted for and are
used at: 4 players, 10 cards, a point a trick + 10 for an exact bid."""

# fmt: off
PLAY_WEIGHTS: tuple[tuple[float, ...], ...] = (
    (0.0000, 0.1467, 0.0000, 0.2972, -0.0599, -0.4953, 0.0395, 0.6131, -0.0079, 0.0030,
     -0.3028, 0.0395, -0.0599),
    (0.0000, 0.0372, 0.4556, 0.2069, -0.7862, -0.2933, 0.0080, -0.8729, -0.1899, -0.1246,
     0.4387, 1.0375, 0.5168),
    (0.0000, 0.1709, 0.0000, -0.6146, -0.3609, 1.0917, 0.4403, -1.0258, 0.1582, -0.1423,
     0.2826, 0.4403, -0.3609),
    (0.0000, -0.0142, 0.8058, 0.1027, 1.8142, 0.0628, -0.8510, -0.4698, 0.0444, 0.0071,
     -1.2437, 1.0042, -2.4186),
    (0.0000, -0.1725, -2.5210, -0.4157, 1.2959, -1.5571, 0.9542, -0.3728, -0.0768, -0.1330,
     -0.4455, -2.3814, 0.7288),
    (0.0000, -0.2227, 0.8090, 0.4988, 1.3713, -0.8900, 0.1006, 1.1098, -0.1744, -0.1547,
     0.0353, -1.5610, 1.8083),
    (0.0000, 0.1756, -0.0083, -0.3701, 0.0496, -0.0612, -0.1331, 0.4211, 0.0804, 0.0108,
     0.0287, 0.7576, -0.3359),
)
# fmt: on
# Rows: leading / following while wanting the trick, leading / following while not; added to
# those: the bid made (need 0), every trick left needed, last to play. Columns: the card's
# features (``card_features``). Fitted by ridge regression on the play-outs of every legal
# card at 88,000 self-play decisions (``python -m tools.playfit``).


def adjust_features(probs: list[float], others: list[int], bid: int, n: int, k: int) -> list[float]:
    """What ``adjust_bid`` reads: the model's bid less the raw expected tricks, their square,
    the expected tricks, the table's excess of bids (as ``bid_from_probs``), the near-certain
    cards, the middling ones, the variance of the trick count, how many bids it has seen..."""
    mu = sum(probs)
    seen = [b for b in others if b >= 0]
    excess = sum(seen) + (len(others) - len(seen)) * n / k + mu - n
    sure = mid = 0
    var = 0.0
    for q in probs:
        if q > 0.9:
            sure += 1
        elif q > 0.15:
            mid += 1
        var += q * (1 - q)
    d = bid - mu
    return [
        1.0,
        d,
        d * d,
        mu,
        excess,
        sure,
        mid,
        var,
        len(seen),
        float(bid == 1),
        bid,
        mu * mu,
        d * excess,
        excess * excess,
    ]


def adjust_bid(
    probs: list[float], others: list[int], legal: list[int], bid: int, n: int, k: int
) -> int:
    """The bid moved by the change (-2, -1 or +1) a model learned offline predicts gains most
    points, if any: ``bid`` is the Poisson-binomial model's choice, ``probs`` the raw chances."""
    f = adjust_features(probs, others, bid, n, k)
    best, move = 0.0, 0
    for step, w in ADJUST_WEIGHTS.items():
        if bid + step not in legal:
            continue
        gain = sum(map(operator.mul, w, f)) - (ADJUST_MARGIN if step < 0 else 0.0)
        if gain > best:
            best, move = gain, step
    return bid + move


def learned_card(
    p: PlaySituation, ids: list[int], choice: int, want: bool, probs: list[float] | None = None
) -> int:
    """``choice`` (the rule-of-thumb card), or the card the learned model (``PLAY_WEIGHTS``)
    rates at least ``PLAY_MARGIN`` points better. ``probs``: ``card_probs`` of the hand, if
    known."""
    rows = PLAY_WEIGHTS
    trick = p.trick
    w = list(rows[(0 if want else 2) + (1 if trick else 0)])
    need = p.bid - p.won
    extra = []
    if need == 0:
        extra.append(rows[4])
    if need > 0 and need == p.left:
        extra.append(rows[5])
    if trick and not p.after:
        extra.append(rows[6])
    for row in extra:
        w = [a + b for a, b in zip(w, row, strict=True)]
    features = card_features(p, ids, choice, probs)
    values = [sum(map(operator.mul, w, f)) for f in features]
    best = max(range(len(ids)), key=values.__getitem__)
    if values[best] - values[ids.index(choice)] > PLAY_MARGIN:
        return ids[best]
    return choice


def card_features(
    p: PlaySituation, ids: list[int], choice: int, probs: list[float] | None = None
) -> list[list[float]]:
    """Per candidate card: 1, it is the rule-of-thumb choice, it takes the trick so far, it
    takes it with no higher card out, trump, its chance of a trick (``card_probs``), its rank in
    the hand (0 lowest .. 1 highest), its suit's share of the hand, the top of its suit, the
    bottom of its suit, higher cards out (/6, at most 1), and two products: takes the trick x
    rank, takes the trick x trump."""
    s = p.suits
    st = s.strength
    eff = s.eff
    out = p.out
    hand = bits(p.mine)
    if probs is None:
        probs = card_probs(
            p.mine, s, p.pack, p.out, p.share, p.players, p.cards_each, p.leads_first
        )
    chance = dict(zip(hand, probs, strict=True))
    order = sorted(hand, key=st.__getitem__)
    span = max(1, len(hand) - 1)
    size = len(hand)
    best = p.trick[s.winner_index(p.trick)] if p.trick else -1
    suits: dict[int, list[int]] = {}
    for x in hand:
        suits.setdefault(eff[x], []).append(x)
    rows = []
    for c in ids:
        e = eff[c]
        suit = suits[e]
        higher = (s.above[c] & out).bit_count()
        win = s.beats(c, best) if best >= 0 else True
        rank = order.index(c) / span
        trump = e == s.trump
        rows.append(
            [
                1.0,
                float(c == choice),
                float(win),
                float(win and higher == 0),
                float(trump),
                chance[c],
                rank,
                len(suit) / size,
                float(c == max(suit, key=st.__getitem__)),
                float(c == min(suit, key=st.__getitem__)),
                min(higher, 6) / 6,
                float(win) * rank,
                float(win and trump),
            ]
        )
    return rows
