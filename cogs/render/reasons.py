"""Refusals and answers: the words for every refusal and answer the service gives (one `match`
over their types, which mypy checks leaves none out)."""

from __future__ import annotations

from typing import assert_never

from bot.service import (
    Reason,
    Refused,
)
from bot.service.answers import (
    AutoPlay,
    Back,
    Begins,
    Cancelled,
    ComputerAdded,
    Confirmed,
    Joined,
    Left,
    LeftClosed,
    LeftGame,
    NewHost,
    Opened,
    PausedNow,
    RematchOpened,
    RemovedPlayer,
    ResumedNow,
    RuleSet,
    TimerSet,
)
from bot.service.refusals import (
    ActivitiesOff,
    AlreadyHost,
    AlreadyPaused,
    AlreadyPlaying,
    AlreadyRemoved,
    AlreadyRunning,
    AlreadySeated,
    AlreadyStarted,
    ChannelHasTable,
    ComputerHasSeat,
    Conflict,
    EarlierHand,
    ErasureNotOffered,
    GamePaused,
    Hook,
    HostDoing,
    HostMustPlay,
    HostOnly,
    Illegal,
    JoinFirst,
    ManageChannels,
    MissingPermissions,
    MyDataWait,
    NoCard,
    NoGame,
    NoGames,
    NoLevel,
    NoPage,
    NoRule,
    NoSuchOrder,
    NoSuchPage,
    NoSuchTable,
    NoTableHere,
    NotForYou,
    NotOffered,
    NotSeated,
    NotSeatedOther,
    NotStarted,
    PlayerCount,
    RematchNotOver,
    RematchPlayersOnly,
    RemovedByHost,
    RemoveSelf,
    ReviewNoGame,
    ReviewNoGames,
    ReviewNotFinished,
    ReviewNotPlayer,
    ReviewRunning,
    RuleInvalid,
    RulesInvalid,
    RulesUnplayable,
    SlowDown,
    TableClosed,
    TableFull,
    TimerChoices,
    TooMany,
    UnknownChannel,
)
from cogs.render.common import (
    NOT_FOR_YOU,
    NOT_OFFERED,
    name_text,
    relative_time,
    timer_text,
)
from cogs.render.explanations import explanation_text
from cogs.render.language import N_, _, ngettext, number
from cogs.render.lobby import rule_text, value_text

HOST_DOINGS: dict[HostDoing, str] = {
    "rules": N_("only the host (or someone with Manage Channels) can change the rules"),
    "start": N_("only the host (or someone with Manage Channels) can start the game"),
    "cancel": N_("only the host (or someone with Manage Channels) can cancel the table"),
    "remove": N_("only the host (or someone with Manage Channels) can remove players"),
    "host": N_("only the host (or someone with Manage Channels) can hand over the host role"),
    "pause": N_("only the host (or someone with Manage Channels) can pause or resume the game"),
    "timer": N_("only the host (or someone with Manage Channels) can change the turn timer"),
    "": N_("only the host (or someone with Manage Channels) can do that"),
}
"""The refusal of each thing only a table's host may do, by the service's `doing`."""

PERMISSION_NAMES = {
    "view_channel": N_("View Channel"),
    "send_messages": N_("Send Messages"),
    "embed_links": N_("Embed Links"),
    "read_message_history": N_("Read Message History"),
    "attach_files": N_("Attach Files"),
}
"""Discord's names of the channel permissions the bot may lack, by discord.py's attribute."""

# A closed table's state, by TableStatus value: the refusal of a click on it.
_TABLE_CLOSED = {
    "finished": N_("that table is finished"),
    "cancelled": N_("that table is cancelled"),
    "abandoned": N_("that table is abandoned"),
}
_NOT_REVIEWABLE = {
    # Translators: {game} is a game's number; the game's table has not started yet.
    "lobby": N_("game #{game} has not started: only a finished game can be reviewed"),
    "playing": N_("game #{game} is still being played: only a finished game can be reviewed"),
    "cancelled": N_("game #{game} is cancelled: only a finished game can be reviewed"),
    "abandoned": N_("game #{game} is abandoned: only a finished game can be reviewed"),
}


def _missing_permissions(names: tuple[str, ...]) -> str:
    named = [
        _(PERMISSION_NAMES[name]) if name in PERMISSION_NAMES else name.replace("_", " ").title()
        for name in names
    ]
    # Translators: {permissions} lists Discord permission names: "View Channel, Embed Links".
    return ngettext(
        "I can't run a table here: I need the {permissions} permission in this channel",
        "I can't run a table here: I need the {permissions} permissions in this channel",
        len(named),
    ).format(permissions=", ".join(named))


def _table_closed(p: TableClosed) -> str:
    closed = _TABLE_CLOSED.get(p.status.value)
    return _(closed) if closed is not None else _("that table is closed")


