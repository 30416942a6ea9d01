"""Every word the rules, leaderboard, ratings, stats, history, review and privacy texts show
comes from the catalog: rendered in a language whose catalog masks each word it is asked for,
no word is left to read but the values put into them (names, mentions, numbers)."""

from __future__ import annotations

import io
import re
from collections.abc import Iterator
from dataclasses import replace

import discord
import pytest
from babel import Locale
from PIL import Image

from bot.engine import JOKER, PRESETS, Card, Settings
from bot.service import (
    BOARD_ORDERS,
    ChannelDefaults,
    ClosedReason,
    Leaderboard,
    LeaderboardRow,
    RulesSource,
)
from bot.service.my_data import DataExport
from bot.service.privacy import ErasureOffer, Forgotten
from bot.service.review import HandReview, Review
from bot.service.summaries import (
    RATING_GUIDE,
    GameDetail,
    HistoryEntry,
    HistoryPage,
    ScoreChart,
)
from bot.storage.ratings import COMPUTER_IDS
from cogs.render.charts import CHART_SIZE, score_chart_png
from cogs.render.common import card_text, level_text, name_text, timer_text, trump_text
from cogs.render.history import history_message, record_file_name, record_text
from cogs.render.language import Language, speaking
from cogs.render.leaderboard import leaderboard_embed, leaderboard_view
from cogs.render.lobby import value_text
from cogs.render.privacy import erasure_confirm, forgotten_text, former_player, my_data_text
from cogs.render.ratings import ratings_help
from cogs.render.review import review_embed, review_progress
from cogs.render.rules import (
    channel_defaults_text,
    closed_text,
    describe,
    rules_source_text,
)
from cogs.render.stats import stats_embed
from tests.catalogs import Rewriting
from tests.cogs.renders import a_moment, a_stats

PLACEHOLDER = re.compile(r"(\{[a-z_]*\})")
MASK = "•"
VALUES = re.compile(r"<t:\d+(?::[a-zA-Z])?>|<[@#]\d+>|https?://\S+")
"""Values no catalog writes: Discord timestamps, mentions of people and channels, links."""


def masked(message: str) -> str:
    """`message` as the test's catalog gives it: every letter masked, placeholders kept."""
    parts = PLACEHOLDER.split(message)
    for i in range(0, len(parts), 2):  # the text between placeholders
        parts[i] = "".join(MASK if c.isalpha() else c for c in parts[i])
    return "«" + "".join(parts) + "»"


MASKING = Language("xx", Rewriting(masked), Locale("en"))
NAMES = ("Ann", "Bob", "Guild", "Computer 2 (hard)", "Former player 1")
CARDS = (*(Card.parse(text) for text in ("5H", "10H", "2H", "AS", "QD", "KC", "JS")), JOKER)


def known_values() -> list[str]:
    """What other renderers and the test's data put into these texts, in the language spoken:
    names, computer levels, cards, trumps, timers, a file name."""
    values = [name_text(name) for name in (*NAMES, former_player(1))]
    values += [level_text(level) for level in COMPUTER_IDS]
    values += [card_text(card) for card in CARDS]
    values += [trump_text(suit, True) for suit in "CDHS"]
    values += [timer_text(seconds) for seconds in (0, 30, 120)]
    values.append(record_file_name(7))
    return sorted(values, key=len, reverse=True)


def left_to_read(text: str) -> str:
    """The letters of `text` no catalog gave (with the values put into them taken out)."""
    for value in known_values():
        text = text.replace(value, "")
    return "".join(c for c in VALUES.sub("", text) if c.isalpha())


def embed_texts(embed: discord.Embed) -> list[str]:
    texts = [embed.title or "", embed.description or "", embed.footer.text or ""]
    for field in embed.fields:
        texts += [field.name or "", field.value or ""]
    return texts


def labels(view: discord.ui.View | None) -> list[str]:
    """The buttons' labels (a persistent button is a `DynamicItem` around its button)."""
    assert view is not None
    found = [getattr(getattr(item, "item", item), "label", None) for item in view.children]
    assert all(found)
    return [str(label) for label in found]


def rules_texts() -> Iterator[str]:
    variants = [Settings(preset=preset) for preset in PRESETS] + [
        Settings(preset="classic", trump="turned", ace_no_trumps=True, spades_double=True),
        Settings(preset="classic", bidding="knock", bid_changes=False, blind="all", pack="104"),
        Settings(preset="oh-hell", bidding="open", blind="last", pack="78", max_cards=3),
        Settings(preset="classic", trump="rotation", end="target", target=50, max_cards=3),
        Settings(preset="classic", trump="bidder", sequence="fixed", max_cards=1),
        Settings(preset="classic", first_lead="dealer", ties="extra-hand"),
    ]
    for settings in variants:
        yield from describe(settings, 4)
    defaults = ChannelDefaults(Settings(preset="nomination"), 120)
    for changed in (True, False):
        yield channel_defaults_text(defaults, changed=changed)
        yield channel_defaults_text(None, changed=changed)
    sources = [
        RulesSource(kind="preset", preset="classic"),
        RulesSource(kind="rematch", table=5),
        RulesSource(kind="channel", set_by=7),
        RulesSource(kind="channel", set_by=7, changed=True),
    ]
    yield from (rules_source_text(source) for source in sources)
    kinds = ("channel_deleted", "bot_removed", "expired", "abandoned")
    for kind in kinds:
        for after in (1, 90, 900, 5400, 86400):
            yield closed_text(ClosedReason(kind=kind, after=after))


