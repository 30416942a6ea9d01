"""Every refusal the engine explains (a move, rules it cannot play) and every problem with rules
that are not valid has words in cogs/render/explanations.py: read from a code and its values,
through the catalog, and in English as the engine's own message reads."""

from __future__ import annotations

import pickle
import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import get_args

import pytest
from babel import Locale

from bot.engine import (
    HIDDEN,
    JOKER,
    Action,
    Bid,
    Card,
    ChooseTrump,
    EngineError,
    Game,
    Phase,
    Play,
    Settings,
    SettingsError,
    settings,
)
from bot.engine.cards import SUITS
from bot.service.refusals import Explanation, SettingsProblem
from bot.service.turns import explained
from cogs.render.common import card_text
from cogs.render.explanations import EXPLANATIONS, engine_error_text, explanation_text
from cogs.render.language import Language, speaking
from tests.catalogs import Rewriting, wrapped
from tests.engine.helpers import bids, deal, plays
from tools.catalogs import english_words, pseudo_language

ROOT = Path(__file__).resolve().parents[2]
RAISED = re.compile(r"""\bcode="([a-z_]+)"(?:\s+if\s+[^,)]*?else\s+"([a-z_]+)")?""")


def codes(folder: str, pattern: re.Pattern[str]) -> set[str]:
    found: set[str] = set()
    for path in (ROOT / folder).rglob("*.py"):
        for match in pattern.finditer(path.read_text()):
            found.update(code for code in match.groups() if code)
    return found


def test_every_code_the_engine_or_the_service_explains_with_has_words() -> None:
    engine = codes("bot/engine", RAISED)
    service = set(get_args(SettingsProblem))
    # The scan finds raise sites of every kind, a conditional code among them.
    assert {"follow_suit", "game_over", "joker_held", "joker_failed", "too_many_cards"} <= engine
    assert (engine | service) - set(EXPLANATIONS) == set()
    assert set(EXPLANATIONS) - (engine | service) == set()  # no words for a code nobody gives


# --- refusals the engine gives, collected by trying every kind of action everywhere ----------


def candidates(game: Game) -> list[tuple[int, Action]]:
    """Every seat (and two that do not exist) with bids out of range, every card of the pack
    and the unseen card, jokers named or not, a suit named for another card, and trumps."""
    actions: list[Action] = [Bid(n) for n in range(-1, game.cards_each + 2)]
    actions += [Play(card) for card in dict.fromkeys(game.pack.cards)]
    actions += [Play(HIDDEN), Play(game.pack.cards[0], "H")]
    actions += [Play(JOKER, suit) for suit in SUITS]
    actions += [ChooseTrump(suit) for suit in (*SUITS, "X")]  # type: ignore[arg-type]
    return [(seat, action) for seat in range(-1, len(game.names) + 1) for action in actions]


def refusals_along(game: Game, rng: random.Random) -> Iterator[EngineError]:
    """Play `game` out at random; at every step, the refusal of each candidate action."""
    while True:
        trying = game.copy()
        for seat, action in candidates(game):
            try:
                trying.apply(seat, action)
            except EngineError as error:
                yield error
            else:
                trying = game.copy()  # allowed: try the rest on the state before it
        if game.phase is Phase.GAME_OVER:
            return
        seat = rng.choice(game.to_act)
        game.apply(seat, rng.choice(game.legal_actions(seat)))


JOKER_NT = {"preset": "classic", "sequence": "down", "bid_changes": False, "max_cards": 4}
JOKER_NT |= {"pack": "52+joker", "ace_no_trumps": True}
JOKER_HANDS = [
    ["3D", "5D", "7D", "3C"],
    ["9D", "AD", "QD", "10D"],
    ["8D", "KD", "6C", "JOKER"],
    ["2D", "4D", "6D", "2C"],
]
JOKER_LEAD = [["3D", "5D", "7D"], ["JOKER", "9D", "2S"], ["8D", "KD", "6C"], ["2D", "4D", "6D"]]
FAILED = [["3D", "5D", "7D", "4S"], ["9D", "AD", "QD", "2S"], ["8D", "6C", "JOKER", "3S"]]
FAILED.append(["2D", "4D", "6D", "5S"])


