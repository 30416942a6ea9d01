"""The replay page: one self-contained HTML document of a finished game, hostile names as text,
every trick of the record in it, small, and every word from the catalogs."""

from __future__ import annotations

import random
import re
from html import unescape
from html.parser import HTMLParser

import pytest

from bot.engine import Game, Phase, Settings
from bot.engine.records import record_from_game, replay
from cogs.render.language import LANGUAGES, language, speaking
from cogs.web.replay import replay_page, script_json
from tests.cogs.web.pages import HOSTILE, NAMES, embedded, hostile_record, laid, plays
from tools.catalogs import english_words, pseudo_language

RECORD = hostile_record()
PAGE = replay_page(12, RECORD)


class Tags(HTMLParser):
    """The tags of a page, with their attributes, as a browser parses them."""

    def __init__(self, page: str) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.feed(page)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))


FETCHING = ("src", "href", "action", "formaction", "srcset", "poster", "data", "xlink:href")


def test_the_page_makes_no_request_out() -> None:
    tags = Tags(PAGE).tags
    # Nothing fetched: no tag that loads, and the only addresses are anchors in the page.
    assert {tag for tag, _ in tags} & {"link", "img", "iframe", "object", "embed", "base"} == set()
    addresses = [a[key] or "" for _, a in tags for key in FETCHING if key in a]
    assert addresses and all(address.startswith("#") for address in addresses)
    assert [a for tag, a in tags if tag == "script"] == [
        {"type": "application/json", "id": "game"},
        {},
    ]
    # The page's policy lets nothing load and runs only its own style and script.
    (policy,) = [a["content"] for t, a in tags if a.get("http-equiv") == "Content-Security-Policy"]
    assert policy is not None and policy.startswith("default-src 'none'; style-src 'sha256-")
    assert "unsafe" not in policy
    # No address of anywhere in the style or the script either.
    assert not re.search(r"https?:|//[\w.-]+\.\w", PAGE)
    assert "@import" not in PAGE and "url(" not in PAGE
    assert not re.search(r"\b(?:fetch|XMLHttpRequest|WebSocket|EventSource)\b", PAGE)


def test_hostile_names_are_text() -> None:
    for name in HOSTILE:
        assert name not in PAGE
    assert [tag for tag, _ in Tags(PAGE).tags if tag in ("img", "script")] == ["script"] * 2
    assert not any(key.startswith("on") for _, a in Tags(PAGE).tags for key in a)
    # In the HTML they are escaped; in the data they come back exactly.
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in PAGE
    assert embedded(PAGE)["players"][1:3] == list(HOSTILE)


def test_the_data_block_cannot_be_ended_by_a_name() -> None:
    written = script_json({"name": "</script><script>alert(1)</script><!-- & >"})
    assert not set(written) & set("<>&")
    assert "\\u003c/script\\u003e" in written


def test_every_trick_of_the_record_is_in_the_page() -> None:
    summary = replay(RECORD)
    data = embedded(PAGE)
    assert summary["game_over"] and len(data["hands"]) == len(RECORD["hands"]) > 10
    assert laid(data) == plays(RECORD)
    tricks = 0
    for hand, scored, shown in zip(RECORD["hands"], summary["hands"], data["hands"], strict=True):
        assert shown["dealt"] == hand["cards"]
        assert [t["cards"] for t in shown["tricks"]] == [t["cards"] for t in scored["tricks"]]
        assert [t["winner"] for t in shown["tricks"]] == [t["winner"] for t in scored["tricks"]]
        tricks += len(shown["tricks"])
    assert tricks == sum(len(h["cards"][0]) for h in RECORD["hands"])
    # A link to every hand's first trick.
    for number in range(1, len(RECORD["hands"]) + 1):
        assert f'href="#h{number}t1"' in PAGE


def test_the_page_of_a_long_game_is_small() -> None:
    longest = hostile_record(seed=9, max_cards=12)
    assert len(longest["hands"]) >= 20
    assert len(replay_page(99999, longest).encode()) < 100_000


def test_the_standings_and_chart_are_drawn_in_the_page() -> None:
    summary = replay(RECORD)
    assert "<svg" in PAGE and PAGE.count("<polyline") == len(NAMES)
    standings = re.search(r'<section class="standings">(.*?)</section>', PAGE, re.S)
    assert standings is not None
    rows = re.findall(
        r'class="place">(\d+)\.</span> <span class="name">(.*?)</span> '
        r'<span class="total">(-?\d+)</span>',
        standings.group(1),
    )
    placing, totals = summary["placing"], summary["totals"]
    by_place = sorted(range(len(NAMES)), key=lambda seat: (placing[seat], seat))
    assert [(int(p), unescape(n), int(t)) for p, n, t in rows] == [
        (placing[seat], NAMES[seat], totals[seat]) for seat in by_place
    ]
    # The chart: a dot for each bid met.
    assert PAGE.count("<circle") == sum(
        b == t
        for hand in summary["hands"]
        for b, t in zip(hand["bids"], hand["tricks_won"], strict=True)
    )


@pytest.mark.parametrize("code", [c for c in LANGUAGES if c != "en"])
def test_every_language_writes_the_page(code: str) -> None:
    with speaking(language(code)):
        page = replay_page(12, RECORD)
    words = visible_text(page)
    english = visible_text(PAGE)
    assert "Final standings" not in words and "wins the trick" not in words
    assert words != english
    if code == "nl":
        assert embedded(page)["ranks"]["Q"] == "V"
        assert "Ronde 1" in words and "Slag {trick} van {count}" in words


def test_the_pseudo_language_leaves_no_english() -> None:
    with speaking(pseudo_language()):
        page = replay_page(12, RECORD)
    text = visible_text(page)
    for name in NAMES[:3]:
        text = text.replace(name, " ")
    assert english_words(text) == []


def visible_text(page: str) -> str:
    """What the page shows: its text outside the style and the script, and the words the
    script fills in (headings, result lines, labels, names) from its data."""
    data = embedded(page)
    shown = re.sub(r"<style>.*?</style>|<script.*?</script>", " ", page, flags=re.S)
    shown = unescape(re.sub(r"<[^>]+>", " ", shown))
    words = [shown, *data["players"], *data["labels"].values()]
    for hand in data["hands"]:
        words += [hand["title"], *hand["results"]]
    return "\n".join(words)


def test_a_joker_led_in_no_trumps_shows_the_suit_named() -> None:
    game = Game.new(
        Settings(preset="classic", pack="52+joker", trump="rotation", max_cards=4),
        3,
        9,
        names=["Ann", "Bob", "Cat"],
    )
    rng = random.Random(9)
    while game.phase is not Phase.GAME_OVER:
        seat = game.to_act[0]
        game.apply(seat, rng.choice(game.legal_actions(seat)))
    record = record_from_game(game)
    named = [a["suit"] for hand in record["hands"] for a in hand["actions"] if "suit" in a]
    assert named
    data = embedded(replay_page(1, record))
    shown = [
        suit
        for hand in data["hands"]
        for trick in hand["tricks"]
        for card, suit in zip(trick["cards"], trick.get("named", []), strict=False)
        if card == "JOKER" and suit
    ]
    assert shown == named
