"""The post-game review: its progress line and the result's embed."""

from __future__ import annotations

import discord

from bot.engine import Action, Bid, ChooseTrump, Play
from bot.service.review import HandReview, Moment, Review
from cogs.render.common import (
    COLOUR,
    SUIT_SYMBOLS,
    card_text,
    fit,
    level_text,
    name_text,
    trump_text,
)
from cogs.render.language import _, ngettext, number, signed

DESCRIPTION_LIMIT = 4096  # Discord: characters in an embed's description
HARD = "hard"
"""The computer level the review compares with."""


def _hard() -> str:
    return f"`{level_text(HARD)}`"


def review_progress(done: int, total: int) -> str:
    text = ngettext(
        "Reviewing… {done} of {total} decision", "Reviewing… {done} of {total} decisions", total
    )
    return text.format(done=number(done), total=number(total))


def _action_text(action: Action) -> str:
    if isinstance(action, Bid):
        # Translators: a bid as an action, e.g. "bid 3".
        return _("bid {bid}").format(bid=number(action.n))
    if isinstance(action, ChooseTrump):
        return trump_text(action.suit, True)
    if action.suit is None:
        return card_text(action.card)
    # Translators: a joker played as a suit, e.g. "🃏 (as ♠)".
    return _("{card} (as {suit})").format(
        card=card_text(action.card), suit=SUIT_SYMBOLS[action.suit]
    )


def points_text(cost: float) -> str:
    """An estimated cost in points as the review writes it: `≈1.5 pts`."""
    rounded = round(cost, 1)
    # Translators: an estimated cost in points, abbreviated, e.g. "≈5.7 pts".
    text = ngettext("≈{points} pt", "≈{points} pts", rounded, 1)
    return text.format(points=number(rounded, 1))


def _trump(hand: HandReview) -> str:
    if hand.trump is None:
        return _("no trumps")
    # Translators: the hand's trump suit, e.g. "♠ trumps".
    return _("{suit} trumps").format(suit=SUIT_SYMBOLS[hand.trump])


def moment_text(moment: Moment) -> str:
    """One decision where ``hard`` would have done otherwise."""
    values = {
        "hand": number(moment.hand),
        "trick": number(moment.trick),
        "hard": _hard(),
        "made": _action_text(moment.made),
        "better": _action_text(moment.better),
        "cost": points_text(moment.cost),
    }
    if moment.kind == "bid":
        # Translators: {hard} is the computer level compared with; {cost} e.g. "≈1.0 pt".
        text = _("Hand {hand}, bidding: you bid {bid}; {hard} would bid {better} — {cost}")
        return text.format(**{**values, "bid": _bid(moment.made), "better": _bid(moment.better)})
    if moment.kind == "trump":
        # Translators: {made} and {better} are trump suits, e.g. "♥ hearts"; {hard} is the
        # computer level compared with; {cost} e.g. "≈1.0 pt".
        text = _("Hand {hand}, trump: you chose {made}; {hard} would choose {better} — {cost}")
        return text.format(**values)
    if moment.trick_cards:
        # Translators: {made} and {better} are cards, {cards} the cards already in the trick;
        # {hard} is the computer level compared with; {cost} e.g. "≈5.7 pts".
        text = _(
            "Hand {hand}, trick {trick} (bid {bid}, {won} taken): you played {made} on {cards}; "
            "{hard} would play {better} — {cost}"
        )
    else:
        # Translators: {made} and {better} are cards; {hard} is the computer level compared
        # with; {cost} e.g. "≈5.7 pts".
        text = _(
            "Hand {hand}, trick {trick} (bid {bid}, {won} taken): you led {made}; {hard} would "
            "play {better} — {cost}"
        )
    return text.format(
        **values,
        bid="?" if moment.bid is None else number(moment.bid),
        won=number(moment.won),
        cards=" ".join(card_text(c) for c in moment.trick_cards),
    )


def _bid(action: Action) -> str:
    return number(action.n) if isinstance(action, Bid) else "?"


def _hard_bid(hand: HandReview) -> str:
    """What ``hard`` would have bid, and the tricks it expected."""
    if hand.hard_bid is None:
        return _("no choice of bid")
    # The form of "?" is the plural's.
    tricks = 2 if hand.hard_tricks is None else hand.hard_tricks
    if hand.hard_bid == hand.bid:
        # Translators: {hard} is the computer level compared with; {tricks} a number with one
        # decimal, e.g. "2.6", or "?".
        text = ngettext(
            "{hard} bids {bid} (the same), expecting {tricks} trick",
            "{hard} bids {bid} (the same), expecting {tricks} tricks",
            tricks,
            1,
        )
    else:
        # Translators: {hard} is the computer level compared with; {tricks} a number with one
        # decimal, e.g. "2.6", or "?".
        text = ngettext(
            "{hard} bids {bid}, expecting {tricks} trick",
            "{hard} bids {bid}, expecting {tricks} tricks",
            tricks,
            1,
        )
    return text.format(
        hard=_hard(),
        bid=number(hand.hard_bid),
        tricks="?" if hand.hard_tricks is None else number(hand.hard_tricks, 1),
    )


