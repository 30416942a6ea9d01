"""The rules in plain words, for the table message, `/ohhell rules` and `/ohhell settings`."""

from __future__ import annotations

from bot.engine import Rules, Settings, SettingsError
from bot.service import (
    ChannelDefaults,
    ClosedReason,
    RulesSource,
    TableView,
    player_range,
)
from cogs.render.common import timer_text
from cogs.render.explanations import engine_error_text
from cogs.render.language import N_, NP_, _, ngettext, number, pgettext
from cogs.render.lobby import value_text

_TRUMP = {
    # Translators: a trump rule, shown after "Trump: ".
    "turned": N_("the next card turned up"),
    "spades": N_("spades always"),
    "rotation": N_("rotating ♣ ♦ ♥ ♠, then no trumps"),
    "bidder": N_("chosen by the highest bidder"),
}
_BIDDING = {
    # Translators: a bidding rule, shown after "Bidding: ".
    "hook": N_("in turn, dealer last, with the hook (the bids may not add up to the tricks)"),
    "open": N_("in turn, no restriction"),
    "secret": N_("all at once, in secret, revealed together"),
    "knock": N_("knocking: all at once; if the bids add up to the tricks, bid again (3 rounds)"),
}
_SCORING = {
    # Translators: a scoring rule, shown after "Scoring: " (a contract is made when the tricks
    # taken equal the bid).
    "exact-tens": N_("made: 10 a trick bid (zero: 10); missed: −10 a trick off"),
    "tricks-plus-ten": N_("1 a trick, +10 for an exact bid"),
    "five-and-tens": N_("made: 5 + 10 a trick; missed: −5 − 5 a trick off"),
    "squares": N_("made: 10 + bid²; missed: −(tricks off)²"),
    "oh-shit": N_("made: 10 + tricks (zero: 5); over: +1 a trick; under: −1 a trick short"),
    "ten-plus-bid": N_("made: 10 + bid; missed: 0"),
    "basic": N_("made: 10 + bid; missed: 1 a trick"),
    "progressive": N_("made: 10 + bid² (zero: more with more cards); missed: 1 a trick"),
    "negative": N_("made: 0; missed: 1 + 2 + … per trick off — lowest total wins"),
    "adjusted-basic": N_("made: 10 + bid (zero: 5 + cards); missed: 1 a trick"),
    "adjusted-basic-2": N_("made: 10 + bid (zero: 5); missed: 0"),
}
_TIES = {
    # Translators: what a tie for first place does, shown after "Ties: ".
    "extra-hand": N_("a tie for first plays another hand"),
    "tiebreakers": N_("ties broken by contracts made, then a 5-card deal"),
    "share": N_("tied players share the place"),
}
_DUPLICATES = {
    # Translators: which of two identical cards (a double pack) wins a trick, shown after
    # "Identical cards in a trick: ".
    "first-wins": NP_("identical cards", "first wins"),
    "later-wins": NP_("identical cards", "later wins"),
    "cancel": NP_("identical cards", "cancel"),
}


def describe(settings: Settings, players: int) -> tuple[str, ...]:
    """A few readable lines; for a player count the rules cannot take, the nearest that works."""
    low, high = player_range(settings)
    count = min(max(players, low), high) if low <= high else players
    try:
        rules = settings.resolve(count)
    except SettingsError as error:
        # Translators: {error} says what to change.
        text = _("**{preset}** — these rules cannot be played: {error}")
        return (text.format(preset=value_text(settings.preset), error=engine_error_text(error)),)
    return describe_rules(rules)


def _sizes_text(sizes: tuple[int, ...]) -> str:
    return " ".join(number(n) for n in sizes)


def _sequence_text(rules: Rules) -> str:
    sizes = rules.sizes
    target = number(rules.target)
    if rules.end == "target":
        # The sequence is dealt over and over until then.
        if len(set(sizes)) == 1:
            return ngettext(
                "{cards} card every hand until someone reaches {target}",
                "{cards} cards every hand until someone reaches {target}",
                sizes[0],
            ).format(cards=number(sizes[0]), target=target)
        # Translators: {sizes} lists the cards dealt in each hand, e.g. "1 2 3 2 1"; {target}
        # is a score.
        text = _("{sizes} cards, over and over, until someone reaches {target}")
        return text.format(sizes=_sizes_text(sizes), target=target)
    if len(set(sizes)) == 1:
        cards = ngettext("{count} card", "{count} cards", sizes[0]).format(count=number(sizes[0]))
        # Translators: {cards} is a number of cards, e.g. "7 cards".
        text = ngettext("{count} hand of {cards}", "{count} hands of {cards}", len(sizes))
        return text.format(count=number(len(sizes)), cards=cards)
    # Translators: {sizes} lists the cards dealt in each hand, e.g. "1 2 3 2 1".
    text = ngettext("{count} hand: {sizes} cards", "{count} hands: {sizes} cards", len(sizes))
    return text.format(count=number(len(sizes)), sizes=_sizes_text(sizes))


def _trump_rule(rules: Rules) -> str:
    trump = _(_TRUMP[rules.trump])
    if rules.trump == "turned" and rules.ace_no_trumps:
        # Translators: {rule} is the trump rule, e.g. "the next card turned up".
        return _("{rule}; an ace or the joker means no trumps").format(rule=trump)
    return trump


def _bidding_rule(rules: Rules) -> str:
    bidding = _(_BIDDING[rules.bidding])
    if rules.bid_changes:
        # Translators: {rule} is the bidding rule, e.g. "in turn, no restriction".
        text = _("{rule}; a bid may be changed until the next player bids")
        return text.format(rule=bidding)
    return bidding


