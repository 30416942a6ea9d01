"""The migration to the mean: a database whose ratings show the conservative number (mu − 3
sigma) is rated again, in its stored rating order, as games are rated now, on both backends."""

from __future__ import annotations

import pytest

from bot.storage import MIGRATIONS, Database
from bot.storage.replay import rate_again_as_the_mean
from tests.storage.test_rating_order import GUILD, assert_one_order
from tests.storage.test_ratings import database_before, direct_openskill, read_unopened, result

GAMES = [
    (100.0, "classic", [(1, 1, 0), (2, 2, 0), (3, 3, 0), (4, 4, 0)]),
    (200.0, "classic", [(1, 1, 0), (2, 2, 0), (4, 3, 0), (3, 4, 0)]),
    (300.0, "oh-hell", [(2, 1, 0), (3, 2, 0), (1, 3, 1), (4, 3, 1)]),  # two leavers
    (400.0, "classic", [(4, 1, 0), (1, 2, 0), (2, 2, 0)]),
]
OLD_NUMBER = "CAST(ROUND(1000 + 40 * (mu - 3 * sigma)) AS INTEGER)"
"""The number the release before showed (as SQL)."""


async def database_showing_the_conservative_number(url: str) -> None:
    """A database at the schema before the migration whose stored ratings are not what rating
    its games now gives: the numbers are mu − 3 sigma's, and every mu is off by one."""
    async with database_before(url, GAMES, rate_again_as_the_mean) as raw:
        for name in ("ratings", "rating_history"):
            await raw.execute(f"UPDATE {name} SET mu = mu + 1")
            await raw.execute(f"UPDATE {name} SET rating = {OLD_NUMBER}")


async def test_the_migration_rates_the_past_again_to_show_the_mean(database_url: str) -> None:
    await database_showing_the_conservative_number(database_url)
    old = await read_unopened(
        database_url, "SELECT user_id, rating FROM ratings WHERE preset = '' ORDER BY user_id"
    )
    database = await Database.open(database_url)
    try:
        assert await database.store.schema_version() == len(MIGRATIONS)
        await assert_one_order(database, GUILD)
        expected = direct_openskill(
            [
                (preset, [result(u, place, left_early=bool(left)) for u, place, left in rows])
                for _, preset, rows in GAMES
            ]
        )
        stored = await database.store.backend.fetchall(
            "SELECT preset, user_id, mu, sigma, rating FROM ratings"
        )
        assert len(stored) == len(expected) == 12
        for preset, user, mu, sigma, rating in stored:
            want = expected[(preset, user)]
            assert (mu, sigma) == pytest.approx((want.mu, want.sigma)), (preset, user)
            assert rating == round(1000 + 15 * (want.mu - 25))
        new = [(row[1], row[4]) for row in sorted(stored) if row[0] == ""]
        assert new != old
        # Both leavers of game 3 lost rating there.
        changes = await database.results.rating_changes(3)
        assert changes[1][1] < 0 and changes[4][1] < 0
    finally:
        await database.close()
