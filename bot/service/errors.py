"""Refusals: an action that is not allowed now, as a code and its parameters."""

from __future__ import annotations

from typing import Any

from bot.service.views import Reason


class Refused(Exception):
    """An action that is not allowed now, and nothing was changed: a code and its parameters
    (cogs/render words it for people)."""

    def __init__(self, code: str, **params: Any) -> None:
        super().__init__(code, params)
        self.reason = Reason(code, params)

    @property
    def code(self) -> str:
        return self.reason.code

    def __str__(self) -> str:
        return f"{self.reason.code} {self.reason.params}" if self.reason.params else self.code


class TableGone(Refused):
    """The table does not exist or is no longer open."""
