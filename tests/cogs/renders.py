"""Fake inputs of the render functions (tables, games, hands, refusals, stats, review moments,
shared by the tests that render every kind of message:
in a catalog that marks what it gives, in every language the bot speaks."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from bot.engine import JOKER, Action, Bid, Card, ChooseTrump, Phase, Play, Settings, TrickView
from bot.service import (
    BidOption,
    CardOption,
    HandState,
    PublicGame,
    Reason,
    SeatView,
    TableStatus,
    TableView,
)
from bot.service.document import ClosedReason
from bot.service.review import Moment
from bot.service.summaries import GameDetail, LevelResult, PlayerStats

EXPIRED = ClosedReason(kind="expired", after=600.0)
ABANDONED = ClosedReason(kind="abandoned", after=86400.0)


SEATS = (
    SeatView("Ann", 1, None),
    SeatView("Computer (hard)", None, "hard"),
    SeatView("Computer 2 (easy)", None, "easy"),
    SeatView("Bob", 2, None, left=True, away="timeout"),
    SeatView("Cat", 3, None, left=True, away="kicked"),
    SeatView("Former player 1", None, None),
)


def a_table(**changes: Any) -> TableView:
    table = TableView(
        table_id=7,
        version=1,
        guild_id=1,
        channel_id=2,
        message_id=3,
        host_id=1,
        status=TableStatus.LOBBY,
        preset="classic",
        seats=SEATS,
        settings=Settings.model_validate({"preset": "classic", "bidding": "hook"}),
        player_range=(3, 7),
        game=None,
        turn_timer=120,
        expires=1_800_000_000.0,
        start_problem=Reason("player_count", {"low": 3, "high": 7, "players": 9}),
    )
    return dataclasses.replace(table, **changes)


def a_game(**changes: Any) -> PublicGame:
    seats = len(SEATS)
    trick = TrickView(0, tuple(range(3)), (Card("Q", "S"), Card("10", "H"), Card("2", "C")), 0, 2)
    cancelled = dataclasses.replace(trick, winner=None, value=1)
    game = PublicGame(
        hand_number=3,
        cards_each=1,
        dealer=1,
        seats_in_hand=tuple(range(seats - 1)),
        phase=Phase.BIDDING,
        to_act=(0, 1),
        turned=Card("7", "H"),
        trump="H",
        trump_decided=True,
        bids=(2, None, None, 1, 0, None),
        has_bid=(True, True, False, True, True, False),
        bid_round=2,
        trick=((0, Card("K", "D")), (1, Card("A", "D"))),
        tricks=(trick, cancelled) * 7,
        tricks_won=(1,) * seats,
        totals=(1_412, -3, 0, 12, 5, 7),
        placing=None,
        blind=True,
        lowest_wins=False,
    )
    return dataclasses.replace(game, **changes)


def a_hand(**changes: Any) -> HandState:
    state = HandState(
        table_id=7,
        seat=0,
        hand_number=3,
        phase=Phase.BIDDING,
        cards=(CardOption(Card("Q", "S"), 0, True), CardOption(Card("JOKER", None), 52, True)),
        blind_cards=(),
        trump="H",
        turned=Card("7", "H"),
        trump_decided=True,
        my_turn=True,
        bid=1,
        tricks_won=0,
        bid_options=(BidOption(0, True), BidOption(1, False, Reason("hook", {"total": 1}))),
        trump_options=(),
        bids_so_far=(("Computer (hard)", 2), ("Bob", 0)),
        on_table=None,
        auto_play=True,
        deadline=1_800_000_000.0,
    )
    return dataclasses.replace(state, **changes)


PLAYING: dict[str, Any] = {"phase": Phase.PLAYING, "bid_options": (), "bids_so_far": None}


PARAMLESS = (
    "not_for_you",
    "not_offered",
    "table_gone",
    "not_seated",
    "not_started",
    "no_table_here",
    "already_seated",
    "join_first",
    "no_card",
    "computer_has_seat",
    "removed",
    "paused",
    "earlier_hand",
    "already_playing",
    "not_seated_other",
    "remove_self",
    "host_must_play",
    "already_host",
    "already_paused",
    "already_running",
    "rematch_not_over",
    "rematch_players_only",
    "manage_channels",
    "already_started",
    "conflict",
    "review_no_games",
    "review_running",
    "erasure_not_offered",
    "no_page",
    "no_games",
    "opened",
    "confirmed",
    "joined",
    "left_game",
    "left_closed",
    "left",
    "begins",
    "cancelled",
    "back",
    "paused_now",
    "resumed_now",
    "rematch_opened",
)
REASON_PARAMS: dict[str, Mapping[str, Any]] = {
    **{code: {} for code in PARAMLESS},
    "table_closed": {"status": "finished"},
    "rules_invalid": {"problem": "«problem»"},
    "channel_busy": {"table_id": 7, "url": "https://discord.com/channels/1/2/3"},
    "missing_permissions": {"names": ["view_channel", "embed_links"]},
    "no_level": {"level": "9"},
    "no_rule": {"field": "9"},
    "rule_invalid": {"field": "9", "value": "0", "problem": "«problem»"},
    "player_count": {"low": 3, "high": 7, "players": 2},
    "rules_unplayable": {"explanation": "«explained»"},
    "illegal": {"explanation": "«explained»"},
    "already_removed": {"name": "Computer (hard)"},
    "table_full": {"seats": 10},
    "too_many": {"high": 1},
    "host_only": {"doing": "timer"},
    "timer_choices": {"timers": (0, 30, 120)},
    "no_such_page": {"page": 9, "pages": 2},
    "no_such_order": {"by": "9"},
    "hook": {"total": 5},
    "review_no_game": {"game": 7},
    "review_not_finished": {"game": 7, "status": "playing"},
    "review_not_player": {"game": 7},
    "my_data_wait": {"until": 1_800_000_000.0},
    "no_game": {"game": 7},
    "computer_added": {"name": "Computer 2 (easy)"},
    "rule_set": {"field": "9"},
    "auto_play": {"on": True},
    "removed_player": {"name": "Former player 1"},
    "new_host": {"name": "Bob"},
    "timer_set": {"seconds": 30},
}
"""Parameters for every code REASONS words (a new code needs its own here)."""


def a_stats(**changes: Any) -> PlayerStats:
    stats = PlayerStats(
        user_id=1,
        games=20,
        wins=5,
        places=((1, 5), (2, 11), (3, 3), (4, 1)),
        left_early=2,
        exact_bid_rate=0.5,
        points_per_hand=3.0,
        best_game=(57, 120),
        favourite_preset=("classic", 12),
        detail=GameDetail(games=100, hands=900, bid_error=0.4, bid_miss=0.85),
        detail_limit=100,
        computers=(LevelResult("hard", 5, 2), LevelResult("easy", 1, 1)),
        rating=1050,
        rating_provisional=True,
        rating_uncertainty=117,
        rating_change=-40,
        rating_change_game=8,
        unrated_game=9,
        unrated_reason="removed",
        preset_ratings=(("classic", 1050, True), ("oh-hell", 990, False)),
    )
    return dataclasses.replace(stats, **changes)


def a_moment(kind: str, trick_cards: tuple[Card, ...] = (), cost: float = 5.71) -> Moment:
    """A decision of the review's kind `kind` ("bid", "trump", "play") where `hard` differs."""
    choices: dict[str, tuple[Action, Action]] = {
        "bid": (Bid(0), Bid(2)),
        "trump": (ChooseTrump("H"), ChooseTrump("S")),
        "play": (Play(JOKER, "S"), Play(Card("5", "H"))),
    }
    made, better = choices[kind]
    trick = 2 if kind == "play" else 0
    return Moment(3, kind, trick, trick_cards, 0, 0, made, better, cost)
