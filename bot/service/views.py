"""What the service hands the Discord layer to show: plain values, no discord types."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from bot.engine import Card, Phase, Settings, TrickView
from bot.service.answers import Answer
from bot.service.document import ClosedReason, DmRef, Place, RulesSource
from bot.service.notices import Notice
from bot.service.refusals import Refusal
from bot.storage import TableStatus

Reason = Refusal | Answer
"""Why something was refused, or what was done (cogs/render words it)."""


@dataclass(frozen=True)
class SeatView:
    name: str
    user_id: int | None
    level: str | None
    left: bool = False
    """The person is away from the game; a computer plays the seat."""
    away: str | None = None
    """Why: "left", "timeout" or "kicked"."""
    pending: bool = False
    """A rematch seat its person has not confirmed yet."""


@dataclass(frozen=True)
class BidOption:
    n: int
    allowed: bool
    reason: Reason | None = None
    """Why a bid is not allowed (the dealer's hook), shown beside the disabled button."""


@dataclass(frozen=True)
class CardOption:
    card: Card
    card_id: int
    """The card's id in the pack: what a play button carries."""
    allowed: bool


@dataclass(frozen=True)
class HandState:
    """Everything one player's private hand message shows. Two equal states render the same,
    so the Discord layer edits a DM only when this changes."""

    table_id: int
    seat: int
    hand_number: int
    phase: Phase
    cards: tuple[CardOption, ...]
    """Sorted: trumps first, then by suit and rank. Empty in a blind hand (own card unseen)."""
    blind_cards: tuple[tuple[str, Card], ...]
    """In a blind hand: the other players' cards (name, card)."""
    trump: str | None
    turned: Card | None
    trump_decided: bool
    my_turn: bool
    bid: int | None
    tricks_won: int
    bid_options: tuple[BidOption, ...]
    """On this player's turn to bid, or while they may change their bid."""
    trump_options: tuple[str, ...]
    """On this player's turn to choose trump."""
    bids_so_far: tuple[tuple[str, int], ...] | None
    """While this player may bid: the bids made so far (name, bid)."""
    on_table: tuple[tuple[str, Card], ...] | None
    """On this player's turn to play: the trick so far (name, card); empty when they lead."""
    auto_play: bool
    game_over: bool = False
    away: str | None = None
    """A computer plays this seat: why ("left", "timeout", "kicked")."""
    deadline: float | None = None
    """On this player's turn, with a turn timer: when the time runs out (epoch seconds)."""
    joker_suits: tuple[str, ...] = ()
    """On this player's turn to lead in a no-trumps hand, holding the joker: the suits it may
    be named as (the engine's rule), one of which the play must name."""
    played_out: bool = False
    """Nothing is left for this player to do this hand: every card is played, or the last
    one will be played for them (auto-play) while the others finish the last trick. The
    message needs no controls until the next hand, which comes as a new message."""


@dataclass(frozen=True)
class PublicGame:
    """What everyone at the table may see: no cards in hands, no secret bids."""

    hand_number: int
    cards_each: int
    dealer: int
    seats_in_hand: tuple[int, ...]
    phase: Phase
    to_act: tuple[int, ...]
    turned: Card | None
    trump: str | None
    trump_decided: bool
    bids: tuple[int | None, ...]
    """None where not bid yet, or while bids are secret."""
    has_bid: tuple[bool, ...]
    bid_round: int
    trick: tuple[tuple[int, Card], ...]
    tricks: tuple[TrickView, ...]
    tricks_won: tuple[int, ...]
    totals: tuple[int, ...]
    placing: tuple[int, ...] | None
    blind: bool
    lowest_wins: bool


@dataclass(frozen=True)
class TableView:
    """The public table message."""

    table_id: int
    version: int
    """The stored row's version this view shows: a newer view replaces an older one."""
    guild_id: int
    channel_id: int
    message_id: int | None
    host_id: int
    status: TableStatus
    preset: str
    seats: tuple[SeatView, ...]
    settings: Settings
    """The table's rules (its preset and the host's changes)."""
    player_range: tuple[int, int]
    game: PublicGame | None
    dms_closed: tuple[int, ...] = ()
    start_problem: Reason | None = None
    """Why Start would be refused now (in the lobby), if it would."""
    turn_timer: int = 0
    deadline: float | None = None
    """When the people waited for run out of time (epoch seconds); None: no timer running."""
    paused: bool = False
    rules_source: RulesSource | str = ""
    closed_reason: ClosedReason | str | None = None
    expires: float | None = None
    """A lobby: when it closes if nobody starts it."""
    place: Place | None = None
    """The server's and channel's names, as the table keeps them."""
    committed: float = field(default=0.0, compare=False)
    """When the row this view shows was saved (epoch seconds; 0: not known): the web pages
    carry it, so `make bench-web` measures the time from a commit to a page."""


@dataclass(frozen=True)
class Post:
    """A channel post a committed change requires: stored in the outbox with the change, and
    there until it is posted. Known by the table, the change's version and its place among the
    change's posts, which never recur: its `nonce` lets Discord show a post sent twice once."""

    table_id: int
    version: int
    index: int
    guild_id: int
    channel_id: int
    notice: Notice
    mention: tuple[int, ...] = ()
    """People the post may notify."""
    stored_at: float | None = None
    """When it was stored, for a post read back from the outbox."""

    @property
    def key(self) -> tuple[int, int, int]:
        return (self.table_id, self.version, self.index)

    @property
    def nonce(self) -> str:
        return f"{self.table_id}.{self.version}.{self.index}"


@dataclass(frozen=True)
class Outcome:
    """The result of one committed change, built in one go once it is stored."""

    table: TableView
    reply: Reason | None = None
    """A short private answer to whoever acted."""
    hands: Mapping[int, HandState] = field(default_factory=dict)
    """By user id: private hand messages whose content changed."""
    every_hand: Mapping[int, HandState] | None = None
    """By user id: every seated person's hand after the change (when the change computed
    them), so the Discord layer shows hands without loading the table again."""
    automatic: bool = False
    """An automatic move (a computer's, or a forced card) comes next."""
    same_game_as: int | None = None
    """Set when only the table's bookkeeping changed (a message id): the version it was saved
    on, whose game and hands this version keeps."""
    dm_refs: Mapping[int, DmRef] = field(default_factory=dict)
    """By user id: each person's hand DM, as stored with this change."""
    new_hand: bool = False
    """A new hand was dealt: each person gets a new hand message."""
    finished: bool = False
    posts: tuple[Post, ...] = ()
    """For the channel as new messages (hand scores, final standings, timeouts…), stored in
    the outbox with the change."""
    nudge: tuple[int, ...] = ()
    """People to remind that it is their turn (halfway through the turn timer)."""
    opened: TableView | None = None
    """A new table this change opened (a rematch): its message is to be posted."""


@dataclass(frozen=True)
class ChannelDefaults:
    """What /ohhell start uses in a channel."""

    settings: Settings
    turn_timer: int