def hand_text(hand: HandReview) -> str:
    """A hand's line: the person's bid and result beside ``hard``'s bid, then the plays
    ``hard`` would have made otherwise."""
    values = {
        "hand": number(hand.hand),
        "cards": " ".join(card_text(c) for c in hand.cards),
        "trump": _trump(hand),
        "bid": "—" if hand.bid is None else number(hand.bid),
        "taken": number(hand.taken),
        "judged": _hard_bid(hand),
    }
    if hand.points is None:
        # Translators: {cards} is the hand's cards, {trump} e.g. "♠ trumps"; {judged} is the
        # bid of the computer level compared with ("hard bids 2, expecting 2.6 tricks"), or
        # "no choice of bid".
        line = _("**Hand {hand}** · {cards} · {trump}: you bid {bid}, took {taken} · {judged}")
        line = line.format(**values)
    else:
        # Translators: {cards} is the hand's cards, {trump} e.g. "♠ trumps"; {change} the points
        # the hand scored ("+12"); {judged} is the bid of the computer level compared with
        # ("hard bids 2, expecting 2.6 tricks"), or "no choice of bid".
        line = _(
            "**Hand {hand}** · {cards} · {trump}: you bid {bid}, took {taken} ({change}) · {judged}"
        ).format(**values, change=signed(hand.points))
    for m in hand.moments:
        if not isinstance(m.made, Play | ChooseTrump):
            continue
        made, better, cost = _action_text(m.made), _action_text(m.better), points_text(m.cost)
        if m.kind == "trump":
            # Translators: the trump chosen → the one `hard` would choose, and what it cost.
            play = _("trump: {made} → {better} ({cost})")
        else:
            # Translators: the card played → the one `hard` would play, and what it cost.
            play = _("trick {trick}: {made} → {better} ({cost})")
        line += "\n  " + play.format(trick=number(m.trick), made=made, better=better, cost=cost)
    return line


def _summary(review: Review) -> str:
    # Translators: {hard} is the strongest computer level's name.
    judged = ngettext(
        "{hard}, the strongest computer player, judged your {count} decision from what you "
        "could see at the time.",
        "{hard}, the strongest computer player, judged your {count} decisions from what you "
        "could see at the time.",
        review.decisions,
    ).format(hard=_hard(), count=number(review.decisions))
    other = review.decisions - review.agreed
    if review.clearly_worse:
        # Translators: {agreed} and {other} are numbers of decisions; {cost} a number of
        # points with one decimal.
        agreed = ngettext(
            "It agreed with {agreed}; of the other {other}, {count} was clearly worse, "
            "estimated at {cost} points in all.",
            "It agreed with {agreed}; of the other {other}, {count} were clearly worse, "
            "estimated at {cost} points in all.",
            review.clearly_worse,
        )
    elif other:
        # Translators: {agreed} and {other} are numbers of decisions.
        agreed = ngettext(
            "It agreed with {agreed}; the other one was not clearly worse.",
            "It agreed with {agreed}; none of the other {other} was clearly worse.",
            other,
        )
    else:
        # Translators: {agreed} is a number of decisions: all of them.
        agreed = ngettext("It agreed with {agreed}.", "It agreed with all {agreed}.", review.agreed)
    agreed = agreed.format(
        agreed=number(review.agreed),
        other=number(other),
        count=number(review.clearly_worse),
        cost=number(review.total_cost, 1),
    )
    return f"{judged}\n{agreed}"


def review_embed(review: Review) -> discord.Embed:
    """The result: the costliest moments first, then hand by hand."""
    # Translators: {name} is the player's name.
    title = _("Review of game #{game} — {name}")
    embed = discord.Embed(
        title=title.format(game=review.table_id, name=name_text(review.name)), colour=COLOUR
    )
    parts = [_summary(review)]
    if review.not_theirs:
        left_out = ngettext(
            "*{count} decision the computer made for you (a missed turn, or while you were "
            "away) is left out.*",
            "*{count} decisions the computer made for you (a missed turn, or while you were "
            "away) are left out.*",
            review.not_theirs,
        )
        parts.append(left_out.format(count=number(review.not_theirs)))
    if review.costliest:
        parts.append(_("**The costliest moments**"))
        parts += [f"{i}. {moment_text(m)}" for i, m in enumerate(review.costliest, start=1)]
    parts.append(_("**Hand by hand**"))
    parts += [hand_text(h) for h in review.hands]
    embed.description = fit("\n".join(parts), DESCRIPTION_LIMIT)
    # Translators: {hard} is the strongest computer level's name.
    footer = _(
        "Estimates from sampled play-outs of the rest of the hand: a guide, not a verdict. "
        "Shown where {hard}'s choice is worth half a point or more, beyond the sampling noise."
    )
    embed.set_footer(text=footer.format(hard=level_text(HARD)))
    return embed
