"""The ``normal`` level: hand evaluation for the bid, card counting and inferred voids in play,
everything aimed at taking exactly the tricks bid (or whatever the scoring pays best)."""

from __future__ import annotations

import random

from bot.engine import SUITS, Action, Bid, ChooseTrump, Phase

from .cards import JOKER_WINS, TRUMP_PENDING, Suits, bits, suits_for
from .common import (
    first_action,
    highest,
    legal_bids,
    legal_cards,
    lowest,
    others_out,
    to_play_after,
    unknown_share,
    wants_trick,
)
from .evaluate import bid_values, card_probs, shift_probs, trick_distribution
from .knowledge import PlaySituation, Table
from .learned import LEARNED_FOR, adjust_bid, learned_card

_SURPLUS_P = 0.5
"""Cards at least this likely to win count as sure power when deciding to duck."""
_SURPLUS_MARGIN = 1.0
LIFT = 0.08
"""Calibration: the card estimates run a little low against real play."""
SHED = 1
"""Short of the bid and unable to win the trick: lose the highest card outside the best
``need + SHED`` (``shed``), not the lowest, so cards it will not need are gone before they can
take a trick it does not want (0 and 2 measured no better)."""
_CONTROL = 0.5
"""Chance that a player one trick off its bid steers onto it (for valuing bids)."""


def decide(table: Table, rng: random.Random) -> Action:
    view = table.view
    if len(view.legal_actions) == 1:
        return view.legal_actions[0]
    if view.phase is Phase.BIDDING:
        return Bid(choose_bid(table))
    if view.phase is Phase.TRUMP_CHOICE:
        return ChooseTrump(SUITS[choose_trump(table)])
    return play(table)


def leads_first(table: Table) -> bool:
    lead = table.view.dealer if table.rules.first_lead == "dealer" else table.order[0]
    return lead == table.seat


def blind_win_chance(table: Table, suits: Suits) -> float:
    """One-card blind hand: the chance that the seat's unseen card takes the trick, against
    the others' cards it can see."""
    pool = [c for c in range(table.pack.size) if table.pool >> c & 1]
    if not pool:
        return 0.0
    lead = table.view.dealer if table.rules.first_lead == "dealer" else table.order[0]
    i = table.order.index(lead)
    seq = table.order[i:] + table.order[:i]
    others = {s: table.known[s].bit_length() - 1 for s in table.seats if s != table.seat}
    wins = 0
    for c in pool:
        trick = [c if s == table.seat else others[s] for s in seq]
        if seq[suits.winner_index(trick)] == table.seat:
            wins += 1
    return wins / len(pool)


def hand_probs(table: Table, suits: Suits) -> list[float]:
    if table.blind:
        return [blind_win_chance(table, suits)]
    return card_probs(
        table.mine,
        suits,
        table.pack,
        others_out(table),
        unknown_share(table),
        len(table.seats),
        table.cards_each,
        leads_first(table),
    )


def best_trump_suits(table: Table) -> Suits:
    """With trump chosen by the highest bidder: value the hand with its best suit as trump."""
    best = None
    best_e = -1.0
    for s in range(4):
        suits = suits_for(table.pack.name, s)
        e = sum(hand_probs(table, suits))
        if e > best_e:
            best, best_e = suits, e
    assert best is not None
    return best


def choose_bid(table: Table) -> int:
    return bid_from_probs(*bid_inputs(table))


BidInputs = tuple[list[float], list[int], list[int], str, int, int]
"""What a bid is made from: the chance of a trick per card, the other players' bids (-1 where
not made or not seen), the legal bids, the scoring, the cards each and the players."""


def bid_inputs(table: Table) -> BidInputs:
    """What this seat's bid is made from (``bid_from_probs``'s arguments)."""
    if table.trump == TRUMP_PENDING:
        probs = [p * 0.9 for p in hand_probs(table, best_trump_suits(table))]
    else:
        probs = hand_probs(table, table.suits)
    others = [table.bids[s] for s in table.seats if s != table.seat]
    return (
        probs,
        others,
        legal_bids(table),
        table.rules.scoring,
        table.cards_each,
        len(table.seats),
    )


