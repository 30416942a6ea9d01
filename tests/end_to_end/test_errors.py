"""The one error handler: a corrupt row and an unexpected error each get a clear private answer
from every command and button, and an unexpected one a reference that is also in the log."""

from __future__ import annotations

import re
from typing import Any

import pytest

from standin.driver import Person
from standin.server import StandIn
from standin.world import Message
from tests.databases import execute
from tests.end_to_end.conftest import BotFactory
from tools.simulated_people import (
    hand_message,
    my_turn_controls,
    open_table,
    table_id_of,
    take_turn,
)

REFERENCE = re.compile(r"reference `([0-9a-f]{6})`")


async def corrupt(database_url: str, table_id: int) -> None:
    """What a disk fault or a bad hand edit leaves: a document that is not JSON."""
    await execute(
        database_url, "UPDATE tables SET document = '{not json' WHERE id = ?", (table_id,)
    )


async def corrupt_game(
    standin: StandIn, bot: Any, database_url: str
) -> tuple[tuple[Person, Person], Message, int]:
    """A classic game of Ann, Bob and Cat started, then its row corrupted: Ann (the host)
    and Bob, the table message and its id."""
    ann, bob, cat = (standin.person(n) for n in ("Ann", "Bob", "Cat"))
    table, t = await open_table(standin, [ann, bob, cat], preset="classic", max_cards=2)
    await ann.click(table, f"oh:start:{t}")
    # The hand DMs are sent, then stored: once they are out, wait for the storing, or a
    # save of the good document could land over the bad one.
    await standin.wait_for(lambda: all(hand_message(p) for p in (ann, bob, cat)))
    await bot.presenter.ground.idle()
    await corrupt(database_url, t)
    return (ann, bob), table, t


async def first_turn(standin: StandIn) -> tuple[list[Person], Person, Message, list[str]]:
    """A classic game of three started: the people, the first to act, and their hand message
    with its controls."""
    people = [standin.person(n) for n in ("Ann", "Bob", "Cat")]
    table, t = await open_table(standin, people, preset="classic", max_cards=2)
    await people[0].click(table, f"oh:start:{t}")
    first = await standin.wait_for(lambda: next((p for p in people if my_turn_controls(p)), None))
    message, ids = my_turn_controls(first) or (None, [])
    assert message is not None
    return people, first, message, ids


async def test_a_corrupt_row_is_answered_by_every_command_and_button(
    standin: StandIn, start_bot: BotFactory, database_url: str
) -> None:
    async with start_bot() as bot:
        (ann, bob), table, t = await corrupt_game(standin, bot, database_url)
        for command in ("ohhell hand", "ohhell scores", "ohhell rules", "ohhell leave"):
            result = await ann.slash(standin.channel, command)
            assert result.ephemeral, (command, result)
            assert "could not be read, so nothing was changed" in (result.content or ""), command
        for button in (f"oh:scores:{t}", f"oh:hand:{t}", f"oh:hostctl:{t}"):
            result = await bob.click(table, button)
            assert result.ephemeral, (button, result)
            assert "could not be read" in (result.content or ""), button


