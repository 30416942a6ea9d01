"""One of the stand-in's local servers listening: an aiohttp application served on a host and
port (0: one the system gives) from `start` until `stop`. The Discord stand-in
(standin/server.py) and the Activity's client and proxy (standin/activity_client.py) are
each served by one."""

from __future__ import annotations

from typing import Any

from aiohttp import web


class Listening:
    def __init__(self, host: str, port: int) -> None:
        self.host = host
        self.port = port
        """The port asked for, then (once started) the one listened on."""
        self._runner: web.AppRunner | None = None

    async def start(self, app: web.Application, **runner: Any) -> int:
        """Serve `app` (`runner`: the `web.AppRunner`'s options); the port listened on."""
        self._runner = web.AppRunner(app, **runner)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, self.port)
        await site.start()
        server = site._server
        assert server is not None and server.sockets  # type: ignore[attr-defined]
        self.port = int(server.sockets[0].getsockname()[1])  # type: ignore[attr-defined]
        return self.port

    async def stop(self) -> None:
        """Stop listening and end the requests under way (once; again does nothing)."""
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
