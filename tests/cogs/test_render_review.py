"""The review's words: progress, moments with cards as people read them, Discord's limits."""

from __future__ import annotations

from bot.engine import JOKER, Bid, Card, ChooseTrump, Play
from bot.service.review import HandReview, Moment, Review
from cogs.render.review import moment_text, review_embed, review_progress


def card(text: str) -> Card:
    return Card.parse(text)


def moment(**changes: object) -> Moment:
    values: dict[str, object] = {
        "hand": 3,
        "kind": "play",
        "trick": 2,
        "trick_cards": (card("5H"),),
        "bid": 0,
        "won": 0,
        "made": Play(card("10H")),
        "better": Play(card("2H")),
        "cost": 5.71,
    }
    values.update(changes)
    return Moment(**values)  # type: ignore[arg-type]


def test_progress_reads_like_a_sentence() -> None:
    assert review_progress(24, 60) == "Reviewing… 24 of 60 decisions"
    assert review_progress(0, 1) == "Reviewing… 0 of 1 decision"


def test_moments_name_cards_and_what_hard_would_do() -> None:
    assert moment_text(moment()) == (
        "Hand 3, trick 2 (bid 0, 0 taken): you played 10♥ on 5♥; `hard` would play 2♥ — ≈5.7 pts"
    )
    led = moment_text(moment(trick_cards=(), made=Play(JOKER, "S"), better=Play(card("AS"))))
    assert "you led 🃏 (as ♠); `hard` would play A♠" in led
    bid = moment_text(moment(kind="bid", trick=0, made=Bid(0), better=Bid(2), cost=1.0))
    assert bid == "Hand 3, bidding: you bid 0; `hard` would bid 2 — ≈1.0 pts"
    trump = moment_text(
        moment(kind="trump", trick=0, made=ChooseTrump("H"), better=ChooseTrump("S"))
    )
    assert "you chose ♥ hearts; `hard` would choose ♠ spades" in trump


def test_a_long_review_fits_an_embed() -> None:
    hands = tuple(
        HandReview(
            hand=n,
            cards=(*(card(f"{r}H") for r in "23456789"), card("10H")),
            trump="S",
            bid=2,
            taken=1,
            points=1,
            hard_bid=3,
            hard_tricks=2.6,
            moments=tuple(moment(hand=n, trick=t) for t in range(1, 6)),
        )
        for n in range(1, 41)
    )
    review = Review(
        table_id=7,
        name="Ann",
        decisions=400,
        agreed=200,
        clearly_worse=200,
        hands=hands,
        costliest=(moment(cost=9.0), moment(cost=8.0), moment(cost=7.0)),
        total_cost=1000.0,
        not_theirs=3,
    )
    embed = review_embed(review).to_dict()
    description = embed.get("description", "")
    assert len(description) <= 4096 and description.endswith("…")
    assert description.index("costliest") < description.index("Hand by hand")
    assert "10♥" in description and "10H" not in description
    assert "3 decisions the computer made for you" in description