async def test_an_unexpected_error_says_nothing_was_changed_with_a_reference_in_the_log(
    standin: StandIn,
    start_bot: BotFactory,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    async with start_bot() as bot:
        ann, bob = standin.person("Ann"), standin.person("Bob")
        table, t = await open_table(standin, [ann], preset="classic")

        async def broken(*args: Any, **kwargs: Any) -> Any:
            raise RuntimeError("a bug in join")

        monkeypatch.setattr(bot.tables.service.lobby, "join", broken)
        result = await bob.click(table, f"oh:join:{t}")
        assert result.ephemeral
        assert "Something went wrong — nothing was changed" in (result.content or "")
        found = REFERENCE.search(result.content or "")
        assert found is not None, result.content
        logged = [r for r in caplog.records if found[1] in r.getMessage()]
        assert logged and logged[0].exc_info is not None
        assert "a bug in join" in str(logged[0].exc_info[1])


async def test_a_click_answered_too_late_is_still_shown(
    standin: StandIn, start_bot: BotFactory
) -> None:
    """The bid is stored, but its answer comes after Discord's 3 s (here: after no time at
    all) and Discord refuses it: the change is shown all the same, and the next person gets
    their turn."""
    async with start_bot():
        people, first, message, ids = await first_turn(standin)
        deadline, standin.ack_deadline = standin.ack_deadline, 0.0
        try:
            late = await take_turn(first, message, ids[0])
        finally:
            standin.ack_deadline = deadline
        assert not late.acknowledged
        # The bidder's own DM leaves their turn, and someone else's shows theirs.
        await standin.wait_for(lambda: my_turn_controls(first) is None, timeout=5)
        await standin.wait_for(
            lambda: any(my_turn_controls(p) for p in people if p is not first), timeout=5
        )


async def test_a_corrupt_table_is_cancelled_by_its_host_and_frees_the_channel(
    standin: StandIn, start_bot: BotFactory, database_url: str
) -> None:
    """Every click on a corrupt table says to ask the host to cancel it: /ohhell cancel must
    then work without reading it, and only for the host (or Manage Channels)."""
    async with start_bot() as bot:
        (ann, bob), table, t = await corrupt_game(standin, bot, database_url)
        refused = await bob.slash(standin.channel, "ohhell cancel")
        assert refused.ephemeral and "only the host" in (refused.content or "").lower()
        assert (await bob.click(table, f"oh:scores:{t}")).ephemeral  # still open, still corrupt
        cancelled = await ann.slash(standin.channel, "ohhell cancel")
        assert cancelled.ephemeral
        assert "could not be read, so it was cancelled" in (cancelled.content or "")
        await standin.wait_for(lambda: "could not be read" in (table.content or ""))
        assert not table.components
        assert bot.tables.service.session.cached_tables() == set()
        # The channel is free for a new table.
        opened = await ann.slash(standin.channel, "ohhell start")
        assert not opened.ephemeral, opened.content


async def test_a_start_answered_too_late_still_posts_its_table(
    standin: StandIn, start_bot: BotFactory
) -> None:
    """/ohhell start stores the table before it answers: an answer Discord refuses (after
    its 3 s) must not leave an open table nobody can see, blocking the channel."""
    async with start_bot():
        ann, bob = standin.person("Ann"), standin.person("Bob")
        deadline, standin.ack_deadline = standin.ack_deadline, 0.0
        try:
            late = await ann.slash(standin.channel, "ohhell start")
        finally:
            standin.ack_deadline = deadline
        assert not late.acknowledged
        table = await standin.wait_for(
            lambda: next(
                (
                    m
                    for m in standin.messages(standin.channel)
                    if any(c.startswith("oh:join:") for c in m.custom_ids())
                ),
                None,
            )
        )
        joined = await bob.click(table, f"oh:join:{table_id_of(table)}")
        assert joined.response_type == 7, joined.content


async def test_an_error_after_a_stored_move_says_it_was_saved(
    standin: StandIn,
    start_bot: BotFactory,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """The bid is stored, then answering it fails: the bidder must not be told that nothing
    was changed (they might bid again), and the next person still gets their turn."""
    async with start_bot() as bot:
        people, first, message, ids = await first_turn(standin)

        async def broken(*args: Any, **kwargs: Any) -> None:
            raise RuntimeError("a bug in the answer")

        monkeypatch.setattr(bot.tables, "_answer_act", broken)
        answered = await take_turn(first, message, ids[0])
        assert answered.ephemeral
        assert "Done: that is saved" in (answered.content or ""), answered.content
        assert "nothing was changed" not in (answered.content or "")
        found = REFERENCE.search(answered.content or "")
        assert found is not None and any(found[1] in r.getMessage() for r in caplog.records)
        await standin.wait_for(
            lambda: any(my_turn_controls(p) for p in people if p is not first), timeout=5
        )