def games() -> Iterator[Game]:
    for rules, players in [
        ({"preset": "classic", "max_cards": 2}, 4),
        ({"preset": "oh-hell", "max_cards": 2, "bid_changes": True, "bidding": "open"}, 4),
        ({"preset": "oh-shit", "max_cards": 2}, 6),
        ({"preset": "oh-shit", "max_cards": 2, "trump": "bidder"}, 5),
        ({"preset": "nomination", "max_cards": 1, "blind": "all", "trump": "spades"}, 3),
    ]:
        yield Game.new(Settings.model_validate(rules), players=players, seed=3)
    yield deal(JOKER_NT, JOKER_HANDS, "AS", bids((1, 0), (2, 0), (3, 0), (0, 0)))
    yield deal({**JOKER_NT, "max_cards": 3}, JOKER_LEAD, "AS", bids((1, 0), (2, 0), (3, 0), (0, 0)))
    failing = plays((1, "9D"), (2, "8D"), (3, "2D"), (0, "3D"), (1, "AD"), (2, "6C"))
    yield deal(JOKER_NT, FAILED, "AS", bids((1, 0), (2, 0), (3, 0), (0, 0)) + failing)
    # oh-shit's tie-breakers: three players tied play a deal of their own.
    tied = {"preset": "oh-shit", "sequence": "down", "max_cards": 1}
    yield deal(tied, [["2C"], ["AH"], ["QH"], ["5S"]], "2D", bids((0, 0), (1, 0), (2, 0), (3, 0)))


SETTINGS = [
    ({"max_cards": 13}, 4),
    ({"max_cards": 14, "exhausted_trump": "dealer-last"}, 4),
    ({}, 8),
    ({"preset": "first-to-101"}, 6),
    ({}, 2),
    ({}, 11),
    ({"scoring": "negative", "end": "target"}, 4),
    ({"bidding": "secret", "bid_changes": True}, 4),
    ({"blind": "last", "end": "target"}, 4),
    ({"spades_double": True, "trump": "spades"}, 4),
    ({"ace_no_trumps": True, "trump": "bidder"}, 4),
    ({"blind": "last", "sequence": "fixed", "max_cards": 3}, 4),
]


HUGE_TABLES = [({"pack": "104"}, 105), ({"pack": "104", "max_cards": "pack"}, 104)]
"""Tables only a bigger player limit seats: a pack too small to deal each one card, or to turn
one after the deal (every pack deals every table of 3 to 10 players)."""


def settings_errors() -> Iterator[SettingsError]:
    for fields, players in SETTINGS:
        with pytest.raises(SettingsError) as raised:
            Settings.model_validate(fields).resolve(players)
        yield raised.value
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(settings, "MAX_PLAYERS", 200)
        for fields, players in HUGE_TABLES:
            with pytest.raises(SettingsError) as raised:
                Settings.model_validate(fields).resolve(players)
            yield raised.value


def collected() -> dict[str, list[EngineError]]:
    """One refusal of each message, by code."""
    found: dict[str, dict[str, EngineError]] = {}
    for number, game in enumerate(games()):
        for error in refusals_along(game, random.Random(number)):
            found.setdefault(error.code, {}).setdefault(error.message, error)
    for error in settings_errors():
        found.setdefault(error.code, {}).setdefault(error.message, error)
    return {code: list(errors.values()) for code, errors in found.items()}


@pytest.fixture(scope="module")
def refusals() -> dict[str, list[EngineError]]:
    return collected()


BETTER = {
    "choose a suit: one of C, D, H, S": (
        "choose a suit: one of ♣ clubs, ♦ diamonds, ♥ hearts, ♠ spades"
    ),
    "bid from 0 to 1: there are 1 tricks": "bid from 0 to 1: there is 1 trick",
    "as the dealer you can't bid 0: the bids would add up to 1 tricks": (
        "as the dealer you can't bid 0: the bids would add up to 1 trick"
    ),
    "'an ace turned means no trumps' needs trump set by a turned card, not trump 'bidder': "
    "choose trump 'turned' or turn ace_no_trumps off": (
        "ace no trumps (an ace turned means no trumps) needs trump set by a turned card, not "
        "trump 'bidder': choose trump 'turned' or turn ace no trumps off"
    ),
}
"""The engine's messages that read better in the bot (its plurals, its suits, a rule named by
its label in the rules editor)."""


