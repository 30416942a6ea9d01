"""What the others' bids say about their cards: ``hard``'s model of how another player bids.

Each seat is modelled as bidding the way ``normal`` does (``normal.bid_from_probs``) from the
cards it was dealt and the bids it had seen. A sampled deal in which a seat's modelled bid
differs from the bid it made is less likely; ``BidModel.weight`` says how much, and
``hard`` keeps a sample with that chance (rejection sampling), so its samples follow what the
bids tell about the hidden hands.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from bot.engine import Game, Phase

from . import normal
from .cards import NO_TRUMPS, TRUMP_PENDING, bits, note_void, one_of_each_face, suits_for
from .common import seats_after, successors
from .evaluate import card_probs
from .knowledge import NoDeal, PlaySituation, Table, sample_hands
from .params import HardParams
from .sanitise import Determiniser


class BidModel:
    """The bids of one hand as a model of the hidden hands that made them."""

    def __init__(self, table: Table, params: HardParams) -> None:
        self.table = table
        self.miss_one = params.miss_one
        self.miss_more = params.miss_more
        self.redeal_rounds = params.redeal_rounds
        rules = table.rules
        pack = table.pack
        view = table.view
        self.n = table.cards_each
        self.k = len(table.seats)
        self.order = table.order
        self.scoring = rules.scoring
        self.hook = rules.bidding == "hook"
        self.secret = rules.bidding in ("secret", "knock")
        first = view.dealer if rules.first_lead == "dealer" else table.order[0]
        self.first = first
        self.pending = table.trump == TRUMP_PENDING or (
            rules.trump == "bidder" and view.trump_decided
        )
        trump = table.trump
        self.trump_suits = [suits_for(pack.name, s) for s in range(4)]
        self.suits = suits_for(pack.name, trump if trump >= 0 else NO_TRUMPS)
        base = pack.full_mask
        if view.turned is not None and self.k * self.n != pack.size:
            for i in pack.ids(view.turned):
                base &= ~(1 << i)
                break
        self.base = base
        self.usable = not table.blind and rules.bidding != "knock" and self.n > 1
        # seats whose real bid this seat has seen, with the bids each of them had seen
        self.observed: list[tuple[int, list[int]]] = []
        if self.usable:
            bids = table.bids
            for i, q in enumerate(self.order):
                if q == table.seat or bids[q] < 0:
                    continue
                seen = [-1] * len(bids)
                if not self.secret:
                    for p in self.order[:i]:
                        seen[p] = bids[p]
                self.observed.append((q, seen))

    def probs(self, seat: int, hand: int) -> list[float]:
        """``seat``'s chances of a trick per card, as it saw them when it bid."""
        out = self.base & ~hand
        pool = out.bit_count()
        share = (self.k - 1) * self.n / pool if pool else 0.0
        pack = self.table.pack
        lead = seat == self.first
        if self.pending:
            best: list[float] = []
            for suits in self.trump_suits:
                p = card_probs(hand, suits, pack, out, share, self.k, self.n, lead)
                if sum(p) > sum(best):
                    best = p
            return [p * 0.9 for p in best]
        return card_probs(hand, self.suits, pack, out, share, self.k, self.n, lead)

    def bid(self, seat: int, probs: list[float], seen: list[int]) -> int:
        """The bid ``seat`` makes with these chances, having seen the bids ``seen``."""
        n = self.n
        legal = list(range(n + 1))
        if self.hook and seat == self.order[-1]:
            rest = n - sum(seen[s] for s in self.order[:-1])
            if 0 <= rest <= n:
                legal.remove(rest)
        others = [b for s, b in enumerate(seen) if s != seat and s in self.table.seats]
        return normal.bid_from_probs(probs, others, legal, self.scoring, n, self.k)

    def weight(self, g: Game) -> float:
        """How well the sampled deal ``g`` explains the bids seen (1 = every seat's modelled
        bid is its real bid)."""
        w = 1.0
        played_by = self.table.played_by
        bids = self.table.bids
        for q, seen in self.observed:
            hand = g.hand_mask(q) | played_by[q]
            d = abs(self.bid(q, self.probs(q, hand), seen) - bids[q])
            if d:
                w *= self.miss_one if d == 1 else self.miss_more
        return w


@dataclass(frozen=True, slots=True)
class _PastPlay:
    """A play seen this hand, with what the player knew when it made it."""

    card: int
    later: int
    """Cards the seat played from this one on (this one included): with its current cards,
    the hand it held then."""
    situation: PlaySituation
    """Everything but ``mine``, ``out`` and ``share``, which depend on the hand it held: a
    scratch object that ``PlayModel.kept`` fills in for each hand it checks."""
    live: int
    """Cards not yet played: the hands and the undealt cards (not a turned card left on the
    table)."""
    in_hands: int
    """Cards in all the seats' hands then."""