def _scoring_rule(rules: Rules) -> str:
    scoring = _(_SCORING[rules.scoring])
    if rules.spades_double:
        # Translators: {rule} is the scoring rule, e.g. "made: 10 + bid; missed: 0".
        return _("{rule}; spades turned doubles the hand").format(rule=scoring)
    return scoring


def describe_rules(rules: Rules) -> tuple[str, ...]:
    # Translators: {preset} is a rule preset's name, {pack} a number of cards.
    head = ngettext(
        "**{preset}** for {players} player, {pack}-card pack",
        "**{preset}** for {players} players, {pack}-card pack",
        rules.players,
    )
    if rules.first_lead == "dealer":
        lead = _("First lead: the dealer")
    else:
        lead = _("First lead: the dealer’s left")
    lines = [
        head.format(
            preset=value_text(rules.preset),
            players=number(rules.players),
            pack=number(rules.pack.size),
        ),
        _("Hands: {sequence}").format(sequence=_sequence_text(rules)),
        _("Trump: {rule}").format(rule=_trump_rule(rules)),
        _("Bidding: {rule}").format(rule=_bidding_rule(rules)),
        lead,
        _("Scoring: {rule}").format(rule=_scoring_rule(rules)),
        _("Ties: {rule}").format(rule=_(_TIES[rules.ties])),
    ]
    if rules.blind == "all":
        lines.append(_("Blind: every one-card hand — you see the others' cards, not your own"))
    elif rules.blind != "none":
        lines.append(_("Blind: the last one-card hand — you see the others' cards, not your own"))
    if rules.pack.size in (65, 78, 104):
        rule = pgettext("identical cards", _DUPLICATES[rules.duplicates])
        lines.append(_("Identical cards in a trick: {rule}").format(rule=rule))
    return tuple(lines)


def rules_summary(table: TableView) -> tuple[str, ...]:
    """A table's rules in a few lines (for at least 3 players while seats are still empty)."""
    return describe(table.settings, max(len(table.seats), 3))


def _timer_line(seconds: int) -> str:
    return _("Turn timer: {timer}").format(timer=timer_text(seconds))


def rules_reply(table: TableView) -> str:
    """What /ohhell rules answers: the table's rules, its turn timer and where they came
    from."""
    lines = [*rules_summary(table), _timer_line(table.turn_timer)]
    if table.rules_source:
        # Translators: {source} is where the rules came from, e.g. "the classic preset".
        source = _("*Rules from {source}.*")
        lines.append(source.format(source=rules_source_text(table.rules_source)))
    return "\n".join(lines)


def channel_defaults_text(defaults: ChannelDefaults | None, *, changed: bool) -> str:
    """What /ohhell settings answers: the channel's defaults, as set now or as they are."""
    if defaults is None:
        if changed:
            return _("This channel's defaults are cleared: tables start from the preset chosen.")
        # Translators: {preset} is the name of the rule system tables start from when nothing
        # else is chosen, as the rules editor labels it ("classic").
        text = _("This channel has no defaults: `/ohhell start` uses the {preset} preset.")
        return text.format(preset=value_text(Settings().preset))
    head = _("New tables in this channel start with:") if changed else _("This channel's defaults:")
    lines = describe(defaults.settings, 4)
    return "\n".join([head, *lines, _timer_line(defaults.turn_timer)])


def rules_source_text(source: RulesSource | str) -> str:
    """Where a table's rules came from, for "Rules from …" (older tables saved the words)."""
    if isinstance(source, str):
        return source
    if source.kind == "preset":
        # Translators: completes "Rules from …"; {preset} is a rule preset's name.
        return _("the {preset} preset").format(preset=value_text(str(source.preset)))
    if source.kind == "rematch":
        # Translators: completes "Rules from …"; {table} is a table's number.
        return _("a rematch of table #{table}").format(table=source.table)
    person = f"<@{source.set_by}>"
    if source.changed:
        # Translators: completes "Rules from …"; {person} mentions whoever set the defaults.
        text = _("this channel's defaults (set by {person}), with the host's changes")
    else:
        # Translators: completes "Rules from …"; {person} mentions whoever set the defaults.
        text = _("this channel's defaults (set by {person})")
    return text.format(person=person)


def duration_text(seconds: float) -> str:
    """15 minutes, 1 hour, 24 hours."""
    count = round(seconds / (3600 if seconds >= 3600 else 60 if seconds >= 60 else 1), 1)
    decimals = 0 if float(count).is_integer() else 1
    if seconds >= 3600:
        text = ngettext("{count} hour", "{count} hours", count, decimals)
    elif seconds >= 60:
        text = ngettext("{count} minute", "{count} minutes", count, decimals)
    else:
        text = ngettext("{count} second", "{count} seconds", count, decimals)
    return text.format(count=number(count, decimals))


def closed_text(reason: ClosedReason | str) -> str:
    """Why a table closed without its host (older tables saved the words)."""
    if isinstance(reason, str):
        return reason
    if reason.kind == "channel_deleted":
        # Translators: why a table closed, completing "This table is closed: …".
        return _("its channel was deleted")
    if reason.kind == "bot_removed":
        # Translators: why a table closed, completing "This table is closed: …".
        return _("the bot was removed from the server")
    if reason.kind == "expired":
        # Translators: why a table closed; {duration} is e.g. "15 minutes".
        text = _("nobody started the game within {duration}")
    else:
        # Translators: why a table closed; {duration} is e.g. "24 hours".
        text = _("nobody played for {duration}")
    return text.format(duration=duration_text(reason.after))