def as_people_read(error: EngineError) -> str:
    """The engine's message as the bot says it: cards as people read them (`10♥`)."""
    text = BETTER.get(error.message, error.message)
    card = error.params.get("card")
    return text.replace(str(card), card_text(card)) if isinstance(card, Card) else text


def test_every_code_is_met_and_reads_in_english_as_the_engine_says_it(
    refusals: dict[str, list[EngineError]],
) -> None:
    assert set(refusals) == codes("bot/engine", RAISED)  # every code was met on the way
    for code, errors in refusals.items():
        for error in errors:
            text = explanation_text(explained(error))
            assert text == engine_error_text(error) == as_people_read(error), (code, error.params)


def test_a_refusal_keeps_its_code_and_values_from_a_worker_process(
    refusals: dict[str, list[EngineError]],
) -> None:
    for errors in refusals.values():
        back = pickle.loads(pickle.dumps(errors[0]))
        assert (back.code, dict(back.params), back.message) == (
            errors[0].code,
            dict(errors[0].params),
            errors[0].message,
        )


def test_every_explanation_is_the_catalogs_words_never_the_engines_english(
    refusals: dict[str, list[EngineError]],
) -> None:
    unknown = [Explanation("from_a_newer_engine", {"explanation": "you hold 10H"})]
    explanations = [explained(errors[0]) for errors in refusals.values()] + unknown
    given = get_args(SettingsProblem)
    explanations += [Explanation(code, {"setting": "max_cards"}) for code in given]
    with speaking(Language("xx", Rewriting(wrapped), Locale("en"))):
        for explanation in explanations:
            text = explanation_text(explanation)
            assert text.startswith("«") and text.endswith("»"), text
            assert "10H" not in text


def test_an_unknown_code_reads_as_a_general_refusal() -> None:
    engine_said = Explanation("from_a_newer_engine", {"explanation": "you hold 10H"})
    assert explanation_text(engine_said) == "the rules of this table don't allow that"
    assert explanation_text(Explanation("")) == "the rules of this table don't allow that"


def test_cards_names_and_suits_read_as_people_read_them() -> None:
    assert explanation_text(Explanation("not_held", {"card": JOKER})) == "you don't hold 🃏"
    assert explanation_text(Explanation("not_held", {"card": Card("10", "H")})) == (
        "you don't hold 10♥"
    )
    waiting = Explanation("bidding_not_over", {"names": ("Ann", "Computer (hard)")})
    assert (
        explanation_text(waiting) == "bidding isn't over: waiting for Ann, Computer (hard) to bid"
    )


PEOPLE = ("Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Player")
"""The seats' names the games above give."""


def test_every_explanation_reads_in_the_pseudo_language(
    refusals: dict[str, list[EngineError]],
) -> None:
    """Every word of every explanation comes from a catalog, the rules and values it names
    among them: in the pseudo-language no English word is left, in a wrapped part or outside
    (but a rule's name as someone typed it, which `no_such_setting` shows as typed)."""
    explanations = [explained(error) for errors in refusals.values() for error in errors]
    explanations += [
        Explanation(code, {"setting": "max_cards"}) for code in get_args(SettingsProblem)
    ]
    english: dict[str, list[str]] = {}
    with speaking(pseudo_language()):
        for explanation in explanations:
            typed = ("max_cards",) if explanation.code == "no_such_setting" else ()
            text = explanation_text(explanation)
            for name in PEOPLE + typed:
                text = text.replace(name, " ")
            words = english_words(text)
            if words:
                english[explanation.code] = words
    assert {explanation.code for explanation in explanations} == set(EXPLANATIONS)
    assert english == {}


def test_the_pseudo_language_check_finds_english_filled_into_a_placeholder() -> None:
    with speaking(pseudo_language()):
        filled = explanation_text(Explanation("no_such_setting", {"setting": "max_cards"}))
    assert english_words(filled) == ["max", "cards"]
    assert english_words(filled.replace("max_cards", "`max_cards`")) == []
