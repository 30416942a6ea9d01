"""A clock for service and storage tests: a number the test moves by hand (`clock.now += 61`)."""

from __future__ import annotations


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now
