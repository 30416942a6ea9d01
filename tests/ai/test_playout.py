"""The quick bid model's deals and estimates (``bot.ai.playout.QuickBids``), the fast path
(``FAST``) against ``knowledge.sample_hands``."""

from __future__ import annotations

import random

import pytest
from pytest import MonkeyPatch

from bot.ai import decide, hard, knowledge, playout, search
from bot.ai.cards import bits
from bot.ai.knowledge import Table
from bot.ai.sanitise import Determiniser, public_game
from bot.engine import Game, Phase, Settings
from tests.ai.helpers import mid_hand


def _setup(seed: int, plays: int) -> tuple[Table, Determiniser, playout.QuickBids]:
    g = mid_hand(seed, plays)
    table = Table.from_view(g.view(g.turn), g.rules)
    det = Determiniser(public_game(g, table, random.Random(seed)), table)
    return table, det, playout.QuickBids(table)


def test_the_estimate_is_the_cards_values_summed() -> None:
    _, _, quick = _setup(1, 0)
    rng = random.Random(5)
    for _ in range(200):
        mask = rng.getrandbits(52)
        want = sum(quick.value[c] for c in bits(mask))
        assert quick.estimate(mask) == pytest.approx(want)


@pytest.mark.parametrize("plays", [0, 13, 25])
def test_fast_deals_keep_what_the_seat_knows(plays: int) -> None:
    """Every fast deal: the seat's own hand and the cards already placed kept, each hand its
    size, the unseen cards dealt at most once, no card of a suit a seat showed out of."""
    voided = 0
    for seed in range(6):
        table, det, quick = _setup(seed, plays)
        g = det.public
        eff = table.suits.eff
        voided += sum(1 for s in table.seats if table.voids[s])
        rng = random.Random(seed)
        for _ in range(60):
            hands = quick._deal(det, rng)
            seen = 0
            for s in table.seats:
                h = hands[s]
                assert h & det.known[s] == det.known[s]
                assert h.bit_count() == g.hand_mask(s).bit_count()
                assert (h & ~det.known[s]) & ~det.pool == 0
                assert not h & seen
                seen |= h
                for c in bits(h & ~det.known[s]):
                    assert not (eff[c] < 4 and table.voids[s] >> eff[c] & 1)
    if plays >= 13:
        assert voided  # the positions do test the voids


def _seat_counts(
    quick: playout.QuickBids, det: Determiniser, rng: random.Random, n: int
) -> list[list[int]]:
    """How often each unseen card lands on each seat over `n` deals."""
    counts = [[0] * 4 for _ in range(52)]
    for _ in range(n):
        hands = quick._deal(det, rng)
        for s in det.table.seats:
            for c in bits(hands[s] & det.pool):
                counts[c][s] += 1
    return counts