def _not_reviewable(p: ReviewNotFinished) -> str:
    wording = _NOT_REVIEWABLE.get(p.status.value)
    if wording is None:
        return _("game #{game} is not finished: only a finished game can be reviewed").format(
            game=p.game
        )
    return _(wording).format(game=p.game)


def _no_such_page(p: NoSuchPage) -> str:
    if p.page is None or p.pages is None:
        return _("that page of the leaderboard does not exist: use /leaderboard")
    # Translators: {pages} is how many pages the leaderboard has.
    return ngettext(
        "there is no page {page} of the leaderboard: it has {pages}",
        "there is no page {page} of the leaderboard: it has {pages}",
        p.pages,
    ).format(page=number(p.page), pages=number(p.pages))


def _player_count(p: PlayerCount) -> str:
    # Translators: {low} to {high} is how many players the rules allow; {players} how many sit.
    return ngettext(
        "these rules need {low} to {high} players; {players} seated",
        "these rules need {low} to {high} players; {players} seated",
        p.high,
    ).format(low=number(p.low), high=number(p.high), players=number(p.players))


def _hook(total: int) -> str:
    # Translators: the hook: the dealer may not bid so that the bids add up to the cards dealt.
    return _("the hook: the bids would add up to {total}").format(total=number(total))


def reason_text(reason: Reason) -> str:
    """A refusal's or an answer's words (refusals start lower case: see `refusal`): one case a
    kind of reason (mypy checks none is missing)."""
    match reason:
        # refusals
        case NotForYou():
            return _(NOT_FOR_YOU)
        case NotOffered():
            return _(NOT_OFFERED)
        case NoSuchTable():
            return _("that table no longer exists")
        case TableClosed():
            return _table_closed(reason)
        case NotSeated():
            return _("you are not seated at this table")
        case NotStarted():
            return _("the game has not started yet")
        case RulesInvalid(problem=problem):
            # Translators: {problem} says what is wrong with the rules.
            return _("those rules are not valid: {problem}").format(
                problem=explanation_text(problem)
            )
        case ChannelHasTable(url=str() as url) if url:
            # Translators: {url} is a link to the table's message.
            return _("this channel already has an open table: {url}").format(url=url)
        case ChannelHasTable(table_id=table_id):
            # Translators: {table} is the table's number.
            return _("this channel already has an open table (#{table})").format(table=table_id)
        case NoTableHere():
            return _("there is no open table in this channel")
        case MissingPermissions(names=names):
            return _missing_permissions(names)
        case ActivitiesOff():
            # Translators: "Play at the table" is a button; an Activity is Discord's word for a
            # web page it opens beside the chat.
            return _(
                "Discord did not open the table: this bot's Activity is not enabled. Play with "
                "the buttons here, or ask the bot's operator to enable it"
            )
        case UnknownChannel():
            return _("the bot does not see that channel")
        case SlowDown():
            return _("too many requests from this page: wait a few seconds and try again")
        case AlreadySeated():
            return _("you are already seated at this table")
        case JoinFirst():
            return _("only seated players can add a computer player: join first")
        case NoLevel(level=level):
            return _("there is no computer level {level}").format(level=repr(level))
        case NoRule(field=field):
            # Translators: {rule} is the name of a setting as the commands write it (max_cards).
            return _("there is no rule called {rule}").format(rule=repr(field))
        case RuleInvalid(field=field, value=value, problem=problem):
            # Translators: {rule} is a rule's name and {value} a value, as the rules editor
            # labels them: "max cards can't be 0: …".
            return _("{rule} can't be {value}: {problem}").format(
                rule=rule_text(field),
                value=value_text(str(value)),
                problem=explanation_text(problem),
            )
        case PlayerCount():
            return _player_count(reason)
        case RulesUnplayable(problem=problem):
            return explanation_text(problem)
        case NoCard():
            return _("there is no such card in this game")
        case ComputerHasSeat():
            return _("a computer player has your seat: press **I'm back** to take it back")
        case RemovedByHost():
            return _("the host removed you from this game")
        case GamePaused():
            return _("the game is paused: the host can resume it")
        case EarlierHand():
            return _("that button is from an earlier hand: use your newest hand message")
        case Illegal(problem=problem):
            return explanation_text(problem)
        case AlreadyPlaying():
            return _("you are already playing your seat")
        case NotSeatedOther():
            return _("that person is not seated at this table")
        case RemoveSelf():
            return _("you can't remove yourself: use Leave")
        case AlreadyRemoved(name=name):
            # Translators: {name} is a player's name.
            return _("{name} was already removed").format(name=name_text(name))
        case HostMustPlay():
            return _("the new host must be a person playing at this table")
        case AlreadyHost():
            return _("they are the host already")
        case AlreadyPaused():
            return _("the game is paused already")
        case AlreadyRunning():
            return _("the game is running already")
        case RematchNotOver():
            return _("a rematch can start once the game is over")
        case RematchPlayersOnly():
            return _("only the players of this game can start a rematch")
        case ManageChannels():
            return _("only someone with Manage Channels can set this channel's defaults")
        case AlreadyStarted():
            return _("the game has already started")
        case TableFull(seats=seats):
            return ngettext(
                "the table is full ({seats} seat)", "the table is full ({seats} seats)", seats
            ).format(seats=number(seats))
        case TooMany(high=high):
            return ngettext(
                "these rules take at most {high} player",
                "these rules take at most {high} players",
                high,
            ).format(high=number(high))
        case HostOnly(doing=doing):
            return _(HOST_DOINGS[doing])
        case Conflict():
            return _("the table changed at the same moment: look again and retry")
        case TimerChoices(timers=timers):
            # Translators: {timers} lists the turn timers to choose from: "off, 30 s, 2 min".
            return _("the turn timer can be {timers}").format(
                timers=", ".join(timer_text(t) for t in timers)
            )
        case NoSuchPage():
            return _no_such_page(reason)
        case NoSuchOrder(by=by):
            # Translators: {order} is what someone asked to rank the leaderboard by.
            return _("the leaderboard cannot be ranked by {order}").format(order=repr(by))
        case Hook(total=total):
            return _hook(total)
        case ReviewNoGames():
            return _("you have no finished game in this server to review yet")
        case ReviewNoGame(game=game):
            # Translators: {game} is a game's number.
            return _("this server has no game #{game}").format(game=game)
        case ReviewNotFinished():
            return _not_reviewable(reason)
        case ReviewNotPlayer(game=game):
            # Translators: {game} is a game's number.
            return _("you did not play in game #{game}").format(game=game)
        case ReviewRunning():
            return _("you already have a review running: wait for it to finish")
        case MyDataWait(until=until):
            # Translators: {when} is a moment Discord shows as "in 5 minutes".
            return _("you asked for your data a moment ago: ask again {when}").format(
                when=relative_time(until)
            )
        case ErasureNotOffered():
            return _(
                "that confirmation is used up or too old, so nothing was erased: "
                "use /ohhell forget-me again"
            )
        case NoPage():
            return _("there is no such page of games")
        case NoGames():
            return _("no game has finished on this server yet")
        case NoGame(game=game):
            # Translators: {game} is a game's number.
            return _("there is no finished game #{game} on this server").format(game=game)
        # answers to whoever acted
        case Opened():
            return _("Table opened.")
        case Confirmed():
            return _("Your seat is confirmed.")
        case Joined():
            return _("You joined the table.")
        case ComputerAdded(name=name):
            # Translators: {name} is a computer player's name: "Computer (hard)".
            return _("{name} takes a seat.").format(name=name_text(name))
        case LeftGame():
            return _(
                "You left the game; a computer player takes your seat. "
                "Press **I'm back** on the table message to take it back."
            )
        case LeftClosed():
            return _("You left; the table is closed.")
        case Left():
            return _("You left the table.")
        case RuleSet(field=field):
            # Translators: {rule} is a rule's name as the rules editor labels it: "max cards".
            return _("{rule} set.").format(rule=rule_text(field))
        case Begins():
            return _("The game begins.")
        case Cancelled():
            return _("The table is cancelled.")
        case AutoPlay(on=True):
            return _("Auto-play of a forced card is on.")
        case AutoPlay():
            return _("Auto-play of a forced card is off.")
        case Back():
            return _("Welcome back: your seat is yours again.")
        case RemovedPlayer(name=name):
            # Translators: {name} is a player's name.
            return _("{name} is removed from the table.").format(name=name_text(name))
        case NewHost(name=name):
            # Translators: {name} is a player's name.
            return _("{name} is the host now.").format(name=name_text(name))
        case PausedNow():
            return _("Paused.")
        case ResumedNow():
            return _("Resumed.")
        case TimerSet(seconds=seconds):
            # Translators: {timer} is "off", "30 s", "2 min"…
            return _("Turn timer: {timer}.").format(timer=timer_text(seconds))
        case RematchOpened():
            return _("Rematch table opened.")
        case _:
            assert_never(reason)


def answer(reason: Reason | None, default: str = N_("Done.")) -> str:
    """The private answer to whoever acted; `default` is a marked sentence (`N_`), said in the
    language being spoken when the service gave no answer."""
    return _(default) if reason is None else reason_text(reason)


def refusal(error: Refused) -> str:
    """What a person is told when the service refuses their action: a sentence."""
    return sentence(reason_text(error.reason))


def sentence(text: str) -> str:
    """A reason said on its own: its first letter a capital."""
    return text[:1].upper() + text[1:]
