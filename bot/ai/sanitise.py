"""The boundary: from a real game, a copy that holds only what one seat may know.

``public_game`` rebuilds the game from a record of public facts (the finished hands, every card
of which was played; this hand's visible bids, trump choice and plays) with the cards the seat
can't see dealt again at random (consistent with its view) and a fresh random seed, so neither
hidden cards, secret bids nor future deals can be read from it. ``Determiniser`` then deals the
unseen cards of that copy again for each simulation, with the engine's ``with_hands``.
"""

from __future__ import annotations

import random
from typing import Any

from bot.engine import Game, Phase
from bot.engine.records import RECORD_FORMAT, game_from_record, record_from_game

from .cards import bits
from .knowledge import Table, sample_hands


def public_record(game: Game, table: Table, rng: random.Random) -> dict[str, Any]:
    """A record of ``game`` as ``table.seat`` may know it, unseen cards dealt at random."""
    full = record_from_game(game)
    past = full["hands"][:-1]
    for h in past:  # all of a finished hand's cards were played: public, but drop deal order
        h["cards"] = [sorted(c) for c in h["cards"]]
    view = table.view
    pack = table.pack
    hands = table.sample(rng)
    cards: list[list[str]] = []
    for s in range(len(view.names)):
        if s in table.seats:
            cards.append([str(pack.cards[c]) for c in bits(table.played_by[s] | hands[s])])
        else:
            cards.append([])
    actions: list[dict[str, Any]] = []
    bidding = table.rules.bidding
    rnd = view.bid_round
    if bidding in ("secret", "knock"):
        if rnd > 1:  # earlier knocking rounds were revealed to everyone
            log = game.history()[-1].bid_log[: (rnd - 1) * len(table.seats)]
            actions += [{"seat": s, "bid": b} for s, b in log]
        if view.phase is Phase.BIDDING:
            if view.bids[table.seat] is not None:
                actions.append({"seat": table.seat, "bid": view.bids[table.seat]})
        else:
            actions += [{"seat": s, "bid": view.bids[s]} for s in table.order]
    else:
        actions += [
            {"seat": s, "bid": view.bids[s]} for s in table.order if view.bids[s] is not None
        ]
    if table.rules.trump == "bidder" and view.trump_decided and view.phase is not Phase.BIDDING:
        best, chooser = -1, -1
        for s in table.order:
            b = view.bids[s]
            if b is not None and b > best:
                best, chooser = b, s
        actions.append({"seat": chooser, "trump": view.trump})
    plays = [(tv.seats, tv.cards, tv.joker_suit) for tv in view.tricks]
    if view.trick:
        first = view.trick[0][1]
        named = view.led if first.is_joker and view.trump is None else None
        plays.append((tuple(s for s, _ in view.trick), tuple(c for _, c in view.trick), named))
    for seats, played, joker_suit in plays:
        for i, (s, c) in enumerate(zip(seats, played, strict=True)):
            act: dict[str, Any] = {"seat": s, "play": str(c)}
            if i == 0 and joker_suit is not None:
                act["suit"] = joker_suit
            actions.append(act)
    current = {
        "dealer": view.dealer,
        "cards": cards,
        "turned": str(view.turned) if view.turned is not None else None,
        "actions": actions,
    }
    return {
        "format": RECORD_FORMAT,
        "rules": full["rules"],
        "players": full["players"],
        "hands": [*past, current],
    }


def public_game(game: Game, table: Table, rng: random.Random) -> Game:
    """The sanitised copy: public facts only, unseen cards and future deals random."""
    return game_from_record(public_record(game, table, rng), seed=rng.getrandbits(62))


class Determiniser:
    """Deals of the sanitised game consistent with what the seat has seen."""

    def __init__(self, public: Game, table: Table) -> None:
        self.public = public
        self.table = table
        seat = table.seat
        known = [0] * public.players
        if table.blind:
            for s in table.seats:
                if s != seat:
                    known[s] = public.hand_mask(s)
        else:
            known[seat] = public.hand_mask(seat)
        pool = public.unseen_mask(seat)
        # a card outside the pool that the seat doesn't know the place of is pinned where the
        # view says it is (the dealer's turned card under "dealer's last card")
        for s in table.seats:
            extra = public.hand_mask(s) & ~pool & ~known[s]
            known[s] |= extra
        self.known = known
        self.pool = pool
        self.unknown = [
            public.hand_mask(s).bit_count() - known[s].bit_count() for s in range(public.players)
        ]

    def sample(self, rng: random.Random) -> Game:
        """A deal of the unseen cards. Never ``NoDeal``: the real deal fits what the seat saw."""
        t = self.table
        hands = sample_hands(
            rng, self.pool, self.known, self.unknown, t.voids, t.suits.eff, t.seats
        )
        return self.public.with_hands(hands)
