from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from standin.server import StandIn
from standin.testing import run_bot
from tests.standin.sample_bot import SampleBot


@pytest.fixture
async def sample(standin: StandIn) -> AsyncIterator[SampleBot]:
    """The sample bot, logged into the stand-in on the test's loop."""
    async with run_bot(standin, SampleBot(guild_id=standin.guild.id)) as bot:
        yield bot
