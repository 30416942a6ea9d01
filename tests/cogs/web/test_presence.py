"""Who is at the page: a person with two pages of their seat open is there until both close,
and the Discord layer is told once, when the last closes; a person at another process's page
is there until that process says they left, or stops saying they are there (real PostgreSQL
between the processes)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import pytest

from bot.service import PagesTold
from bot.storage import Database
from cogs.web import presence as presence_module
from cogs.web.presence import FORGET_AFTER, Presence
from tests.services import service_on


def test_a_person_is_at_the_page_until_their_last_page_closes() -> None:
    presence = Presence()
    left: list[tuple[int, int]] = []
    presence.on_left.append(lambda table, user: left.append((table, user)))
    presence.arrive(1, 10)
    presence.arrive(1, 10)
    presence.arrive(2, 10)
    assert presence.at_page(1, 10) and presence.at_page(2, 10) and not presence.at_page(1, 11)
    presence.leave(1, 10)
    assert presence.at_page(1, 10) and left == []
    presence.leave(1, 10)
    assert not presence.at_page(1, 10) and left == [(1, 10)]
    assert presence.tables() == {2}


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_a_person_at_another_processs_page_is_there_until_it_says_they_left() -> None:
    clock = Clock()
    presence = Presence(clock)
    left: list[tuple[int, int]] = []
    presence.on_left.append(lambda table, user: left.append((table, user)))
    presence.heard(PagesTold("other", "+", ((1, 10), (1, 11))))
    presence.heard(PagesTold(presence.process, "+", ((2, 10),)))  # its own: known already
    assert presence.at_page(1, 10) and presence.at_page(1, 11) and not presence.at_page(2, 10)
    assert presence.tables() == set()
    # At a page here too: leaving this process's page is not leaving the table's.
    presence.arrive(1, 10)
    presence.leave(1, 10)
    assert presence.at_page(1, 10) and left == []
    presence.heard(PagesTold("other", "-", ((1, 10),)))
    assert not presence.at_page(1, 10) and left == [(1, 10)]
    presence.heard(PagesTold("other", "-", ((1, 10),)))  # told twice: left once
    assert left == [(1, 10)]


def test_a_person_no_process_told_of_for_a_while_has_left() -> None:
    # The process serving their page stopped without a word, or the word was lost.
    clock = Clock()
    presence = Presence(clock)
    left: list[tuple[int, int]] = []
    presence.on_left.append(lambda table, user: left.append((table, user)))
    presence.heard(PagesTold("gone", "+", ((1, 10),)))
    presence.heard(PagesTold("going", "+", ((1, 11),)))
    clock.now += FORGET_AFTER - 1
    presence.heard(PagesTold("going", "=", ((1, 11),)))  # still there
    presence.forget_unheard()
    assert presence.at_page(1, 10) and left == []
    clock.now += 2
    assert not presence.at_page(1, 10) and presence.at_page(1, 11)
    presence.forget_unheard()
    assert left == [(1, 10)]
    clock.now += FORGET_AFTER
    presence.forget_unheard()
    assert left == [(1, 10), (1, 11)] and not presence.at_page(1, 11)


async def test_processes_tell_each_other_who_is_at_their_pages(
    postgres_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(presence_module, "TELL_EVERY", 0.1)
    monkeypatch.setattr(presence_module, "FORGET_AFTER", 0.5)
    databases = [await Database.open(postgres_url) for _ in range(3)]
    one, two, later = (Presence() for _ in range(3))
    left: list[tuple[int, int]] = []
    two.on_left.append(lambda table, user: left.append((table, user)))
    try:
        one.arrive(1, 10)  # before it shares: told once it does
        await one.share(service_on(databases[0]).sharing)
        await two.share(service_on(databases[1]).sharing)
        one.arrive(1, 11)
        await until(lambda: two.at_page(1, 10) and two.at_page(1, 11))
        # A process that starts later hears who is still there.
        await later.share(service_on(databases[2]).sharing)
        await until(lambda: later.at_page(1, 10) and later.at_page(1, 11))
        one.leave(1, 11)
        await until(lambda: left == [(1, 11)])
        assert two.at_page(1, 10) and not two.at_page(1, 11)
        # The process stops without a word (killed): a moment later nobody is at its pages.
        telling = one._telling
        assert telling is not None
        telling.cancel()
        await until(lambda: left == [(1, 11), (1, 10)])
        assert not two.at_page(1, 10) and not later.at_page(1, 10)
    finally:
        for presence in (two, later):
            await presence.stop()
        for database in databases:
            await database.close()


async def until(condition: Callable[[], bool]) -> None:
    async with asyncio.timeout(5):
        while not condition():
            await asyncio.sleep(0.02)
