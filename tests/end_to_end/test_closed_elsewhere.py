"""A bot process that shares its PostgreSQL with others (SHARD_IDS) forgets a table another
process closed: nothing of it stays in this process's memory, though it never loads it again."""

from __future__ import annotations

from bot.app import build
from bot.config import BotSettings
from bot.service import TableStatus
from bot.storage import Database
from standin.server import StandIn
from standin.testing import run_bot
from tests.end_to_end.conftest import random_legal
from tests.end_to_end.test_table_life import start_game


async def test_a_table_another_process_cancelled_is_dropped_from_memory(
    standin: StandIn, postgres_url: str
) -> None:
    here = standin.world.add_guild("Shard 0", shard=(0, 2))
    hall = standin.world.add_text_channel(here, "hall")
    settings = BotSettings(
        discord_token="test",
        database_url=postgres_url,
        shard_count=2,
        shard_ids=(0,),
        table_edit_delay=0.02,
        computer_delay=0.0,
        turn_ping_after=0.0,
        _env_file=None,  # type: ignore[call-arg]
    )
    bot, database, _ = await build(settings, decide=random_legal, workers=0)
    other = await Database.open(postgres_url)  # another process's connection
    try:
        async with run_bot(standin, bot):
            await standin.wait_for(lambda: bot.presenter.automatic.scheduling)
            assert bot.tables.service.sharing.shared
            people = [standin.person(n) for n in ("Ann", "Bob", "Cat")]
            _, t = await start_game(standin, people, channel=hall, preset="classic", max_cards=3)
            await bot.presenter.ground.idle()
            assert t in bot.presenter.cached_tables()
            assert t in bot.tables.service.session.cached_tables()

            row = await other.tables.load(t)
            await other.tables.save(row, document=row.document, status=TableStatus.CANCELLED)

            await standin.wait_for(
                lambda: (
                    t
                    not in bot.presenter.cached_tables()
                    | bot.tables.service.session.cached_tables()
                )
            )
            await bot.presenter.ground.idle()
    finally:
        await other.close()
        await database.close()
