"""The pacer keeps the bot under Discord's global limit (on a manual clock: no real waiting)."""

from __future__ import annotations

from cogs.pacing import DISCORD_GLOBAL_LIMIT, Pacer


class ManualTime:
    def __init__(self) -> None:
        self.now = 0.0
        self.slept = 0.0

    def clock(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.now += seconds
        self.slept += seconds


async def test_a_burst_passes_then_calls_are_spaced_to_the_rate() -> None:
    time = ManualTime()
    pacer = Pacer(rate=10, burst=3, clock=time.clock, sleep=time.sleep)
    for _ in range(3):
        await pacer.wait()
    assert time.slept == 0
    for _ in range(10):
        await pacer.wait()
    assert abs(time.now - 1.0) < 1e-9  # ten more calls at 10 a second


async def test_the_default_rate_stays_under_the_global_limit() -> None:
    time = ManualTime()
    pacer = Pacer(clock=time.clock, sleep=time.sleep)
    calls = 0
    while time.now < 10.0:
        await pacer.wait()
        calls += 1
    assert calls <= DISCORD_GLOBAL_LIMIT * 10
    assert calls >= DISCORD_GLOBAL_LIMIT * 10 * 0.85