class PlayModel:
    """The plays of this hand as a model of the hidden hands that made them: each other seat
    is modelled as playing the way ``normal`` does (``normal.choose_card``)."""

    def __init__(self, table: Table, params: HardParams) -> None:
        self.play_miss = params.play_miss
        rules = table.rules
        pack = table.pack
        view = table.view
        suits = table.suits
        self.face = pack.face_of
        self.masks = suits.masks
        self.plays: dict[int, list[_PastPlay]] = {}
        self.tally: dict[int, list[int]] = {}
        """Per seat: [samples that kept a hand for it, of those the hands that remade every
        play]."""
        joker_nt = pack.joker >= 0 and suits.trump < 0
        if table.blind or not table.playing or joker_nt:
            return
        seats = table.seats
        n = table.cards_each
        k = len(seats)
        nxt = successors(seats)
        dealer = view.dealer
        first = dealer if rules.first_lead == "dealer" else nxt[dealer]
        live = table.pool | table.played | table.mine
        for q in seats:
            live |= table.known[q]
        in_hands = n * k
        won = [0] * len(view.names)
        voids = [0] * len(view.names)
        before = [0] * len(view.names)  # per seat, the cards it played before this play
        used = 0
        tricks = [(tv.seats, tv.cards, tv.winner, tv.value) for tv in view.tricks]
        if view.trick:
            tricks.append(
                (tuple(q for q, _ in view.trick), tuple(c for _, c in view.trick), None, 0)
            )
        for t, (trick_seats, cards, winner, value) in enumerate(tricks):
            ids: list[int] = []
            led = -1
            for i, (q, card) in enumerate(zip(trick_seats, cards, strict=True)):
                c = next(c for c in pack.ids(card) if not used >> c & 1)
                used |= 1 << c
                if i == 0:
                    led = suits.eff[c]
                if q != table.seat:
                    sit = PlaySituation(
                        pack=pack,
                        suits=suits,
                        scoring=rules.scoring,
                        cards_each=n,
                        players=k,
                        mine=0,
                        out=0,
                        share=0.0,
                        voids=list(voids),
                        trick=list(ids),
                        led=led if i else -1,
                        after=seats_after(nxt, q, k - i - 1),
                        opponents=[o for o in seats if o != q],
                        bid=max(table.bids[q], 0),
                        won=won[q],
                        left=n - t,
                        leads_first=q == first,
                    )
                    later = table.played_by[q] & ~before[q]
                    self.plays.setdefault(q, []).append(
                        _PastPlay(card=c, later=later, situation=sit, live=live, in_hands=in_hands)
                    )
                if i > 0:
                    note_void(voids, suits.eff, led, q, c)
                before[q] |= 1 << c
                ids = [*ids, c]
                live &= ~(1 << c)
                in_hands -= 1
            if winner is not None:  # None: in progress, or every card cancelled
                won[winner] += value

    def kept(self, seat: int, hand: int, rng: random.Random) -> bool:
        """Keep ``seat``'s sampled ``hand``? Each play the model would not remake with it
        keeps it only with chance ``play_miss``."""
        return self.misses(seat, hand, rng) is not None

    def remade_all(self, seat: int) -> int:
        """Samples whose hand for ``seat`` remade every play it made (``consistent_sample``
        counts them): a player that plays as ``normal`` does gets some; one that does not,
        after a few plays, none."""
        return self.tally.get(seat, (0, 0))[1]

    def misses(self, seat: int, hand: int, rng: random.Random) -> int | None:
        """``kept``, counting: None if ``hand`` is dropped, else how many plays the model did
        not remake with it (each forgiven with chance ``play_miss``)."""
        face = self.face
        plays = self.plays.get(seat, [])
        missed = 0
        for i, play in enumerate(plays):
            mine = hand | play.later
            p = play.situation
            legal = mine
            if p.trick:
                follow = mine & self.masks[p.led] if 0 <= p.led < 4 else 0
                if follow:
                    legal = follow
            ids = one_of_each_face(legal, face)
            if len(ids) < 2:
                continue
            out = play.live & ~mine
            pool = out.bit_count()
            p.mine = mine
            p.out = out
            p.share = (play.in_hands - mine.bit_count()) / pool if pool else 0.0
            c, _ = normal.choose_card(p, ids)
            if face[c] != face[play.card]:
                if rng.random() >= self.play_miss:
                    # Check this play first next time: the hand is kept with the same chance in
                    # any order, and a play that drops hands tends to drop the next ones too.
                    if i:
                        plays.insert(0, plays.pop(i))
                    return None
                missed += 1
        return missed


