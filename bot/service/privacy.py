"""A person's data: a copy of everything stored about them (`/ohhell my-data`, at most once in
`MY_DATA_EVERY`), and its erasure everywhere once they confirm it (`/ohhell forget-me`)."""

from __future__ import annotations

import contextlib
import functools
import secrets
from collections.abc import Callable, Collection
from dataclasses import dataclass

from bot import storage
from bot.service.errors import Refused, TableGone
from bot.service.forgetting import PersonForgotten
from bot.service.lobby import Lobby
from bot.service.my_data import DataExport, export_of
from bot.service.refusals import ErasureNotOffered, MyDataWait
from bot.service.session import Session
from bot.service.views import Outcome
from bot.storage import MY_DATA, Erasure

MY_DATA_EVERY = 15 * 60.0
"""Seconds before a person may ask for their data again (a copy reads and decodes every game
they played). Held in the database, so it holds across processes."""
CONFIRM_WITHIN = 10 * 60.0
"""Seconds an erasure waits for its confirmation."""
SIGN_IN_LASTS = 12 * 3600.0
"""Seconds a sign-in at the web pages lasts at most (a page's renewed sessions, a browser's
login cookie: cogs/web/sessions.py). An erasure is noted that long, so that a sign-in from
before it is refused (`signed_in_before_erasure`), and no longer: none could be good after."""


@dataclass(frozen=True)
class ErasureOffer:
    """An erasure waiting for the person's confirmation: the token its button carries."""

    token: str
    until: float


@dataclass(frozen=True)
class Forgotten:
    """What an erasure did: the open tables the person left first (to be shown as any leave
    is), the open tables whose seat of theirs is a former player's now, and how much went."""

    left: tuple[Outcome, ...]
    open_tables: tuple[int, ...]
    tables: int
    rows: int


class Privacy:
    def __init__(
        self, session: Session, lobby: Lobby, privacy: storage.Privacy, erasure: Erasure
    ) -> None:
        self.session = session
        self._privacy = privacy
        self._erasure = erasure
        self.lobby = lobby

    async def my_data(self, user_id: int, names: Collection[str] = ()) -> DataExport:
        """Everything stored about the person (`names`: the ones they go by now); refused
        (`my_data_wait`) when they asked less than `MY_DATA_EVERY` ago."""
        now = self.session.clock()
        free_at = await self._privacy.take_turn(MY_DATA, user_id, now, MY_DATA_EVERY)
        if free_at is not None:
            raise Refused(MyDataWait(until=free_at))
        try:
            rows = await self._privacy.person_rows(user_id)
            export: DataExport = await self.session.run_blocking(export_of, rows, now, tuple(names))
        except BaseException:
            await self._privacy.give_back_turn(
                MY_DATA, user_id
            )  # nothing was given: they may ask again
            raise
        return export

    async def offer_erasure(self, user_id: int) -> ErasureOffer:
        """An erasure for the person to confirm within `CONFIRM_WITHIN`; an earlier offer's
        confirmation no longer does anything."""
        offer = ErasureOffer(secrets.token_hex(16), self.session.clock() + CONFIRM_WITHIN)
        await self._privacy.offer_erasure(user_id, offer.token, offer.until)
        return offer

    async def forget(
        self,
        user_id: int,
        token: str,
        former: Callable[[int], str],
        names: Collection[str] = (),
    ) -> Forgotten:
        """Erase the person everywhere, confirmed with the offer's `token`: first they leave
        every open table they play at (a computer takes the seat), then one transaction
        takes them out of everything stored (bot/storage/erasure.py). `former(n)` names the
        n-th former player at a table; `names`: the ones they go by now. Refused
        (`erasure_not_offered`), changing nothing, for a token that is not the one offered,
        or used already, or too old."""
        if not await self._privacy.erasure_offered(user_id, token, self.session.clock()):
            raise Refused(ErasureNotOffered())
        left: list[Outcome] = []
        for table_id in await self._privacy.open_tables_naming(user_id):
            # Not seated there, or away already: the erasure rewrites the seat as it is.
            with contextlib.suppress(Refused, TableGone):
                leave = functools.partial(self.lobby.leave, table_id, user_id)
                left.append(await self.session.on_newest(leave))
        now = self.session.clock()
        erased = await self._erasure.erase_person(
            user_id, token, now, PersonForgotten(user_id, former, names), now + SIGN_IN_LASTS
        )
        if erased is None:
            raise Refused(ErasureNotOffered())  # another confirmation got there first
        return Forgotten(
            left=tuple(left),
            open_tables=erased.open_tables,
            tables=len(erased.tables),
            rows=erased.rows,
        )

    async def signed_in_before_erasure(self, user_id: int, signed_in: float) -> bool:
        """Whether the person's sign-in at the web pages at `signed_in` (seconds since 1970)
        came before their erasure, and so no longer holds. One read by primary key, made at
        every check rather than cached: an erasure made by another process, or by `python -m
        bot forget`, holds at once everywhere."""
        until = await self._privacy.erased_note(user_id)
        return until is not None and signed_in < until - SIGN_IN_LASTS
