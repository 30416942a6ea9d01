"""Discord-style rate limits: a global limit per second and optional per-route buckets.

A bucket is one route template plus its major parameter (channel, guild or webhook), as on
Discord. Answers carry the `X-RateLimit-*` headers discord.py reads; a refusal is a 429 whose
JSON names `retry_after` (seconds) and whether the limit was global.
"""

from __future__ import annotations

import hashlib
import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field


@dataclass
class _Window:
    limit: int
    per: float
    remaining: int = 0
    resets_at: float = 0.0

    def take(self, now: float) -> float | None:
        """Use one request; None when allowed, else the seconds until the window resets."""
        if now >= self.resets_at:
            self.remaining = self.limit
            self.resets_at = now + self.per
        if self.remaining <= 0:
            return max(self.resets_at - now, 0.001)
        self.remaining -= 1
        return None


@dataclass
class Decision:
    allowed: bool
    headers: dict[str, str] = field(default_factory=dict)
    retry_after: float = 0.0
    is_global: bool = False
    scope: str = "user"


@dataclass
class _Injected:
    remaining: int
    retry_after: float
    is_global: bool


class RateLimits:
    """Configure with `set_global`, `set_route`, or force refusals with `inject_429`."""

    def __init__(
        self,
        *,
        global_limit: int | None = 50,
        global_per: float = 1.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._clock = clock
        self._global = _Window(global_limit, global_per) if global_limit else None
        self._routes: dict[str, tuple[int, float]] = {}
        self._buckets: dict[tuple[str, str], _Window] = {}
        self._injected: dict[str, _Injected] = {}
        self.refusals = 0

    def set_global(self, limit: int | None, per: float = 1.0) -> None:
        """`None` turns the global limit off."""
        self._global = _Window(limit, per) if limit else None

    def set_route(self, route: str, limit: int, per: float) -> None:
        """Limit `route` ("POST /channels/{channel_id}/messages") to `limit` requests per `per`
        seconds for each value of its major parameter."""
        self._routes[route] = (limit, per)
        for key in [k for k in self._buckets if k[0] == route]:
            del self._buckets[key]

    def inject_429(
        self, route: str, *, times: int = 1, retry_after: float = 0.2, is_global: bool = False
    ) -> None:
        """Refuse the next `times` requests to `route` (as a shared or sub-limit would)."""
        self._injected[route] = _Injected(times, retry_after, is_global)

    def check(self, route: str, major: str, *, exempt_global: bool) -> Decision:
        now = self._clock()
        injected = self._injected.get(route)
        if injected is not None and injected.remaining > 0:
            injected.remaining -= 1
            self.refusals += 1
            scope = "global" if injected.is_global else "shared"
            return self._refuse(route, injected.retry_after, injected.is_global, scope, 1)
        if self._global is not None and not exempt_global:
            wait = self._global.take(now)
            if wait is not None:
                self.refusals += 1
                return self._refuse(route, wait, True, "global", self._global.limit)
        rule = self._routes.get(route)
        if rule is None:
            return Decision(True)
        bucket = self._buckets.get((route, major))
        if bucket is None:
            bucket = self._buckets[(route, major)] = _Window(*rule)
        wait = bucket.take(now)
        if wait is not None:
            self.refusals += 1
            return self._refuse(route, wait, False, "user", bucket.limit)
        reset_after = max(bucket.resets_at - now, 0.0)
        return Decision(True, self._headers(route, bucket.limit, bucket.remaining, reset_after))

    def _refuse(
        self, route: str, retry_after: float, is_global: bool, scope: str, limit: int
    ) -> Decision:
        retry_after = math.ceil(retry_after * 1000) / 1000
        headers = self._headers(route, limit, 0, retry_after)
        headers["Retry-After"] = str(math.ceil(retry_after))
        headers["X-RateLimit-Scope"] = scope
        if is_global:
            headers["X-RateLimit-Global"] = "true"
        return Decision(False, headers, retry_after, is_global, scope)

    @staticmethod
    def _headers(route: str, limit: int, remaining: int, reset_after: float) -> dict[str, str]:
        # Rounded up to the millisecond, so a client that sleeps this long never comes early.
        reset_after = math.ceil(reset_after * 1000) / 1000
        return {
            "X-RateLimit-Limit": str(limit),
            "X-RateLimit-Remaining": str(remaining),
            "X-RateLimit-Reset": f"{time.time() + reset_after:.3f}",
            "X-RateLimit-Reset-After": f"{reset_after:.3f}",
            "X-RateLimit-Bucket": hashlib.sha1(route.encode()).hexdigest()[:16],
        }