def consistent_sample(
    det: Determiniser, model: BidModel, rng: random.Random, plays: PlayModel | None = None
) -> Game:
    """A deal of the unseen cards that follows the bids (and, with ``plays``, the plays of
    this hand): each seat whose modelled bid misses its real one, or whose modelled plays miss
    its real ones, keeps its sampled hand only with the weight's chance; the others' hands are
    dealt again (from what the kept hands leave) until all are kept or the model's
    ``redeal_rounds`` run out."""
    t = det.table
    checked = {q for q, _ in model.observed} | (set(plays.plays) if plays is not None else set())
    if not checked:
        return det.sample(rng)
    hands = sample_hands(rng, det.pool, det.known, det.unknown, t.voids, t.suits.eff, t.seats)
    bids = t.bids
    played_by = t.played_by
    seen_by = dict(model.observed)
    # a seat whose every card is known has nothing to deal again
    to_check = [q for q in t.seats if q in checked and det.unknown[q]]
    # Every hand is checked again each round, the kept ones too: a stricter filter than the
    # weights alone (measured better than checking only the hands dealt again, seed 30). A
    # kept hand's misses are remembered (``checked_before``), so checking it again costs only
    # the draws: the same chances, without asking the models again.
    checked_before: dict[tuple[int, int], tuple[int, int]] = {}
    miss_one, miss_more = model.miss_one, model.miss_more
    play_miss = plays.play_miss if plays is not None else 0.0
    for _ in range(model.redeal_rounds):
        redeal: list[int] = []
        for q in to_check:
            hand = hands[q]
            before = checked_before.get((q, hand))
            if before is not None:
                d, missed = before
                bid_kept = not d or rng.random() < (miss_one if d == 1 else miss_more)
                if not bid_kept or any(rng.random() >= play_miss for _ in range(missed)):
                    redeal.append(q)
                continue
            d = 0
            if q in seen_by:
                seen = seen_by[q]
                d = abs(model.bid(q, model.probs(q, hand | played_by[q]), seen) - bids[q])
                if d and rng.random() >= (miss_one if d == 1 else miss_more):
                    redeal.append(q)
                    continue
            got = plays.misses(q, hand, rng) if plays is not None else 0
            if got is None:
                redeal.append(q)
            else:
                checked_before[q, hand] = (d, got)
        if not redeal:
            break
        known = list(hands)
        unknown = [0] * len(hands)
        pool = det.pool
        for q in t.seats:
            if q in redeal:
                known[q] = det.known[q]
                unknown[q] = det.unknown[q]
            else:
                pool &= ~hands[q]
        try:
            hands = sample_hands(rng, pool, known, unknown, t.voids, t.suits.eff, t.seats)
        except NoDeal:  # the kept hands took cards a void-bound seat needs: start again
            hands = sample_hands(
                rng, det.pool, det.known, det.unknown, t.voids, t.suits.eff, t.seats
            )
    if plays is not None:
        for q in to_check:
            kept = checked_before.get((q, hands[q]))
            if kept is not None and q in plays.plays:
                tally = plays.tally.setdefault(q, [0, 0])
                tally[0] += 1
                tally[1] += not kept[1]
    return det.public.with_hands(hands)


def unlike_normal(table: Table, det: Determiniser, rng: random.Random, params: HardParams) -> bool:
    """Does another seat that has made ``params.adapt_plays`` plays this hand play unlike
    ``normal``? Yes if none of ``params.adapt_samples`` samples that follow the bids and plays
    found a hand for it with which ``normal`` remakes every play it made (4 players, 10 cards,
    seed 990: true at 0-17% of the decisions of tricks 2-9 against three ``normal``, at 75-100%
    from trick 3 on against ISMCTS-1000)."""
    plays = PlayModel(table, params)
    seats = [q for q, ps in plays.plays.items() if len(ps) >= params.adapt_plays]
    if not seats:
        return False
    model = BidModel(table, params)
    for _ in range(params.adapt_samples):
        consistent_sample(det, model, rng, plays)
    return any(not plays.remade_all(q) for q in seats)


def bid_the_rest(
    g: Game, me: int, my_bid: int, model: BidModel, probs: dict[int, list[float]]
) -> None:
    """The rest of the bidding in a sample, each later bidder bidding as ``normal`` would
    (``BidModel.bid``) with its sampled hand (``probs``) and the bids it has seen, this seat's
    candidate ``my_bid`` among them."""
    secret = model.secret
    while g.phase is Phase.BIDDING:
        s = g.turn
        m = g.legal_mask(s)
        if s == me:
            want = my_bid
        else:
            seen = [-1] * g.players if secret else [b if b is not None else -1 for b in g.bids]
            want = model.bid(s, probs[s], seen)
        g.apply_fast(s, min(bits(m), key=lambda b: (abs(b - want), b)))