def bid_from_probs(
    probs: list[float], others: list[int], legal: list[int], scoring: str, n: int, k: int
) -> int:
    """The bid for cards with these chances of a trick, ``others`` the other players' bids
    (-1 where not made or not seen): the model's bid (``model_bid``), moved by the learned
    correction (``adjust_bid``) at the table it was learned for. Also ``hard``'s model of how
    another player bids."""
    bid = model_bid(probs, others, legal, scoring, n, k)
    if (n, k, scoring) == LEARNED_FOR:
        return adjust_bid(probs, others, legal, bid, n, k)
    return bid


def model_bid(
    probs: list[float], others: list[int], legal: list[int], scoring: str, n: int, k: int
) -> int:
    """The bid with the best expected score when the trick count is Poisson-binomial over the
    chances, shifted for the bids the table has made, and lifted by ``LIFT``."""
    known = sum(b for b in others if b >= 0)
    unknown = sum(1 for b in others if b < 0)
    excess = known + unknown * n / k + sum(probs) - n
    probs = shift_probs(probs, excess)
    probs = [min(1.0, p + (1 - p) * LIFT) for p in probs]
    values = bid_values(trick_distribution(probs), legal, scoring, n, k, _CONTROL)
    return max(legal, key=lambda b: (values[b], -b))


def choose_trump(table: Table) -> int:
    bid = table.bids[table.seat]
    scored = []
    for s in range(4):
        e = sum(hand_probs(table, suits_for(table.pack.name, s)))
        scored.append((abs(e - bid), -e, s))
    return min(scored)[2]


def situation(table: Table) -> PlaySituation:
    return PlaySituation(
        pack=table.pack,
        suits=table.suits,
        scoring=table.rules.scoring,
        cards_each=table.cards_each,
        players=len(table.seats),
        mine=table.mine,
        out=others_out(table),
        share=unknown_share(table),
        voids=table.voids,
        trick=[c for _, c in table.trick],
        led=table.led,
        after=to_play_after(table),
        opponents=[p for p in table.seats if p != table.seat],
        bid=table.bids[table.seat],
        won=table.won[table.seat],
        left=table.left,
        leads_first=leads_first(table),
    )


def joker_suit(mine: int, suits: Suits, allowed: list[int], want: bool) -> int:
    """The suit to name for a joker led in no trumps: the longest held when tricks are
    wanted, the shortest otherwise."""

    def length(suit: int) -> int:
        return (mine & suits.masks[suit]).bit_count()

    return max(allowed, key=length) if want else min(allowed, key=length)


def play(table: Table) -> Action:
    cards = legal_cards(table)
    if not cards:
        return first_action(table)
    c, want = choose_card(situation(table), list(cards))
    acts = cards[c]
    if len(acts) > 1:
        named = {SUITS.index(a.suit): a for a in acts if a.suit is not None}
        return named[joker_suit(table.mine, table.suits, list(named), want)]
    return acts[0]


def choose_card(p: PlaySituation, ids: list[int]) -> tuple[int, bool]:
    """The card to play among ``ids`` (legal, one copy each), and whether the seat wants the
    trick: the rule-of-thumb card (``rule_card``), or the learned choice (``learned_card``) at
    the table it was learned for."""
    c, want, probs = rule_card(p, ids)
    if len(ids) > 1 and (p.cards_each, p.players, p.scoring) == LEARNED_FOR:
        c = learned_card(p, ids, c, want, probs)
    return c, want


def rule_card(p: PlaySituation, ids: list[int]) -> tuple[int, bool, list[float] | None]:
    """The rule-of-thumb card among ``ids``, whether the seat wants the trick, and the hand's
    ``card_probs`` if they were worked out."""
    want = wants_trick(p.scoring, p.bid, p.won, p.left, p.cards_each, p.players)
    need = p.bid - p.won
    keep = 0
    probs: list[float] | None = None
    if want and 0 < need < p.left:
        # more sure power than tricks still wanted: duck now, keep the winners for later
        probs = card_probs(
            p.mine, p.suits, p.pack, p.out, p.share, p.players, p.cards_each, p.leads_first
        )
        strong = [(c, q) for c, q in zip(bits(p.mine), probs, strict=True) if q >= _SURPLUS_P]
        if sum(q for _, q in strong) >= need + _SURPLUS_MARGIN:
            want = False
            keep = sum(1 << c for c, _ in strong)
    play_to = follow if p.trick else lead
    return play_to(p, ids, want, keep), want, probs


