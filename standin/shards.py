"""Gateway sharding as Discord does it: which shard a guild's events go to, whether an IDENTIFY's
`shard` field is valid, and how many shards a bot is told to run."""

from __future__ import annotations

import math
from typing import Any

DEFAULT_MAX_GUILDS_PER_SHARD = 2500
"""Discord closes a session that would hold more guilds than this with 4011."""

INVALID_SHARD = 4010
SHARDING_REQUIRED = 4011


def shard_of(guild_id: int, shard_count: int) -> int:
    """The shard that receives `guild_id`'s events: `(guild_id >> 22) % shard_count`."""
    return (guild_id >> 22) % shard_count


def parse_shard(raw: Any) -> tuple[int, int] | None:
    """`[shard_id, shard_count]` from an IDENTIFY, or None when it is not a valid pair (a
    count below 1, an id outside `0 <= id < count`, not two integers): close code 4010."""
    if not isinstance(raw, list | tuple) or len(raw) != 2:
        return None
    shard_id, shard_count = raw
    if not all(isinstance(n, int) and not isinstance(n, bool) for n in (shard_id, shard_count)):
        return None
    if shard_count < 1 or not 0 <= shard_id < shard_count:
        return None
    return shard_id, shard_count


def recommended_shards(guild_count: int, max_guilds_per_shard: int) -> int:
    """The `shards` of GET /gateway/bot: enough that no shard holds more than the limit."""
    return max(1, math.ceil(guild_count / max_guilds_per_shard))


def sharding_required(guild_count: int, shard_count: int, max_guilds_per_shard: int) -> bool:
    """Whether `shard_count` shards are too few for `guild_count` guilds (close code 4011)."""
    return guild_count > shard_count * max_guilds_per_shard
