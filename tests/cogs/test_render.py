"""Every refusal, answer and notice the service can give has words in every language, and cards
read as 10♥."""

from __future__ import annotations

from typing import get_args

import pytest

from bot.engine import Bid, Card, ChooseTrump, Play, Settings
from bot.service import Notice, Reason
from bot.service.answers import Answer, AutoPlay
from bot.service.notices import HandScore, TimedOut
from bot.service.posts import NOTICE_KINDS
from bot.service.refusals import Hook, HostOnly, PlayerCount, Refusal, TimerChoices
from cogs import render
from cogs.render.language import LANGUAGES, language, speaking
from tests.cogs.renders import NOTICES, REASONS
from tools.catalogs import PSEUDO, pseudo_language

KINDS_OF_REASON = {*get_args(Refusal), *get_args(Answer)}


@pytest.mark.parametrize("code", [*LANGUAGES, PSEUDO])
def test_every_refusal_answer_and_notice_has_words_in_every_language(code: str) -> None:
    """Every kind of reason and notice the service can give (the types mypy checks the render
    against), rendered in each language and the pseudo-language."""
    assert {type(reason) for reason in REASONS} == KINDS_OF_REASON
    assert {type(notice) for notice in NOTICES} == set(get_args(Notice))
    spoken = pseudo_language() if code == PSEUDO else language(code)
    with speaking(spoken):
        for reason in REASONS:
            assert render.reason_text(reason).strip(), (code, reason)
        for notice in NOTICES:
            assert render.notice_text(notice).strip(), (code, notice)


def test_each_kind_has_a_code_of_its_own() -> None:
    """Metrics count refusals by code; the outbox stores a notice under its code."""
    refusals = [kind.code for kind in get_args(Refusal)]
    assert len(set(refusals)) == len(refusals)
    answers = [kind.code for kind in get_args(Answer)]
    assert len(set(answers)) == len(answers)
    assert set(NOTICE_KINDS) == {
        "hand_scored",
        "game_over",
        "timed_out",
        "computer_plays_for",
        "started_without",
        "closed",
        "removed",
        "new_host",
        "paused",
        "resumed",
        "rematch",
    }  # stored in the outbox: a code renamed leaves its waiting posts unreadable


@pytest.mark.parametrize(
    ("reason", "text"),
    [
        (HostOnly("start"), "only the host"),
        (PlayerCount(low=3, high=7, players=2), "need 3 to 7 players"),
        (Hook(5), "the hook: the bids would add up to 5"),
        (TimerChoices((0, 30, 120)), "off, 30 s, 2 min"),
        (AutoPlay(False), "is off"),
    ],
)
def test_reasons_are_worded(reason: Reason, text: str) -> None:
    assert text in render.reason_text(reason)


def test_a_timeout_notice_names_the_card_for_people() -> None:
    played = render.notice_text(TimedOut("Cat", Play(Card("10", "H"))))
    assert played == "⏰ Cat ran out of time: a computer played 10♥ for them."
    assert "bid 2" in render.notice_text(TimedOut("Cat", Bid(2)))
    assert "chose ♠ spades" in render.notice_text(TimedOut("Cat", ChooseTrump("S")))
    secret = render.notice_text(TimedOut("Cat", None))
    assert "a computer bid for them" in secret


def test_a_score_post_lists_the_tricks() -> None:
    tricks = (((("Ann", Card("Q", "S")), ("Bob", Card("2", "H"))), "Ann"),)
    text = render.notice_text(HandScore(hand=3, rows=(("Ann", 1, 1, 11, 20),), tricks=tricks))
    assert text.startswith("**Hand 3 scored**")
    assert "1. Ann Q♠ · Bob 2♥ → Ann" in text


def test_catch_up_posts_fit_discords_limit() -> None:
    posts = render.catch_up_posts(["x" * 1500, "y" * 1500, "z" * 10])
    assert len(posts) == 2 and all(len(p) <= render.MESSAGE_LIMIT for p, _ in posts)
    assert posts[0][0].startswith("**Missed while I could not post here:**")
    # Each post says how many texts it holds: the outbox marks those posted.
    assert [held for _, held in posts] == [1, 2]
    assert "y" * 1500 in posts[1][0] and "z" * 10 in posts[1][0]


def test_the_texts_the_presenter_sends_come_from_render() -> None:
    assert render.hand_over_text(3) == "Hand 3 is over — your next hand is in a new message."
    assert render.hand_over_text(None).startswith("This hand is over")
    assert render.where_text(5, "cards", "Friends") == "#cards on Friends"
    assert render.where_text(5, None, "Friends") == "<#5>"
    ping = render.turn_ping_text((1, 2), "https://discord.com/channels/9/5/7", 1_800_000_000.0)
    assert ping == (
        "<@1> <@2> — your turn at the table; time runs out <t:1800000000:R>: "
        "https://discord.com/channels/9/5/7"
    )
    assert "time runs out" not in render.turn_ping_text((1,), "url")


@pytest.mark.parametrize(
    ("settings", "text"),
    [
        (Settings(preset="first-to-101"), "Hands: 10 cards every hand until someone reaches 101"),
        (
            Settings(preset="classic", end="target", target=50, max_cards=3),
            "Hands: 1 2 3 2 1 cards, over and over, until someone reaches 50",
        ),
        (Settings(preset="classic", max_cards=3), "Hands: 5 hands: 1 2 3 2 1 cards"),
    ],
)
def test_the_hands_line_says_what_the_engine_deals(settings: Settings, text: str) -> None:
    """A target game deals its sequence over and over (`Rules.size_at`): the rules card says
    so, not "N cards every hand" when the hands change size."""
    assert render.describe(settings, 4)[1] == text


def test_the_tricks_field_keeps_whole_lines_the_newest_and_counts_the_rest() -> None:
    from cogs.render.table import _newest_tricks

    lines = [f"{n}. " + "10♥ " * 15 + f"→ **{'W' * 32}**" for n in range(1, 14)]
    text = _newest_tricks(lines)
    assert len(text) <= 1024
    shown = text.splitlines()
    kept = shown[1:]
    assert kept == lines[-len(kept) :] and len(kept) < 12  # whole lines, newest last
    assert shown[0] == f"({13 - len(kept)} earlier tricks)"
    assert _newest_tricks(lines[:2]) == "\n".join(lines[:2])
