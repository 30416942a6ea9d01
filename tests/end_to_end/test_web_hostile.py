"""Hostile requests to the web pages while a game is played through the stand-in: a huge
request line or header, a body on a GET, hundreds of bad paths and forged links, a reader
that never reads its page's stream and one that leaves mid-stream. Each is answered or dropped
without holding the bot: the game finishes, every click is answered, and nothing of the
readers is left once it is over. And every answer the pages give carries the
Content-Security-Policy and nosniff headers."""

from __future__ import annotations

import asyncio
import base64
import contextlib
import dataclasses
import logging
import random
import socket
import time
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from aiohttp import web

from cogs.web import server
from cogs.web.auth import framed
from cogs.web.links import Links
from cogs.web.server import FRAMED_HEADERS, HEADERS
from standin.server import StandIn
from tests.end_to_end.conftest import BotFactory
from tests.end_to_end.test_start_up import run_bot_process
from tools.simulated_people import add_computer, open_table, play_until_over

WEB = {"public_url": "https://ohhell.example.org", "web_port": 0}
NOT_FOUND = "404: no such page\n"


async def raw(port: int, request: bytes, *, timeout: float = 5.0) -> tuple[bytes, bool]:
    """Send `request` as it is; what came back, and whether the bot closed the connection."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        with contextlib.suppress(ConnectionError):
            writer.write(request)
            await writer.drain()
        answer = b""
        closed = False
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                chunk = await asyncio.wait_for(reader.read(65536), deadline - time.monotonic())
            except TimeoutError:
                break
            except ConnectionError:  # closed with what was sent unread: a reset
                closed = True
                break
            if not chunk:
                closed = True
                break
            answer += chunk
        return answer, closed
    finally:
        writer.close()
        with contextlib.suppress(ConnectionError):
            await writer.wait_closed()


def status_of(answer: bytes) -> int:
    return int(answer.split(b" ", 2)[1]) if answer.startswith(b"HTTP/1.") else 0


def bad_paths(links: Links, guild_id: int, table_id: int, count: int) -> list[str]:
    """Paths no page answers: random and altered tokens, other kinds, other servers, bare
    numbers, odd characters."""
    rng = random.Random(42)
    good = links.token("t", guild_id, table_id)
    paths = [
        f"/t/{Links(b'x' * 32, '').token('t', guild_id, table_id)}",
        f"/t/{links.token('t', guild_id + 1, table_id)}",
        f"/t/{links.token('g', guild_id, table_id)}",
        f"/t/{links.token('t', guild_id, table_id + 1)}/events",
        f"/t/{table_id}",
        f"/t/{good}/",
        f"/t/{good}x",
        f"/t/{good}/events/more",
        "/static/../../etc/passwd",
        "/static/%2e%2e/%2e%2e/etc/passwd",
        "/static/table.js.map",
        "/",
        "/favicon.ico",
        "/t/",
        "/t/%00",
        "/.env",
    ]
    while len(paths) < count:
        which = rng.randrange(3)
        if which == 0:
            forged = base64.urlsafe_b64encode(rng.randbytes(rng.randrange(1, 60))).decode()
            paths.append(f"/t/{forged.rstrip('=')}")
        elif which == 1:
            spot = rng.randrange(len(good))
            letter = rng.choice([c for c in "ABCDEFGHIJKLMNOPQRSTUVWXYZabc-_" if c != good[spot]])
            paths.append(f"/t/{good[:spot]}{letter}{good[spot + 1 :]}")
        else:
            paths.append(f"/{rng.choice('tgsp')}/{rng.randrange(10**12)}")
    return paths


async def slow_reader(port: int, path: str) -> socket.socket:
    """A connection asking for `path`'s stream that never reads what it is sent (its receive
    buffer as small as the system allows)."""
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1024)
    sock.setblocking(False)
    await asyncio.get_running_loop().sock_connect(sock, ("127.0.0.1", port))
    sock.sendall(f"GET {path} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
    return sock


def server_of(bot: Any) -> web.Server:
    """The bot's web server (aiohttp's), whose connections are looked at."""
    runner = bot.web._runner
    assert runner is not None and runner.server is not None
    return runner.server


def buffered(bot: Any) -> int:
    """The bytes the bot's web server holds unsent, over all its connections."""
    total = 0
    for handler in server_of(bot).connections:
        transport = handler.transport
        if transport is not None:
            total += transport.get_write_buffer_size()
    return total


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
async def test_hostile_requests_do_not_disturb_a_game(
    standin: StandIn,
    start_bot: BotFactory,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    monkeypatch.setattr(server, "WRITE_TIMEOUT", 1.0)
    async with start_bot(settings=WEB) as bot:
        assert bot.web is not None and bot.links is not None
        port = bot.web.port
        base = f"http://127.0.0.1:{port}"
        ann, bob = standin.person("Ann"), standin.person("Bob")
        table, table_id = await open_table(standin, [ann, bob], preset="classic", max_cards=9)
        await add_computer(standin, ann, table, table_id, "easy")
        await add_computer(standin, ann, table, table_id, "easy")
        path = bot.links.table(standin.guild.id, table_id).removeprefix(bot.links.public_url)
        started = await ann.click(table, f"oh:start:{table_id}")
        assert started.response_type == 7, started

        slow = await slow_reader(port, path + "/events")
        most_buffered = 0

        async def watch_memory() -> None:
            nonlocal most_buffered
            while True:
                most_buffered = max(most_buffered, buffered(bot))
                await asyncio.sleep(0.05)

        async def hostile() -> None:
            # A huge request line, a huge header, too many headers: 4xx, connection closed.
            for request in (
                b"GET /t/" + b"A" * 20000 + b" HTTP/1.1\r\nHost: x\r\n\r\n",
                b"GET "
                + path.encode()
                + b" HTTP/1.1\r\nHost: x\r\nX-Big: "
                + b"a" * 20000
                + b"\r\n\r\n",
                b"GET "
                + path.encode()
                + b" HTTP/1.1\r\nHost: x\r\n"
                + b"".join(b"X-%d: y\r\n" % n for n in range(300))
                + b"\r\n",
            ):
                answer, closed = await raw(port, request)
                assert 400 <= status_of(answer) < 500, answer[:200]
                assert closed, answer[:200]
            # A body on a GET, bigger than any page takes: refused, connection closed, the
            # rest of the body not waited for.
            answer, closed = await raw(
                port,
                b"GET " + path.encode() + b" HTTP/1.1\r\nHost: x\r\nContent-Length: 10000000"
                b"\r\n\r\n" + b"z" * 1000,
                timeout=3.0,
            )
            assert status_of(answer) == 413, answer[:300]
            assert closed
            async with aiohttp.ClientSession() as session:
                # A page opened and left mid-stream, without a goodbye.
                left = await session.get(base + path + "/events")
                await left.content.readline()
                left.connection.transport.abort()  # type: ignore[union-attr]
                left.release()
                # Hundreds of bad paths and forged links: one and the same 404.
                for bad in bad_paths(bot.links, standin.guild.id, table_id, 400):
                    async with session.get(base + bad) as got:
                        assert got.status == 404, bad
                        assert await got.text() == NOT_FOUND, bad

        watching = asyncio.create_task(watch_memory())
        attack = asyncio.create_task(hostile())
        try:
            clicks = await play_until_over(standin, [ann, bob], table)
            await attack
        finally:
            watching.cancel()
            attack.cancel()
        assert clicks > 20
        await bot.presenter.ground.idle()
        await standin.wait_for(lambda: bot.web is not None and bot.web.watchers.count == 0, 15)
        # The stream nobody read held nothing in the bot: the system's buffers took it, and
        # its watcher went with the game.
        assert most_buffered < 64 * 1024, most_buffered
        slow.close()
    # What strangers send is answered, not logged as the bot's error (anyone could fill the log).
    errors = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    assert errors == [], errors


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
async def test_a_reader_that_never_reads_is_dropped(
    standin: StandIn, start_bot: BotFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Pushed more than the system buffers hold, a stream nobody reads is closed once a push has
    waited WRITE_TIMEOUT, and nothing of it stays in the bot: no watcher, no connection, no
    bytes held."""
    monkeypatch.setattr(server, "WRITE_TIMEOUT", 0.5)
    async with start_bot(settings=WEB) as bot:
        assert bot.web is not None and bot.links is not None
        ann = standin.person("Ann")
        _table, table_id = await open_table(standin, [ann])
        path = bot.links.table(standin.guild.id, table_id).removeprefix(bot.links.public_url)
        view = await bot.web.service.lookups.table_view(table_id)
        slow = await slow_reader(bot.web.port, path + "/events")
        try:
            await standin.wait_for(lambda: bot.web is not None and bot.web.watchers.count == 1)
            # Far more than the system's buffers take: states of the table with hundreds of
            # seats, a frame of some 20 kB each.
            crowd = tuple(dataclasses.replace(view.seats[0], name=f"{n:032d}") for n in range(500))
            ends = time.monotonic() + 30
            step = 0
            while bot.web.watchers.count and time.monotonic() < ends:
                step += 1
                bot.web.watchers.published(
                    dataclasses.replace(view, version=view.version + step, seats=crowd)
                )
                await asyncio.sleep(0.002)
            assert bot.web.watchers.count == 0, "the stream was never dropped"
            await standin.wait_for(lambda: not server_of(bot).connections, timeout=5)
            assert buffered(bot) == 0
        finally:
            slow.close()


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
async def test_every_answer_carries_the_policy(standin: StandIn, start_bot: BotFactory) -> None:
    async with start_bot(settings=WEB) as bot:
        assert bot.web is not None and bot.links is not None
        base = f"http://127.0.0.1:{bot.web.port}"
        ann = standin.person("Ann")
        _table, table_id = await open_table(standin, [ann])
        path = bot.links.table(standin.guild.id, table_id).removeprefix(bot.links.public_url)
        bot.web.watchers.per_table = 1
        async with aiohttp.ClientSession() as session:
            page = await session.get(base + path)
            static = [part.split('"')[0] for part in (await page.text()).split('="/static/')[1:]]
            assert static
            stream = await session.get(base + path + "/events")
            busy = await session.get(base + path + "/events")
            answers = [
                page,
                stream,
                busy,
                *[await session.get(f"{base}/static/{name}") for name in static],
                await session.get(base + "/t/nothing"),
                await session.get(base + "/static/nothing.js"),
                await session.post(base + path),
                await session.head(base + path),
            ]
            statuses = [answer.status for answer in answers]
            assert statuses[:3] == [200, 200, 503], statuses
            assert 404 in statuses and 405 in statuses
            for answer in answers:
                # The table's page may be framed by Discord (the Activity); nothing else may.
                sent = (
                    FRAMED_HEADERS if answer.status < 400 and framed(answer.url.path) else HEADERS
                )
                for name in ("Content-Security-Policy", "X-Content-Type-Options"):
                    assert answer.headers.get(name) == sent[name], (answer.url, answer.status)
                answer.release()


@pytest.mark.standin(spec_path=None)
async def test_a_web_port_in_use_is_one_line_naming_the_setting(
    standin: StandIn, tmp_path: Path
) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        env = {
            "DISCORD_TOKEN": standin.token,
            "DISCORD_API_BASE": standin.api_base,
            "DISCORD_GATEWAY_URL": standin.gateway_url,
            "PUBLIC_URL": "https://ohhell.example.org",
            "WEB_PORT": str(port),
        }
        code, output = await asyncio.to_thread(run_bot_process, env, tmp_path)
    assert code == 1
    assert output == (
        f"WEB_PORT: 127.0.0.1:{port} is in use by another program: stop it, or set another port\n"
    ), output
