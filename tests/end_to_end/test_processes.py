"""Two bot processes on one PostgreSQL and one stand-in, sharded as in production (issue 16):
each runs one of two shards, so a server's clicks reach the process of its shard and every DM
click reaches shard 0's. At each table two people play from their DMs and one, whose DMs are
closed, from a private reply in the channel, so one table's clicks reach both processes. Shard
0's process is SIGKILLed mid-game and started again."""

from __future__ import annotations

import asyncio
import datetime as dt
import random
import re
from collections import Counter

from bot.storage import Database
from standin.driver import Person
from standin.server import StandIn
from standin.testing import BotProcess
from standin.world import Message, Revision, utcnow
from tests.storage.test_rating_order import assert_one_order
from tools.simulated_people import game_over, my_turn_controls, open_table, take_turn

SHARDS = 2
TABLES = 20
LOBBIES = 4
"""Lobbies nobody starts: each must expire once (a deadline), whichever process is alive."""
KILL_AFTER = 120
"""Acknowledged clicks (of about 500) before shard 0's process is killed."""
STALL_AFTER = 60.0
"""Seconds a table may go without a click the bot takes before the test fails, naming it."""


def env(database_url: str, shard: int) -> dict[str, str]:
    return {
        "DATABASE_URL": database_url,
        "SHARD_COUNT": str(SHARDS),
        "SHARD_IDS": str(shard),
        "TABLE_EDIT_DELAY": "0.02",
        "COMPUTER_DELAY": "0",
        "TURN_PING_AFTER": "0",
        "LOBBY_TIMEOUT": "6",
        "DEADLINE_GRACE": "0",
        "DEADLINE_POLL": "0.2",
        "LOG_LEVEL": "WARNING",
        "DEV_GUILD_ID": "",
    }


class Run:
    """What the simulated people saw acknowledged, and the kill of shard 0's process."""

    def __init__(self) -> None:
        self.acknowledged: Counter[int] = Counter()
        self.clicks = 0
        self.killed = asyncio.Event()
        self.killed_at: dt.datetime | None = None
        self.unanswered = 0

    async def play(
        self, standin: StandIn, people: list[Person], table: Message, table_id: int
    ) -> None:
        """Each person clicks their first allowed control on their turn; a click nobody
        answered (its process was down) is tried again after a moment, as a person would. A
        private reply only the killed process could edit is stale: after a few seconds without
        a turn, or when a click on it is refused, the person with closed DMs presses My hand again,
        as a person would."""
        # Progress is a click the bot took: refused clicks (a message the restarted process
        # has not refreshed yet) and unanswered ones do not count, so a table that keeps
        # refusing fails here, naming itself, rather than running into the run's timeout.
        loop = asyncio.get_running_loop()
        progressed = loop.time()
        while True:
            if loop.time() - progressed >= STALL_AFTER:
                raise AssertionError(stalled(table, people))
            try:
                found = await standin.wait_for(
                    lambda: (
                        game_over(table) or next((p for p in people if my_turn_controls(p)), None)
                    ),
                    timeout=5,
                )
            except TimeoutError:
                await people[2].click(table, f"oh:hand:{table_id}")
                continue
            if found is True:
                return
            controls = my_turn_controls(found)
            if controls is None:
                continue
            message, ids = controls
            result = await take_turn(found, message, ids[0])
            if result.response_type == 7:
                self.acknowledged[found.id] += 1
                self.clicks += 1
                progressed = loop.time()
            elif not result.acknowledged:
                self.unanswered += 1
                await asyncio.sleep(0.5)
            else:  # refused (a message the restarted process has not refreshed yet)
                await asyncio.sleep(0.1)
                if found is people[2]:  # a private reply only its own process could edit
                    await people[2].click(table, f"oh:hand:{table_id}")


def stalled(table: Message, people: list[Person]) -> str:
    lines = [f"table {table.id}: no click taken for {STALL_AFTER:g} s: {table.embeds[0]}"]
    for person in people:
        dm = person.dms()[-1] if person.dms() else None
        lines.append(f"  {person.name}: {dm and dm.content!r} {dm and dm.embeds}")
    return "\n".join(lines)


def progress(revision: Message | Revision) -> tuple[int, ...]:
    """How far a table message is into its game: (hand, bids made, tricks done, cards on the
    table). It never goes down while the game is played, so a message showing a smaller value
    after a bigger one shows an older state after a newer one."""
    if not revision.embeds:
        return (0,)
    embed = revision.embeds[0]
    hand = re.match(r"Hand (\d+)", embed.get("description") or "")
    if hand is None:
        return (0,)
    fields = {f["name"]: f["value"] for f in embed.get("fields", [])}
    if "Final standings" in fields:
        return (10**6,)
    bids = len(re.findall(r" — (?:bid \d+|has bid) ·", fields.get("Players", "")))
    tricks_text = fields.get("Tricks this hand", "")
    earlier = re.match(r"\((\d+) earlier tricks?\)", tricks_text)
    tricks = len(re.findall(r"^\d+\. ", tricks_text, re.M)) + (int(earlier[1]) if earlier else 0)
    on_table = len(fields["On the table"].split(" · ")) if "On the table" in fields else 0
    return (int(hand[1]), bids, tricks, on_table)


