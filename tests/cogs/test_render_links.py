"""The links to the web pages on the messages the bot sends anyway: a Watch link button on an
open table's message, Replay on a finished one's and on the final standings, replays in the
history's lines, the leaderboard's and a player's page. Without the pages' addresses every
message is as it is without the web pages."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from bot.engine import Phase
from bot.service import Leaderboard, LeaderboardRow, TableStatus
from bot.service.notices import FinalStandings, HandScore
from bot.service.summaries import HistoryEntry, HistoryPage
from cogs import render
from cogs.render.common import Rendered
from cogs.render.history import history_message
from cogs.render.stats import stats_view
from tests.cogs.renders import a_game, a_stats, a_table

WATCH = "https://ohhell.example.org/t/token"
REPLAY = "https://ohhell.example.org/g/token"
PAGES = render.TablePages(watch=WATCH, replay=REPLAY)


def components(rendered: Rendered) -> list[list[dict[str, Any]]]:
    if rendered.view is None:
        return []
    return [row["components"] for row in rendered.view.to_components()]


def link_buttons(rows: list[list[dict[str, Any]]]) -> list[tuple[str, str]]:
    return [(c["label"], c["url"]) for row in rows for c in row if c.get("style") == 5]


def without_links(rows: list[list[dict[str, Any]]]) -> list[list[dict[str, Any]]]:
    kept = [[c for c in row if c.get("style") != 5] for row in rows]
    return [row for row in kept if row]


TABLES = {
    "lobby": a_table(),
    "playing": a_table(status=TableStatus.PLAYING, game=a_game(), start_problem=None),
    "finished": a_table(
        status=TableStatus.FINISHED,
        game=a_game(phase=Phase.GAME_OVER, placing=(1, 2, 3, 4, 5, 6), to_act=()),
        start_problem=None,
    ),
}


@pytest.mark.parametrize("state", TABLES)
def test_a_table_message_links_to_its_page_beside_its_buttons(state: str) -> None:
    table = TABLES[state]
    plain = render.table_message(table)
    linked = render.table_message(table, PAGES)
    assert link_buttons(components(plain)) == []
    expected = ("Replay", REPLAY) if state == "finished" else ("Watch", WATCH)
    assert link_buttons(components(linked)) == [expected]
    # The same message otherwise: its words, and its buttons in their rows.
    assert without_links(components(linked)) == components(plain)
    assert plain.embed is not None and linked.embed is not None
    assert linked.embed.to_dict() == plain.embed.to_dict()
    assert all("custom_id" not in c for row in components(linked) for c in row if "url" in c)


def test_a_table_closed_without_its_game_finished_has_no_link() -> None:
    for status in (TableStatus.CANCELLED, TableStatus.ABANDONED):
        closed = a_table(status=status, game=a_game(), start_problem=None)
        assert components(render.table_message(closed, PAGES)) == []


def test_the_final_standings_link_to_their_games_replay_and_no_other_post_does() -> None:
    standings = FinalStandings(standings=((1, "Ann", 40), (2, "Bob", 12)), game=57)
    assert render.replay_of(standings) == 57
    assert render.replay_of(FinalStandings(standings=((1, "Ann", 40),))) is None
    assert render.replay_of(HandScore(hand=1, rows=())) is None
    assert render.notice_view(None) is None
    view = render.notice_view(REPLAY)
    assert view is not None
    rendered = Rendered(render.notice_text(standings), None, view)
    assert link_buttons(components(rendered)) == [("Replay", REPLAY)]


def entry(game: int, name_length: int = 8) -> HistoryEntry:
    names = tuple(f"{seat}" * name_length for seat in range(6))
    return HistoryEntry(game, 2, "classic", 1_800_000_000.0, names, names[:1])


def test_each_game_in_the_history_links_to_its_replay() -> None:
    page = HistoryPage(page=1, entries=(entry(12), entry(11)), has_next=False)
    plain = history_message(page, "Server")
    linked = history_message(page, "Server", {12: REPLAY + "12", 11: REPLAY + "11"})
    assert plain.embed is not None and linked.embed is not None
    assert plain.embed.description is not None and linked.embed.description is not None
    assert plain.embed.description.splitlines()[0].startswith("**#12** · ")
    lines = linked.embed.description.splitlines()
    assert lines[0].startswith(f"**[#12]({REPLAY}12)** · ")
    assert lines[1].startswith(f"**[#11]({REPLAY}11)** · ")
    assert [line.replace(f"[#12]({REPLAY}12)", "#12") for line in lines[:1]] == (
        plain.embed.description.splitlines()[:1]
    )
    assert linked.view is None  # one page: no buttons, as without the links


def test_a_history_too_long_for_every_link_keeps_whole_lines_and_links_those_that_fit() -> None:
    long_url = "https://" + "w" * 380 + ".org/g/token"
    page = HistoryPage(page=1, entries=tuple(entry(n, 30) for n in range(10)), has_next=True)
    plain = history_message(page, "Server")
    linked = history_message(page, "Server", {n: long_url for n in range(10)})
    assert plain.embed is not None and linked.embed is not None
    plain_lines = (plain.embed.description or "").splitlines()
    lines = (linked.embed.description or "").splitlines()
    assert len(linked.embed.description or "") <= 4096
    assert len(lines) == len(plain_lines) == 10
    with_link = [line for line in lines if long_url in line]
    assert 0 < len(with_link) < 10
    assert lines[: len(with_link)] == with_link  # the newest games first
    assert [line.replace(f"[#{n}]({long_url})", f"#{n}") for n, line in enumerate(lines)] == (
        plain_lines
    )


def board(pages: int) -> Leaderboard:
    row = LeaderboardRow(1, 5, 1500, 3, 2, 0.5, 0.5, 3.0)
    return Leaderboard(rows=[row], caller=None, page=1, pages=pages, ranked=1)


def test_the_leaderboard_links_to_its_page() -> None:
    page = "https://ohhell.example.org/s/token"
    assert render.leaderboard_view(board(1)) is None
    alone = render.leaderboard_view(board(1), page)
    assert alone is not None
    assert link_buttons([r["components"] for r in alone.to_components()]) == [
        ("Leaderboard page", page)
    ]
    plain = render.leaderboard_view(board(3))
    linked = render.leaderboard_view(board(3), page)
    assert plain is not None and linked is not None
    rows = [r["components"] for r in linked.to_components()]
    assert link_buttons(rows) == [("Leaderboard page", page)]
    assert without_links(rows) == [r["components"] for r in plain.to_components()]


def test_stats_link_to_the_players_page_once_they_have_played() -> None:
    page = "https://ohhell.example.org/p/token"
    view = stats_view(a_stats(), page)
    assert view is not None
    assert link_buttons([r["components"] for r in view.to_components()]) == [("Player page", page)]
    assert stats_view(a_stats(), None) is None
    assert stats_view(dataclasses.replace(a_stats(), games=0), page) is None


def test_a_catch_up_post_links_to_each_games_replay_up_to_discords_25() -> None:
    assert render.replays_view([]) is None
    two = render.replays_view([(12, REPLAY + "12"), (13, REPLAY + "13")])
    assert two is not None
    rows = [r["components"] for r in two.to_components()]
    assert link_buttons(rows) == [("Replay #12", REPLAY + "12"), ("Replay #13", REPLAY + "13")]
    many = render.replays_view([(n, f"{REPLAY}{n}") for n in range(30)])
    assert many is not None
    rows = [r["components"] for r in many.to_components()]
    assert len(rows) == 5 and all(len(row) == 5 for row in rows)
    assert link_buttons(rows)[-1] == ("Replay #24", f"{REPLAY}24")


def custom_ids(rows: list[list[dict[str, Any]]]) -> list[str]:
    return [c["custom_id"] for row in rows for c in row if "custom_id" in c]


@pytest.mark.parametrize("state", ["lobby", "playing"])
def test_an_open_table_offers_play_at_the_table_beside_watch_when_the_activity_is_on(
    state: str,
) -> None:
    table = TABLES[state]
    on = dataclasses.replace(PAGES, activity=True)
    rows = components(render.table_message(table, on))
    labels = [c["label"] for row in rows for c in row]
    assert labels.index("Play at the table") + 1 == labels.index("Watch")
    assert f"oh:activity:{table.table_id}" in custom_ids(rows)
    assert all(len(row) <= 5 for row in rows)
    # Without the Activity (no secret), or without the pages, no such button.
    for pages in (PAGES, render.TablePages(activity=True)):
        plain = custom_ids(components(render.table_message(table, pages)))
        assert f"oh:activity:{table.table_id}" not in plain


def test_a_finished_table_offers_no_activity() -> None:
    on = dataclasses.replace(PAGES, activity=True)
    rows = components(render.table_message(TABLES["finished"], on))
    assert not any(i.startswith("oh:activity:") for i in custom_ids(rows))