def _ruff_risk(p: PlaySituation, c: int, suit: int, after: list[int]) -> bool:
    s = p.suits
    out = p.out
    if s.eff[c] == JOKER_WINS:
        return False
    trump = s.trump
    if trump < 0:
        j = p.pack.joker
        return j >= 0 and bool(out >> j & 1)
    if s.eff[c] == trump or not s.masks[trump] & out:
        return False
    if any(p.voids[q] >> suit & 1 for q in after):
        return True
    return (s.masks[suit] & out).bit_count() < 2 * len(after)


def follow(p: PlaySituation, ids: list[int], want: bool, keep: int = 0) -> int:
    """The card to play to a trick led by another seat; ``keep``: winners to save."""
    s = p.suits
    st = s.strength
    trick = p.trick
    best = trick[s.winner_index(trick)]
    winners = [c for c in ids if s.beats(c, best)]
    losers = [c for c in ids if c not in winners]
    after = p.after

    def holds(c: int) -> bool:
        if not after:
            return True
        if s.above[c] & p.out:
            return False
        return not _ruff_risk(p, c, p.led, after)

    if want:
        if winners:
            sure = [c for c in winners if holds(c)]
            if sure:
                return lowest(sure, st)
            return highest(winners, st)
        return shed(p, ids)
    if losers:
        spare = [c for c in losers if not keep >> c & 1]
        return highest(spare, st) if spare else lowest(losers, st)
    low = lowest(ids, st)
    return highest(ids, st) if holds(low) else low


def shed(p: PlaySituation, ids: list[int]) -> int:
    """A card to lose while still short of the bid: the highest one outside the hand's best
    ``need + SHED`` cards (those likeliest to take a trick), so that cards it will not need do
    not take tricks it does not want later; the lowest card if every card is needed."""
    st = p.suits.strength
    need = p.bid - p.won
    probs = card_probs(
        p.mine, p.suits, p.pack, p.out, p.share, p.players, p.cards_each, p.leads_first
    )
    ranked = sorted(zip(probs, bits(p.mine), strict=True), key=lambda x: (-x[0], -st[x[1]]))
    needed = {c for _, c in ranked[: max(0, need) + SHED]}
    spare = [c for c in ids if c not in needed]
    return highest(spare, st) if spare else lowest(ids, st)


def lead(p: PlaySituation, ids: list[int], want: bool, keep: int = 0) -> int:
    s = p.suits
    st = s.strength
    trump = s.trump
    opponents = p.opponents
    out = p.out

    def sure(c: int) -> bool:
        if s.above[c] & out:
            return False
        e = s.eff[c]
        return e == JOKER_WINS or not _ruff_risk(p, c, e, opponents)

    if want:
        winners = [c for c in ids if sure(c)]
        if winners:
            side = [c for c in winners if s.eff[c] != trump]
            return lowest(side or winners, st)
        side = [c for c in ids if s.eff[c] != trump and s.eff[c] != JOKER_WINS]
        if side:
            lengths = {e: sum(1 for c in side if s.eff[c] == e) for e in {s.eff[c] for c in side}}
            # no sure winner: lead the top of the shortest side suit, towards a void to ruff
            suit = min(lengths, key=lambda e: (lengths[e], -e))
            return highest([c for c in side if s.eff[c] == suit], st)
        return lowest(ids, st)

    def safety(c: int) -> tuple[int, int]:
        e = s.eff[c]
        if e == JOKER_WINS:
            return (-100, 0)
        higher = (s.above[c] & out).bit_count()
        all_void = e < 4 and all(p.voids[q] >> e & 1 for q in opponents)
        penalty = 3 if e == trump else 0
        if all_void or higher == 0:
            penalty += 10
        return (higher - penalty, -st[c])

    spare = [c for c in ids if not keep >> c & 1]
    return max(spare or ids, key=safety)
