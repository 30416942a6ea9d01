"""The post-game review: a person's decisions in a finished game, each judged by ``hard`` in
the computer players' workers, one decision at a time, with progress as it goes.

The judging itself is ``bot.ai.review`` (handed in by the composition root as ``find`` and
``assess``: the service does not import the computer players); this module checks who may
review what, keeps one review a person at a time, and turns the judgements into a `Review`.
"""

from __future__ import annotations

import itertools
import uuid
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from bot.config import DEFAULTS
from bot.engine import SUITS, Action, Bid, Card, Game
from bot.engine.records import record_from_game
from bot.service.errors import Refused
from bot.service.refusals import (
    ReviewNoGame,
    ReviewNoGames,
    ReviewNotFinished,
    ReviewNotPlayer,
    ReviewRunning,
)
from bot.service.seat_views import card_order
from bot.service.turns import decode_game, load_document, run_in_thread
from bot.storage import Event as StoredEvent
from bot.storage import Leases, Results, TableRow, Tables, TableStatus

MIN_COST = 0.5
"""A decision other than ``hard``'s is shown when ``hard``'s is estimated to be worth at least
this many points more (cards of equal use differ by nothing) ..."""
SURE = 2.0
"""... and by at least this many standard errors of that estimate: with a budget of 0.3 s most
differences are within the sampling noise (measured: 30 of 106 decisions of a `normal` player
were 0.5 points or more behind, 7 of them by two standard errors)."""
COSTLIEST = 3
"""How many of the costliest moments come first."""
LEASE = 60.0
"""Seconds a review holds its person, renewed with each decision judged: the bot's processes
share one review a person, and a review whose process died lets go of them after this. A
review whose lease is gone when it renews it (its person erased themselves) stops there."""


class Decision(Protocol):
    """What the service reads of one decision (``bot.ai.review.Decision``)."""

    @property
    def hand(self) -> int: ...
    @property
    def kind(self) -> str: ...
    @property
    def action(self) -> Action: ...
    @property
    def trick(self) -> int: ...
    @property
    def trick_cards(self) -> tuple[Card, ...]: ...
    @property
    def bid(self) -> int | None: ...
    @property
    def won(self) -> int: ...


class Judgement(Protocol):
    """What the service reads of ``hard``'s judgement (``bot.ai.review.Assessment``)."""

    @property
    def decision(self) -> Decision: ...
    @property
    def choice(self) -> Action: ...
    @property
    def cost(self) -> float: ...
    @property
    def error(self) -> float: ...
    @property
    def choice_tricks(self) -> float: ...


FindDecisions = Callable[[dict[str, Any], int], Sequence[Any]]
"""(record, seat) -> the seat's decisions. Runs outside the event loop."""
Assess = Callable[[dict[str, Any], Any, float, int, int | None], Any]
"""(record, decision, budget in seconds, seed, iterations or None) -> the judgement."""
Progress = Callable[[int, int], Awaitable[None]]
"""Told (decisions judged, decisions in all) before the first and after each one."""


@dataclass(frozen=True)
class Moment:
    """A decision where ``hard`` would have done otherwise, and what that is estimated to be
    worth (points)."""

    hand: int
    kind: str
    """"bid", "trump" or "play"."""
    trick: int
    """1-based; 0 for a bid or a trump choice."""
    trick_cards: tuple[Card, ...]
    """The cards on the trick before this one."""
    bid: int | None
    won: int
    made: Action
    better: Action
    cost: float


@dataclass(frozen=True)
class HandReview:
    hand: int
    cards: tuple[Card, ...]
    """The person's cards as dealt."""
    trump: str | None
    """The trump suit's letter, or None for no trumps."""
    bid: int | None
    taken: int
    points: int | None
    hard_bid: int | None
    """None when the person had no choice of bid."""
    hard_tricks: float | None
    """The tricks ``hard`` expects to take with its bid."""
    moments: tuple[Moment, ...]
    """This hand's decisions ``hard`` would have made otherwise (worth at least `MIN_COST`),
    in order of play."""


