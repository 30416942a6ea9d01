"""The live table page's pushes and page: built from the table's public view, they carry a
secret bid as "has bid", each hand as a count of backs, a hostile name as escaped JSON; and,
played through the service a whole game long, no push and no page ever carries a card someone
holds that the channel has not been shown."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

import pytest

from bot.engine import Bid, Game, Phase, Play
from bot.service import Outcome, Post, TableService, TableStatus, TableView
from bot.service.notices import HandScore
from cogs.render.common import card_text
from cogs.render.language import LANGUAGES, language, speaking
from cogs.web.live import live_frame, live_state
from cogs.web.live_page import live_page
from cogs.web.watchers import Watchers
from tests.cogs.web.pages import HOSTILE
from tests.service.test_service import ANN, BOB, CAT, CHANNEL, GUILD

SQLITE = pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)

CODE = re.compile(r"(?<![A-Za-z0-9])(?:10|[2-9JQKA])[CDHS](?![A-Za-z0-9])|JOKER")
"""A card's code as pushes carry it: "QS", "10H"."""
CARD_TEXT = re.compile(r"(?:10|[2-9JQKA])[♣♦♥♠]|🃏")
"""A card as English words show it: "Q♠"."""
CARD_FIELDS = ("trick", "tricks", "last", "turned", "earlier")


def frame_state(frame: bytes) -> dict[str, Any]:
    lines = frame.decode().split("\n")
    assert lines[1:3] == ["event: table", "retry: 1000"] and frame.endswith(b"\n\n")
    state: dict[str, Any] = json.loads(lines[3].removeprefix("data: "))
    return state


@dataclass
class Moment:
    """A change as it was committed: its view, its posts, and the game as the bot holds it."""

    outcome: Outcome
    game: Game | None
    scored: HandScore | None = None
    frames: dict[str, bytes] = field(default_factory=dict)


async def game_of(service: TableService, table_id: int) -> Game | None:
    row = await service.db.tables.load(table_id)
    stored = row.document.get("game")
    return Game.from_json(stored) if stored else None


async def play_through(
    service: TableService, turn_timer: int | None = None, **settings: object
) -> list[Moment]:
    """Ann, Bob and Cat (named to break out) with a computer, to the end; every change."""
    moments: list[Moment] = []
    scored: list[HandScore | None] = [None]
    table_id = 0

    async def keep(outcome: Outcome) -> None:
        for post in outcome.posts:
            if isinstance(post.notice, HandScore):
                scored[0] = post.notice
        game = await game_of(service, outcome.table.table_id)
        moments.append(Moment(outcome, game, scored[0]))

    opened = await service.lobby.open_table(
        guild_id=GUILD,
        channel_id=CHANNEL,
        user_id=ANN,
        name="Ann",
        settings=dict(settings),
        turn_timer=turn_timer,
    )
    table_id = opened.table.table_id
    await keep(opened)
    await keep(await service.lobby.join(table_id, BOB, "Bob"))
    await keep(await service.lobby.join(table_id, CAT, HOSTILE[0]))
    await keep(await service.lobby.add_computer(table_id, ANN, "easy"))
    await keep(await service.lobby.start_game(table_id, ANN))
    for _ in range(2000):
        while (stepped := await service.playing.step(table_id)) is not None:
            await keep(stepped)
        if moments[-1].outcome.table.status is TableStatus.FINISHED:
            return moments
        for user in (ANN, BOB, CAT):
            state = await service.lookups.hand_state(table_id, user)
            if state.my_turn:
                if state.phase is Phase.BIDDING:
                    action: Any = Bid(next(o.n for o in state.bid_options if o.allowed))
                else:
                    action = Play(next(o.card for o in state.cards if o.allowed))
                await keep(await service.playing.act(table_id, user, state.hand_number, action))
                break
    raise AssertionError("the game did not finish")


def shown_cards(game: Game, scored: HandScore | None) -> tuple[list[str], set[str]]:
    """What the channel has been shown of this hand, in play order, and the turned card."""
    played = [str(card) for _seat, card in game.current_trick()]
    done = [str(card) for trick in game.completed_tricks() for card in trick.cards]
    turned = {str(game.turned)} if game.turned is not None else set()
    return done + played, turned


def held(game: Game) -> set[str]:
    """Every card in someone's hand now: what nobody but its holder may see."""
    return {str(card) for seat in game.seats for card in game.hand(seat)}


