"""A reference opponent nobody here wrote: OpenSpiel's ISMCTS bot on OpenSpiel's ``oh_hell``.

``python -m tools.arena --candidate hard --baseline ismcts --hands 120`` (``make arena
ARGS='...'``). Duplicate format: each deal (4 players, 10 cards, a turned trump, the hook,
dealer's left leads, a point a trick + 10 for an exact bid) is played twice, the candidate level
in seats 0 and 2 and the reference in 1 and 3, then with the seats swapped, so every hand a seat
holds is played once by each side. Both engines are driven in step: this project's ``Game``
(which the levels read, through ``bot.ai.decide``) and OpenSpiel's state (which ISMCTS reads),
each action applied to both; the deal is this project's (from the seed) dealt into OpenSpiel
card by card. At the end the two engines' points must agree.

The reference: ``pyspiel.ISMCTSBot`` with ``--simulations`` (1,000) simulations, random rollouts
(one each), UCT ``c`` = 2, a fresh sampled world each simulation, the most-visited action.
``--candidate ismcts --candidate-simulations N`` puts the same bot with N simulations in the
candidate's seats: what more search buys the reference's own recipe.

Without pyspiel, ``--baseline`` may name one of this project's levels as the opponent in the same
duplicate format (used by the tests, which CI runs without the bench extra).

The difference and its 95% interval are paired by deal: per deal, the mean points a hand of the
candidate's four hands minus the reference's four hands on the same cards.
"""

from __future__ import annotations

import json
import statistics
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, replace
from typing import Any, Literal, Protocol

from bot.ai import LEVELS, HardParams, Level, decide
from bot.ai.params import DEFAULT_PARAMS
from bot.engine import Action, Bid, Card, Game, Phase, Play, Settings
from tools.stats import mean_ci, percentile

RULES: dict[str, Any] = {
    "preset": "first-to-101",
    "sequence": "fixed",
    "max_cards": 10,
    "scoring": "tricks-plus-ten",
}
"""This project's rules that are OpenSpiel's ``oh_hell`` with players=4, num_tricks_fixed=10."""
PLAYERS = 4
CARDS = 10
SPIEL_SUITS = "CDSH"
"""OpenSpiel's suit order: card id = rank * 4 + suit, ranks 2..A as 0..12."""
RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
BID_BASE = 52
"""OpenSpiel's bid actions: 52 + the bid."""


def card_to_spiel(card: Card) -> int:
    """OpenSpiel's id for a card of the 52-card pack."""
    if card.suit is None:
        raise ValueError("oh_hell has no joker")
    return RANKS.index(card.rank) * 4 + SPIEL_SUITS.index(card.suit)


