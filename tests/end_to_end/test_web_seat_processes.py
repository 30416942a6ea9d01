"""Two bot processes sharing one PostgreSQL (two shards): a move sent to the page of either
acts on the table, and each process's seat streams follow what the other stored."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import AbstractAsyncContextManager, AsyncExitStack, asynccontextmanager
from dataclasses import dataclass
from typing import Any

import aiohttp

from cogs.client import OhHellBot
from standin.server import StandIn
from standin.world import Channel, Guild
from tests.end_to_end.conftest import running_bot
from tests.end_to_end.seats import Seat, session_of
from tests.end_to_end.test_web_sign_in import sign_in_settings
from tools.page_people import page_move
from tools.simulated_people import add_computer, open_table


def process(
    standin: StandIn, postgres_url: str, shard: int
) -> AbstractAsyncContextManager[OhHellBot]:
    """One of the two processes: shard `shard` of two, sign-in on."""
    settings: dict[str, Any] = {**sign_in_settings(standin), "shard_count": 2}
    return running_bot(standin, postgres_url, settings=settings | {"shard_ids": (shard,)})


@dataclass
class TwoShards:
    owner: OhHellBot
    """Shard 0's process: the one whose server (`here`) has the channel `hall`."""
    other: OhHellBot
    """Shard 1's: none of `here`'s clicks come to it."""
    http: aiohttp.ClientSession
    here: Guild
    hall: Channel


@asynccontextmanager
async def two_shards(standin: StandIn, postgres_url: str) -> AsyncIterator[TwoShards]:
    """Both processes, sign-in on, a server for each shard (people made after it are members
    of both), and a client for their pages."""
    here = standin.world.add_guild("Shard 0", shard=(0, 2))
    hall = standin.world.add_text_channel(here, "hall")
    standin.world.add_guild("Shard 1", shard=(1, 2))
    async with AsyncExitStack() as stack:
        owner = await stack.enter_async_context(process(standin, postgres_url, 0))
        other = await stack.enter_async_context(process(standin, postgres_url, 1))
        http = await stack.enter_async_context(aiohttp.ClientSession())
        assert owner.tables.service.sharing.shared
        yield TwoShards(owner, other, http, here, hall)


async def test_moves_at_either_processs_page_act_and_both_pages_follow(
    standin: StandIn, postgres_url: str
) -> None:
    async with two_shards(standin, postgres_url) as shards:
        ann, bob = standin.person("Ann"), standin.person("Bob")
        owner, other, http = shards.owner, shards.other, shards.http
        assert owner.links is not None
        table, table_id = await open_table(
            standin, [ann, bob], channel=shards.hall, preset="classic", max_cards=3
        )
        await add_computer(standin, ann, table, table_id, "easy")
        path = owner.links.table(shards.here.id, table_id).removeprefix(owner.links.public_url)
        # Ann at the other process's page, Bob at the owner's.
        anns = Seat(other, http, path, await session_of(standin, other, http, ann))
        bobs = Seat(owner, http, path, await session_of(standin, owner, http, bob))
        await ann.click(table, f"oh:start:{table_id}")
        pages = {"Ann": anns, "Bob": bobs}
        async with anns.stream() as ann_stream, bobs.stream() as bob_stream:
            streams = {"Ann": ann_stream, "Bob": bob_stream}
            moved = {"Ann": 0, "Bob": 0}
            while min(moved.values()) < 2:
                name = await standin.wait_for(
                    lambda: next(
                        (n for n, s in streams.items() if page_move(s.latest("hand"))), None
                    )
                )
                stream, seen = streams[name], streams[name].count("hand")
                move = page_move(stream.latest("hand"))
                assert move is not None
                versions = {n: s.latest("table")["version"] for n, s in streams.items()}
                status, answer = await pages[name].act(move)
                assert status == 200, answer
                moved[name] += 1
                await stream.more("hand", seen)
                # Both processes' pages follow the move, whichever took it.
                for n, s in streams.items():
                    await s.newer(versions[n])
