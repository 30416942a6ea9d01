"""Typed errors. Each message says what to do; ``rule`` is the record-checker's slug; ``code``
and ``params`` say the same for a person in any language (cogs/render words them)."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

NO_PARAMS: Mapping[str, object] = MappingProxyType({})


class EngineError(Exception):
    """Base of every error the engine raises on purpose."""

    rule: str = "turn"
    code: str = "error"
    """What went wrong, for a person: one code per message the engine can give them."""
    params: Mapping[str, object] = NO_PARAMS
    """The values the message names (ints, strs, tuples of names, a ``Card``)."""

    def __init__(
        self,
        message: str,
        *,
        rule: str | None = None,
        record: str | None = None,
        code: str | None = None,
        **params: object,
    ):
        super().__init__(message)
        self.message = message
        if rule is not None:
            self.rule = rule
        if code is not None:
            self.code = code
        if params:
            self.params = params
        self.record_message = record or message
        """The same fault told in the third person, for record checking."""

    def __reduce__(self) -> tuple[Any, ...]:
        # Subclasses take other arguments than ``args``: rebuild from the attributes, so an
        # error raised in a worker process reaches the parent whole.
        return (_restore, (type(self), self.args, self.__dict__))


def _restore(cls: type[EngineError], args: tuple[Any, ...], state: dict[str, Any]) -> EngineError:
    error = cls.__new__(cls)
    Exception.__init__(error, *args)
    error.__dict__.update(state)
    return error


class SettingsError(EngineError, ValueError):
    """Settings that can't be played; the message says what to change."""

    rule = "rules"


class WrongPhase(EngineError):
    """The action doesn't fit the game's phase (e.g. a bid while cards are being played)."""


class NotYourTurn(EngineError):
    """Another seat must act first."""


class IllegalBid(EngineError):
    rule = "bid-range"


class IllegalPlay(EngineError):
    rule = "follow-suit"


class IllegalTrump(EngineError):
    rule = "trump-choice"


class DealError(EngineError):
    """An explicit deal (from a record or ``with_hands``) that the rules don't allow."""

    rule = "deal"


class RecordError(EngineError):
    """A game record that breaks its rules; names the hand and action (1-based)."""

    def __init__(self, hand: int | None, action: int | None, rule: str, message: str):
        where = ""
        if hand is not None:
            where = f"hand {hand}, " if action is not None else f"hand {hand}: "
            if action is not None:
                where = f"hand {hand}, action {action}: "
        super().__init__(where + message, rule=rule)
        self.hand = hand
        self.action = action
