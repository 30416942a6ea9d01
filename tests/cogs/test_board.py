"""Leaderboard page buttons: the custom_ids the bot makes, and strict parsing of forged ones."""

from __future__ import annotations

import pytest

from bot.service import BOARD_ORDERS, Leaderboard, LeaderboardRow
from cogs import render
from cogs.items import BoardPage, board_id, claimed, parse_board

PRESETS = tuple(render.RULE_CHOICES["preset"])


def parse(text: str) -> BoardPage | None:
    return parse_board(text, BOARD_ORDERS, PRESETS)


def test_the_ids_the_bot_makes_parse_back() -> None:
    for by in BOARD_ORDERS:
        for preset in (None, *PRESETS):
            text = board_id("next", by, preset, 12)
            assert len(text) <= 100 and claimed(text)
            assert parse(text) == BoardPage(by, preset, 12)


@pytest.mark.parametrize(
    "forged",
    [
        "lb:next:rating:all:0",
        "lb:next:rating:all:10000",
        "lb:next:rating:all:-1",
        "lb:next:rating:all:²",
        "lb:next:rating:all:٣",
        "lb:next:rating:all: 2",
        "lb:next:rating:all:",
        "lb:next:rating:all:2:3",
        "lb:up:rating:all:2",
        "lb:next:sneaky:all:2",
        "lb:next:rating:no-such-preset:2",
        "lb:next:rating:2",
        "lb:",
    ],
)
def test_a_forged_page_parses_to_nothing(forged: str) -> None:
    assert parse(forged) is None


def row(rank: int, user_id: int) -> LeaderboardRow:
    return LeaderboardRow(rank, user_id, 1000 + rank, 4, 1, 0.25, 0.5, 3.25)


def test_the_board_words_every_measure_and_offers_pages() -> None:
    board = Leaderboard(
        rows=[row(11, 5), row(12, -3)],
        caller=row(40, 7),
        by="points",
        page=2,
        pages=4,
        ranked=35,
    )
    embed = render.leaderboard_embed(board, "Guild")
    lines = (embed.description or "").splitlines()
    assert lines[0] == (
        "**11.** <@5> — **3.2 points a hand** · 1,011 · 1 win · 25% won · 50% bids exact · 4 games"
    )
    assert "🤖 hard (computer)" in lines[1]
    assert lines[-2:] == ["…", lines[-1]] and "<@7>" in lines[-1]
    view = render.leaderboard_view(board)
    assert view is not None
    assert [item.custom_id for item in view.children] == [  # type: ignore[attr-defined]
        "lb:prev:points:all:1",
        "lb:next:points:all:3",
    ]
    assert embed.footer.text is not None and embed.footer.text.endswith("/ohhell ratings")
    assert "35 ranked (settled ratings)" in embed.footer.text
    single = Leaderboard(rows=[row(1, 5)], caller=None)
    assert render.leaderboard_view(single) is None


def test_a_caller_with_a_provisional_rating_sees_it_with_its_mark() -> None:
    board = Leaderboard(rows=[], caller=None, caller_rating=1084, caller_games=5)
    embed = render.leaderboard_embed(board, "Guild")
    assert "Nobody here has a settled rating yet" in (embed.description or "")
    assert [(f.name, f.value) for f in embed.fields] == [
        ("You", "1,084? after 5 games: provisional, so not ranked yet.")
    ]
