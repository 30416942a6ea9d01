"""Which player counts a table's rules can be played with."""

from __future__ import annotations

import functools

from bot.engine import Settings, SettingsError
from bot.engine.settings import MAX_PLAYERS, MIN_PLAYERS


@functools.lru_cache(maxsize=1024)
def player_range(settings: Settings) -> tuple[int, int]:
    """The smallest and largest player counts these settings can be played with (kept: every
    saved action's table view asks, and settings are frozen values)."""
    counts = [n for n in range(MIN_PLAYERS, MAX_PLAYERS + 1) if _resolves(settings, n)]
    return (counts[0], counts[-1]) if counts else (MIN_PLAYERS, MIN_PLAYERS - 1)


def _resolves(settings: Settings, players: int) -> bool:
    try:
        settings.resolve(players)
    except SettingsError:
        return False
    return True
