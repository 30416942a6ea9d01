"""Every word the table, hand, lobby, post and refusal renders show comes through the catalog:
spoken in a language whose catalog wraps each message in «…», nothing but names, numbers,
cards, mentions and links is left once the wrapped parts are taken out."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterator
from typing import Any

import pytest
from babel import Locale

from bot.engine import Card, ChooseTrump, Phase, Play, Settings
from bot.service import (
    BidOption,
    CardOption,
    SeatView,
    TableStatus,
)
from bot.service.answers import AutoPlay
from bot.service.refusals import (
    ChannelHasTable,
    GamePaused,
    HostOnly,
    MissingPermissions,
    NoSuchPage,
    ReviewNotFinished,
    TableClosed,
    TableFull,
)
from cogs import render
from cogs.render import explanations
from cogs.render.common import name_text
from cogs.render.language import Language, speaking
from cogs.render.lobby import RULE_CHOICES, RULE_PAGES, RULE_VALUES, rule_text, value_text
from cogs.render.rules import closed_text, rules_summary
from tests.catalogs import Rewriting
from tests.cogs.renders import (
    ABANDONED,
    EXPIRED,
    NOTICES,
    PLAYING,
    REASONS,
    SEATS,
    a_game,
    a_hand,
    a_table,
)

PEOPLE = ("Ann", "Bob", "Cat")
# Tokens that are no words: a wrapped message, a mention, a timestamp, a channel, a link.
WRAPPED = re.compile(r"«[^«»]*»")
TOKENS = re.compile(r"<[@#]\d+>|<t:\d+:R>|https://\S+|\b(?:" + "|".join(PEOPLE) + r")\b")
LETTER = re.compile(r"[^\W\d_]")


@pytest.fixture
def marked() -> Iterator[Language]:
    marking = Rewriting(lambda message: f"«{message}»")
    with speaking(Language("xx", marking, Locale("en"))) as language:
        yield language


def unmarked(text: str, *foreign: str) -> str:
    """What is left of `text` once every wrapped message, every token and `foreign` (the words
    of renders that are not these files') is taken out."""
    for words in foreign:
        text = text.replace(words, "")
    while WRAPPED.search(text):
        text = WRAPPED.sub("", text)
    return TOKENS.sub("", text)


def assert_marked(text: str | None, *foreign: str) -> None:
    left = unmarked(text or "", *foreign)
    assert not LETTER.search(left), f"not through the catalog: {left!r} in {text!r}"


def shown(rendered: render.Rendered) -> list[str]:
    """Every text of a message a person reads: content, embed, button and menu labels."""
    texts = [rendered.content or ""]
    if rendered.embed is not None:
        parts: dict[str, Any] = dict(rendered.embed.to_dict())
        texts += [parts.get("title", ""), parts.get("description", "")]
        texts += [f["name"] + "\n" + f["value"] for f in parts.get("fields", [])]
        texts.append(parts.get("footer", {}).get("text", ""))
    view = rendered.view
    if view is not None:
        rows = view.to_components()
        for component in (c for row in rows for c in row["components"]):
            texts += [component.get("label", ""), component.get("placeholder", "")]
            for option in component.get("options", ()):
                texts += [option["label"], option.get("description") or ""]
    return texts


def assert_all_marked(rendered: render.Rendered, *foreign: str) -> None:
    texts = shown(rendered)
    assert any(texts), "nothing rendered"
    for text in texts:
        assert_marked(text, *foreign)


def test_a_lobby_and_its_editors_read_in_the_language(marked: Language) -> None:
    lobby = a_table(seats=(*SEATS, SeatView("Cat", 3, None, pending=True)))
    assert_all_marked(render.table_message(lobby), *rules_summary(lobby))
    for page in range(len(RULE_PAGES)):
        settings = Settings.model_validate({"preset": "classic", "ace_no_trumps": True})
        assert_all_marked(render.rules_editor(7, settings, page))
    assert_all_marked(render.computer_level_picker(7))
    for status in (TableStatus.LOBBY, TableStatus.PLAYING):
        table = a_table(status=status, paused=status is TableStatus.PLAYING)
        assert_all_marked(render.host_panel(table))
        assert_all_marked(render.leave_confirm(table))
    assert_all_marked(render.cancel_confirm(7))


def test_a_game_on_the_table_message_reads_in_the_language(marked: Language) -> None:
    playing = a_table(status=TableStatus.PLAYING, game=a_game(), deadline=1_800_000_000.0)
    tables = [
        playing,
        dataclasses.replace(playing, paused=True, dms_closed=(1, 2)),
        dataclasses.replace(
            playing,
            game=a_game(phase=Phase.PLAYING, trump=None, turned=None, cards_each=5, blind=False),
        ),
        dataclasses.replace(playing, game=a_game(trump_decided=False, bid_round=1)),
        a_table(
            status=TableStatus.FINISHED,
            game=a_game(phase=Phase.GAME_OVER, placing=(1, 2, 2, 4, 5, 6)),
        ),
        a_table(status=TableStatus.ABANDONED, game=a_game(), closed_reason=ABANDONED),
        a_table(status=TableStatus.CANCELLED, game=a_game()),
        a_table(status=TableStatus.ABANDONED, closed_reason=EXPIRED),
        a_table(status=TableStatus.CANCELLED),
    ]
    for table in tables:
        reason = closed_text(table.closed_reason) if table.closed_reason else ""
        assert_all_marked(render.table_message(table), reason)
        assert_marked(render.scores_text(table))
    assert "Computer" not in unmarked("\n".join(shown(render.table_message(playing))))


def test_a_hand_message_reads_in_the_language(marked: Language) -> None:
    table = a_table(status=TableStatus.PLAYING, game=a_game())
    where = render.where_text(2, "cards", "Friends")
    joker = (CardOption(Card("JOKER", None), 52, True),)
    states = [
        a_hand(),
        a_hand(my_turn=False, bid_options=tuple(BidOption(n, True) for n in range(30))),
        a_hand(my_turn=False),
        a_hand(bid_options=(BidOption(0, True), BidOption(1, False, GamePaused()))),
        a_hand(phase=Phase.TRUMP_CHOICE, bid_options=(), trump_options=("C", "S")),
        a_hand(**PLAYING, on_table=()),
        a_hand(
            **PLAYING,
            on_table=(("Former player 1", Card("2", "C")),),
            cards=joker,
            joker_suits=("C", "D"),
            trump=None,
            auto_play=False,
        ),
        a_hand(
            **PLAYING,
            blind_cards=(("Computer (hard)", Card("9", "S")),),
            trump_decided=False,
            bid=None,
        ),
        a_hand(away="timeout"),
        a_hand(away="kicked"),
        a_hand(game_over=True),
        a_hand(played_out=True),
        a_hand(**{**PLAYING, "phase": Phase.GAME_OVER}),
        a_hand(bids_so_far=(), bid_options=()),
    ]
    for state in states:
        assert_all_marked(render.hand_message(state, table, where))
    assert_marked(render.hand_over_text(3))
    assert_marked(render.hand_over_text(None))
    for status in (TableStatus.CANCELLED, TableStatus.ABANDONED):
        assert_marked(render.game_closed_text(a_table(status=status)))
        closed = a_table(status=status, closed_reason=ABANDONED)
        assert_marked(render.game_closed_text(closed), closed_text(ABANDONED))


def test_every_post_reads_in_the_language(marked: Language) -> None:
    for notice in NOTICES:
        assert_marked(render.notice_text(notice), closed_text(ABANDONED))
        assert "Computer" not in unmarked(render.notice_text(notice))
    assert_marked(render.turn_ping_text((1, 2), "https://discord.com/channels/1/2/3"))
    assert_marked(render.turn_ping_text((1,), "https://discord.com/channels/1/2/3", 1e9))
    for post, _held in render.catch_up_posts(["«x»", "«y»"]):
        assert_marked(post)


def test_every_refusal_and_answer_reads_in_the_language(
    marked: Language, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The engine's explanations are worded elsewhere: here they stand for any marked text.
    monkeypatch.setattr(explanations, "explanation_text", lambda params: "«explained»")
    for reason in REASONS:
        assert_marked(render.reason_text(reason))
        assert "Computer" not in unmarked(render.reason_text(reason))
    variants = [
        TableClosed(TableStatus.LOBBY),
        ChannelHasTable(7),
        MissingPermissions(("send_messages",)),
        HostOnly(""),
        NoSuchPage(9),
        ReviewNotFinished(7, TableStatus.ABANDONED),
        AutoPlay(False),
    ]
    for reason in variants:
        assert_marked(render.reason_text(reason))
    assert_marked(render.answer(None))
    assert_marked(render.answer(None, render.WELCOME_BACK))


def test_names_values_and_words_of_the_parts_read_in_the_language(marked: Language) -> None:
    for name in ("Computer (hard)", "Computer 12 (random)", "Former player 3"):
        assert_marked(name_text(name))
    assert name_text("Computer (nice)") == "Computer (nice)"
    assert name_text("Ann") == "Ann"
    assert_marked(render.card_text(Card("Q", "S")))
    assert_marked(render.trump_text("H", True) + render.trump_text(None, True))
    assert_marked(render.action_text(ChooseTrump("C")) + render.action_text(Play(Card("2", "D"))))
    for seconds in (0, 30, 120):
        assert_marked(render.timer_text(seconds))
    for field in (f for page in RULE_PAGES for f in page):
        assert_marked(rule_text(field))


def test_every_rule_value_the_editor_offers_has_a_label() -> None:
    values = {v for choices in RULE_CHOICES.values() for v in choices if not v.isdigit()}
    assert values - set(RULE_VALUES) == set()
    assert set(RULE_VALUES) - values == set()  # no label for a value nobody is offered
    assert value_text("exact-tens") == "exact-tens" and value_text("12") == "12"


def test_english_reads_as_it_did_with_no_language_chosen() -> None:
    table = a_table(status=TableStatus.PLAYING, game=a_game())
    embed = render.table_message(table).embed
    assert embed is not None and embed.description is not None
    assert embed.description.startswith(
        "Hand 3 · 1 card each · dealer Computer (hard) · trump: ♥ hearts (turned 7♥)"
    )
    assert "Bob (away; a computer plays until they're back) — bid 1 · took 1 · total 12" in str(
        embed.fields[0].value
    )
    assert "(2 earlier tricks)" in str(embed.fields[-2].value)
    assert render.reason_text(TableFull(10)) == "the table is full (10 seats)"
    assert render.answer(None) == "Done." and render.answer(None, render.WELCOME_BACK) == (
        "Welcome back."
    )


def test_the_bid_footer_is_one_sentence_with_one_colon() -> None:
    table = a_table(status=TableStatus.PLAYING, game=a_game())
    footers = [
        render.hand_message(hand, table, "#cards").embed.footer.text  # type: ignore[union-attr]
        for hand in (a_hand(), a_hand(my_turn=False))
    ]
    assert footers == [
        "Your bid · not 1, the hook: the bids would add up to 1 trick",
        "Change your bid? Not 1, the hook: the bids would add up to 1 trick",
    ]
