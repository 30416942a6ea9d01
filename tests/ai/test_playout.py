"""The quick bid model's deals and estimates (``bot.ai.playout.QuickBids``): its fast deals
against ``knowledge.sample_hands``, and the later bidders of the search's deals."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest
from pytest import MonkeyPatch

from bot.ai import knowledge, playout, search
from bot.ai.cards import bits
from bot.ai.knowledge import Table
from bot.ai.params import DEFAULT_PARAMS
from bot.ai.sanitise import Determiniser, public_game
from bot.engine import Game, Phase, Settings
from tests.ai.helpers import mid_hand, search_decision


def _setup(seed: int, plays: int) -> tuple[Table, Determiniser, playout.QuickBids]:
    g = mid_hand(seed, plays)
    table = Table.from_view(g.view(g.turn), g.rules)
    det = Determiniser(public_game(g, table, random.Random(seed)), table)
    return table, det, playout.QuickBids(table, DEFAULT_PARAMS)


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


def _seat_counts(deal: Callable[[], list[int]], det: Determiniser, n: int) -> list[list[int]]:
    """How often each unseen card lands on each seat over ``n`` deals."""
    counts = [[0] * 4 for _ in range(52)]
    for _ in range(n):
        hands = deal()
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
    fast = _seat_counts(lambda: quick._deal(det, rng), det, n)
    assert calls[0] < n // 10
    t = det.table
    ref = _seat_counts(
        lambda: slow(rng, det.pool, det.known, det.unknown, t.voids, t.suits.eff, t.seats), det, n
    )
    for c in bits(det.pool):
        for s in table.seats:
            assert abs(fast[c][s] - ref[c][s]) < 0.06 * n + 1


def test_later_bidders_bid_their_estimate(monkeypatch: MonkeyPatch) -> None:
    """Over bid searches from the first seat, every later bid in the search's deals is the
    legal bid nearest the bidder's quick estimate."""
    seen: list[tuple[int, int, int]] = []
    real = search._Search.deal

    def spy(self: search._Search, g: Game) -> search._Deal:
        for s in g.seats:
            if s != self.me:
                seen.append((s, g.hand_mask(s), g.bids[s] or 0))
        return real(self, g)

    monkeypatch.setattr(search._Search, "deal", spy)
    total = 0
    for seed in range(3):
        g = Game.new(Settings(preset="first-to-101", sequence="fixed", max_cards=10), 4, seed=seed)
        assert g.phase is Phase.BIDDING
        table = Table.from_view(g.view(g.turn), g.rules)
        quick = playout.QuickBids(table, DEFAULT_PARAMS)
        seen.clear()
        assert search_decision(g, g.turn, seed, 300) is not None
        for s, hand, bid in seen:
            total += 1
            want = round(quick.estimate(hand))
            # the last bidder may be hooked off its estimate: one away at most
            assert abs(bid - want) <= (1 if s == (g.turn + 3) % 4 else 0)
    assert total > 500
