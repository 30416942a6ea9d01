"""The pacer keeps the bot under Discord's global limit (on a manual clock: no real waiting)."""

from __future__ import annotations

import pytest

from cogs.pacing import DISCORD_GLOBAL_LIMIT, Pacer, rest_share


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


async def test_its_level_and_queue_are_read_without_changing_them() -> None:
    import asyncio

    time = ManualTime()
    pacer = Pacer(rate=10, burst=2, clock=time.clock, sleep=time.sleep)
    assert (pacer.level(), pacer.waiting) == (2, 0)
    await pacer.wait(calls=2)
    assert pacer.level() == 0
    time.now += 0.05
    assert pacer.level() == pytest.approx(0.5)
    assert pacer.level() == pytest.approx(0.5)  # reading it took nothing
    queued = [asyncio.ensure_future(pacer.wait()) for _ in range(3)]
    await asyncio.sleep(0)
    assert pacer.waiting == 3
    await asyncio.gather(*queued)
    assert pacer.waiting == 0


async def test_the_default_rate_stays_under_the_global_limit() -> None:
    time = ManualTime()
    pacer = Pacer(clock=time.clock, sleep=time.sleep)
    calls = 0
    while time.now < 10.0:
        await pacer.wait()
        calls += 1
    assert calls <= DISCORD_GLOBAL_LIMIT * 10
    assert calls >= DISCORD_GLOBAL_LIMIT * 10 * 0.8


async def test_under_load_urgent_calls_go_before_calls_that_can_wait() -> None:
    import asyncio

    time = ManualTime()
    pacer = Pacer(rate=10, burst=1, clock=time.clock, sleep=time.sleep, patience=2.0)
    await pacer.wait()  # the bucket is now empty
    order: list[str] = []

    async def call(name: str, urgent: bool) -> None:
        await pacer.wait(urgent=urgent)
        order.append(name)

    await asyncio.gather(
        call("table", False), call("dm1", True), call("dm2", True), call("dm3", True)
    )
    assert order == ["dm1", "dm2", "dm3", "table"]


async def test_a_call_that_can_wait_is_not_starved() -> None:
    import asyncio

    time = ManualTime()
    pacer = Pacer(rate=10, burst=1, clock=time.clock, sleep=time.sleep, patience=0.5)
    await pacer.wait()
    granted: dict[str, float] = {}

    async def call(name: str, urgent: bool) -> None:
        await pacer.wait(urgent=urgent)
        granted[name] = time.now

    table = asyncio.ensure_future(call("table", False))
    urgent: list[asyncio.Future[None]] = []
    for i in range(40):  # urgent calls keep coming, faster than the rate lets them out
        urgent.append(asyncio.ensure_future(call(f"dm{i}", True)))
        await asyncio.sleep(0)
        time.now += 0.05
    await asyncio.gather(table, *urgent)
    # Due 0.5 s after asking, it goes out once the urgent calls asked before then have gone.
    assert granted["table"] < 1.5
    assert granted["table"] < granted["dm20"]


async def test_a_spare_call_goes_after_every_other_call_even_ones_asked_later() -> None:
    import asyncio

    time = ManualTime()
    pacer = Pacer(rate=10, burst=1, clock=time.clock, sleep=time.sleep, patience=2.0)
    await pacer.wait()
    order: list[str] = []

    async def call(name: str, **kind: bool) -> None:
        await pacer.wait(**kind)
        order.append(name)

    # A restart's tidying up asks first; a live table's edit and a turn's DM come after.
    spare = [call(f"closed{i}", spare=True) for i in range(3)]
    await asyncio.gather(*spare, call("table", urgent=False), call("dm", urgent=True))
    assert order == ["dm", "table", "closed0", "closed1", "closed2"]


async def test_a_cancelled_waiter_does_not_use_a_call() -> None:
    import asyncio

    time = ManualTime()
    pacer = Pacer(rate=10, burst=1, clock=time.clock, sleep=time.sleep)
    await pacer.wait()
    waiter = asyncio.ensure_future(pacer.wait())
    await asyncio.sleep(0)
    waiter.cancel()
    start = time.now
    await pacer.wait()
    assert time.now - start <= 0.1 + 1e-9


async def test_no_one_second_window_holds_more_than_the_global_limit() -> None:
    time = ManualTime()
    pacer = Pacer(clock=time.clock, sleep=time.sleep)
    stamps = []
    while time.now < 5.0:
        await pacer.wait()
        stamps.append(time.now)
    busiest = max(sum(1 for t in stamps if start <= t < start + 1.0) for start in stamps)
    # A margin for calls that reach Discord a little later than they were let go.
    assert busiest <= DISCORD_GLOBAL_LIMIT - 5


