"""What the presenter holds in memory for one open table: the newest state it was handed and
what it last showed. A cache: the database is the truth, and all of it goes when the table
closes (see `Showing.forget`)."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any

import discord

from bot.service import DmRef, HandState, Outcome, TableView
from cogs.interaction import Interaction

HandShown = tuple[int, tuple[HandState, tuple[int, int, int | None, str], str]]
"""A hand message's number and the inputs that render it: its state, where the table is and
the language it is written in."""


@dataclass
class Shown:
    view: TableView | None = None
    """The newest table view an outcome brought (the table message renders it: no load)."""
    hands: dict[int, HandState] = field(default_factory=dict)
    """By user id: every seated person's hand state at `view`'s version, or none."""
    dm_refs: dict[int, DmRef] = field(default_factory=dict)
    turn: tuple[Any, ...] = ()
    """Whom the table waits for, and where in the game (see `watch_turn`)."""
    ping: discord.PartialMessage | None = None
    """The one turn mention in the channel, deleted once the turn passes."""
    ephemeral: dict[int, tuple[Interaction, float]] = field(default_factory=dict)
    """By user id: the interaction of a private hand reply, to edit it (for 15 minutes)."""
    last_dm: dict[int, HandShown] = field(default_factory=dict)
    """By user id: what their hand DM shows (`HandMessages.hand_shown_as`)."""
    closed_dms: set[int] = field(default_factory=set)
    """Hand DMs whose controls were taken off (a finished hand's, or one played out: the next
    hand need not close it)."""
    held_back: dict[int, int] = field(default_factory=dict)
    """By user id: people at the table's page whose hand DM was left behind the game (not
    edited, or the new hand's DM not sent) while they are there, with the hand it was left
    behind at (its earlier hand's DM is closed once)."""
    publish_lock: asyncio.Lock = field(default_factory=asyncio.Lock)

    def showing_dm(self, user_id: int, message_id: int, shows: HandShown) -> None:
        """What a hand DM shows now that an edit of it landed (caught up, if it was behind)."""
        self.last_dm[user_id] = shows
        self.held_back.pop(user_id, None)
        if shows[1][0].played_out:
            self.closed_dms.add(message_id)
        else:
            self.closed_dms.discard(message_id)

    def remember(self, outcome: Outcome) -> None:
        """Take a committed change's views, never letting an older one replace a newer."""
        table = outcome.table
        if self.view is not None and self.view.version > table.version:
            return
        held = self.view.version if self.view is not None else None
        self.view = table
        self.dm_refs = dict(outcome.dm_refs)
        # Hand states are kept only as a whole set of one version; an outcome without them
        # leaves none (the next look loads them). A bookkeeping save keeps those held only
        # when they are of the version it was made on: another process may have moved the
        # game on in between.
        if outcome.same_game_as is None:
            self.hands = dict(outcome.every_hand or {})
        elif outcome.same_game_as != held:
            self.hands = {}
