"""The server's pages as rendered: the leaderboard with its orders, presets, pages and the
provisional players below a line; the recent games, each a link to its replay; a player's page
with the rating chart drawn in it; the replay as served (the bot's own style and script, no
inline one) and as a file from the same function; hostile names as text; every word from the
catalogs; small pages."""

from __future__ import annotations

import re
from html import unescape

import pytest

from bot.service import Leaderboard, LeaderboardRow
from bot.service.summaries import GameDetail, HistoryEntry, HistoryPage, PlayerStats
from bot.storage import COMPUTER_IDS
from cogs.render.language import LANGUAGES, language, speaking
from cogs.web.assets import ASSETS
from cogs.web.board import BoardLinks, board_page, board_query, history_page
from cogs.web.player import player_page
from cogs.web.replay import GameLinks, replay_page
from cogs.web.score_chart import MAX_POINTS, rating_svg
from tests.cogs.web.pages import HOSTILE, embedded, hostile_record
from tests.cogs.web.test_replay import Tags
from tools.catalogs import english_words, pseudo_language

LINKS = BoardLinks(
    player=lambda user_id: f"../p/person{user_id}",
    game=lambda game: f"../g/game{game}",
    board="../s/board",
)
ANN, EVIL, BOB = 11, 12, 13
NAMES_HERE = {ANN: "Ann", EVIL: HOSTILE[0], BOB: HOSTILE[1]}


def row(rank: int | None, user_id: int, rating: int, provisional: bool = False) -> LeaderboardRow:
    return LeaderboardRow(
        rank=rank,
        user_id=user_id,
        rating=rating,
        games=4,
        wins=2,
        win_rate=0.5,
        exact_bid_rate=0.25,
        points_per_hand=3.25,
        provisional=provisional,
    )


BOARD = Leaderboard(
    rows=[
        row(1, ANN, 1100),
        row(2, COMPUTER_IDS["hard"], 1050),
        row(None, EVIL, 1010, True),
        row(None, BOB, 990, True),
    ],
    caller=None,
    by="wins",
    preset="classic",
    page=2,
    pages=3,
    ranked=2,
    unranked=2,
)


def test_the_leaderboard_page_ranks_links_and_turns() -> None:
    page = board_page(BOARD, NAMES_HERE, LINKS)
    assert all(name not in page for name in HOSTILE)
    text = unescape(re.sub(r"<[^>]+>", " ", page))
    assert all(name in text for name in HOSTILE)
    links = [a["href"] for tag, a in Tags(page).tags if tag == "a"]
    # Each person a link to their page; the computer is not one.
    assert [u for u in links if u and u.startswith("../p/")] == [
        f"../p/person{u}" for u in (ANN, EVIL, BOB)
    ]
    assert "hard (computer)" in text
    # The provisional players below the line, after the ranked ones.
    assert text.index("Ann") < text.index("Not ranked yet") < text.index(HOSTILE[0])
    # The measure ranked by first, in bold: wins here.
    assert "<strong>2 wins</strong> · 1,100 · 50% won · 25% bids exact" in page
    # Every order and preset offered, the chosen ones marked; pages turn both ways.
    current = [a["href"] for tag, a in Tags(page).tags if tag == "a" and "aria-current" in a]
    assert current == ["?by=wins&preset=classic", "?by=wins&preset=classic"]
    for order in ("?preset=classic", "?by=win_rate&preset=classic", "?by=points&preset=classic"):
        assert order in links
    assert "?by=wins" in links and "?by=wins&preset=oh-hell" in links
    assert "?by=wins&preset=classic&page=1" not in links
    assert "?by=wins&preset=classic" in links and "?by=wins&preset=classic&page=3" in links
    assert "?games=1" in links
    assert "Ranked by wins · page 2 of 3 · 2 players" in text
    assert board_query() == "?" and board_query("rating", None, 2) == "?page=2"


