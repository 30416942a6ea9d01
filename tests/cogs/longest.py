"""Every kind of message the bot sends, rendered with the longest inputs it can meet: ten seats
of 32-character names, 100-character server and channel names, 19-digit Discord ids, the
largest table and game numbers a custom_id admits, twenty tricks, every refusal and notice.

`messages()` renders them in the language being spoken, each with the name of its kind."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from typing import Any, get_args

import discord

from bot.config import PUBLIC_URL_MAX
from bot.engine import JOKER, PRESETS, Bid, Card, ChooseTrump, Phase, Play, Settings, TrickView
from bot.engine.cards import SUITS
from bot.service import (
    BOARD_ORDERS,
    BidOption,
    CardOption,
    ChannelDefaults,
    ClosedReason,
    HandState,
    Leaderboard,
    LeaderboardRow,
    Notice,
    PublicGame,
    Reason,
    Refused,
    RulesSource,
    SeatView,
    TableStatus,
    TableView,
    player_range,
)
from bot.service.answers import (
    ComputerAdded,
    NewHost,
    PausedNow,
    RemovedPlayer,
    ResumedNow,
    RuleSet,
    TimerSet,
)
from bot.service.document import TURN_TIMERS
from bot.service.my_data import DataExport
from bot.service.notices import (
    Closure,
    ComputerPlaysFor,
    FinalStandings,
    HandScore,
    HostChange,
    Pause,
    Rematch,
    Removal,
    Resumption,
    StartedWithout,
    TimedOut,
)
from bot.service.privacy import ErasureOffer, Forgotten
from bot.service.refusals import (
    AlreadyRemoved,
    ChannelHasTable,
    Explanation,
    Hook,
    HostOnly,
    Illegal,
    MissingPermissions,
    MyDataWait,
    NoGame,
    NoLevel,
    NoPage,
    NoRule,
    NoSuchOrder,
    NoSuchPage,
    PlayerCount,
    Refusal,
    ReviewNoGame,
    ReviewNotFinished,
    ReviewNotPlayer,
    RuleInvalid,
    RulesInvalid,
    RulesUnplayable,
    TableClosed,
    TableFull,
    TimerChoices,
    TooMany,
)
from bot.service.review import HandReview, Review
from bot.service.summaries import RATING_GUIDE, GameDetail, HistoryEntry, HistoryPage, LevelResult
from bot.service.turns import start_problem
from bot.storage.ratings import COMPUTER_IDS
from bot.storage.rows import COUNT_ORDERS
from cogs import render
from cogs.render import common, hand, leaderboard
from cogs.render.explanations import EXPLANATIONS
from cogs.render.history import history_message, record_file_name, record_text
from cogs.render.language import LANGUAGES, _, language
from cogs.render.privacy import erasure_confirm, forgotten_text, my_data_text
from cogs.render.ratings import UNRATED_REASON_TEXTS
from cogs.render.reasons import PERMISSION_NAMES
from cogs.render.review import review_embed, review_progress
from cogs.render.stats import stats_embed, stats_view
from cogs.web.links import Links
from tests.cogs.renders import REASONS, a_game, a_hand, a_moment, a_stats, a_table

Message = render.Rendered | discord.Embed | str
"""A whole message, an embed sent alone, or a plain text answer."""

NAME_LENGTH = 32  # Discord: the most characters of a display name or a username
SEATS = 10  # bot.engine.settings.MAX_PLAYERS
TABLE = 999_999_999_999  # the largest table number a custom_id admits (cogs/items/table.py)
HAND = 9_999  # the largest hand number a custom_id admits
ID = 1_234_567_890_123_456_789  # a Discord id of 19 digits, as they are now
PLACE_NAME = "W" * 100  # Discord: the most characters of a server's or a channel's name
WHEN = 1_800_000_000.0
CLOSINGS = (
    ClosedReason(kind="expired", after=5400.0),
    ClosedReason(kind="abandoned", after=86400.0),
    ClosedReason(kind="channel_deleted"),
    ClosedReason(kind="bot_removed"),
)
"""Why the bot closes a table, each way."""


def person(seat: int) -> int:
    return ID + seat


def name(seat: int) -> str:
    text = f"Wilhelmina Maximiliane Zeller {seat:02d}"
    assert len(text) == NAME_LENGTH
    return text


NAMES = tuple(name(seat) for seat in range(SEATS))
AWAY = ("left", "timeout", "kicked")
URL = render.jump_url(ID, ID, ID)
WHERE = render.where_text(ID, PLACE_NAME, PLACE_NAME)
LINKS = Links(b"k" * 32, "https://" + "w" * (PUBLIC_URL_MAX - 12) + ".org")
"""The web pages' links under the longest PUBLIC_URL."""


