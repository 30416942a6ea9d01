"""The post-game review: its progress line and the result's embed."""

from __future__ import annotations

import discord

from bot.engine import Action, Bid, ChooseTrump, Play
from bot.service.review import HandReview, Moment, Review
from cogs.render.common import COLOUR, SUIT_NAMES, SUIT_SYMBOLS, card_text, fit

DESCRIPTION_LIMIT = 4096  # Discord: characters in an embed's description
HARD = "`hard`"


def review_progress(done: int, total: int) -> str:
    return f"Reviewing… {done} of {total} decision{'s' if total != 1 else ''}"


def _action_text(action: Action) -> str:
    if isinstance(action, Bid):
        return f"bid {action.n}"
    if isinstance(action, ChooseTrump):
        return f"{SUIT_SYMBOLS[action.suit]} {SUIT_NAMES[action.suit]}"
    named = f" (as {SUIT_SYMBOLS[action.suit]})" if action.suit is not None else ""
    return card_text(action.card) + named


def _points(cost: float) -> str:
    return f"≈{cost:.1f} pt{'s' if round(cost, 1) != 1 else ''}"


def _trump(hand: HandReview) -> str:
    return "no trumps" if hand.trump is None else f"{SUIT_SYMBOLS[hand.trump]} trumps"


def moment_text(moment: Moment) -> str:
    """One decision where ``hard`` would have done otherwise."""
    if moment.kind == "bid":
        return (
            f"Hand {moment.hand}, bidding: you bid {_bid(moment.made)}; {HARD} would bid "
            f"{_bid(moment.better)} — {_points(moment.cost)}"
        )
    if moment.kind == "trump":
        return (
            f"Hand {moment.hand}, trump: you chose {_action_text(moment.made)}; {HARD} "
            f"would choose {_action_text(moment.better)} — {_points(moment.cost)}"
        )
    verb = "led" if not moment.trick_cards else "played"
    on = f" on {' '.join(card_text(c) for c in moment.trick_cards)}" if moment.trick_cards else ""
    return (
        f"Hand {moment.hand}, trick {moment.trick} (bid {moment.bid}, {moment.won} taken): "
        f"you {verb} {_action_text(moment.made)}{on}; {HARD} would play "
        f"{_action_text(moment.better)} — {_points(moment.cost)}"
    )


def _bid(action: Action) -> str:
    return str(action.n) if isinstance(action, Bid) else "?"


def hand_text(hand: HandReview) -> str:
    """A hand's line: the person's bid and result beside ``hard``'s bid, then the plays
    ``hard`` would have made otherwise."""
    points = "" if hand.points is None else f" ({hand.points:+d})"
    bid = "—" if hand.bid is None else str(hand.bid)
    cards = " ".join(card_text(c) for c in hand.cards)
    line = (
        f"**Hand {hand.hand}** · {cards} · {_trump(hand)}: you bid {bid}, took {hand.taken}{points}"
    )
    if hand.hard_bid is None:
        line += " · no choice of bid"
    else:
        expects = f"{hand.hard_tricks:.1f}" if hand.hard_tricks is not None else "?"
        same = " (the same)" if hand.hard_bid == hand.bid else ""
        line += f" · {HARD} bids {hand.hard_bid}{same}, expecting {expects} tricks"
    plays = [m for m in hand.moments if isinstance(m.made, Play | ChooseTrump)]
    for m in plays:
        where = "trump" if m.kind == "trump" else f"trick {m.trick}"
        line += (
            f"\n  {where}: {_action_text(m.made)} → {_action_text(m.better)} ({_points(m.cost)})"
        )
    return line


def review_embed(review: Review) -> discord.Embed:
    """The result: the costliest moments first, then hand by hand."""
    embed = discord.Embed(title=f"Review of game #{review.table_id} — {review.name}", colour=COLOUR)
    other = review.decisions - review.agreed
    plural = "s" if review.decisions != 1 else ""
    summary = (
        f"{HARD}, the strongest computer player, judged your {review.decisions} decision{plural} "
        f"from what you could see at the time. It agreed with {review.agreed}"
    )
    if review.clearly_worse:
        summary += (
            f"; of the other {other}, {review.clearly_worse} "
            f"{'was' if review.clearly_worse == 1 else 'were'} clearly worse, estimated at "
            f"{review.total_cost:.1f} points in all."
        )
    elif other:
        summary += f"; none of the other {other} was clearly worse."
    else:
        summary += "."
    parts = [summary]
    if review.not_theirs:
        many = review.not_theirs != 1
        parts.append(
            f"*{review.not_theirs} decision{'s' if many else ''} the computer made for you (a "
            f"missed turn, or while you were away) {'are' if many else 'is'} left out.*"
        )
    if review.costliest:
        parts.append("**The costliest moments**")
        parts += [f"{i}. {moment_text(m)}" for i, m in enumerate(review.costliest, start=1)]
    parts.append("**Hand by hand**")
    parts += [hand_text(h) for h in review.hands]
    embed.description = fit("\n".join(parts), DESCRIPTION_LIMIT)
    embed.set_footer(
        text="Estimates from sampled play-outs of the rest of the hand: a guide, not a verdict. "
        "Shown where hard's choice is worth half a point or more, beyond the sampling noise."
    )
    return embed
