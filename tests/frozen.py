"""A database that hangs without going down: a TCP relay between the bot and a PostgreSQL
server that, frozen, keeps every connection open and passes nothing either way (as a server
stopped by SIGSTOP, or a network path that drops packets, would)."""

from __future__ import annotations

import asyncio
import contextlib
from urllib.parse import parse_qsl, urlencode, urlsplit


class FreezableRelay:
    def __init__(self, server_url: str) -> None:
        parts = urlsplit(server_url)
        port = parts.port or 5432
        socket_folder = dict(parse_qsl(parts.query)).get("host", "")
        self.unix_socket = f"{socket_folder}/.s.PGSQL.{port}" if socket_folder else None
        """Where the server listens, when it is a Unix socket (pgserver's)."""
        self.upstream = (parts.hostname or "127.0.0.1", port)
        self.port = 0
        self._thawed = asyncio.Event()
        self._thawed.set()
        self._server: asyncio.Server | None = None
        self._connections: set[asyncio.StreamWriter] = set()

    def url_of(self, url: str) -> str:
        """`url` (of the relayed server) through the relay."""
        parts = urlsplit(url)
        where = parts.netloc.rpartition("@")
        netloc = f"{where[0]}{where[1]}127.0.0.1:{self.port}"
        query = urlencode([(k, v) for k, v in parse_qsl(parts.query) if k != "host"])
        return parts._replace(netloc=netloc, query=query).geturl()

    async def start(self) -> FreezableRelay:
        self._server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
        self.port = self._server.sockets[0].getsockname()[1]
        return self

    def freeze(self) -> None:
        self._thawed.clear()

    def thaw(self) -> None:
        self._thawed.set()

    async def close(self) -> None:
        self.thaw()
        if self._server is not None:
            self._server.close()
        for writer in list(self._connections):
            writer.close()

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self._connections.add(writer)
        try:
            if self.unix_socket is not None:
                up_reader, up_writer = await asyncio.open_unix_connection(self.unix_socket)
            else:
                up_reader, up_writer = await asyncio.open_connection(*self.upstream)
        except OSError:
            writer.close()
            return
        self._connections.add(up_writer)
        await asyncio.gather(
            self._relay(reader, up_writer), self._relay(up_reader, writer), return_exceptions=True
        )
        for end in (writer, up_writer):
            self._connections.discard(end)
            end.close()

    async def _relay(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        with contextlib.suppress(OSError):
            while data := await reader.read(65536):
                await self._thawed.wait()
                writer.write(data)
                await writer.drain()
        writer.close()
