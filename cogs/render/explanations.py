"""Why the rules refused: the words for every code the engine explains a refusal with (a move
it does not allow, rules it cannot play) and for rules that are not valid.

A refusal carries the code and the values it names as an `Explanation` (see
bot/service/turns.py `explained` and `settings_problem`). The words start lower case, as a
refusal's reason does (cogs/render/reasons.py `refusal` capitalises the sentence)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from bot.engine import Card, EngineError
from bot.service.refusals import Explanation
from cogs.render.common import SUIT_SYMBOLS, card_text, suit_name, suit_text
from cogs.render.language import _, ngettext, number
from cogs.render.lobby import rule_text, value_text


def _suit(letter: object) -> str:
    """A suit named in a sentence: `hearts`."""
    return suit_name(str(letter))


def _card(card: object) -> str:
    """The engine's card (a `Card`, or its short text such as `QS`) as people read it."""
    return card_text(card if isinstance(card, Card) else Card.parse(str(card)))


def _names(names: Iterable[object]) -> str:
    """Seats' names, as a list (a separator between names is no text to translate)."""
    return ", ".join(str(name) for name in names)


def _number(params: Mapping[str, Any], name: str) -> str:
    return number(int(params[name]))


def _labels(*rules: str, **values: str) -> dict[str, str]:
    """Rules and values a sentence names, as the rules editor labels them: each rule by its
    field (`end`), each value by the placeholder given for it (`sequence="sequence"`)."""
    return {
        **{rule: rule_text(rule) for rule in rules},
        **{name: value_text(value) for name, value in values.items()},
    }


Wording = Callable[[Mapping[str, Any]], str]

MOVES: dict[str, Wording] = {
    "game_over": lambda p: _("the game is over"),
    "bidding_not_over": lambda p: (
        # Translators: {names} lists the players who have not bid yet ("Ann, Bob").
        _("bidding isn't over: waiting for {names} to bid").format(names=_names(p["names"]))
    ),
    "trump_first": lambda p: (
        # Translators: {name} is a player's name; trump is the game's term.
        _("{name} must choose trump first").format(name=p["name"])
    ),
    "bidding_over": lambda p: _("bidding is over: play a card"),
    "no_seat": lambda p: _("there is no seat {seat}").format(seat=_number(p, "seat")),
    # Translators: a tie-break deal is the extra deal that only the players tied for first play.
    "not_in_tiebreak": lambda p: _("you are not in this tie-break deal"),
    "bid_already": lambda p: _("you have bid already: waiting for the others"),
    "bids_fixed": lambda p: _("bids can't be changed at this table"),
    "bid_change_late": lambda p: _("you can't change your bid any more: the next player has bid"),
    "turn_to_bid": lambda p: (
        # Translators: {name} is a player's name.
        _("it is {name}'s turn to bid").format(name=p["name"])
    ),
    "bid_range": lambda p: (
        # Translators: a bid is the number of tricks a player says they will take.
        ngettext(
            "bid from 0 to {tricks}: there is {tricks} trick",
            "bid from 0 to {tricks}: there are {tricks} tricks",
            int(p["tricks"]),
        ).format(tricks=_number(p, "tricks"))
    ),
    "same_bid": lambda p: _("your bid is {bid} already").format(bid=_number(p, "bid")),
    "dealer_hook": lambda p: (
        # Translators: the hook: the dealer may not bid so that the bids add up to the tricks.
        ngettext(
            "as the dealer you can't bid {bid}: the bids would add up to {tricks} trick",
            "as the dealer you can't bid {bid}: the bids would add up to {tricks} tricks",
            int(p["tricks"]),
        ).format(bid=_number(p, "bid"), tricks=_number(p, "tricks"))
    ),
    "trump_fixed": lambda p: (
        # Translators: {trump} is how this table's trump is decided, a rule's value as the
        # rules editor labels it in your language (turned, spades or rotation).
        _("trump is '{trump}' at this table: nobody chooses it").format(
            trump=value_text(str(p["trump"]))
        )
    ),
    "trump_chooser": lambda p: (
        # Translators: {name} is a player's name; the highest bidder chooses trump.
        _("{name} chooses trump (the highest bid)").format(name=p["name"])
    ),
    "not_a_suit": lambda p: (
        # Translators: {suits} lists the four suits ("♣ clubs, ♦ diamonds, …").
        _("choose a suit: one of {suits}").format(
            suits=", ".join(suit_text(s) for s in SUIT_SYMBOLS)
        )
    ),
    "turn_to_play": lambda p: (
        # Translators: {name} is a player's name.
        _("it is {name}'s turn").format(name=p["name"])
    ),
    # Translators: in a blind hand the players hold one card each and do not see their own.
    "not_blind": lambda p: _("only a blind hand's unseen card may be played unseen"),
    "not_held": lambda p: (
        # Translators: {card} is a card such as 10♥.
        _("you don't hold {card}").format(card=_card(p["card"]))
    ),
    "follow_suit": lambda p: (
        # Translators: {suit} is the suit led (clubs, diamonds, hearts or spades).
        _("you must follow {suit}").format(suit=_suit(p["suit"]))
    ),
    # Translators: "no trumps": a hand without a trump suit, in which a joker led is named a suit.
    "name_joker_suit": lambda p: _("name the suit of the joker you lead (no trumps)"),
    "no_suit_to_name": lambda p: _("name a suit only when you lead the joker in no trumps"),
    "joker_failed": lambda p: (
        # Translators: {suit} is a suit (clubs, diamonds, hearts or spades), twice.
        _("the joker can't be played as {suit} now: you have failed to follow {suit} this hand")
    ).format(suit=_suit(p["suit"])),
    "joker_held": lambda p: (
        # Translators: {suit} is a suit (clubs, diamonds, hearts or spades), three times.
        _("the joker can't be played as {suit} now: you have played {suit} and still hold {suit}")
    ).format(suit=_suit(p["suit"])),
}
"""A move the engine refused (bot/engine/refusals.py)."""