def check_frame(moment: Moment, state: dict[str, Any], frame: bytes, english: bool) -> None:
    game = moment.game
    assert game is not None
    order, turned = shown_cards(game, moment.scored)
    # The card fields: the trick, this hand's tricks and the turned card are exactly what the
    # engine says everyone saw; the last trick is this hand's, or the scored hand's last one.
    laid = [p["card"] for t in state["tricks"] for p in t["plays"]]
    laid += [p["card"] for p in state["trick"]]
    assert laid == order
    assert ({state["turned"]} if state["turned"] else set()) == turned
    last = state["last"]
    allowed_earlier: set[str] = set()
    if "earlier" in state:
        # No trick of this hand yet: the scored hand's tricks, exactly as the engine has them.
        assert moment.scored is not None and not state["tricks"]
        hand = next(h for h in game.history() if h.number == moment.scored.hand)
        earlier = [[p["card"] for p in t["plays"]] for t in state["earlier"]]
        assert earlier == [[str(game.pack.cards[c]) for c in t.cards] for t in hand.tricks]
        assert [t["winner"] for t in state["earlier"]] == [t.winner for t in hand.tricks]
        assert last == state["earlier"][-1] | {"caption": last["caption"]}
        allowed_earlier = {card for trick in earlier for card in trick}
    else:
        assert last == (state["tricks"][-1] if state["tricks"] else None)
    # Beside those fields, nothing names a card: no code, no card as words show it but the
    # turned card's in the trump's words.
    rest = {k: v for k, v in state.items() if k not in CARD_FIELDS}
    text = json.dumps(rest, ensure_ascii=False)
    assert not CODE.findall(text), CODE.findall(text)
    if english:
        turned_text = {card_text(game.turned)} if game.turned is not None else set()
        assert set(CARD_TEXT.findall(text)) <= turned_text, text
    # And every held card's code in the raw bytes is one of those the fields may carry.
    secret = held(game) - set(order) - turned - allowed_earlier
    raw = frame.decode()
    for code in secret:
        assert f'"{code}"' not in raw, f"a held card {code} is in a push"


@SQLITE
async def test_no_push_or_page_of_a_whole_game_carries_a_held_card(
    service: TableService,
) -> None:
    moments = await play_through(
        service, preset="oh-shit-half", max_cards=3, blind="all", turn_timer=60
    )
    checked = secret_seen = blind_seen = earlier_seen = 0
    for moment in moments:
        view = moment.outcome.table
        for code in LANGUAGES:
            frame = live_frame(view, code, moment.scored, replay="https://x.example/g/abc")
            state = frame_state(frame)
            page = live_page(view, "/t/x/events")
            assert not CODE.findall(page) and not CARD_TEXT.findall(page)
            for card in held(moment.game) if moment.game is not None else ():
                assert f'"{card}"' not in page
            if moment.game is None or view.game is None:
                assert state["trick"] == [] and state["tricks"] == []
                continue
            check_frame(moment, state, frame, code == "en")
            earlier_seen += "earlier" in state
            # Hands are counts of backs, never cards.
            for seat, shown in enumerate(state["seats"]):
                assert set(shown) <= {
                    "name",
                    "total",
                    "dealer",
                    "out",
                    "bid",
                    "took",
                    "cards",
                    "held",
                    "turn",
                }
                if "cards" in shown:
                    assert shown["cards"] == len(moment.game.hand(seat))
            checked += 1
        game = view.game
        if game is not None and game.phase is Phase.BIDDING and any(game.has_bid):
            # A secret bid: "has bid" only, in every language, until all are revealed.
            english = live_state(view)
            bidders = [s for s in game.seats_in_hand if game.has_bid[s]]
            assert all(english["seats"][s]["bid"] == "has bid" for s in bidders)
            made = moment.game.bids if moment.game is not None else ()
            assert all(b is not None for b in (made[s] for s in bidders))
            secret_seen += 1
        blind_seen += bool(game is not None and game.blind)
    assert checked > 100 and secret_seen > 0 and blind_seen > 0 and earlier_seen > 0
    final = moments[-1].outcome.table
    closed = live_state(final, replay="https://x.example/g/abc")
    assert closed["status"] == "finished" and closed["replay"]["href"].endswith("/g/abc")
    assert closed["scores"]["title"] == "Final standings"
    # The last hand's last trick, which no view shows, comes from the hand's scores.
    assert closed["last"] is not None and len(closed["last"]["plays"]) == 4