def pages(table: TableView) -> render.TablePages:
    """What a table message links to under `LINKS`, as cogs/showing.py `pages` gives it."""
    if table.status.is_open:
        return render.TablePages(watch=LINKS.table(ID, TABLE), activity=True)
    return render.TablePages(replay=LINKS.game(ID, TABLE))


def seats(away: str | None = None) -> tuple[SeatView, ...]:
    """Ten people: away as `away` says, or one in four of them playing, one away each way."""
    return tuple(
        SeatView(
            name(seat),
            person(seat),
            None,
            left=(away or (None, *AWAY)[seat % 4]) is not None,
            away=away or (None, *AWAY)[seat % 4],
        )
        for seat in range(SEATS)
    )


def cards(count: int) -> tuple[CardOption, ...]:
    """`count` cards, a suit after another (a suit's menu lists every face), half of them
    playable."""
    ranks = ("10", "2", "3", "4", "5", "6", "7", "8", "9", "J", "Q", "K", "A")
    faces = [Card(rank, suit) for suit in SUITS for rank in ranks]
    return tuple(CardOption(card, i, i % 2 == 0) for i, card in enumerate(faces[:count]))


def table(settings: Settings | None = None, **changes: Any) -> TableView:
    """A table of ten with these rules (first-to-101 for a double pack, played blind)."""
    settings = settings or Settings(preset="first-to-101", blind="all", pack="104")
    return a_table(
        **{
            "table_id": TABLE,
            "guild_id": ID,
            "channel_id": ID,
            "message_id": ID,
            "host_id": person(0),
            "seats": seats(),
            "preset": settings.preset,
            "settings": settings,
            "player_range": player_range(settings),
            "turn_timer": max(TURN_TIMERS),
            "rules_source": RulesSource(kind="channel", set_by=ID, changed=True),
            "start_problem": start_problem(settings, SEATS),
            **changes,
        }
    )