RULES: dict[str, Wording] = {
    "players_range": lambda p: ngettext(
        "{players} player can't play: a table needs {low} to {high} players",
        "{players} players can't play: a table needs {low} to {high} players",
        int(p["players"]),
    ).format(players=_number(p, "players"), low=_number(p, "low"), high=_number(p, "high")),
    # Translators: {preset} is the name of a rule system as the rules editor labels it (oh-hell,
    # classic, …); {pack} is the rule's name and {double} its value 104, as the editor labels
    # them.
    "preset_players": lambda p: ngettext(
        "{preset} is for {low} to {high} players with one pack: for {players} player choose "
        "{pack} {double} (the double pack), or seat fewer players",
        "{preset} is for {low} to {high} players with one pack: for {players} players choose "
        "{pack} {double} (the double pack), or seat fewer players",
        int(p["players"]),
    ).format(
        preset=value_text(str(p["preset"])),
        low=_number(p, "low"),
        high=_number(p, "high"),
        players=_number(p, "players"),
        **_labels("pack", double="104"),
    ),
    # Translators: {end} is a rule's name and {sequence} its value, as the rules editor labels
    # them.
    "negative_target": lambda p: _(
        "negative scoring has the lowest total win, so a game can't end at a target score: "
        "choose {end} '{sequence}' or another scoring"
    ).format(**_labels("end", sequence="sequence")),
    "bid_changes_bidding": lambda p: (
        # Translators: {bid_changes} and {bidding} are rules' names, {hook} and {open} values of
        # {bidding}, as the rules editor labels them; {chosen} is this table's bidding (secret
        # or knock).
        _(
            "{bid_changes} need bidding in turn, not {chosen} bidding: choose {bidding} "
            "'{hook}' or '{open}', or turn {bid_changes} off"
        ).format(
            chosen=value_text(str(p["bidding"])),
            **_labels("bid_changes", "bidding", hook="hook", open="open"),
        )
    ),
    # Translators: {blind} and {end} are rules' names, {all}, {none} and {sequence} their
    # values, as the rules editor labels them.
    "blind_target": lambda p: _(
        "a game that ends at a target score has no last one-card hand: choose {blind} '{all}' "
        "or '{none}', or {end} '{sequence}'"
    ).format(**_labels("blind", "end", all="all", none="none", sequence="sequence")),
    "spades_double_trump": lambda p: (
        # Translators: {spades_double} and {trump} are rules' names and {turned} a value of
        # {trump}, as the rules editor labels them; {chosen} is this table's trump (spades,
        # rotation or bidder).
        _(
            "{spades_double} needs trump set by a turned card, not {trump} '{chosen}': choose "
            "{trump} '{turned}' or turn {spades_double} off"
        ).format(
            chosen=value_text(str(p["trump"])),
            **_labels("spades_double", "trump", turned="turned"),
        )
    ),
    "ace_no_trumps_trump": lambda p: (
        # Translators: {ace_no_trumps} and {trump} are rules' names and {turned} a value of
        # {trump}, as the rules editor labels them; {chosen} is this table's trump (spades,
        # rotation or bidder).
        _(
            "{ace_no_trumps} (an ace turned means no trumps) needs trump set by a turned card, "
            "not {trump} '{chosen}': choose {trump} '{turned}' or turn {ace_no_trumps} off"
        ).format(
            chosen=value_text(str(p["trump"])),
            **_labels("ace_no_trumps", "trump", turned="turned"),
        )
    ),
    # Translators: {pack} is the number of cards in the pack (52, 63 or 104).
    "pack_too_small": lambda p: ngettext(
        "the {pack}-card pack can't deal to {players} player",
        "the {pack}-card pack can't deal to {players} players",
        int(p["players"]),
    ).format(pack=p["pack"], players=_number(p, "players")),
    # Translators: {pack} is the number of cards in the pack (52, 63 or 104), {size} too.
    "too_many_cards": lambda p: ngettext(
        "{cards} cards each for {players} player needs {needed} cards but the {pack}-card pack "
        "has {size}: choose at most {most} cards, or a bigger pack",
        "{cards} cards each for {players} players needs {needed} cards but the {pack}-card "
        "pack has {size}: choose at most {most} cards, or a bigger pack",
        int(p["players"]),
    ).format(
        cards=_number(p, "cards"),
        players=_number(p, "players"),
        needed=_number(p, "needed"),
        pack=p["pack"],
        size=_number(p, "size"),
        most=_number(p, "most"),
    ),
    "no_card_to_turn": lambda p: ngettext(
        "{cards} cards each for {players} player leaves no card to turn for trump: choose at "
        "most {most}, or let the dealer's last card set trump",
        "{cards} cards each for {players} players leaves no card to turn for trump: choose at "
        "most {most}, or let the dealer's last card set trump",
        int(p["players"]),
    ).format(cards=_number(p, "cards"), players=_number(p, "players"), most=_number(p, "most")),
    # Translators: {pack} is the number of cards in the pack (52, 63 or 104).
    "pack_no_turn": lambda p: ngettext(
        "the {pack}-card pack leaves no card to turn for {players} player: let the dealer's "
        "last card set trump, or choose a bigger pack",
        "the {pack}-card pack leaves no card to turn for {players} players: let the dealer's "
        "last card set trump, or choose a bigger pack",
        int(p["players"]),
    ).format(pack=p["pack"], players=_number(p, "players")),
    "no_one_card_hand": lambda p: (
        # Translators: {sequence} and {blind} are rules' names and {none} a value of {blind},
        # as the rules editor labels them; {chosen} is this table's sequence (the order of hand
        # sizes, such as down-up).
        ngettext(
            "{sequence} '{chosen}' with {cards} card has no one-card hand to play blind: "
            "choose {blind} '{none}' or a sequence that reaches one card",
            "{sequence} '{chosen}' with {cards} cards has no one-card hand to play blind: "
            "choose {blind} '{none}' or a sequence that reaches one card",
            int(p["cards"]),
        ).format(
            chosen=value_text(str(p["sequence"])),
            cards=_number(p, "cards"),
            **_labels("sequence", "blind", none="none"),
        )
    ),
}
"""Rules the engine cannot play (bot/engine/settings.py)."""

SETTINGS: dict[str, Wording] = {
    "bad_setting": lambda p: (
        # Translators: {setting} is a rule's name as the rules editor labels it (max cards, …).
        _("{setting} can't take that value").format(setting=rule_text(str(p["setting"])))
    ),
    "no_such_setting": lambda p: (
        # Translators: {setting} is the name given for a rule, written as it was given.
        _("there is no rule called {setting}").format(setting=p["setting"])
    ),
    "bad_settings": lambda p: _("these rules can't be read"),
}
"""Rules that are not valid (bot/service/turns.py `settings_problem`)."""

EXPLANATIONS: dict[str, Wording] = {**MOVES, **RULES, **SETTINGS}


def explanation_text(explanation: Explanation) -> str:
    """The words for a refusal's explanation: its code and the values it names; a code this
    version does not know reads as a general refusal, never the engine's English."""
    wording = EXPLANATIONS.get(explanation.code)
    if wording is None:
        return _("the rules of this table don't allow that")
    return wording(explanation.params)


def engine_error_text(error: EngineError) -> str:
    """The words for an error the engine raised (rules described where they cannot be played)."""
    return explanation_text(Explanation(error.code, error.params))