@dataclass(frozen=True)
class Review:
    table_id: int
    name: str
    decisions: int
    agreed: int
    """Decisions where ``hard`` chose the same."""
    clearly_worse: int
    """Decisions where ``hard``'s choice was clearly better (the moments shown)."""
    hands: tuple[HandReview, ...]
    costliest: tuple[Moment, ...]
    """Up to `COSTLIEST` moments, the costliest first."""
    total_cost: float
    """What every moment shown is estimated to be worth together."""
    not_theirs: int
    """The seat's decisions a computer made for the person (a missed turn, or while they were
    away): left out."""


class ReviewService:
    """``/ohhell review``: one review a person at a time, each decision judged in a worker."""

    def __init__(
        self,
        tables: Tables,
        results: Results,
        leases: Leases,
        *,
        find: FindDecisions,
        assess: Assess,
        run_blocking: Callable[..., Awaitable[Any]] | None = None,
        budget_s: float = DEFAULTS["review_budget_s"].default,
        iterations: int | None = DEFAULTS["review_iterations"].default,
    ) -> None:
        self._tables = tables
        self._results = results
        self._leases = leases
        self._find = find
        self._assess = assess
        self._run_blocking = run_blocking or run_in_thread
        self.budget_s = budget_s
        self.iterations = iterations
        self._running: set[int] = set()
        self._holders = (f"{uuid.uuid4().hex[:12]}:{n}" for n in itertools.count())
        """A name for each review this process runs, for its lease."""

    def running(self) -> set[int]:
        """The people with a review under way."""
        return set(self._running)

    async def review(
        self,
        guild_id: int,
        user_id: int,
        game: int | None = None,
        progress: Progress | None = None,
    ) -> Review:
        """Review ``user_id``'s decisions in game ``game`` of this server (by default their last
        finished game here). Refusals: no such game here, not finished, not a player in it,
        a review of theirs already running."""
        if game is None:
            game = await self._results.last_game_of(guild_id, user_id)
            if game is None:
                raise Refused(ReviewNoGames())
        holder = next(self._holders)
        if not await self._leases.take_lease("review", user_id, holder, LEASE):
            raise Refused(ReviewRunning())
        self._running.add(user_id)
        try:
            return await self._review(guild_id, user_id, game, progress, holder)
        finally:
            self._running.discard(user_id)
            await self._leases.end_lease("review", user_id, holder)

    async def _review(
        self,
        guild_id: int,
        user_id: int,
        table_id: int,
        progress: Progress | None,
        holder: str,
    ) -> Review:
        try:
            row: TableRow | None = await self._tables.load(table_id)
        except KeyError:
            row = None
        if row is None or row.guild_id != guild_id:
            raise Refused(ReviewNoGame(game=table_id))
        document = load_document(row)
        if row.status is not TableStatus.FINISHED or document.game is None:
            raise Refused(ReviewNotFinished(game=table_id, status=row.status))
        seat = document.seat_of(user_id)
        if seat is None:
            raise Refused(ReviewNotPlayer(game=table_id))
        played = decode_game(row, document)  # a game that does not load: CorruptRow
        record = record_from_game(played)
        everything = list(await self._run_blocking(self._find, record, seat))
        theirs = _made_by(await self._tables.events(table_id), record, user_id)
        found = [d for d in everything if theirs is None or (d.hand, d.index) in theirs]
        judged: list[Judgement] = []
        if progress is not None:
            await progress(0, len(found))
        for decision in found:
            judgement = await self._run_blocking(
                self._assess, record, decision, self.budget_s, table_id, self.iterations
            )
            judged.append(judgement)
            if not await self._leases.renew_lease("review", user_id, holder, LEASE):
                raise await self._lost(table_id, user_id)
            if progress is not None:
                await progress(len(judged), len(found))
        return _summary(table_id, played, seat, judged, len(everything) - len(found))

    async def _lost(self, table_id: int, user_id: int) -> Refused:
        """Why a review stops whose lease is gone: the person erased themselves meanwhile
        (/ohhell forget-me deletes their leases; the game no longer seats them), or the lease
        ran out and another review of theirs may hold it now."""
        try:
            seated = load_document(await self._tables.load(table_id)).seat_of(user_id)
        except KeyError:
            seated = None
        if seated is None:
            return Refused(ReviewNotPlayer(game=table_id))
        return Refused(ReviewRunning())


