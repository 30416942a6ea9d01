"""Refusals: an action that is not allowed now, as a typed reason (bot/service/refusals.py)."""

from __future__ import annotations

from bot.service.refusals import Refusal


class Refused(Exception):
    """An action that is not allowed now, and nothing was changed: why, as a value
    (cogs/render words it for people)."""

    def __init__(self, reason: Refusal) -> None:
        super().__init__(reason)
        self.reason = reason

    @property
    def code(self) -> str:
        """The refusal's code, as metrics and logs name it."""
        return self.reason.code

    def __str__(self) -> str:
        return f"{self.code}: {self.reason!r}"


class TableGone(Refused):
    """The table does not exist or is no longer open."""