def game(**changes: Any) -> PublicGame:
    tricks = tuple(
        TrickView(0, tuple(range(SEATS)), tuple(Card("10", "H") for _ in range(SEATS)), winner, 2)
        for winner in (*range(SEATS), None) * 2
    )
    return a_game(
        **{
            "hand_number": HAND,
            "cards_each": 20,
            "dealer": SEATS - 1,
            "seats_in_hand": tuple(range(SEATS - 1)),
            "to_act": tuple(range(SEATS)),
            "bids": (20, None) * (SEATS // 2),
            "has_bid": (True, True, False, True, False) * 2,
            "bid_round": 3,
            "trick": tuple((seat, Card("10", "S")) for seat in range(SEATS - 1)),
            "tricks": tricks,
            "tricks_won": (20,) * SEATS,
            "totals": tuple(-12_345 * seat for seat in range(SEATS)),
            **changes,
        }
    )


def playing(**changes: Any) -> TableView:
    return table(
        **{
            "status": TableStatus.PLAYING,
            "game": game(),
            "deadline": WHEN,
            "dms_closed": tuple(person(seat) for seat in range(SEATS)),
            **changes,
        }
    )


def tables() -> Iterator[tuple[str, TableView]]:
    """The table message in every state, lobby and game, with ten seats."""
    gathering = tuple(
        SeatView(name(seat), person(seat), None, pending=seat >= 5) for seat in range(SEATS)
    )
    for preset in PRESETS:
        yield f"lobby {preset}", table(Settings(preset=preset), seats=gathering)
    yield "lobby, double pack", table(seats=gathering)
    wordy = {"ace_no_trumps": True, "spades_double": True, "bid_changes": True}
    yield "lobby, every rule said", table(Settings(preset="classic", trump="turned", **wordy))
    yield "lobby, rules that cannot be played", table(Settings(preset="classic", max_cards=20))
    for away in AWAY:
        yield f"bidding, every seat {away}", playing(seats=seats(away))
    yield "bidding, trump to choose", playing(game=game(trump_decided=False, turned=None))
    on = game(phase=Phase.PLAYING, to_act=(0,), blind=False)
    yield "playing", playing(game=on)
    yield "waiting", playing(game=on, dms_closed=())
    yield "paused", playing(game=on, paused=True)
    placing = tuple(range(1, SEATS + 1))
    over = game(phase=Phase.GAME_OVER, placing=placing, to_act=())
    yield "finished", table(status=TableStatus.FINISHED, game=over, start_problem=None)
    for status in (TableStatus.CANCELLED, TableStatus.ABANDONED, TableStatus.FINISHED):
        yield f"{status.value}, no game", table(status=status, start_problem=None)
        for reason in CLOSINGS:
            closed = table(status=status, closed_reason=reason, start_problem=None)
            yield f"{status.value} ({reason.kind}), no game", closed
            if status is not TableStatus.FINISHED:
                yield f"{status.value} ({reason.kind})", dataclasses.replace(closed, game=game())


def hand_states() -> Iterator[tuple[str, HandState]]:
    """A hand message in every state: 20 cards as buttons, more as menus, 21 bids as buttons,
    more as menus, the joker named, a blind hand."""
    hook = Hook(20)
    bids = tuple(BidOption(n, n % 3 != 0, None if n % 3 else hook) for n in range(21))
    so_far = tuple((name(seat), 20) for seat in range(1, SEATS))
    on_table = tuple((name(seat), Card("10", "C")) for seat in range(1, SEATS))
    base = a_hand(table_id=TABLE, hand_number=HAND, cards=cards(20), bid=20, tricks_won=20)
    bidding = dataclasses.replace(base, bid_options=bids, bids_so_far=so_far)
    yield "21 bids, 20 cards", bidding
    many = tuple(BidOption(n, n != 20, None if n != 20 else hook) for n in range(35))
    yield "35 bids, 34 cards", dataclasses.replace(bidding, bid_options=many, cards=cards(34))
    trump = dataclasses.replace(base, phase=Phase.TRUMP_CHOICE, trump_options=SUITS)
    yield "trump to choose", dataclasses.replace(trump, bid_options=(), trump_decided=False)
    play = dataclasses.replace(base, phase=Phase.PLAYING, bid_options=(), bids_so_far=None)
    play = dataclasses.replace(play, on_table=on_table)
    yield "20 cards", play
    yield "34 cards", dataclasses.replace(play, cards=cards(34))
    joker = (CardOption(JOKER, 104, True),)
    named = dataclasses.replace(play, trump=None, joker_suits=SUITS, on_table=())
    yield "joker named, 20 cards", dataclasses.replace(named, cards=cards(19) + joker)
    yield "joker named, 34 cards", dataclasses.replace(named, cards=cards(33) + joker)
    yield "joker, 34 cards", dataclasses.replace(play, cards=cards(33) + joker)
    blind = tuple((name(seat), Card("10", "D")) for seat in range(1, SEATS))
    blind_play = dataclasses.replace(play, blind_cards=blind, cards=cards(1))
    yield "blind, to play", blind_play
    yield "blind, waiting", dataclasses.replace(blind_play, my_turn=False)
    yield "blind, bidding", dataclasses.replace(bidding, blind_cards=blind, cards=cards(1))
    for away in AWAY:
        yield f"away ({away})", dataclasses.replace(bidding, away=away)
    yield "played out", dataclasses.replace(play, played_out=True)
    yield "game over", dataclasses.replace(play, game_over=True)
    yield "over, no controls", dataclasses.replace(play, phase=Phase.GAME_OVER)
    yield "waiting, no bids yet", dataclasses.replace(base, bid_options=(), bids_so_far=())


def notices() -> Iterator[Notice]:
    """Every notice, with ten players and twenty tricks where it lists them."""
    plays = tuple((name(seat), Card("10", "H")) for seat in range(SEATS))
    tricks = tuple((plays, winner) for winner in (*NAMES, None) * 2)
    rows = tuple((name(seat), 20, 20, -1_234, -12_345) for seat in range(SEATS))
    for tiebreak in (False, True):
        yield HandScore(hand=HAND, rows=rows, tricks=tricks, tiebreak=tiebreak)
    standings = tuple((1 if seat < 3 else seat, name(seat), -12_345) for seat in range(SEATS))
    ratings = tuple((12_345, -1_234, seat % 2 == 0) for seat in range(SEATS))
    yield FinalStandings(standings=standings, game=TABLE, ratings=ratings)
    yield FinalStandings(standings=standings[:1])
    for action in (Play(Card("10", "H")), Bid(20), ChooseTrump("D"), None):
        yield TimedOut(name(0), action)
    yield ComputerPlaysFor(name(0))
    yield StartedWithout(NAMES[1:])
    for reason in CLOSINGS:
        yield Closure(reason)
    for in_game in (True, False):
        yield Removal(name(0), in_game)
    yield HostChange(ID)
    yield HostChange(None)
    yield Pause()
    yield Resumption()
    yield Rematch(tuple(person(seat) for seat in range(SEATS)))


LONG_VALUE = "W" * 100  # a select option's value: the longest a click can bring back
LONG_FIELD = "w" * 24  # the longest rule name a rule menu's custom_id admits
LONGEST_REASONS: tuple[Reason, ...] = (
    TableClosed(TableStatus.ABANDONED),
    ChannelHasTable(TABLE, URL),
    MissingPermissions(tuple(PERMISSION_NAMES)),
    NoLevel(LONG_VALUE),
    NoRule(LONG_FIELD),
    RuleInvalid(LONG_FIELD, LONG_VALUE, Explanation("bad_settings")),
    PlayerCount(low=3, high=SEATS, players=SEATS),
    AlreadyRemoved(name(0)),
    TableFull(SEATS),
    TooMany(SEATS),
    HostOnly("pause"),
    TimerChoices(TURN_TIMERS),
    NoSuchPage(9_999, 9_999),
    NoSuchOrder(LONG_VALUE),
    Hook(20),
    ReviewNoGame(TABLE),
    ReviewNotFinished(TABLE, TableStatus.CANCELLED),
    ReviewNotPlayer(TABLE),
    MyDataWait(WHEN),
    NoGame(TABLE),
    NoPage(9_999),
    ComputerAdded("Computer 10 (normal)"),
    RuleSet(LONG_FIELD),
    RemovedPlayer(name(0)),
    NewHost(name(0)),
    TimerSet(max(TURN_TIMERS)),
)
"""The refusals and answers with the longest values (the others as tests/cogs/renders.py gives
them)."""

EXPLAINED: dict[str, Any] = {
    "names": NAMES,
    "name": name(0),
    "seat": SEATS,
    "tricks": 20,
    "bid": 20,
    "trump": "rotation",
    "card": Card("10", "H"),
    "suit": "D",
    "players": SEATS,
    "low": 3,
    "high": SEATS,
    "preset": "first-to-101",
    "bidding": "secret",
    "pack": "104",
    "cards": 20,
    "needed": 200,
    "size": 104,
    "most": 10,
    "sequence": "down-up",
    "setting": "exhausted_trump",
}
"""Every value an explanation names, at its longest (the engine's and the service's codes)."""


def reasons() -> Iterator[tuple[str, Reason]]:
    """Every refusal and answer, and every explanation in each refusal that words one."""
    for reason in (*REASONS, *LONGEST_REASONS):
        yield reason.code, reason
    for doing in render.HOST_DOINGS:
        yield f"host_only ({doing})", HostOnly(doing)
    for code in EXPLANATIONS:
        explained = Explanation(code, EXPLAINED)
        yield f"illegal ({code})", Illegal(explained)
        yield f"rules_invalid ({code})", RulesInvalid(explained)
        yield f"rules_unplayable ({code})", RulesUnplayable(explained)
        yield f"rule_invalid ({code})", RuleInvalid(LONG_FIELD, LONG_VALUE, explained)


SENTENCES = (
    common.NOT_FOR_YOU,
    common.NOT_OFFERED,
    common.WELCOME_BACK,
    common.REMATCH_OPENED,
    common.SERVER_ONLY,
    common.CORRUPT_TABLE,
    common.CORRUPT_GAME,
    common.UNREADABLE_CANCELLED,
    common.UNREADABLE_TABLE_CLOSED,
    common.SAVED_NOT_SHOWN,
    common.UNEXPECTED,
    leaderboard.NO_SUCH_PAGE,
    hand.PLAYED_OUT,
)
"""The sentences shown as they are (a log's reference in two of them)."""


def board_row(rank: int, user_id: int) -> LeaderboardRow:
    return LeaderboardRow(rank, user_id, 12_345, 123_456, 99_999, 0.999, 0.876, -123.4)


def boards() -> Iterator[tuple[str, Leaderboard]]:
    users = [*COMPUTER_IDS.values(), *(person(seat) for seat in range(7))]
    board = Leaderboard(
        rows=[board_row(1_234_560 + i, user) for i, user in enumerate(users)],
        caller=board_row(9_999_999, ID),
        preset="first-to-101",
        page=9_999,
        pages=9_999,
        ranked=9_999_999,
        unranked=9_999_999,
    )
    for by in BOARD_ORDERS:
        yield by, dataclasses.replace(board, by=by)
        # Provisional players: below the line and unranked, but in a count (ranked there).
        rank = None if by not in COUNT_ORDERS else 9_999_999
        below = [dataclasses.replace(row, rank=rank, provisional=True) for row in board.rows[3:]]
        caller = dataclasses.replace(board.caller, rank=rank, provisional=True)
        yield (
            f"{by}, provisional",
            dataclasses.replace(board, by=by, rows=[*board.rows[:3], *below], caller=caller),
        )
    yield "nobody rated", Leaderboard(rows=[], caller=None)


def community() -> Iterator[tuple[str, Message]]:
    """The leaderboard, stats, ratings' help, history, a record, a review, a person's data."""
    for kind, board in boards():
        embed = render.leaderboard_embed(board, PLACE_NAME)
        yield f"leaderboard ({kind})", render.Rendered(None, embed, render.leaderboard_view(board))
        linked = render.leaderboard_view(board, LINKS.board(ID))
        yield f"leaderboard ({kind}), linked", render.Rendered(None, embed, linked)
    places = tuple((place, 99_999) for place in range(1, SEATS + 1))
    stats = a_stats(
        games=1_234_567,
        wins=999_999,
        places=places,
        left_early=99_999,
        best_game=(TABLE, -12_345),
        favourite_preset=("first-to-101", 999_999),
        detail=GameDetail(games=100, hands=9_999, bid_error=-12.34, bid_miss=12.34),
        computers=tuple(LevelResult(level, 999_999, 99_999) for level in COMPUTER_IDS),
        rating=12_345,
        rating_uncertainty=999,
        rating_change=-1_234,
        rating_change_game=TABLE,
        unrated_game=TABLE,
        preset_ratings=tuple((preset, 12_345, True) for preset in PRESETS),
    )
    yield "stats", stats_embed(stats, name(0), chart=True)
    view = stats_view(stats, LINKS.player(ID, ID))
    yield "stats, linked", render.Rendered(None, stats_embed(stats, name(0), chart=True), view)
    ranked = dataclasses.replace(stats, rating_provisional=False, rating_rank=9_999_999)
    for reason in UNRATED_REASON_TEXTS:
        unrated = dataclasses.replace(ranked, unrated_reason=reason, rating_ranked=9_999_999)
        yield f"stats, unrated ({reason})", stats_embed(unrated, name(0))
    yield "stats, no games", stats_embed(dataclasses.replace(stats, games=0), name(0))
    yield "ratings help", render.ratings_help(RATING_GUIDE)
    entry = HistoryEntry(TABLE, ID, "first-to-101", WHEN, NAMES, NAMES[:4])
    page = HistoryPage(page=9_999, entries=(entry,) * 10, has_next=True)
    yield "history", history_message(page, PLACE_NAME)
    yield "history, linked", history_message(page, PLACE_NAME, {TABLE: LINKS.game(ID, TABLE)})
    yield "history, empty", history_message(HistoryPage(1, (), False), PLACE_NAME)
    yield "record", record_text(TABLE, record_file_name(TABLE))
    yield from reviews()
    for zipped in (True, False):
        yield "my data", my_data_text(DataExport(b"{}", 999_999, 9_999), zipped=zipped)
    yield "erasure confirmation", erasure_confirm(ErasureOffer("f" * 32, WHEN))
    yield "forgotten", forgotten_text(Forgotten((), (), 999_999, 9_999_999))


def reviews() -> Iterator[tuple[str, Message]]:
    """The review of a long game: 40 hands of 20 cards, a costly moment at every trick."""
    trick = tuple(Card("10", "H") for _ in range(SEATS - 1))
    moments = (a_moment("bid"), a_moment("trump")) + (a_moment("play", trick, 99.9),) * 20
    hands = tuple(
        HandReview(n, tuple(c.card for c in cards(20)), "S", 20, 20, -1_234, 20, 19.9, moments)
        for n in range(1, 41)
    )
    for worse, agreed in ((999, 9_000), (0, 9_000), (0, 9_999)):
        review = Review(TABLE, name(0), 9_999, agreed, worse, hands, moments, 12_345.6, 999)
        yield "review", review_embed(review)
    yield "review in progress", review_progress(9_999, 9_999)


def settings_texts() -> Iterator[tuple[str, Message]]:
    """/ohhell rules and settings: every preset's rules, the channel's defaults and language."""
    for preset in PRESETS:
        settings = Settings(preset=preset)
        yield f"rules ({preset})", render.rules_reply(table(settings))
        defaults = ChannelDefaults(settings, max(TURN_TIMERS))
        for changed in (True, False):
            yield (
                f"channel defaults ({preset})",
                render.channel_defaults_text(defaults, changed=changed),
            )
    for changed in (True, False):
        yield "channel defaults, none", render.channel_defaults_text(None, changed=changed)
    for code in LANGUAGES:
        yield "channel language", render.channel_language_text(code, language("en"))
        yield "channel language, the server's", render.channel_language_text(None, language(code))


def editors() -> Iterator[tuple[str, Message]]:
    """The lobby's private messages: rules editor pages, levels, host panel, confirmations."""
    chosen = Settings(
        preset="first-to-101", exhausted_trump="dealer-last", all_cancelled="up-the-ante"
    )
    for page in range(len(render.RULE_PAGES)):
        yield f"rules editor page {page + 1}", render.rules_editor(TABLE, chosen, page)
    yield "computer level picker", render.computer_level_picker(TABLE)
    for state, shown in (
        ("lobby", table()),
        ("playing", playing()),
        ("paused", playing(paused=True)),
    ):
        yield f"host panel ({state})", render.host_panel(shown)
        yield f"leave confirmation ({state})", render.leave_confirm(shown)
        panel = render.host_panel(shown)
        for done in (RemovedPlayer(name(0)), NewHost(name(0)), TimerSet(max(TURN_TIMERS))):
            after = f"{render.answer(done)}\n{panel.content}"
            yield f"host panel after {done.code}", render.Rendered(after, None, panel.view)
        for done in (PausedNow(), ResumedNow()):
            after = f"{render.answer(done)}\n{panel.content}"
            yield f"host panel after {done.code}", render.Rendered(after, None, panel.view)
    yield "cancel confirmation", render.cancel_confirm(TABLE)


def messages() -> Iterator[tuple[str, Message]]:
    """Every kind of message, in the language being spoken."""
    for kind, shown in tables():
        yield f"table message: {kind}", render.table_message(shown)
        yield f"table message, linked: {kind}", render.table_message(shown, pages(shown))
        yield f"scores: {kind}", render.scores_text(shown)
    on = playing()
    for kind, state in hand_states():
        yield f"hand message: {kind}", render.hand_message(state, on, WHERE)
    for number in (HAND, None):
        yield "hand over", render.hand_over_text(number)
    for kind, shown in tables():
        if shown.status in (TableStatus.CANCELLED, TableStatus.ABANDONED):
            yield f"game closed: {kind}", render.game_closed_text(shown)
    posts = [render.notice_text(notice) for notice in notices()]
    yield from ((f"notice: {n.code}", text) for n, text in zip(notices(), posts, strict=True))
    for notice, text in zip(notices(), posts, strict=True):
        game = render.replay_of(notice)
        if game is not None:
            view = render.notice_view(LINKS.game(ID, game))
            yield f"notice, linked: {notice.code}", render.Rendered(text, None, view)
    yield from (("catch-up post", post) for post, _held in render.catch_up_posts(posts))
    replays = [(TABLE - n, LINKS.game(ID, TABLE - n)) for n in range(30)]
    for post, _held in render.catch_up_posts(posts):
        yield "catch-up post, linked", render.Rendered(post, None, render.replays_view(replays))
    for deadline in (WHEN, None):
        waiting = tuple(person(seat) for seat in range(SEATS))
        yield "turn ping", render.turn_ping_text(waiting, URL, deadline)
    for kind, reason in reasons():
        if isinstance(reason, get_args(Refusal)):
            yield f"refusal: {kind}", render.refusal(Refused(reason))
        else:
            yield f"answer: {kind}", render.answer(reason)
    yield "answer: done", render.answer(None)
    for sentence in SENTENCES:
        yield "sentence", _(sentence).format(reference="0123456789abcdef")
    yield from editors()
    yield from settings_texts()
    yield from community()