def _in_order(game: Game, dealt: tuple[int, ...], trump: str | None) -> tuple[Card, ...]:
    """Cards as a hand shows them: trumps first, then by suit, high to low."""
    cards = game.pack.cards
    return tuple(cards[c] for c in sorted(dealt, key=lambda c: card_order(trump, cards[c], c)))


ACTION_EVENTS = frozenset(("BidMade", "BidChanged", "TrumpChosen", "CardPlayed"))
"""The stored engine events that are a record's actions, one each, in the same order."""


def _made_by(
    events: Sequence[StoredEvent], record: dict[str, Any], user_id: int
) -> set[tuple[int, int]] | None:
    """The record's actions (hand, index) that ``user_id`` made themselves: each action's
    stored event carries who caused it (None for a computer's move, a missed turn's, or one
    made while the person was away). None when the log does not match the record (then every
    decision of the seat is reviewed)."""
    acted = [e for e in events if e.kind in ACTION_EVENTS]
    positions = [
        (number, index, action["seat"])
        for number, hand in enumerate(record["hands"], start=1)
        for index, action in enumerate(hand["actions"])
    ]
    if len(acted) != len(positions):
        return None
    mine: set[tuple[int, int]] = set()
    for event, (number, index, seat) in zip(acted, positions, strict=True):
        if event.payload.get("seat") != seat:
            return None
        if event.user_id == user_id:
            mine.add((number, index))
    return mine


def _clearly_better(j: Judgement) -> bool:
    return j.choice != j.decision.action and j.cost >= max(MIN_COST, SURE * j.error)


def _moment(j: Judgement) -> Moment:
    d = j.decision
    return Moment(
        hand=d.hand,
        kind=d.kind,
        trick=d.trick,
        trick_cards=d.trick_cards,
        bid=d.bid,
        won=d.won,
        made=d.action,
        better=j.choice,
        cost=j.cost,
    )


def _summary(
    table_id: int, game: Game, seat: int, judged: list[Judgement], not_theirs: int
) -> Review:
    shown = [_moment(j) for j in judged if _clearly_better(j)]
    hands = []
    for log in game.history():
        if seat not in log.seats:
            continue
        bids = [j for j in judged if j.decision.hand == log.number and j.decision.kind == "bid"]
        last = bids[-1] if bids else None
        hard_bid = last.choice.n if last is not None and isinstance(last.choice, Bid) else None
        trump = SUITS[log.trump] if log.trump >= 0 else None
        hands.append(
            HandReview(
                hand=log.number,
                cards=_in_order(game, log.dealt[seat], trump),
                trump=trump,
                bid=log.bids[seat] if log.bids[seat] >= 0 else None,
                taken=log.won[seat],
                points=None if log.points is None else log.points[seat],
                hard_bid=hard_bid,
                hard_tricks=None if last is None else last.choice_tricks,
                moments=tuple(m for m in shown if m.hand == log.number),
            )
        )
    costliest = sorted(shown, key=lambda m: (-m.cost, m.hand, m.trick))[:COSTLIEST]
    return Review(
        table_id=table_id,
        name=game.names[seat],
        decisions=len(judged),
        agreed=sum(1 for j in judged if j.choice == j.decision.action),
        clearly_worse=len(shown),
        hands=tuple(hands),
        costliest=tuple(costliest),
        total_cost=sum(m.cost for m in shown),
        not_theirs=not_theirs,
    )
