"""The views of a table read from the game: the public one matches what every seat's view
says of the table, at every step of whole games under each preset."""

from __future__ import annotations

import random

import pytest

from bot.engine import PRESETS, Bid, ChooseTrump, Game, Phase, Play, Settings
from bot.service.document import Seat, TableDocument
from bot.service.seat_views import hand_state, public_game
from bot.service.turns import waiting_for
from bot.service.views import HandState


@pytest.mark.parametrize("preset", PRESETS)
def test_the_public_game_is_what_every_seat_sees_of_the_table(preset: str) -> None:
    rng = random.Random(preset)
    game = Game.new(Settings(preset=preset, max_cards=4), 4, seed=rng.randrange(1000))
    steps = 0
    while game.phase is not Phase.GAME_OVER and steps < 400:
        public = public_game(game)
        secret = game.rules.bidding in ("secret", "knock") and game.phase is Phase.BIDDING
        for seat in game.seats:
            view = game.view(seat)
            assert public.trick == view.trick
            assert public.tricks == view.tricks
            assert public.has_bid == view.has_bid
            assert public.bid_round == view.bid_round
            assert (public.tricks_won, public.totals) == (view.tricks_won, view.totals)
            assert (public.trump, public.turned) == (view.trump, view.turned)
            assert public.trump_decided == view.trump_decided
            assert public.seats_in_hand == view.seats
            # Secret bids stay hidden from the table, even the ones a seat may see (its own).
            if secret:
                assert public.bids == tuple(None for _ in view.bids)
            else:
                assert public.bids == view.bids
        assert public.to_act == waiting_for(game)
        seat = game.to_act[0]
        game.apply(seat, rng.choice(game.legal_actions(seat)))
        steps += 1
    assert steps > 20


@pytest.mark.parametrize("preset", PRESETS)
def test_a_hand_state_offers_what_the_seats_view_allows(preset: str) -> None:
    """Read from the game without building the seat's view, a hand message's controls are
    still the view's legal actions, its bids so far the bids that seat may see, and its trick
    the view's trick."""
    rng = random.Random(f"hand {preset}")
    game = Game.new(Settings(preset=preset, max_cards=4), 4, seed=rng.randrange(1000))
    document = TableDocument(seats=[Seat(user_id=100 + s, name=f"P{s}") for s in range(4)])
    checked = 0
    shown: dict[int, HandState] = {}
    reused = 0
    while game.phase is not Phase.GAME_OVER and checked < 1500:
        for seat in game.seats:
            state = hand_state(1, document, game, seat)
            # Kept from the state before when nothing it shows changed: always the same.
            kept = hand_state(1, document, game, seat, shown.get(seat))
            assert kept == state
            reused += kept is shown.get(seat)
            shown[seat] = state
            view = game.view(seat)
            legal = view.legal_actions
            if state.bid_options:
                assert {o.n for o in state.bid_options if o.allowed} == {
                    a.n for a in legal if isinstance(a, Bid)
                }
                assert state.bids_so_far == tuple(
                    (view.names[s], b) for s in view.seats if (b := view.bids[s]) is not None
                )
            if state.trump_options:
                assert state.trump_options == tuple(
                    a.suit for a in legal if isinstance(a, ChooseTrump)
                )
            if state.on_table is not None:
                assert state.on_table == tuple((view.names[s], c) for s, c in view.trick)
            if state.my_turn and game.phase is Phase.PLAYING and not game.is_blind:
                playable = {o.card for o in state.cards if o.allowed}
                assert playable == {a.card for a in legal if isinstance(a, Play)}
            checked += 1
        seat = game.to_act[0]
        game.apply(seat, rng.choice(game.legal_actions(seat)))
    assert checked > 100
    assert reused > checked / 4
