"""Discord misbehaving on purpose, for tests of what the bot does when a call goes wrong: a
request held before it is handled (Discord never got it), an answer held after the request was
handled (Discord did it, the bot never heard), or a server error.

    held = standin.faults.hold_answer("POST /channels/{channel_id}/messages",
                                      lambda body: "scored" in body.get("content", ""))
    await standin.wait_for(lambda: held.hits)   # the message exists; its sender waits
    bot_process.kill()
    held.release()
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

Matches = Callable[[Any], bool]
"""Whether a request's JSON body is one the fault is for."""


def every(_: Any) -> bool:
    return True


@dataclass(eq=False)
class Fault:
    route: str
    """As `Call.route` names it: "POST /channels/{channel_id}/messages"."""
    matches: Matches
    kind: Literal["hold_request", "hold_answer", "fail"]
    times: int
    """How many matching requests it takes (then it lets the others through)."""
    status: int = 503
    hits: int = 0
    """Matching requests it took so far."""
    released: asyncio.Event = field(default_factory=asyncio.Event)

    def release(self) -> None:
        """Let the held requests (and answers) go on."""
        self.released.set()

    def takes(self, route: str, body: Any) -> bool:
        if route != self.route or self.hits >= self.times:
            return False
        try:
            if not self.matches(body if body is not None else {}):
                return False
        except (AttributeError, KeyError, TypeError):
            return False
        self.hits += 1
        return True


class Faults:
    """The faults a test set on a stand-in; each takes the next `times` matching requests."""

    def __init__(self) -> None:
        self._faults: list[Fault] = []

    def hold_request(self, route: str, matches: Matches = every, *, times: int = 1) -> Fault:
        """Matching requests wait, unhandled, until `release()` (Discord never got them)."""
        return self._add(Fault(route, matches, "hold_request", times))

    def hold_answer(self, route: str, matches: Matches = every, *, times: int = 1) -> Fault:
        """Matching requests are handled, and their answers wait until `release()` (Discord did
        what was asked; the caller has not heard)."""
        return self._add(Fault(route, matches, "hold_answer", times))

    def fail(
        self, route: str, matches: Matches = every, *, times: int = 1, status: int = 503
    ) -> Fault:
        """Matching requests are answered with a server error, unhandled."""
        return self._add(Fault(route, matches, "fail", times, status))

    def _add(self, fault: Fault) -> Fault:
        self._faults.append(fault)
        return fault

    def taking(self, route: str, body: Any) -> Fault | None:
        """The fault that takes this request, if any."""
        return next((f for f in self._faults if f.takes(route, body)), None)

    def release_all(self) -> None:
        for fault in self._faults:
            fault.release()