def hand_progress(revision: Message | Revision) -> tuple[int, int, int]:
    """How far a hand message is into its hand: (bid made, minus the cards held, tricks
    taken). Each part only grows while the hand is played; a hand that is over is furthest."""
    if not revision.embeds:
        return (10**6, 0, 0)  # "Hand N is over — your next hand is in a new message."
    embed = revision.embeds[0]
    if (embed.get("description") or "").startswith("The game is over"):
        return (10**6, 0, 0)
    if (embed.get("footer") or {}).get("text", "").startswith("Nothing more to do this hand"):
        return (10**5, 0, 0)  # no controls until the next hand, which is a new message
    fields = {f["name"]: f["value"] for f in embed.get("fields", [])}
    bid = re.match(r"(—|\d+) · took (\d+)", fields.get("Your bid", "— · took 0"))
    assert bid is not None, fields
    cards = len(fields["Cards"].split()) if "Cards" in fields else 0
    return (int(bid[1] != "—"), -cards, int(bid[2]))


def revisions(message: Message) -> list[Message | Revision]:
    return [*message.history, message]


async def test_two_processes_play_twenty_tables_through_a_sigkill(
    standin: StandIn, postgres_url: str
) -> None:
    guilds = [standin.world.add_guild(f"Shard {s}", shard=(s, SHARDS)) for s in range(SHARDS)]
    processes = [BotProcess(standin, "bot", env=env(postgres_url, s)) for s in range(SHARDS)]
    for process in processes:
        await process.start()
    rng = random.Random(16)
    run = Run()
    try:
        tables: list[tuple[list[Person], Message, int]] = []
        for index in range(TABLES):
            channel = await standin.add_text_channel(f"t{index}", guild=guilds[index % SHARDS])
            # The third has closed DMs and plays through a private reply in the channel, so
            # the clicks on one table reach both processes (DM clicks go to shard 0's).
            people = [standin.person(f"T{index}P{seat}") for seat in range(2)]
            people.append(standin.person(f"T{index}P2", dms_open=False))
            table, table_id = await open_table(
                standin, people, channel=channel, preset="classic", max_cards=2
            )
            started = await people[0].click(table, f"oh:start:{table_id}")
            assert started.response_type == 7, started
            mine = await people[2].click(table, f"oh:hand:{table_id}")
            assert mine.ephemeral and mine.reply is not None, mine
            tables.append((people, table, table_id))
        lobbies = []
        for index in range(LOBBIES):
            channel = await standin.add_text_channel(f"l{index}", guild=guilds[index % SHARDS])
            _, lobby_id = await open_table(standin, [standin.person(f"L{index}")], channel=channel)
            lobbies.append(lobby_id)

        async def kill_mid_game() -> None:
            await standin.wait_for(lambda: run.clicks >= KILL_AFTER, timeout=120)
            await asyncio.sleep(rng.uniform(0, 0.05))
            run.killed_at = utcnow()
            processes[0].kill()  # shard 0: every DM click goes there
            await processes[0].wait()
            await processes[0].stop()
            run.killed.set()
            processes[0] = BotProcess(standin, "bot", env=env(postgres_url, 0))
            await processes[0].start()

        killer = asyncio.ensure_future(kill_mid_game())
        await asyncio.wait_for(
            asyncio.gather(*(run.play(standin, *table) for table in tables)),
            timeout=240,
        )
        await killer
        await asyncio.sleep(0.5)  # the last gathered edits
    except BaseException:
        for process in processes:
            await process.stop()
            print(process.stderr()[-3000:])
        raise
    finally:
        for process in processes:
            await process.stop()
    assert run.killed.is_set()

    database = await Database.open(postgres_url)
    try:
        stored: Counter[int] = Counter()
        for _, _, table_id in tables:
            row = await database.tables.load(table_id)
            assert row.status.value == "finished", (table_id, row.status)
            events = await database.tables.events(table_id)
            stored.update(e.user_id for e in events if e.kind == "action" and e.user_id)
        for lobby_id in lobbies:
            kinds = Counter(e.kind for e in await database.tables.events(lobby_id))
            assert kinds["expired"] == 1, (lobby_id, kinds)
        # Each server's games, finished by both processes, took one place each in its order.
        for guild in guilds:
            orders = await database.store.backend.fetchall(
                "SELECT rating_order FROM results WHERE guild_id = ? AND seat = 0"
                " ORDER BY rating_order",
                (guild.id,),
            )
            assert [row[0] for row in orders] == list(range(1, TABLES // SHARDS + 1))
            await assert_one_order(database, guild.id)
    finally:
        await database.close()
    # Nothing a person was shown as done is lost (a click in flight at the kill may be stored
    # without its answer: never the other way round).
    for people, _, _ in tables:
        for person in people:
            assert stored[person.id] >= run.acknowledged[person.id], person.name
    # No message goes back to an older state, whichever process wrote it.
    for _, table, _ in tables:
        shown = [progress(r) for r in revisions(table)]
        assert shown == sorted(shown), shown
    for people, _, _ in tables:
        for person in people:
            # One DM a hand: two processes never both send one (the bot edits only one), and a
            # DM the killed process sent but had not stored yet, sent again after the kill,
            # comes back from Discord by its nonce instead of as a second DM.
            titles = [
                first.embeds[0]["title"]
                for dm in person.dms()
                if (first := revisions(dm)[0]).embeds
            ]
            assert len(titles) == len(set(titles)), (person.name, titles, run.killed_at)
            for dm in person.dms():
                shown = [hand_progress(r) for r in revisions(dm)]
                for part in range(3):
                    values = [key[part] for key in shown]
                    assert values == sorted(values), (person.name, shown)
