"""What one seat knows, in card ids, built from its ``PlayerView`` and the table's rules only.

``Table.from_view`` is the only way the levels learn about the game: the view (the engine's
picture of one seat) and the rules (public). Cards whose place the seat doesn't know form
``pool``; ``sample_hands`` deals the pool out again consistently with what was seen (hand sizes,
known voids, the dealer's turned card under "dealer's last card").
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from bot.engine import SUITS, Card, Pack, Phase, PlayerView, Rules

from .cards import JOKER_WINS, NO_TRUMPS, TRUMP_PENDING, Suits, bits, note_void, suits_for


@dataclass(slots=True)
class Table:
    view: PlayerView
    rules: Rules
    pack: Pack
    seat: int
    seats: tuple[int, ...]
    order: tuple[int, ...]
    """Seats in bidding order (dealer's left first, the dealer last)."""
    cards_each: int
    trump: int
    """0-3 clubs..spades, -1 no trumps, -2 chosen by the highest bidder after bidding."""
    suits: Suits
    blind: bool
    mine: int
    """This seat's cards (0 in a blind hand: it can't see its own card)."""
    known: list[int]
    """Per seat, cards it is known to hold (own cards; others' in a blind hand; the dealer's
    turned card when trump is the dealer's last card)."""
    played: int
    played_by: list[int]
    pool: int
    """Cards whose place is unknown: held by someone unseen, or not dealt."""
    unknown: list[int]
    """Per seat, how many of its cards are unknown to this seat."""
    voids: list[int]
    """Per seat, suits (bits 0-3) it has shown it lacks."""
    trick: list[tuple[int, int]]
    led: int
    bids: list[int]
    """-1 where unknown."""
    won: list[int]
    left: int
    """Tricks left in this hand, the current one included."""

    @classmethod
    def from_view(cls, view: PlayerView, rules: Rules) -> Table:
        pack = rules.pack
        np_ = len(view.names)
        used = 0

        def take(card: Card) -> int:
            nonlocal used
            for i in pack.ids(card):
                if not used >> i & 1:
                    used |= 1 << i
                    return i
            raise ValueError(f"{card} is seen more often than the pack holds it")

        if not view.trump_decided:
            trump = TRUMP_PENDING
        else:
            trump = SUITS.index(view.trump) if view.trump is not None else NO_TRUMPS
        suits = suits_for(pack.name, trump if trump >= 0 else NO_TRUMPS)
        eff = suits.eff
        played_by = [0] * np_
        voids = [0] * np_
        played = 0
        for tv in view.tricks:
            led = -1
            for i, (s, card) in enumerate(zip(tv.seats, tv.cards, strict=True)):
                c = take(card)
                played |= 1 << c
                played_by[s] |= 1 << c
                e = eff[c]
                if i == 0:
                    led = SUITS.index(tv.joker_suit) if e == JOKER_WINS and tv.joker_suit else e
                else:
                    note_void(voids, eff, led, s, c)
        trick: list[tuple[int, int]] = []
        led = SUITS.index(view.led) if view.led is not None else -1
        for i, (s, card) in enumerate(view.trick):
            c = take(card)
            played |= 1 << c
            played_by[s] |= 1 << c
            trick.append((s, c))
            if i > 0:
                note_void(voids, eff, led, s, c)
        seat = view.seat
        blind = view.blind
        known = [0] * np_
        mine = 0
        if not blind:
            for card in view.hand:
                mine |= 1 << take(card)
            known[seat] = mine
        else:
            for s, hand in enumerate(view.visible_hands):
                if hand is not None:
                    for card in hand:
                        known[s] |= 1 << take(card)
        seats = view.seats
        i = seats.index(view.dealer)
        order = seats[i + 1 :] + seats[: i + 1]
        n = view.cards_each
        if view.turned is not None:
            exhausted = len(seats) * n == pack.size
            if not exhausted:
                take(view.turned)
            elif rules.exhausted_trump == "dealer-last":
                d = view.dealer
                still = view.turned not in pack.cards_of(played_by[d])
                if still and not any(pack.cards[c] == view.turned for c in bits(known[d])):
                    known[d] |= 1 << take(view.turned)
        pool = pack.full_mask & ~used
        unknown = [0] * np_
        for s in seats:
            unknown[s] = view.hand_sizes[s] - known[s].bit_count()
        bids = [b if b is not None else -1 for b in view.bids]
        return cls(
            view=view,
            rules=rules,
            pack=pack,
            seat=seat,
            seats=seats,
            order=order,
            cards_each=n,
            trump=trump,
            suits=suits,
            blind=blind,
            mine=mine,
            known=known,
            played=played,
            played_by=played_by,
            pool=pool,
            unknown=unknown,
            voids=voids,
            trick=trick,
            led=led,
            bids=bids,
            won=list(view.tricks_won),
            left=n - len(view.tricks),
        )

    @property
    def playing(self) -> bool:
        return self.view.phase is Phase.PLAYING

    def sample(self, rng: random.Random) -> list[int]:
        """Every seat's hand (masks), the unseen cards dealt out again at random."""
        return sample_hands(
            rng, self.pool, self.known, self.unknown, self.voids, self.suits.eff, self.seats
        )


class NoDeal(ValueError):
    """No deal of the pool fits the hand sizes and voids (the kept hands of a partial redeal
    can leave such a pool; a real game's view never does)."""


QUICK_TRIES = 4
"""Plain random deals tried before the careful sampler."""


def sample_hands(
    rng: random.Random,
    pool: int,
    known: list[int],
    unknown: list[int],
    voids: list[int],
    eff: list[int],
    seats: tuple[int, ...],
) -> list[int]:
    """Deal ``pool`` so that seat ``s`` gets ``unknown[s]`` more cards beside ``known[s]`` and
    no card of a suit it is void in; what is left over stays undealt. Raises ``NoDeal`` when no
    such deal exists."""
    cards = bits(pool)
    need = sum(unknown[s] for s in seats)
    spare = len(cards) - need
    if spare < 0:
        raise NoDeal("fewer unseen cards than unseen places")
    if not any(voids[s] for s in seats if unknown[s]):
        rng.shuffle(cards)
        hands = list(known)
        i = 0
        for s in seats:
            for c in cards[i : i + unknown[s]]:
                hands[s] |= 1 << c
            i += unknown[s]
        return hands
    for _ in range(QUICK_TRIES):
        dealt = _quick_deal(rng, cards, known, unknown, voids, eff, seats, spare)
        if dealt is not None:
            return dealt
    return _careful_deal(rng, cards, known, unknown, voids, eff, seats, spare)


def _quick_deal(
    rng: random.Random,
    cards: list[int],
    known: list[int],
    unknown: list[int],
    voids: list[int],
    eff: list[int],
    seats: tuple[int, ...],
    spare: int,
) -> list[int] | None:
    """One random deal, card by card, each to a place that may take it; None at a dead end."""
    rng.shuffle(cards)
    # most-restricted cards first: those of suits somebody lacks
    cards.sort(key=lambda c: -sum(eff[c] < 4 and voids[s] >> eff[c] & 1 for s in seats))
    hands = list(known)
    cap = list(unknown)
    left_over = spare
    for c in cards:
        e = eff[c]
        total = left_over
        for s in seats:
            if cap[s] and (e >= 4 or not voids[s] >> e & 1):
                total += cap[s]
        if total == 0:
            return None
        r = rng.randrange(total)
        if r < left_over:
            left_over -= 1
            continue
        r -= left_over
        for s in seats:
            if cap[s] and (e >= 4 or not voids[s] >> e & 1):
                if r < cap[s]:
                    hands[s] |= 1 << c
                    cap[s] -= 1
                    break
                r -= cap[s]
    return hands


def _fits(
    counts: list[int], cap: list[int], left_over: int, voids: list[int], seats: tuple[int, ...]
) -> bool:
    """Hall's condition: every set of suits has at least as many places that take one of them
    as it has cards left (cards of no suit, e.g. the joker, go anywhere)."""
    for group in range(1, 16):
        cards = 0
        for e in range(4):
            if group >> e & 1:
                cards += counts[e]
        if not cards:
            continue
        room = left_over
        for s in seats:
            if cap[s] and group & ~voids[s]:
                room += cap[s]
        if cards > room:
            return False
    return True


def _careful_deal(
    rng: random.Random,
    cards: list[int],
    known: list[int],
    unknown: list[int],
    voids: list[int],
    eff: list[int],
    seats: tuple[int, ...],
    spare: int,
) -> list[int]:
    """A random deal (not a uniform one: each card's place is weighed by the room left) that
    never dead-ends: a card goes only where the cards after it can still all be placed
    (checked with ``_fits``)."""
    rng.shuffle(cards)
    counts = [0] * 4
    for c in cards:
        if eff[c] < 4:
            counts[eff[c]] += 1
    cap = list(unknown)
    left_over = spare
    if not _fits(counts, cap, left_over, voids, seats):
        raise NoDeal("no deal of the unseen cards fits the voids shown")
    hands = list(known)
    for c in cards:
        e = eff[c]
        if e < 4:
            counts[e] -= 1
        options: list[tuple[int, int]] = []  # (seat or -1 for undealt, weight)
        if left_over and _fits(counts, cap, left_over - 1, voids, seats):
            options.append((-1, left_over))
        for s in seats:
            if cap[s] and (e >= 4 or not voids[s] >> e & 1):
                cap[s] -= 1
                if _fits(counts, cap, left_over, voids, seats):
                    options.append((s, cap[s] + 1))
                cap[s] += 1
        place = _weighted(rng, options)
        if place < 0:
            left_over -= 1
        else:
            hands[place] |= 1 << c
            cap[place] -= 1
    return hands


def _weighted(rng: random.Random, options: list[tuple[int, int]]) -> int:
    r = rng.randrange(sum(w for _, w in options))
    for place, w in options:
        if r < w:
            return place
        r -= w
    raise AssertionError("unreachable: r is below the total weight")


@dataclass(slots=True)
class PlaySituation:
    """What ``normal``'s card play reads: one seat's knowledge at its turn to play, as card
    masks. Built from a ``Table`` by ``normal`` and from a sampled game by ``hard``'s
    play-outs, which model the other players as playing like ``normal``."""

    pack: Pack
    suits: Suits
    scoring: str
    cards_each: int
    players: int
    mine: int
    out: int
    """Cards that may be in another player's hand."""
    share: float
    """The fraction of ``out`` the others hold (the rest is undealt)."""
    voids: list[int]
    """Per seat, the suits (bits 0-3) it has shown it lacks."""
    trick: list[int]
    """Cards played to this trick so far."""
    led: int
    after: list[int]
    """Seats still to play to this trick after this one."""
    opponents: list[int]
    bid: int
    won: int
    left: int
    """Tricks left in this hand, this one included."""
    leads_first: bool
    """The seat led the hand's first trick (its cards are valued as the leader's)."""
