"""Channel posts as the outbox keeps them: a notice (its code, and its fields by name) and whom
it may mention, written as JSON in the transaction that stores the change, read back to be
posted."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping, Sequence
from typing import Any, get_args

from pydantic import TypeAdapter

from bot.engine import Bid, Card, ChooseTrump, Play
from bot.service.document import ClosedReason
from bot.service.notices import Notice
from bot.service.summaries import ScoreChart
from bot.service.views import Post
from bot.storage import NewPost, StoredPost, TableRow


def new_post(channel_id: int, notice: Notice, mention: Sequence[int] = ()) -> NewPost:
    """What `Tables.save` stores for a notice."""
    payload = {"params": _encode(notice_params(notice)), "mention": list(mention)}
    return NewPost(channel_id, notice.code, json.dumps(payload, separators=(",", ":")))


def stored_post(stored: StoredPost) -> Post:
    """A post read back from the outbox (ValueError, KeyError or TypeError: one that cannot be
    read)."""
    payload = json.loads(stored.payload)
    return Post(
        table_id=stored.table_id,
        version=stored.version,
        index=stored.index,
        guild_id=stored.guild_id,
        channel_id=stored.channel_id,
        notice=notice_of(stored.kind, _decode(payload["params"])),
        mention=tuple(int(user) for user in payload.get("mention", ())),
        stored_at=stored.created_at,
    )


def posts_of(
    saved: TableRow, notices: Sequence[Notice], mention: Sequence[int]
) -> tuple[Post, ...]:
    """The posts a save stored (`new_post` for each notice), as the outbox numbers them: the
    table, the version the save made, and their order."""
    where = (saved.guild_id, saved.channel_id)
    return tuple(
        Post(saved.id, saved.version, index, *where, notice, tuple(mention))
        for index, notice in enumerate(notices)
    )


NOTICE_KINDS: Mapping[str, type[Notice]] = {kind.code: kind for kind in get_args(Notice)}
"""Every notice by its code, as the outbox keeps it."""


def notice_params(notice: Notice) -> dict[str, Any]:
    """A notice's fields by name: what the outbox keeps beside its code."""
    return {f.name: getattr(notice, f.name) for f in dataclasses.fields(notice)}


def notice_of(code: str, params: object) -> Notice:
    """The notice of `code` with these fields, checked against its type: a ValueError for a code
    or fields no notice has (a corrupt row, or one a newer version of the bot wrote)."""
    kind = NOTICE_KINDS.get(code)
    if kind is None:
        raise ValueError(f"an outbox post of unknown kind: {code!r}")
    if not isinstance(params, dict):
        raise ValueError(f"an outbox post's parameters that are not named: {code!r}")
    checker = _CHECKERS.get(code)
    if checker is None:
        checker = _CHECKERS[code] = TypeAdapter(kind)
    return checker.validate_python(params)


_CHECKERS: dict[str, TypeAdapter[Notice]] = {}
"""Each notice's checker, by its code: built when first needed."""


# Notice parameters are numbers, text, tuples of them and a few values of the engine and the
# service; JSON has no tuples and none of those values, so each is written as a one-key object.


def _encode(value: Any) -> Any:
    if isinstance(value, Card):
        return {"card": str(value)}
    if isinstance(value, Bid):
        return {"bid": value.n}
    if isinstance(value, ChooseTrump):
        return {"trump": value.suit}
    if isinstance(value, Play):
        return {"play": [str(value.card), value.suit]}
    if isinstance(value, ClosedReason):
        return {"closed": value.model_dump()}
    if isinstance(value, ScoreChart):
        return {"chart": _encode(dataclasses.asdict(value))}
    if isinstance(value, Mapping):
        return {"map": {str(key): _encode(item) for key, item in value.items()}}
    if isinstance(value, (tuple, list)):
        return [_encode(item) for item in value]
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    raise TypeError(f"a notice parameter the outbox cannot keep: {value!r}")


def _decode(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_decode(item) for item in value)
    if not isinstance(value, dict):
        return value
    ((tag, inner),) = value.items()
    if tag == "map":
        return {key: _decode(item) for key, item in inner.items()}
    if tag == "card":
        return Card.parse(inner)
    if tag == "bid":
        return Bid(inner)
    if tag == "trump":
        return ChooseTrump(inner)
    if tag == "play":
        return Play(Card.parse(inner[0]), inner[1])
    if tag == "closed":
        return ClosedReason.model_validate(inner)
    if tag == "chart":
        return ScoreChart(**_decode(inner))
    raise ValueError(f"an outbox parameter of unknown kind: {tag!r}")