def spiel_to_card(card_id: int) -> Card:
    """The card with OpenSpiel's id ``card_id`` (0..51)."""
    if not 0 <= card_id < 52:
        raise ValueError(f"{card_id} is not an oh_hell card")
    return Card(RANKS[card_id // 4], SPIEL_SUITS[card_id % 4])  # type: ignore[arg-type]


def action_to_spiel(action: Action) -> int:
    """OpenSpiel's action for one of this engine's bids or plays."""
    if isinstance(action, Bid):
        return BID_BASE + action.n
    if isinstance(action, Play):
        return card_to_spiel(action.card)
    raise ValueError(f"oh_hell has no {action!r}")


def action_from_spiel(a: int) -> Action:
    """This engine's action for OpenSpiel's action ``a`` (a bid or a card; no chance)."""
    if a >= BID_BASE:
        return Bid(a - BID_BASE)
    return Play(spiel_to_card(a))


def new_game(seed: int, deal: int) -> Game:
    """Deal ``deal`` of seed ``seed``: this project's game (4 players, 10 cards); the dealer
    turns with the deal number."""
    settings = Settings.model_validate(RULES)
    return Game.new(settings, PLAYERS, seed=seed * 1_000_003 + deal, first_dealer=deal % PLAYERS)


def spiel_deal_actions(g: Game) -> list[int]:
    """The chance actions that deal ``g``'s hand in OpenSpiel: the number of tricks, the
    dealer, the cards (OpenSpiel deals card by card to seats 0, 1, 2, 3, 0, ...), the turned
    card."""
    pack = g.pack
    hands = [sorted(card_to_spiel(pack.cards[c]) for c in _bits(g.hand_mask(s))) for s in g.seats]
    out = [CARDS, g.dealer]
    for i in range(CARDS):
        for s in range(PLAYERS):
            out.append(hands[s][i])
    turned = g.view(0).turned
    assert turned is not None
    out.append(card_to_spiel(turned))
    return out


def _bits(m: int) -> list[int]:
    out = []
    while m:
        low = m & -m
        out.append(low.bit_length() - 1)
        m ^= low
    return out


class SpielState(Protocol):
    def apply_action(self, action: int) -> None: ...
    def legal_actions(self) -> list[int]: ...
    def current_player(self) -> int: ...
    def is_terminal(self) -> bool: ...
    def returns(self) -> list[float]: ...


Opponent = Callable[[Game, "SpielState | None", int, int], Action]
"""The reference's decision: (this engine's game, OpenSpiel's state or None, seat, seed)."""


@dataclass(frozen=True)
class Match:
    candidate: Level | Literal["ismcts"]
    opponent: str
    """``ismcts`` or one of this project's levels."""
    seed: int
    budget_s: float
    iterations: int | None
    simulations: int = 1000
    uct_c: float = 2.0
    candidate_simulations: int | None = None
    """With ``candidate`` ``ismcts``: its simulations a decision (None: ``simulations``)."""
    params: HardParams = DEFAULT_PARAMS
    """The candidate's values if it is ``hard`` (an opponent ``hard`` plays the defaults)."""

    @property
    def candidate_ismcts(self) -> int | None:
        """The candidate's simulations a decision when it is ``ismcts`` (else None)."""
        if self.candidate != "ismcts":
            return None
        return self.candidate_simulations or self.simulations


@dataclass(frozen=True)
class HandResult:
    deal: int
    swap: int
    """0: the candidate in seats 0 and 2; 1: in seats 1 and 3."""
    seat: int
    side: str
    """``candidate`` or ``reference``."""
    points: int
    bid: int
    tricks: int


def spiel_game() -> Any:
    """OpenSpiel's ``oh_hell`` with this module's rules (raises ImportError without pyspiel)."""
    import pyspiel

    return pyspiel.load_game("oh_hell", {"players": PLAYERS, "num_tricks_fixed": CARDS})


def ismcts_opponent(m: Match) -> Opponent:
    """OpenSpiel's ISMCTS bot as the reference: a bot seeded for each decision."""
    import pyspiel

    visits = pyspiel.ISMCTSFinalPolicyType.MAX_VISIT_COUNT

    def act(g: Game, state: SpielState | None, seat: int, seed: int) -> Action:
        assert state is not None and state.current_player() == seat
        seed %= 2**31 - 1
        evaluator = pyspiel.RandomRolloutEvaluator(1, seed)
        bot = pyspiel.ISMCTSBot(seed, evaluator, m.uct_c, m.simulations, -1, visits, False, False)
        return action_from_spiel(bot.step(state))

    return act


def level_opponent(level: Level, m: Match) -> Opponent:
    """One of this project's levels as the opponent (no OpenSpiel state needed)."""

    def act(g: Game, state: SpielState | None, seat: int, seed: int) -> Action:
        its = m.iterations if level == "hard" else None
        return decide(g, seat, level=level, budget_s=m.budget_s, seed=seed, iterations=its)

    return act


def play_hand(
    m: Match,
    deal: int,
    swap: int,
    opponent: Opponent,
    new_state: Callable[[], SpielState] | None,
    times: dict[str, list[float]],
    candidate: Opponent | None = None,
) -> list[HandResult]:
    """Play one deal with the candidate in seats ``swap``, ``swap + 2``: each seat's result.
    ``candidate``: how the candidate decides, where it is not one of this project's levels."""
    g = new_game(m.seed, deal)
    state = new_state() if new_state is not None else None
    if state is not None:
        for a in spiel_deal_actions(g):
            state.apply_action(a)
    first = g.hand_number
    step = 0
    while g.phase is not Phase.GAME_OVER and g.hand_number == first:
        s = g.turn
        seed = ((m.seed * 1_000_003 + deal) * 8 + swap * 4 + s) * 4096 + step
        side = "candidate" if s % 2 == swap else "reference"
        t0 = time.perf_counter()
        if candidate is not None and side == "candidate":
            action = candidate(g, state, s, seed)
        elif side == "candidate":
            assert m.candidate != "ismcts"
            its = m.iterations if m.candidate == "hard" else None
            action = decide(
                g,
                s,
                level=m.candidate,
                budget_s=m.budget_s,
                seed=seed,
                iterations=its,
                params=m.params,
            )
        else:
            action = opponent(g, state, s, seed)
        times[side].append(time.perf_counter() - t0)
        if state is not None:
            assert state.current_player() == s, "the engines disagree on whose turn it is"
            a = action_to_spiel(action)
            assert a in state.legal_actions(), f"OpenSpiel refuses {action!r}"
            state.apply_action(a)
        g.apply(s, action)
        step += 1
    log = g.history()[first - 1]
    assert log.points is not None
    if state is not None:
        assert state.is_terminal()
        theirs = [round(x) for x in state.returns()]
        assert theirs == list(log.points), f"the engines score differently: {theirs} {log.points}"
    return [
        HandResult(
            deal,
            swap,
            s,
            "candidate" if s % 2 == swap else "reference",
            log.points[s],
            log.bids[s],
            log.won[s],
        )
        for s in range(PLAYERS)
    ]


def run(
    m: Match, deals: int, progress: bool = True, first_deal: int = 0, save: str | None = None
) -> tuple[list[HandResult], dict[str, list[float]]]:
    """Every deal played twice (seats swapped), one process. ``save``: a file to write each
    hand's result to (JSON lines) as its deal ends, so a long run can be read before it ends."""
    if m.opponent == "ismcts":
        opponent = ismcts_opponent(m)
        game = spiel_game()
        new_state: Callable[[], SpielState] | None = game.new_initial_state
    elif m.opponent in LEVELS:
        opponent = level_opponent(m.opponent, m)
        new_state = None
    else:
        raise ValueError(f"no reference opponent {m.opponent!r}")
    candidate: Opponent | None = None
    if m.candidate_ismcts is not None:
        if new_state is None:
            raise ValueError("ismcts as the candidate needs ismcts as the opponent")
        candidate = ismcts_opponent(replace(m, simulations=m.candidate_ismcts))
    results: list[HandResult] = []
    times: dict[str, list[float]] = {"candidate": [], "reference": []}
    started = time.perf_counter()
    if save:
        open(save, "w", encoding="utf-8").close()
    for i, d in enumerate(range(first_deal, first_deal + deals), 1):
        done = [
            r
            for swap in (0, 1)
            for r in play_hand(m, d, swap, opponent, new_state, times, candidate)
        ]
        results += done
        if save:
            with open(save, "a", encoding="utf-8") as f:
                f.writelines(json.dumps(asdict(r)) + "\n" for r in done)
        if progress and i % max(1, deals // 10) == 0:
            print(f"  {i}/{deals} deals, {time.perf_counter() - started:.0f} s", flush=True)
    return results, times


def figures(m: Match, results: list[HandResult], times: dict[str, list[float]]) -> dict[str, Any]:
    """Points a hand, exact bids, mean |bid - taken| for each side; the paired difference."""
    out: dict[str, Any] = {
        "candidate": m.candidate,
        "baseline": m.opponent,
        "format": "duplicate",
        "seed": m.seed,
        "deals": len({r.deal for r in results}),
        "hands": sum(1 for r in results if r.side == "candidate"),
        "budget_s": m.budget_s,
        "iterations": m.iterations,
        "simulations": m.simulations if m.opponent == "ismcts" else None,
        "candidate_simulations": m.candidate_ismcts,
        "uct_c": m.uct_c if m.opponent == "ismcts" else None,
        "workers": 1,
    }
    for side, key in (("candidate", "candidate"), ("reference", "baseline")):
        rs = [r for r in results if r.side == side]
        pm, pci = mean_ci([float(r.points) for r in rs])
        out[f"{key}_points"] = round(pm, 3)
        out[f"{key}_ci95"] = [round(pm - pci, 3), round(pm + pci, 3)]
        out[f"{key}_tricks"] = round(statistics.fmean(r.tricks for r in rs), 3)
        exact = statistics.fmean(1.0 if r.bid == r.tricks else 0.0 for r in rs)
        out["exact_rate" if side == "candidate" else "baseline_exact_rate"] = round(exact, 4)
        err = statistics.fmean(abs(r.tricks - r.bid) for r in rs)
        out["mean_abs_error" if side == "candidate" else "baseline_mean_abs_error"] = round(err, 3)
        ts = times[side]
        pre = "decision" if side == "candidate" else "baseline_decision"
        out[f"{pre}s"] = len(ts)
        out[f"{pre}_p50_ms"] = round(percentile(ts, 0.5) * 1000, 3)
        out[f"{pre}_p99_ms"] = round(percentile(ts, 0.99) * 1000, 3)
        out[f"{pre}_max_ms"] = round(max(ts, default=0.0) * 1000, 3)
    per_deal: dict[int, float] = {}
    for r in results:
        sign = 1.0 if r.side == "candidate" else -1.0
        per_deal[r.deal] = per_deal.get(r.deal, 0.0) + sign * r.points / 4
    dm, dci = mean_ci(list(per_deal.values()))
    out["difference"] = round(dm, 3)
    out["ci95"] = [round(dm - dci, 3), round(dm + dci, 3)]
    return out


def report(fig: dict[str, Any]) -> str:
    ref = fig["baseline"]
    if ref == "ismcts":
        ref = f"ISMCTS-{fig['simulations']} (OpenSpiel oh_hell, UCT c {fig['uct_c']})"
    its = fig["iterations"]
    how = f"{its} samples" if its is not None else f"{fig['budget_s']} s"
    who = f"{fig['candidate']} ({how} if hard)"
    if fig["candidate"] == "ismcts":
        who = f"ISMCTS-{fig['candidate_simulations']}"
    rows = [
        f"arena (duplicate): {who} vs {ref}",
        f"  {fig['deals']} deals (seed {fig['seed']}) x 2 seatings: "
        f"{fig['hands']} hands a side, 1 process",
    ]
    for name, key, ex, err, pre in (
        ("candidate", "candidate", "exact_rate", "mean_abs_error", "decision"),
        (
            "reference",
            "baseline",
            "baseline_exact_rate",
            "baseline_mean_abs_error",
            "baseline_decision",
        ),
    ):
        rows.append(
            f"  {name:9s}: {fig[f'{key}_points']:.2f} points/hand "
            f"(95% {fig[f'{key}_ci95'][0]:.2f}..{fig[f'{key}_ci95'][1]:.2f}), "
            f"exact {fig[ex]:.1%}, mean |bid - taken| {fig[err]:.2f}, "
            f"tricks {fig[f'{key}_tricks']:.2f}, decision p50/p99 "
            f"{fig[f'{pre}_p50_ms']:.1f}/{fig[f'{pre}_p99_ms']:.1f} ms "
            f"(max {fig[f'{pre}_max_ms']:.1f})"
        )
    rows.append(
        f"  difference: {fig['difference']:+.2f} points/hand "
        f"(95% {fig['ci95'][0]:+.2f}..{fig['ci95'][1]:+.2f}, paired by deal)"
    )
    return "\n".join(rows)
