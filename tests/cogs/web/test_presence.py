"""Who is at the page: a person with two pages of their seat open is there until both close,
and the Discord layer is told once, when the last closes."""

from __future__ import annotations

from cogs.web.presence import Presence


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