def test_fast_deals_are_uniform_and_rarely_fall_back(monkeypatch: MonkeyPatch) -> None:
    """Each unseen card goes to each seat about as often as the slow sampler puts it there;
    the slow sampler is only the fallback."""
    table, det, quick = _setup(2, 5)
    calls = [0]
    slow = knowledge.sample_hands

    def counted(*args: object, **kw: object) -> list[int]:
        calls[0] += 1
        return slow(*args, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(playout, "sample_hands", counted)
    rng = random.Random(9)
    n = 3000
    fast = _seat_counts(quick, det, rng, n)
    assert calls[0] < n // 10
    monkeypatch.setattr(playout, "FAST", False)
    ref = _seat_counts(quick, det, rng, n)
    for c in bits(det.pool):
        for s in table.seats:
            assert abs(fast[c][s] - ref[c][s]) < 0.06 * n + 1


def _later_bids(monkeypatch: MonkeyPatch, noise: float) -> tuple[int, int]:
    """Over bid searches from the first seat: how many later bids the search's deals held,
    and how many were not the legal bid nearest the bidder's quick estimate."""
    monkeypatch.setattr(hard, "BID_SEARCH", True)
    monkeypatch.setattr(search, "FRESH", True)
    monkeypatch.setattr(search, "LATER_NOISE", noise)
    monkeypatch.setattr(search, "LATER_BIAS", 0.0)
    seen: list[tuple[int, int, int]] = []
    real = search._Search.deal

    def spy(self: search._Search, g: Game) -> search._Deal:
        for s in g.seats:
            if s != self.me:
                seen.append((s, g.hand_mask(s), g.bids[s] or 0))
        return real(self, g)

    monkeypatch.setattr(search._Search, "deal", spy)
    total = off = 0
    for seed in range(3):
        g = Game.new(Settings(preset="first-to-101", sequence="fixed", max_cards=10), 4, seed=seed)
        assert g.phase is Phase.BIDDING
        table = Table.from_view(g.view(g.turn), g.rules)
        quick = playout.QuickBids(table)
        seen.clear()
        decide(g, g.turn, level="hard", seed=seed, iterations=300)
        for s, hand, bid in seen:
            total += 1
            want = round(quick.estimate(hand))
            # the last bidder may be hooked off its estimate: one away at most
            off += abs(bid - want) > (1 if s == (g.turn + 3) % 4 else 0)
    return total, off


def test_later_bidders_bid_their_estimate_or_vary_about_it(monkeypatch: MonkeyPatch) -> None:
    total, off = _later_bids(monkeypatch, 0.0)
    assert total > 500
    assert off == 0
    total, off = _later_bids(monkeypatch, 0.9)
    assert off > 0.1 * total


def _bid_decisions(monkeypatch: MonkeyPatch, seeds: range) -> list[tuple[int, list[int]]]:
    """Bid searches from the first seat: each one's bid and the candidates it chose among."""
    monkeypatch.setattr(hard, "BID_SEARCH", True)
    monkeypatch.setattr(search, "FRESH", True)
    chosen: list[tuple[int, list[int]]] = []
    real = search.choose_bid

    def spy(*args: object, **kwargs: object) -> int:
        bid = real(*args, **kwargs)  # type: ignore[arg-type]
        cands = args[5] if len(args) > 5 else kwargs["cands"]
        chosen.append((bid, list(cands)))  # type: ignore[arg-type]
        return bid

    monkeypatch.setattr(search, "choose_bid", spy)
    for seed in seeds:
        g = Game.new(Settings(preset="first-to-101", sequence="fixed", max_cards=10), 4, seed=seed)
        decide(g, g.turn, level="hard", seed=seed, iterations=300)
    return chosen


def test_a_bid_tilt_leans_the_searchs_bids_up(monkeypatch: MonkeyPatch) -> None:
    """``BID_TILT``: with 30 points a trick above the lowest candidate, more than any hand's
    points, the search bids its highest candidate; without it, not always."""
    plain = _bid_decisions(monkeypatch, range(6))
    assert len(plain) == 6
    assert any(bid < max(cands) for bid, cands in plain)
    monkeypatch.setattr(search, "BID_TILT", 30.0)
    assert all(bid == max(cands) for bid, cands in _bid_decisions(monkeypatch, range(6)))


def test_the_others_noise_in_the_searchs_bidding_may_differ(monkeypatch: MonkeyPatch) -> None:
    """``BID_OTHERS_EPSILON``: the others' random-card chance in the play-outs of the search's
    bids; card play keeps ``OTHERS_EPSILON``, and this seat ``EPSILON``, either way."""
    seen: set[tuple[bool, tuple[float, ...]]] = set()
    bidding = [False]
    real_greedy, real_bid = search.greedy, search.choose_bid

    def greedy(*args: object) -> list[int]:
        seen.add((bidding[0], tuple(args[-1])))  # type: ignore[arg-type]
        return real_greedy(*args)  # type: ignore[arg-type]

    def choose_bid(*args: object, **kwargs: object) -> int:
        bidding[0] = True
        try:
            return real_bid(*args, **kwargs)  # type: ignore[arg-type]
        finally:
            bidding[0] = False

    monkeypatch.setattr(search, "greedy", greedy)
    monkeypatch.setattr(search, "choose_bid", choose_bid)
    monkeypatch.setattr(search, "BID_OTHERS_EPSILON", 0.05)
    monkeypatch.setattr(hard, "PLAY_SEARCH", True)
    monkeypatch.setattr(hard, "ADAPTIVE", False)
    _bid_decisions(monkeypatch, range(1))
    g = mid_hand(3, 5)
    decide(g, g.turn, level="hard", seed=3, iterations=200)
    own = search.EPSILON
    by_phase = {
        phase: {tuple(e for e in eps if e != own) for b, eps in seen if b == phase}
        for phase in (True, False)
    }
    assert by_phase[True] == {(0.05, 0.05, 0.05)}
    assert by_phase[False] == {(search.OTHERS_EPSILON,) * 3}
