"""Leaderboard page buttons: the custom_ids the bot makes, and strict parsing of forged ones."""

from __future__ import annotations

from dataclasses import replace

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


def provisional(user_id: int) -> LeaderboardRow:
    return LeaderboardRow(None, user_id, 1084, 5, 2, 0.4, 0.5, 3.25, provisional=True)


def test_provisional_players_are_listed_below_a_line_unranked_with_their_mark() -> None:
    board = Leaderboard(rows=[row(1, 5), provisional(6)], caller=None, ranked=1, unranked=1)
    lines = (render.leaderboard_embed(board, "Guild").description or "").splitlines()
    assert lines == [
        "**1.** <@5> — **1,001** · 1 win · 25% won · 50% bids exact · 3.2 points a hand · 4 games",
        "*Not ranked yet: provisional ratings (shown with ?)*",
        "<@6> — **1,084?** · 2 wins · 40% won · 50% bids exact · 3.2 points a hand · 5 games",
    ]
    # A page of provisional players only starts with the line; the caller's own row, when it
    # is not on the page, comes below "…" (under the line too when theirs is provisional).
    later = Leaderboard(
        rows=[provisional(7)], caller=provisional(8), page=2, pages=2, ranked=10, unranked=5
    )
    lines = (render.leaderboard_embed(later, "Guild").description or "").splitlines()
    assert lines[0] == "*Not ranked yet: provisional ratings (shown with ?)*"
    assert lines[2] == "…" and lines[3].startswith("<@8> — **1,084?**") and len(lines) == 4
    ranked_page = Leaderboard(rows=[row(1, 5)], caller=provisional(8), pages=2, ranked=10)
    lines = (render.leaderboard_embed(ranked_page, "Guild").description or "").splitlines()
    assert lines[1:] == ["…", "*Not ranked yet: provisional ratings (shown with ?)*", lines[3]]


def test_a_count_ranks_provisional_ratings_and_says_how_many_players() -> None:
    counted = replace(provisional(6), rank=2)
    board = Leaderboard(rows=[row(1, 5), counted], caller=None, by="wins", ranked=2)
    embed = render.leaderboard_embed(board, "Guild")
    lines = (embed.description or "").splitlines()
    assert lines[1] == (
        "**2.** <@6> — **2 wins** · 1,084? · 40% won · 50% bids exact · 3.2 points a hand · 5 games"
    )
    assert embed.footer.text is not None and "· 2 players ·" in embed.footer.text


def test_a_server_without_ratings_says_how_to_get_one() -> None:
    embed = render.leaderboard_embed(Leaderboard(rows=[], caller=None), "Guild")
    assert (embed.description or "").startswith("Nobody here has a rating yet")
