"""Signed links: each reads back as what it names, and nothing else reads as a link — not an
altered character, another kind, another server, another key, nor another spelling of the same
bytes."""

from __future__ import annotations

import base64
import string

from cogs.web.links import TOKEN_CHARS, Links, Signed

LINKS = Links(b"k" * 32, "https://ohhell.example.org/")


def test_a_token_reads_back_as_what_it_names_and_as_nothing_else() -> None:
    token = LINKS.token("t", 123, 45)
    assert len(token) == TOKEN_CHARS and set(token) <= set(string.ascii_letters + "0123456789-_")
    assert LINKS.read("t", token) == Signed("t", 123, 45)
    assert LINKS.read("g", token) is None
    assert Links(b"j" * 32, "").read("t", token) is None
    assert LINKS.table(123, 45) == f"https://ohhell.example.org/t/{token}"
    for kind, url in (
        ("g", LINKS.game(1, 2)),
        ("s", LINKS.board(1)),
        ("p", LINKS.player(1, 7)),
    ):
        assert LINKS.read(kind, url.rsplit("/", 1)[1]) is not None


def test_every_altered_character_is_refused() -> None:
    token = LINKS.token("t", 987_654_321_987_654_321, 1)
    for place in range(len(token)):
        for other in "AB_-9z":
            if other != token[place]:
                altered = token[:place] + other + token[place + 1 :]
                assert LINKS.read("t", altered) is None, (place, other)


def test_another_spelling_of_the_same_bytes_is_refused() -> None:
    """The last character carries bits base64 ignores: a link with them set decodes to the same
    bytes, and is still not the link."""
    token = LINKS.token("t", 5, 6)
    raw = base64.urlsafe_b64decode(token + "=" * (-len(token) % 4))
    alphabet = string.ascii_uppercase + string.ascii_lowercase + "0123456789-_"
    value = alphabet.index(token[-1])
    twins = [c for c in alphabet if c != token[-1] and alphabet.index(c) >> 2 == value >> 2]
    assert twins  # 29 bytes: the last character's two low bits are unused
    for twin in twins:
        spelled = token[:-1] + twin
        assert base64.urlsafe_b64decode(spelled + "=" * (-len(spelled) % 4)) == raw
        assert LINKS.read("t", spelled) is None


def test_garbage_is_refused() -> None:
    for garbage in ("", "x" * TOKEN_CHARS, "é" * TOKEN_CHARS, "=" * TOKEN_CHARS, "../" * 13):
        assert LINKS.read("t", garbage) is None