@SQLITE
async def test_a_secret_bid_is_has_bid_and_hands_are_counts(service: TableService) -> None:
    table_id = (
        await service.lobby.open_table(
            guild_id=GUILD,
            channel_id=CHANNEL,
            user_id=ANN,
            name="Ann",
            settings={"preset": "oh-shit-half", "max_cards": 3},
        )
    ).table.table_id
    await service.lobby.join(table_id, BOB, "Bob")
    await service.lobby.join(table_id, CAT, "Cat")
    await service.lobby.start_game(table_id, ANN)
    for user in (ANN, BOB, CAT):
        state = await service.lookups.hand_state(table_id, user)
        if state.my_turn:
            bid = max(o.n for o in state.bid_options if o.allowed)
            await service.playing.act(table_id, user, state.hand_number, Bid(bid))
            break
    view = await service.lookups.table_view(table_id)
    state = live_state(view)
    assert [s["bid"] for s in state["seats"]].count("has bid") == 1
    assert all(s["cards"] == 3 and s["held"] == "3 cards in hand" for s in state["seats"])
    assert not re.search(r'"bid [0-9]', json.dumps(state))
    # In Dutch, the words are Dutch.
    dutch = frame_state(live_frame(view, "nl"))
    assert dutch["seats"][0]["held"] == "3 kaarten in de hand"
    with speaking(language("nl")):
        page = live_page(view, "/t/x/events")
    assert page.startswith('<!DOCTYPE html><html lang="nl">') and "Vorige slag" in page
    assert "&quot;Q&quot;:&quot;V&quot;" in page  # a Dutch queen is a V


@SQLITE
async def test_a_hostile_name_is_escaped_json(service: TableService) -> None:
    table_id = (
        await service.lobby.open_table(
            guild_id=GUILD, channel_id=CHANNEL, user_id=ANN, name=HOSTILE[1], settings={}
        )
    ).table.table_id
    view = (await service.lobby.join(table_id, BOB, HOSTILE[0] + "\n\ndata: x")).table
    frame = live_frame(view, "en")
    assert frame.count(b"\n\n") == 1 and frame.count(b"\ndata: ") == 1
    assert b"<" not in frame and b">" not in frame
    state = frame_state(frame)
    assert [s["name"] for s in state["seats"]] == [HOSTILE[1], HOSTILE[0] + "\n\ndata: x"]
    assert state["status"] == "lobby" and "Waiting for players" in state["notes"][0]
    assert state["rules"] and "**" not in json.dumps(state)
    assert HOSTILE[1] in state["notes"][0]
    page = live_page(view, "/t/x/events")
    assert "<script>alert" not in page and "<img" not in page and "style=" not in page


def table_view(version: int, status: TableStatus = TableStatus.LOBBY) -> TableView:
    from bot.engine import Settings
    from bot.service import SeatView

    return TableView(
        table_id=1,
        version=version,
        guild_id=GUILD,
        channel_id=CHANNEL,
        message_id=None,
        host_id=ANN,
        status=status,
        preset="classic",
        seats=(SeatView("Ann", ANN, None),),
        settings=Settings(),
        player_range=(2, 7),
        game=None,
    )


async def test_watchers_render_once_a_language_a_change_and_send_the_newest() -> None:
    rendered: list[tuple[int, str]] = []
    scores: list[int | None] = []

    def render(view: TableView, code: str, scored: HandScore | None) -> bytes:
        rendered.append((view.version, code))
        scores.append(None if scored is None else scored.hand)
        return live_frame(view, code, scored)

    async def load(table_id: int) -> tuple[TableView, HandScore | None]:
        raise AssertionError("nothing is loaded")

    watchers = Watchers(render, load, lambda work: None)
    first = watchers.add(table_view(3), "en")
    second = watchers.add(table_view(3), "en")
    dutch = watchers.add(table_view(2), "nl")
    assert first is not None and second is not None and dutch is not None
    # A new watcher gets a frame of its own (it says when it was made); an older view does
    # not replace the newest.
    assert rendered == [(3, "en"), (3, "en"), (3, "nl")]
    rendered.clear()
    watchers.published(table_view(4))
    watchers.published(table_view(4))
    watchers.published(table_view(5))
    assert sorted(rendered) == [(4, "en"), (4, "nl"), (5, "en"), (5, "nl")]
    frame = await first.next_frame(0.1)
    assert frame is not None and frame_state(frame)["version"] == 5
    assert first.version == 5  # what a seat stream asks its person's hand as new as

    # The newest hand's scores the channel is sent go with every frame after, even when the
    # change that sent them comes after a newer one.
    def scored(hand: int, version: int) -> Post:
        return Post(1, version, 0, GUILD, CHANNEL, HandScore(hand=hand, rows=()))

    watchers.published(table_view(7), (scored(2, 7),))
    watchers.published(table_view(6), (scored(1, 6),))
    watchers.published(table_view(8))
    assert scores[-4:] == [2, 2, 2, 2]
    await first.next_frame(0.1)
    assert await first.next_frame(0.01) is None
    watchers.published(table_view(9, TableStatus.CANCELLED))
    assert frame_state(await second.next_frame(0.1) or b"")["version"] == 9
    assert second.closed and dutch.closed
    late = watchers.add(table_view(9, TableStatus.CANCELLED), "en")
    assert late is not None and late.closed
    assert frame_state(await late.next_frame(0.1) or b"")["open"] is False
