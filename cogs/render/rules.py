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

_TRUMP = {
    "turned": "the next card turned up",
    "spades": "spades always",
    "rotation": "rotating ♣ ♦ ♥ ♠, then no trumps",
    "bidder": "chosen by the highest bidder",
}
_BIDDING = {
    "hook": "in turn, dealer last, with the hook (the bids may not add up to the tricks)",
    "open": "in turn, no restriction",
    "secret": "all at once, in secret, revealed together",
    "knock": "knocking: all at once; if the bids add up to the tricks, bid again (3 rounds)",
}
_SCORING = {
    "exact-tens": "made: 10 a trick bid (zero: 10); missed: −10 a trick off",
    "tricks-plus-ten": "1 a trick, +10 for an exact bid",
    "five-and-tens": "made: 5 + 10 a trick; missed: −5 − 5 a trick off",
    "squares": "made: 10 + bid²; missed: −(tricks off)²",
    "oh-shit": "made: 10 + tricks (zero: 5); over: +1 a trick; under: −1 a trick short",
    "ten-plus-bid": "made: 10 + bid; missed: 0",
    "basic": "made: 10 + bid; missed: 1 a trick",
    "progressive": "made: 10 + bid² (zero: more with more cards); missed: 1 a trick",
    "negative": "made: 0; missed: 1 + 2 + … per trick off — lowest total wins",
    "adjusted-basic": "made: 10 + bid (zero: 5 + cards); missed: 1 a trick",
    "adjusted-basic-2": "made: 10 + bid (zero: 5); missed: 0",
}
_TIES = {
    "extra-hand": "a tie for first plays another hand",
    "tiebreakers": "ties broken by contracts made, then a 5-card deal",
    "share": "tied players share the place",
}


def describe(settings: Settings, players: int) -> tuple[str, ...]:
    """A few readable lines; for a player count the rules cannot take, the nearest that works."""
    low, high = player_range(settings)
    count = min(max(players, low), high) if low <= high else players
    try:
        rules = settings.resolve(count)
    except SettingsError as error:
        return (f"**{settings.preset}** — these rules cannot be played: {error}",)
    return describe_rules(rules)


def _sequence_text(rules: Rules) -> str:
    sizes = rules.sizes
    if rules.end == "target":
        # The sequence is dealt over and over until then.
        if len(set(sizes)) == 1:
            return f"{sizes[0]} cards every hand until someone reaches {rules.target}"
        shown = " ".join(str(n) for n in sizes)
        return f"{shown} cards, over and over, until someone reaches {rules.target}"
    if len(set(sizes)) == 1:
        return f"{len(sizes)} hands of {sizes[0]} cards"
    shown = " ".join(str(n) for n in sizes)
    return f"{len(sizes)} hands: {shown} cards"


def describe_rules(rules: Rules) -> tuple[str, ...]:
    trump = _TRUMP[rules.trump]
    if rules.trump == "turned" and rules.ace_no_trumps:
        trump += "; an ace or the joker means no trumps"
    lines = [
        f"**{rules.preset}** for {rules.players} players, {rules.pack.size}-card pack",
        f"Hands: {_sequence_text(rules)}",
        f"Trump: {trump}",
        f"Bidding: {_BIDDING[rules.bidding]}"
        + ("; a bid may be changed until the next player bids" if rules.bid_changes else ""),
        f"First lead: {'the dealer' if rules.first_lead == 'dealer' else 'the dealer’s left'}",
        f"Scoring: {_SCORING[rules.scoring]}"
        + ("; spades turned doubles the hand" if rules.spades_double else ""),
        f"Ties: {_TIES[rules.ties]}",
    ]
    if rules.blind != "none":
        which = "every one-card hand" if rules.blind == "all" else "the last one-card hand"
        lines.append(f"Blind: {which} — you see the others' cards, not your own")
    if rules.pack.size in (65, 78, 104):
        lines.append(f"Identical cards in a trick: {rules.duplicates.replace('-', ' ')}")
    return tuple(lines)


def rules_summary(table: TableView) -> tuple[str, ...]:
    """A table's rules in a few lines (for at least 3 players while seats are still empty)."""
    return describe(table.settings, max(len(table.seats), 3))


def rules_reply(table: TableView) -> str:
    """What /ohhell rules answers: the table's rules, its turn timer and where they came
    from."""
    lines = [*rules_summary(table), f"Turn timer: {timer_text(table.turn_timer)}"]
    if table.rules_source:
        lines.append(f"*Rules from {rules_source_text(table.rules_source)}.*")
    return "\n".join(lines)


def channel_defaults_text(defaults: ChannelDefaults | None, *, changed: bool) -> str:
    """What /ohhell settings answers: the channel's defaults, as set now or as they are."""
    if defaults is None:
        if changed:
            return "This channel's defaults are cleared: tables start from the preset chosen."
        return "This channel has no defaults: `/ohhell start` uses the classic preset."
    head = "New tables in this channel start with:" if changed else "This channel's defaults:"
    lines = describe(defaults.settings, 4)
    return "\n".join([head, *lines, f"Turn timer: {timer_text(defaults.turn_timer)}"])


def rules_source_text(source: RulesSource | str) -> str:
    """Where a table's rules came from, for "Rules from …" (older tables saved the words)."""
    if isinstance(source, str):
        return source
    if source.kind == "preset":
        return f"the {source.preset} preset"
    if source.kind == "rematch":
        return f"a rematch of table #{source.table}"
    changes = ", with the host's changes" if source.changed else ""
    return f"this channel's defaults (set by <@{source.set_by}>){changes}"


def duration_text(seconds: float) -> str:
    """15 minutes, 1 hour, 24 hours."""
    for size, unit in ((3600, "hour"), (60, "minute")):
        if seconds >= size:
            count = round(seconds / size, 1)
            return f"{count:g} {unit}{'' if count == 1 else 's'}"
    return f"{seconds:g} seconds"


def closed_text(reason: ClosedReason | str) -> str:
    """Why a table closed without its host (older tables saved the words)."""
    if isinstance(reason, str):
        return reason
    if reason.kind == "channel_deleted":
        return "its channel was deleted"
    if reason.kind == "bot_removed":
        return "the bot was removed from the server"
    if reason.kind == "expired":
        return f"nobody started the game within {duration_text(reason.after)}"
    return f"nobody played for {duration_text(reason.after)}"
