"""Who is at the page: a person with two pages of their seat open is there until both close,
and the Discord layer is told once, when the last closes; a person at another process's page
is there until that process says they left, or stops saying they are there."""

from __future__ import annotations

from bot.service import PagesTold
from cogs.web.presence import FORGET_AFTER, Presence


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
