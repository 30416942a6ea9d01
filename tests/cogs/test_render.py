"""Every refusal, answer and notice the service can give has words, and cards read as 10♥."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.engine import Bid, Card, ChooseTrump, Play, Settings
from bot.service import Notice, Reason
from cogs import render

SERVICE = Path(__file__).resolve().parents[2] / "bot" / "service"
CODE = re.compile(
    r"""(?:Refused|TableGone|Reason)\(\s*"([a-z_]+)"(?:\s+if\s+[^)]*?else\s+"([a-z_]+)")?"""
)
NOTICE = re.compile(r"""Notice\(\s*"([a-z_]+)"(?:\s+if\s+[^)]*?else\s+"([a-z_]+)")?""")


def codes(pattern: re.Pattern[str]) -> set[str]:
    found: set[str] = set()
    for path in SERVICE.rglob("*.py"):
        for match in pattern.finditer(path.read_text()):
            found.update(code for code in match.groups() if code)
    return found


def test_every_code_the_service_gives_has_words() -> None:
    reasons = codes(CODE)
    assert {"not_seated", "host_only", "hook", "joined"} <= reasons  # the scan finds them
    assert reasons - set(render.REASONS) == set()
    notices = codes(NOTICE)
    assert {"hand_scored", "timed_out"} <= notices
    assert notices - set(render.NOTICES) == set()


def test_an_unknown_code_is_shown_as_itself_not_lost() -> None:
    assert render.reason_text(Reason("no_such_code")) == "no_such_code"


@pytest.mark.parametrize(
    ("reason", "text"),
    [
        (Reason("host_only", {"doing": "start"}), "only the host"),
        (Reason("player_count", {"low": 3, "high": 7, "players": 2}), "need 3 to 7 players"),
        (Reason("hook", {"total": 5}), "the hook: the bids would add up to 5"),
        (Reason("timer_choices", {"timers": (0, 30, 120)}), "off, 30 s, 2 min"),
        (Reason("auto_play", {"on": False}), "is off"),
    ],
)
def test_reasons_are_worded(reason: Reason, text: str) -> None:
    assert text in render.reason_text(reason)


def test_a_timeout_notice_names_the_card_for_people() -> None:
    played = render.notice_text(
        Notice("timed_out", {"name": "Cat", "action": Play(Card("10", "H"))})
    )
    assert played == "⏰ Cat ran out of time: a computer played 10♥ for them."
    assert "bid 2" in render.notice_text(Notice("timed_out", {"name": "Cat", "action": Bid(2)}))
    assert "chose ♠ spades" in render.notice_text(
        Notice("timed_out", {"name": "Cat", "action": ChooseTrump("S")})
    )
    secret = render.notice_text(Notice("timed_out", {"name": "Cat", "action": None}))
    assert "a computer bid for them" in secret


def test_a_score_post_lists_the_tricks() -> None:
    tricks = (((("Ann", Card("Q", "S")), ("Bob", Card("2", "H"))), "Ann"),)
    text = render.notice_text(
        Notice(
            "hand_scored",
            {"hand": 3, "tiebreak": False, "rows": (("Ann", 1, 1, 11, 20),), "tricks": tricks},
        )
    )
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
