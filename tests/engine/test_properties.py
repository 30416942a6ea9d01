"""Property tests: random games under random valid settings keep every invariant."""

from __future__ import annotations

import random
import typing
from typing import Any

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from bot.engine import (
    Bid,
    EngineError,
    Game,
    HandScored,
    Phase,
    Play,
    Settings,
    SettingsError,
    score,
)
from bot.engine.records import game_from_record, record_from_game, replay
from bot.engine.settings import ScoringName

FIELDS: dict[str, st.SearchStrategy[Any]] = {
    "pack": st.sampled_from(["52", "52+joker", "63", "65", "78", "104"]),
    "sequence": st.sampled_from(["down-up", "up-down", "down", "up", "up-up", "fixed"]),
    "max_cards": st.integers(1, 6),
    "trump": st.sampled_from(["turned", "spades", "rotation", "bidder"]),
    "exhausted_trump": st.sampled_from(["forbidden", "dealer-last", "before-deal", "none"]),
    "bidding": st.sampled_from(["hook", "open", "secret", "knock"]),
    "first_lead": st.sampled_from(["dealer", "left"]),
    "scoring": st.sampled_from(typing.get_args(ScoringName)),
    "end": st.sampled_from(["sequence", "target"]),
    "target": st.integers(10, 40),
    "ties": st.sampled_from(["extra-hand", "tiebreakers", "share"]),
    "duplicates": st.sampled_from(["first-wins", "later-wins", "cancel"]),
    "all_cancelled": st.sampled_from(["up-the-ante", "first-highest"]),
    "blind": st.sampled_from(["none", "last", "all"]),
}


NEVER_FALLING = ["tricks-plus-ten", "ten-plus-bid", "basic", "progressive", "adjusted-basic"]


@st.composite
def games(draw: st.DrawFn) -> tuple[Game, int]:
    preset = draw(st.sampled_from(["oh-hell", "oh-shit", "classic", "nomination", "first-to-101"]))
    chosen = draw(st.dictionaries(st.sampled_from(sorted(FIELDS)), st.none(), max_size=8))
    fields: dict[str, Any] = {"preset": preset, "max_cards": draw(FIELDS["max_cards"])}
    for name in chosen:
        fields[name] = draw(FIELDS[name])
    if fields.get("trump", "turned") == "turned":
        fields["ace_no_trumps"] = draw(st.booleans())
        fields["spades_double"] = draw(st.booleans())
    if fields.get("bidding") in (None, "hook", "open"):
        fields["bid_changes"] = draw(st.booleans())
    if fields.get("end") == "target" or (preset == "first-to-101" and "end" not in fields):
        fields["target"] = draw(FIELDS["target"])
        # Scores that can fall may never reach a target; random play would run forever.
        if fields.get("scoring") not in NEVER_FALLING:
            fields["scoring"] = draw(st.sampled_from(NEVER_FALLING))
    players = draw(st.integers(3, 7))
    try:
        rules = Settings.model_validate(fields).resolve(players)
    except SettingsError:
        assume(False)
        raise
    return Game.new(rules, players, seed=draw(st.integers(0, 10**6))), draw(st.integers(0, 10**6))


def _random_bit(m: int, rng: random.Random) -> int:
    bits = [i for i in range(m.bit_length()) if m >> i & 1]
    return rng.choice(bits)


def _check_cards(g: Game) -> None:
    held = 0
    count = 0
    for s in range(g.players):
        h = g.hand_mask(s)
        assert held & h == 0, "a card is held twice"
        held |= h
        count += h.bit_count()
    played = g.played_mask()
    assert played & held == 0, "a played card is still held"
    in_play = len(g.seats) * g.cards_each
    assert count + played.bit_count() == in_play, "a card was lost"
    sizes = [g.hand_mask(s).bit_count() for s in g.seats]
    assert max(sizes) - min(sizes) <= 1


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(games())
def test_random_games_keep_every_invariant(arg: tuple[Game, int]) -> None:
    g, rseed = arg
    rng = random.Random(rseed)
    r = g.rules
    steps = 0
    while g.phase is not Phase.GAME_OVER:
        steps += 1
        assert steps < 20_000
        _check_cards(g)
        seat = rng.choice(g.to_act)
        legal = g.legal_actions(seat)
        assert legal
        # an illegal action is refused and changes nothing
        if g.phase is Phase.PLAYING and rng.random() < 0.2:
            held = set(g.hand(seat))
            bad = [c for c in held if Play(c) not in legal and not c.is_joker]
            if bad:
                before = g.to_json()
                try:
                    g.apply(seat, Play(bad[0]))
                    raise AssertionError("an illegal card was accepted")
                except EngineError:
                    pass
                assert g.to_json() == before
        if g.phase is Phase.BIDDING and rng.random() < 0.1:
            other = [s for s in range(g.players) if s not in g.to_act]
            if other:
                try:
                    g.apply(other[0], Bid(0))
                    raise AssertionError("a bid out of turn was accepted")
                except EngineError:
                    pass
        hand_before = (g.cards_each, g.turned, g.trump_id, r.trump)
        events = g.apply(seat, rng.choice(legal))
        for e in events:
            if isinstance(e, HandScored):
                n, turned, trump, how = hand_before
                bids = e.bids
                dealt = [s for s in range(g.players) if bids[s] is not None]
                assert sum(e.tricks[s] for s in dealt) == n, "tricks don't add up"
                if r.bidding == "hook":
                    assert sum(bids[s] or 0 for s in dealt) != n, "the hook was broken"
                double = r.spades_double and how == "turned" and turned is not None and trump == 3
                for s in dealt:
                    b = bids[s]
                    assert b is not None
                    want = score(r.scoring, b, e.tricks[s], n, len(dealt))
                    assert e.points[s] == want * (2 if double else 1)
        if rng.random() < 0.02:
            saved = g.to_json()
            assert Game.from_json(saved).to_json() == saved
            sim = g.copy()  # a copy played on leaves the original untouched
            for _ in range(rng.randrange(1, 30)):
                if sim.phase is Phase.GAME_OVER:
                    break
                who = sim.turn
                sim.apply_fast(who, _random_bit(sim.legal_mask(who), rng))
            assert g.to_json() == saved
    assert g.placing is not None and min(g.placing) == 1
    rec = record_from_game(g)
    again = game_from_record(rec)
    assert record_from_game(again) == rec
    assert Game.from_json(g.to_json()).to_json() == g.to_json()
    out = replay(rec)
    assert out["totals"] == list(g.totals) and out["game_over"]