def test_a_process_keeps_to_its_shards_part_when_it_has_no_shared_budget() -> None:
    assert rest_share(None, None) == 1.0
    assert rest_share(4, None) == 1.0
    assert rest_share(4, (0, 1)) == 0.5
    assert rest_share(3, (2,)) == pytest.approx(1 / 3)


class Bucket:
    """The database's shared bucket, on the manual clock (bot/storage/budget.py's rule)."""

    def __init__(self, time: ManualTime) -> None:
        self.time = time
        self.tokens = 0.0
        self.at = 0.0

    async def take(self, wanted: int, rate: float, burst: float) -> tuple[int, float]:
        have = min(burst, self.tokens + (self.time.now - self.at) * rate)
        granted = min(wanted, int(have + 1e-9))
        self.tokens, self.at = have - granted, self.time.now
        return granted, 0.0 if self.tokens >= 1 else (1 - self.tokens) / rate


def _sharing(time: ManualTime, bucket: Bucket) -> tuple[Pacer, Pacer]:
    """Two processes' pacers (10 calls a second, bursts of 2) drawing from one bucket."""
    one, two = (
        Pacer(rate=10, burst=2, clock=time.clock, sleep=time.sleep, budget=bucket.take)
        for _ in range(2)
    )
    return one, two


async def test_processes_sharing_a_bucket_keep_under_the_limit_together() -> None:
    time = ManualTime()
    bucket = Bucket(time)
    busy, quiet = _sharing(time, bucket)
    calls = {"busy": 0, "quiet": 0}

    async def call(pacer: Pacer, name: str) -> None:
        await pacer.wait()
        calls[name] += 1

    # The busy process wants 90 calls, the quiet one 10, interleaved.
    for n in range(100):
        if n % 10 == 0:
            await call(quiet, "quiet")
        else:
            await call(busy, "busy")
    # 100 calls at 10 a second together: about 10 seconds, whoever made them.
    assert time.now == pytest.approx(10, abs=0.5)
    assert calls == {"busy": 90, "quiet": 10}


async def test_without_an_answer_from_the_bucket_a_process_keeps_to_its_share() -> None:
    time = ManualTime()

    async def broken(wanted: int, rate: float, burst: float) -> tuple[int, float]:
        raise ConnectionError("database gone")

    pacer = Pacer(rate=10, burst=2, clock=time.clock, sleep=time.sleep, share=0.5, budget=broken)
    for _ in range(10):
        await pacer.wait()
    assert time.now == pytest.approx(10 / 5, abs=0.3)  # its half: 5 a second


async def test_calls_made_together_keep_to_the_rate_when_many_ask_at_once() -> None:
    """Forty first-hand DMs at once, each opening its DM channel then sending: two waits in a
    row let the second calls go two a token (80 a second: Discord's 429s at a game's start)."""
    import asyncio

    time = ManualTime()

    async def sleep(seconds: float) -> None:
        await time.sleep(seconds)
        await asyncio.sleep(0)  # let the waiters granted so far make their calls

    pacer = Pacer(clock=time.clock, sleep=sleep)
    stamps: list[float] = []

    async def first_hand_dm() -> None:
        await pacer.wait(calls=2)
        stamps.extend([time.now, time.now])  # open the DM channel, send the hand

    await asyncio.gather(*(first_hand_dm() for _ in range(40)))
    busiest = max(sum(1 for t in stamps if start <= t < start + 1.0) for start in stamps)
    assert len(stamps) == 80
    assert busiest <= DISCORD_GLOBAL_LIMIT - 5
    assert time.now >= (80 - pacer.burst) / pacer.rate - 1e-9


async def test_more_calls_at_once_than_a_burst_are_refused() -> None:
    pacer = Pacer(burst=2)
    with pytest.raises(ValueError, match="3 calls at once"):
        await pacer.wait(calls=3)


async def test_calls_made_together_take_two_from_a_shared_bucket() -> None:
    time = ManualTime()
    bucket = Bucket(time)
    pairs, singles = _sharing(time, bucket)
    for n in range(40):  # 20 pairs and 20 single calls: 60 calls at 10 a second
        if n % 2:
            await pairs.wait(calls=2)
        else:
            await singles.wait()
    assert time.now == pytest.approx(6, abs=0.5)
