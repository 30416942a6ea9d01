"""The pages' session tokens: bound to one user, good for a quarter of an hour, renewed up to
the end of the sign-in, never taken for a link, a login or a state, and refused when forged or
altered in any byte."""

from __future__ import annotations

import base64
import hashlib
import hmac

import pytest

from bot.service.privacy import SIGN_IN_LASTS
from cogs.web.links import Links
from cogs.web.sessions import (
    LOGIN,
    LOGIN_LIFETIME,
    MAX_SIGNED_IN,
    SESSION,
    SESSION_LIFETIME,
    STATE,
    Refused,
    Sessions,
)

KEY = b"k" * 32
ANN, BOB = 111_222_333_444_555_666, 777


class Clock:
    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


def refused(action: object) -> str:
    with pytest.raises(Refused) as caught:
        action()  # type: ignore[operator]
    return caught.value.code


def renewed(sessions: Sessions, session: str) -> tuple[int, str]:
    """The user and a new session in place of a good one, as the page's renewal gives."""
    token = sessions.read(SESSION, session)
    return token.user_id, sessions.session(token.user_id, token.signed_in)


def test_a_session_names_its_user_until_it_expires() -> None:
    clock = Clock()
    sessions = Sessions(KEY, clock)
    token = sessions.session(ANN)
    assert sessions.user(token) == ANN
    assert sessions.user(sessions.session(BOB)) == BOB
    clock.now += SESSION_LIFETIME - 1
    assert sessions.user(token) == ANN
    clock.now += 1
    assert refused(lambda: sessions.user(token)) == "expired"
    assert refused(lambda: renewed(sessions, token)) == "expired"


def test_renewal_gives_the_same_user_a_later_end_until_the_sign_in_is_old() -> None:
    clock = Clock()
    sessions = Sessions(KEY, clock)
    token = sessions.session(ANN)
    while clock.now + SESSION_LIFETIME < 1_800_000_000 + MAX_SIGNED_IN:
        clock.now += SESSION_LIFETIME - 60
        user, token = renewed(sessions, token)
        assert user == ANN and sessions.user(token) == ANN
    # The sign-in is twelve hours old: what is left is all a renewal gives, then none.
    clock.now = 1_800_000_000 + MAX_SIGNED_IN - 10
    user, last = renewed(sessions, token)
    assert sessions.read(SESSION, last).expires == 1_800_000_000 + MAX_SIGNED_IN
    clock.now = 1_800_000_000 + MAX_SIGNED_IN
    assert refused(lambda: renewed(sessions, last)) == "expired"


def test_every_altered_byte_or_character_is_refused() -> None:
    sessions = Sessions(KEY, Clock())
    token = sessions.session(ANN)
    raw = base64.urlsafe_b64decode(token + "=" * (-len(token) % 4))
    for place in range(len(raw)):
        altered = bytearray(raw)
        altered[place] ^= 0x01
        forged = base64.urlsafe_b64encode(bytes(altered)).decode().rstrip("=")
        assert refused(lambda forged=forged: sessions.user(forged)) == "invalid"
    # Another user put in the body, the tag kept: refused.
    body = bytearray(raw)
    body[0:8] = BOB.to_bytes(8, "big")
    swapped = base64.urlsafe_b64encode(bytes(body)).decode().rstrip("=")
    assert refused(lambda: sessions.user(swapped)) == "invalid"
    for junk in ("", "x", "é" * 40, "A" * 401, token[:-1], token + "A", "!!!!"):
        assert refused(lambda junk=junk: sessions.user(junk)) == "invalid"


def test_another_key_or_purpose_never_reads_as_a_session() -> None:
    clock = Clock()
    sessions = Sessions(KEY, clock)
    assert refused(lambda: Sessions(b"j" * 32, clock).user(sessions.session(ANN))) == "invalid"
    login = sessions.sign(LOGIN, ANN, 3600)
    state = sessions.sign(STATE, ANN, 600)
    assert refused(lambda: sessions.user(login)) == "invalid"
    assert refused(lambda: sessions.user(state)) == "invalid"
    assert refused(lambda: sessions.read(LOGIN, sessions.session(ANN))) == "invalid"
    # A link signed with the same key is no session, and a session no link.
    link = Links(KEY, "https://x.example").token("t", ANN, 5)
    assert refused(lambda: sessions.user(link)) == "invalid"
    assert Links(KEY, "").read("t", sessions.session(ANN)) is None
    # The keys are derived, not the link key: a session tagged with the link key is refused.
    good = base64.urlsafe_b64decode(sessions.session(ANN) + "==")
    body = good[:-16]
    tag = hmac.new(KEY, body, hashlib.sha256).digest()[:16]
    with_link_key = base64.urlsafe_b64encode(body + tag).decode().rstrip("=")
    assert refused(lambda: sessions.user(with_link_key)) == "invalid"
    assert sessions.read(LOGIN, login).user_id == ANN


def test_an_erasure_is_noted_for_as_long_as_a_sign_in_from_before_it_lasts() -> None:
    """The service notes an erasure `SIGN_IN_LASTS`: no session (renewed up to `MAX_SIGNED_IN`)
    or login cookie from before it may outlive the note and be taken again."""
    assert max(MAX_SIGNED_IN, LOGIN_LIFETIME) <= SIGN_IN_LASTS
