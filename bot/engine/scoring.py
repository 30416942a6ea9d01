"""Scoring: the eleven formulas of RULES.md (b = bid, t = tricks taken, n = cards each), the
points and totals at the end of a hand, and what comes next: another hand, a tie-break, or the
placing at the end of the game."""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from bot.engine.actions import GameOver, HandScored
from bot.engine.dealing import begin_hand
from bot.engine.state import EXTRA, NORMAL, OVER, TIEBREAK, GameState, current_log


def _exact_tens(b: int, t: int, n: int, p: int) -> int:
    if t == b:
        return 10 * b if b else 10
    return -10 * abs(t - b)


def _tricks_plus_ten(b: int, t: int, n: int, p: int) -> int:
    return t + 10 if t == b else t


def _five_and_tens(b: int, t: int, n: int, p: int) -> int:
    # Reading (RULES.md, 000 alt. 2): the 10 a trick is paid only when the bid is made.
    return 5 + 10 * t if t == b else -5 - 5 * abs(t - b)


def _squares(b: int, t: int, n: int, p: int) -> int:
    return 10 + b * b if t == b else -((t - b) ** 2)


def _oh_shit(b: int, t: int, n: int, p: int) -> int:
    if t == b:
        return 10 + t if b else 5
    return t if t > b else t - b


def _ten_plus_bid(b: int, t: int, n: int, p: int) -> int:
    return 10 + b if t == b else 0


def _basic(b: int, t: int, n: int, p: int) -> int:
    return 10 + b if t == b else t


def _progressive(b: int, t: int, n: int, p: int) -> int:
    if t != b:
        return t
    if b == 0:
        # 3·n with 4 players; reading for other counts: 12·n / players, nearest whole point.
        return (24 * n + p) // (2 * p)
    return 10 + b * b


def _negative(b: int, t: int, n: int, p: int) -> int:
    d = abs(t - b)
    return d * (d + 1) // 2


def _adjusted_basic(b: int, t: int, n: int, p: int) -> int:
    if t != b:
        return t
    return 5 + n if b == 0 else 10 + b


def _adjusted_basic_2(b: int, t: int, n: int, p: int) -> int:
    if t != b:
        return 0
    return 5 if b == 0 else 10 + b


FORMULAS: Final[dict[str, Callable[[int, int, int, int], int]]] = {
    "exact-tens": _exact_tens,
    "tricks-plus-ten": _tricks_plus_ten,
    "five-and-tens": _five_and_tens,
    "squares": _squares,
    "oh-shit": _oh_shit,
    "ten-plus-bid": _ten_plus_bid,
    "basic": _basic,
    "progressive": _progressive,
    "negative": _negative,
    "adjusted-basic": _adjusted_basic,
    "adjusted-basic-2": _adjusted_basic_2,
}


def score(formula: str, bid: int, tricks: int, cards_each: int, players: int) -> int:
    """Points for one player's hand under ``formula`` (before spades double)."""
    return FORMULAS[formula](bid, tricks, cards_each, players)


def end_hand(g: GameState) -> None:
    """The hand's last trick is over: score it, then deal the next hand or end the game."""
    ev = g.events
    r = g.rules
    formula = FORMULAS[r.scoring]
    n = g.cards_each
    k = g.dealt_in
    double = r.spades_double and r.trump == "turned" and g.turned_id >= 0 and g.trump_id == 3
    points = [0] * g.players
    bids = g.seat_bids
    won = g.won
    tiebreak = g.hand_kind == TIEBREAK
    for s in g.play_order:
        b, t = bids[s], won[s]
        p = formula(b, t, n, k)
        points[s] = p * 2 if double else p
        if not tiebreak:
            g.running_totals[s] += points[s]
            if t == b:
                g.hands_made[s] += 1
                if b:
                    g.made_above_zero[s] += 1
            if t >= b:
                g.made_or_over[s] += 1
    log = current_log(g, tuple(points))
    g.finished_hands = (*g.finished_hands, log)
    if ev is not None:
        ev.append(
            HandScored(
                g.hand_number,
                g.bids,
                tuple(won),
                tuple(points),
                tuple(g.running_totals),
                tiebreak,
            )
        )
    if tiebreak:
        sign = -1 if r.scoring == "negative" else 1
        tb = list(g.tiebreak_points)
        for s in g.play_order:
            tb[s] = (*tb[s], sign * points[s])
        g.tiebreak_points = tuple(tb)
        best = max(sign * points[s] for s in g.play_order)
        top = tuple(s for s in g.seats if sign * points[s] == best)
        if len(top) > 1:
            next_hand(g, TIEBREAK, top)
        else:
            game_over(g)
        return
    if r.end == "sequence":
        if g.hand_kind == NORMAL and g.sequence_dealt < len(r.sizes):
            next_hand(g, NORMAL, tuple(range(g.players)))
            return
    elif g.hand_kind == NORMAL and max(g.running_totals) < r.target:
        # Only an ordinary hand can fall short of the target: an extra hand is played because
        # the target was reached with a tie for first, and settles that tie even if the totals
        # fall back below the target (RULES: "until one leads").
        next_hand(g, NORMAL, tuple(range(g.players)))
        return
    keys = ranking_keys(g)
    top_key = max(keys)
    top = tuple(s for s in range(g.players) if keys[s] == top_key)
    if len(top) > 1 and r.ties == "extra-hand":
        next_hand(g, EXTRA, tuple(range(g.players)))
    elif len(top) > 1 and r.ties == "tiebreakers":
        next_hand(g, TIEBREAK, top)
    else:
        game_over(g)


def ranking_keys(g: GameState) -> list[tuple[int, ...]]:
    """Each seat's standing, higher is better: the total, then (tiebreakers) hands made, made
    bids above zero, hands made or over, and the tie-break deals' points."""
    sign = -1 if g.rules.scoring == "negative" else 1
    if g.rules.ties != "tiebreakers":
        return [(sign * t,) for t in g.running_totals]
    return [
        (sign * g.running_totals[s], g.hands_made[s], g.made_above_zero[s], g.made_or_over[s])
        + g.tiebreak_points[s]
        for s in range(g.players)
    ]


def next_hand(g: GameState, kind: str, seats: tuple[int, ...]) -> None:
    g.next_kind = kind
    g.next_seats = seats
    begin_hand(g)


def game_over(g: GameState) -> None:
    """Place the seats (shared places repeat, dense) and end the game."""
    ev = g.events
    keys = ranking_keys(g)
    distinct = sorted(set(keys), reverse=True)
    g.placing = tuple(distinct.index(key) + 1 for key in keys)
    g.phase = OVER
    g.plain_play = False
    g.turn = -1
    if ev is not None:
        ev.append(GameOver(g.placing, tuple(g.running_totals)))