def test_the_first_and_last_pages_turn_one_way_and_an_empty_board_says_why() -> None:
    first = board_page(
        Leaderboard(rows=[row(1, ANN, 1100)], caller=None, pages=1, ranked=1), {}, LINKS
    )
    assert '<span class="off">◀ Previous</span>' in first
    assert '<span class="off">Next ▶</span>' in first
    assert "(name unknown)" in first
    empty = board_page(Leaderboard(rows=[], caller=None), {}, LINKS)
    assert "Nobody here has a rating yet" in empty and "<code>/ohhell start</code>" in empty
    unranked_only = board_page(
        Leaderboard(rows=[row(None, ANN, 1000, True)], caller=None), NAMES_HERE, LINKS
    )
    assert '<ol class="board"></ol>' not in unranked_only and "Not ranked yet" in unranked_only


def test_the_recent_games_link_each_game_to_its_replay() -> None:
    entries = tuple(
        HistoryEntry(
            game=40 + i,
            channel_id=5,
            preset="classic",
            finished_at=1_790_000_000.0,
            players=("Ann", *HOSTILE),
            winners=(HOSTILE[1],),
        )
        for i in range(3)
    )
    page = history_page(HistoryPage(page=1, entries=entries, has_next=True), LINKS)
    assert all(name not in page for name in HOSTILE)
    links = [a["href"] for tag, a in Tags(page).tags if tag == "a"]
    assert links == ["../s/board", "../g/game40", "../g/game41", "../g/game42", "?games=2"]
    assert "2026-09-21" in page and "<h1>Recent games</h1>" in page
    empty = history_page(HistoryPage(page=1, entries=(), has_next=False), LINKS)
    assert "No finished games yet" in empty


def stats(**changes: object) -> PlayerStats:
    base: dict[str, object] = {
        "user_id": ANN,
        "games": 12,
        "wins": 5,
        "places": ((1, 5), (2, 7)),
        "left_early": 0,
        "exact_bid_rate": 0.4,
        "points_per_hand": 3.5,
        "best_game": (57, 41),
        "favourite_preset": ("classic", 12),
        "detail": GameDetail(games=12, hands=60, bid_error=0.3, bid_miss=0.8),
        "detail_limit": 100,
        "rating": 1042,
        "rating_provisional": True,
        "rating_uncertainty": 180,
        "rating_change": 12,
        "rating_change_game": 57,
        "rating_history": tuple((50 + i, 1000 + 4 * i) for i in range(12)),
        "rating_history_provisional": (True,) * 12,
    }
    base.update(changes)
    return PlayerStats(**base)  # type: ignore[arg-type]


def test_a_players_page_has_the_stats_and_the_rating_chart_drawn_in_it() -> None:
    page = player_page(stats(), HOSTILE[1], "../s/board", LINKS.game)
    assert HOSTILE[1] not in page and "Oh Hell stats — &quot;&gt;&lt;img" in page
    text = unescape(re.sub(r"<[^>]+>", " ", page))
    for words in (
        "12 played · 5 won (42%)",
        "#1 ×5 · #2 ×7",
        "1,042? (+12 in game #57)",
        "provisional: may be 180 points off",
        "41 points in game #57",
        "classic (12 games)",
        "What the number means: /ohhell ratings",
    ):
        assert words in text, words
    links = [a["href"] for tag, a in Tags(page).tags if tag == "a"]
    assert links == ["../s/board", "../g/game57"]
    # The chart is in the page: no image, a line and a hollow point per provisional game.
    assert "<img" not in page and page.count("<svg") == 1
    assert page.count('fill="#fff"') == 12 and 'stroke-dasharray="6 4"' in page
    assert "Rating (dashed, hollow: provisional ?)" in page
    nobody = player_page(stats(games=0, rating=None), "Ann", "../s/board")
    assert "Ann has no finished games on this server yet." in nobody and "<svg" not in nobody


def test_the_rating_chart_stays_small_however_many_games() -> None:
    points = tuple((i, 1000 + (i % 50)) for i in range(5000))
    chart = rating_svg(points, (True,) * 10)
    assert len(chart) < 20_000 and "#4999" in chart
    (drawn,) = re.findall(r'<polyline points="([^"]*)"[^>]*/>(?!.*<polyline)', chart)
    assert len(drawn.split()) <= MAX_POINTS + 1  # from the last provisional point on
    settled = rating_svg(((1, 1000), (2, 1010)), (False, False))
    assert "dashed" not in settled and "stroke-dasharray" not in settled


