"""Fake inputs of the render functions (tables, games, hands, refusals, stats, review moments,
shared by the tests that render every kind of message:
in a catalog that marks what it gives, in every language the bot speaks."""

from __future__ import annotations

import dataclasses
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
from bot.service.answers import (
    AutoPlay,
    Back,
    Begins,
    Cancelled,
    ComputerAdded,
    Confirmed,
    Joined,
    Left,
    LeftClosed,
    LeftGame,
    NewHost,
    Opened,
    PausedNow,
    RematchOpened,
    RemovedPlayer,
    ResumedNow,
    RuleSet,
    TimerSet,
)
from bot.service.document import ClosedReason
from bot.service.notices import (
    Closure,
    ComputerPlaysFor,
    FinalStandings,
    HandScore,
    HostChange,
    Notice,
    Pause,
    Rematch,
    Removal,
    Resumption,
    StartedWithout,
    TimedOut,
)
from bot.service.refusals import (
    ActivitiesOff,
    AlreadyHost,
    AlreadyPaused,
    AlreadyPlaying,
    AlreadyRemoved,
    AlreadyRunning,
    AlreadySeated,
    AlreadyStarted,
    ChannelHasTable,
    ComputerHasSeat,
    Conflict,
    EarlierHand,
    ErasureNotOffered,
    Explanation,
    GamePaused,
    Hook,
    HostMustPlay,
    HostOnly,
    Illegal,
    JoinFirst,
    ManageChannels,
    MissingPermissions,
    MyDataWait,
    NoCard,
    NoGame,
    NoGames,
    NoLevel,
    NoPage,
    NoRule,
    NoSuchOrder,
    NoSuchPage,
    NoSuchTable,
    NoTableHere,
    NotForYou,
    NotOffered,
    NotSeated,
    NotSeatedOther,
    NotStarted,
    PlayerCount,
    RematchNotOver,
    RematchPlayersOnly,
    RemovedByHost,
    RemoveSelf,
    ReviewNoGame,
    ReviewNoGames,
    ReviewNotFinished,
    ReviewNotPlayer,
    ReviewRunning,
    RuleInvalid,
    RulesInvalid,
    RulesUnplayable,
    SlowDown,
    TableClosed,
    TableFull,
    TimerChoices,
    TooMany,
    UnknownChannel,
)
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
        start_problem=PlayerCount(3, 7, 9),
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
        bid_options=(BidOption(0, True), BidOption(1, False, Hook(1))),
        trump_options=(),
        bids_so_far=(("Computer (hard)", 2), ("Bob", 0)),
        on_table=None,
        auto_play=True,
        deadline=1_800_000_000.0,
    )
    return dataclasses.replace(state, **changes)


PLAYING: dict[str, Any] = {"phase": Phase.PLAYING, "bid_options": (), "bids_so_far": None}


EXPLAINED = Explanation("turn_to_bid", {"name": "Ann"})
"""An explanation of a refusal (cogs/render/explanations.py words every one)."""

REASONS: tuple[Reason, ...] = (
    NotForYou(),
    NotOffered(),
    NoSuchTable(),
    NotSeated(),
    NotStarted(),
    NoTableHere(),
    ActivitiesOff(),
    UnknownChannel(),
    SlowDown(),
    AlreadySeated(),
    JoinFirst(),
    NoCard(),
    ComputerHasSeat(),
    RemovedByHost(),
    GamePaused(),
    EarlierHand(),
    AlreadyPlaying(),
    NotSeatedOther(),
    RemoveSelf(),
    HostMustPlay(),
    AlreadyHost(),
    AlreadyPaused(),
    AlreadyRunning(),
    RematchNotOver(),
    RematchPlayersOnly(),
    ManageChannels(),
    AlreadyStarted(),
    Conflict(),
    ReviewNoGames(),
    ReviewRunning(),
    ErasureNotOffered(),
    NoPage(page=9),
    NoGames(),
    Opened(),
    Confirmed(),
    Joined(),
    LeftGame(),
    LeftClosed(),
    Left(),
    Begins(),
    Cancelled(),
    Back(),
    PausedNow(),
    ResumedNow(),
    RematchOpened(),
    TableClosed(TableStatus.FINISHED),
    RulesInvalid(EXPLAINED),
    ChannelHasTable(7, "https://discord.com/channels/1/2/3"),
    MissingPermissions(("view_channel", "embed_links")),
    NoLevel(level="9"),
    NoRule(field="9"),
    RuleInvalid("9", "0", EXPLAINED),
    PlayerCount(low=3, high=7, players=2),
    RulesUnplayable(EXPLAINED),
    Illegal(EXPLAINED),
    AlreadyRemoved(name="Computer (hard)"),
    TableFull(seats=10),
    TooMany(high=1),
    HostOnly(doing="timer"),
    TimerChoices(timers=(0, 30, 120)),
    NoSuchPage(page=9, pages=2),
    NoSuchOrder(by="9"),
    Hook(total=5),
    ReviewNoGame(game=7),
    ReviewNotFinished(7, TableStatus.PLAYING),
    ReviewNotPlayer(game=7),
    MyDataWait(until=1800000000.0),
    NoGame(game=7),
    ComputerAdded(name="Computer 2 (easy)"),
    RuleSet(field="9"),
    AutoPlay(on=True),
    RemovedPlayer(name="Former player 1"),
    NewHost(name="Bob"),
    TimerSet(seconds=30),
)
"""One of every refusal and answer (tests/cogs/test_render.py checks none is missing)."""

NOTICES: tuple[Notice, ...] = (
    HandScore(
        hand=3,
        rows=(("Ann", 1, 1, 11, 40), ("Computer (hard)", 0, 1, -1, 1_012)),
        tricks=(
            ((("Ann", Card("Q", "S")), ("Former player 1", Card("10", "H"))), "Ann"),
            ((("Ann", Card("2", "C")), ("Computer 2 (easy)", Card("2", "C"))), None),
        ),
    ),
    HandScore(hand=9, rows=(("Ann", 0, 0, 10, 50),), tiebreak=True),
    FinalStandings(
        standings=((1, "Ann", 40), (1, "Computer (hard)", 40), (3, "Bob", 12)),
        game=7,
        ratings=((1_412, 18, False), (1_012, -40, True), (990, 0, False)),
    ),
    FinalStandings(standings=((1, "Former player 1", 40),)),
    TimedOut("Computer (hard)", Play(Card("10", "H"))),
    TimedOut("Ann", Bid(2)),
    TimedOut("Ann", ChooseTrump("S")),
    TimedOut("Ann", None),
    ComputerPlaysFor("Ann"),
    StartedWithout(("Ann", "Former player 1")),
    Closure(ABANDONED),
    Removal("Bob", in_game=True),
    Removal("Bob", in_game=False),
    HostChange(5),
    HostChange(None),
    Pause(),
    Resumption(),
    Rematch((5, 6)),
)
"""Every notice, each of its kinds (tests/cogs/test_render.py checks none is missing) in each
of its forms."""


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
