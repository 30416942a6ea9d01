"""What every part of `StandIn` (`standin.server`) builds on: the state its `__init__` sets,
declared here so that each part type-checks on its own; where the stand-in listens and who its
bot is; and what any part does to the core: announce a change, record a broken rule."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from standin.rest import API_VERSION
from standin.violations import Violation
from standin.world import Interaction, World


class StandInBase:
    """The ground shared by `StandIn`'s core and its parts (`standin.gateway`,
    `standin.application`, `standin.channels`, `standin.interactions`)."""

    world: World
    clock: Callable[[], float]
    host: str
    _port: int
    max_guilds_per_shard: int
    interactions: dict[int, Interaction]
    _tokens: dict[str, Interaction]
    violations: list[Violation]
    _changed: asyncio.Event

    @property
    def port(self) -> int:
        return self._port

    @property
    def base_url(self) -> str:
        return f"http://{self.host}:{self._port}"

    @property
    def api_base(self) -> str:
        return f"{self.base_url}/api/v{API_VERSION}"

    @property
    def gateway_url(self) -> str:
        return f"ws://{self.host}:{self._port}/"

    @property
    def token(self) -> str:
        return self.world.token

    @property
    def application_id(self) -> int:
        return self.world.application_id

    def _notify(self) -> None:
        self._changed.set()
        self._changed = asyncio.Event()

    def _violate(self, route: str, field_: str, message: str) -> None:
        """Record a rule the bot broke that no schema describes (e.g. answering a slash
        command with UPDATE_MESSAGE)."""
        self.violations.append(Violation(route, field_, message))