def board_texts() -> Iterator[str]:
    def row(rank: int, user_id: int) -> LeaderboardRow:
        return LeaderboardRow(rank, user_id, 1000 + rank, 4, 1, 0.25, 0.5, 3.25)

    board = Leaderboard(
        rows=[row(11, 5), row(12, COMPUTER_IDS["hard"])],
        caller=row(40, 7),
        by="points",
        preset="classic",
        page=2,
        pages=4,
        ranked=35,
        unranked=5,
    )
    below = replace(row(1, 8), rank=None, provisional=True)
    for by in BOARD_ORDERS:
        yield from embed_texts(leaderboard_embed(replace(board, by=by), "Guild"))
        with_line = replace(board, by=by, rows=[*board.rows, below])
        yield from embed_texts(leaderboard_embed(with_line, "Guild"))
    yield from labels(leaderboard_view(board))
    yield from embed_texts(leaderboard_embed(Leaderboard(rows=[], caller=None), "Guild"))


def stats_texts() -> Iterator[str]:
    stats = a_stats()
    yield from embed_texts(stats_embed(stats, "Ann", chart=True))
    for lean, reason in ((-0.4, "too_few_rated"), (0.0, "nobody_stayed"), (0.1, None)):
        other = replace(
            stats,
            detail=GameDetail(games=5, hands=40, bid_error=lean, bid_miss=0.5),
            rating_provisional=False,
            rating_rank=3,
            rating_ranked=120,
            unrated_reason=reason,
            computers=(),
        )
        yield from embed_texts(stats_embed(other, "Ann"))
    yield from embed_texts(stats_embed(replace(stats, games=0), "Ann"))
    yield from embed_texts(ratings_help(RATING_GUIDE))


def history_texts() -> Iterator[str]:
    entries = tuple(
        HistoryEntry(
            game=7 - n,
            channel_id=5,
            preset=preset,
            finished_at=1_800_000_000.0,
            players=("Ann", "Computer 2 (hard)", "Former player 1", "Bob", *NAMES),
            winners=("Computer 2 (hard)",) if n else (),
        )
        for n, preset in enumerate(PRESETS)
    )
    rendered = history_message(HistoryPage(page=2, entries=entries, has_next=True), "Guild")
    assert rendered.embed is not None
    yield from embed_texts(rendered.embed)
    yield from labels(rendered.view)
    empty = history_message(HistoryPage(page=1, entries=(), has_next=False), "Guild").embed
    assert empty is not None
    yield from embed_texts(empty)
    yield record_text(7, record_file_name(7))


def review_texts() -> Iterator[str]:
    moments = (
        a_moment("bid", cost=1.0),
        a_moment("trump"),
        a_moment("play"),
        a_moment("play", CARDS[1:3]),
    )
    hands = tuple(
        HandReview(
            hand=n,
            cards=CARDS[:5],
            trump=trump,
            bid=2,
            taken=1,
            points=points,
            hard_bid=hard_bid,
            hard_tricks=2.6,
            moments=moments,
        )
        for n, (trump, points, hard_bid) in enumerate(
            (("S", 1, 3), (None, None, None), ("H", -4, 2)), start=1
        )
    )
    for worse, agreed in ((2, 10), (0, 10), (0, 12)):
        review = Review(
            table_id=7,
            name="Ann",
            decisions=12,
            agreed=agreed,
            clearly_worse=worse,
            hands=hands,
            costliest=moments,
            total_cost=12.5,
            not_theirs=worse,
        )
        yield from embed_texts(review_embed(review))
    yield review_progress(1, 1)
    yield review_progress(24, 60)


def privacy_texts() -> Iterator[str]:
    for zipped in (True, False):
        yield my_data_text(DataExport(b"{}", 3, 1), zipped=zipped)
    offer = erasure_confirm(ErasureOffer("token", 1_800_000_000.0))
    yield offer.content or ""
    yield from labels(offer.view)
    yield forgotten_text(Forgotten((), (), 1, 14))


RENDERS = {
    "rules": rules_texts,
    "leaderboard": board_texts,
    "stats and ratings": stats_texts,
    "history": history_texts,
    "review": review_texts,
    "privacy": privacy_texts,
}


@pytest.mark.parametrize("render", RENDERS.values(), ids=list(RENDERS))
def test_every_word_comes_from_the_catalog(render: object) -> None:
    with speaking(MASKING):
        texts = list(render())  # type: ignore[operator]
        unread = {text: left_to_read(text) for text in texts}
    assert sum("«" in text for text in texts) > len(texts) / 2  # they were rendered
    assert {text: letters for text, letters in unread.items() if letters} == {}


def test_the_check_finds_a_word_left_unmarked() -> None:
    with speaking(MASKING):
        assert left_to_read(masked("Hands: {hands}").format(hands="4 hands")) == "hands"
        assert left_to_read(masked("by {name} at {when}").format(name="Ann", when="<t:9:R>")) == ""


def test_every_preset_has_a_name_in_the_catalog() -> None:
    with speaking(MASKING):
        assert {preset: value_text(preset) for preset in PRESETS} == {
            preset: masked(preset) for preset in PRESETS
        }
    assert [value_text(preset) for preset in PRESETS] == list(PRESETS)
    assert value_text("no-such-preset") == "no-such-preset"


def test_the_score_chart_is_drawn_in_the_language_spoken() -> None:
    chart = ScoreChart(
        game=7,
        names=("Ann", "Computer 2 (hard)", "Former player 1"),
        hands=(1, 2, 3),
        totals=((10, 21, 33), (0, -3, 8), (5, 5, 17)),
        made=((True, True, True), (False, True, False), (True, False, True)),
        target=101,
    )
    english = score_chart_png(chart)
    with speaking(MASKING):
        spoken = score_chart_png(chart)
    image = Image.open(io.BytesIO(spoken))
    assert image.format == "PNG" and image.size == CHART_SIZE
    assert spoken != english  # its title, axes and target line read otherwise
    assert score_chart_png(chart, "en") == english