def test_the_served_replay_is_the_file_with_the_bots_own_style_and_script() -> None:
    record = hostile_record(seed=5, max_cards=10)
    ratings = [(1012, 12, True), (988, -12, True), None, (1003, 3, False)]
    links = GameLinks(board="../s/board", people=["../p/a", "../p/b", "../p/c", None])
    served = replay_page(12, record, ratings, links=links, served=True)
    file = replay_page(12, record, ratings, links=links)
    tags = Tags(served).tags
    # No inline script or style: the data block is not run, the script and style are files.
    scripts = [a for tag, a in tags if tag == "script"]
    assert scripts[0] == {"type": "application/json", "id": "game"}
    assert re.fullmatch(r"/static/replay\.js\?v=\w+", scripts[1]["src"] or "")
    assert len(scripts) == 2 and "<style" not in served and "Content-Security" not in served
    assert not any("style" in a for _, a in tags)
    sheets = [a["href"] or "" for tag, a in tags if tag == "link" and a["rel"] == "stylesheet"]
    assert [sheet.split("?v=")[0] for sheet in sheets] == [
        "/static/cards.css",
        "/static/replay.css",
    ]
    # The file holds both, inline, in the same order.
    style = re.search(r"<style>(.*)</style>", file, re.S)
    assert style is not None
    sheets_text = (ASSETS[name].body.decode() for name in ("cards.css", "replay.css"))
    assert style.group(1) == "".join(sheets_text)
    # The same page otherwise: what is between the head and the script is the same.
    body = re.compile(r"</head>(.*)</script>", re.S)
    assert (
        body.search(served).group(1).rsplit("<script", 1)[0]
        == (  # type: ignore[union-attr]
            body.search(file).group(1).rsplit("<script", 1)[0]  # type: ignore[union-attr]
        )
    )
    assert embedded(served) == embedded(file)
    # Links: the leaderboard and each person, not the computer.
    links_found = [a["href"] for tag, a in tags if tag == "a" and not a["href"].startswith("#")]
    assert sorted(links_found) == ["../p/a", "../p/b", "../p/c", "../s/board"]
    # Rating changes worded as the final standings post words them.
    assert '<span class="rating"> · 1,012? (+12)</span>' in served
    assert '<span class="rating"> · 988? (-12)</span>' in served
    assert '<span class="rating"> · 1,003 (+3)</span>' in served
    assert served.count('class="rating"') == 3
    assert len(served.encode()) < 100_000


@pytest.mark.parametrize("code", sorted(set(LANGUAGES) - {"en"}))
def test_each_language_speaks_the_pages(code: str) -> None:
    english = [board_page(BOARD, NAMES_HERE, LINKS), history_page(HISTORY, LINKS)]
    with speaking(language(code)):
        spoken = [board_page(BOARD, NAMES_HERE, LINKS), history_page(HISTORY, LINKS)]
    for theirs, ours in zip(spoken, english, strict=True):
        title = re.search(r"<h1>(.*?)</h1>", theirs)
        assert title is not None and title.group(1) not in ours
        assert f'lang="{code.replace("_", "-")}"' in theirs


HISTORY = HistoryPage(page=2, entries=(), has_next=True)


def test_no_word_of_the_pages_is_left_in_english() -> None:
    with speaking(pseudo_language()):
        pages = [
            board_page(BOARD, NAMES_HERE, LINKS),
            player_page(stats(), "Ann", "../s/board", LINKS.game),
            history_page(HISTORY, LINKS),
        ]
    for page in pages:
        # A command shown as code is kept as it is, as between backticks in Discord.
        page = re.sub(r"<code>(.*?)</code>", r"`\1`", page)
        shown = unescape(re.sub(r"<[^>]+>", " ", page))
        for name in ("Ann", *HOSTILE):
            shown = shown.replace(name, " ")
        assert english_words(shown) == [], shown
