"""Shared fixtures. `standin`: a running local Discord (standin) that fails the test at
teardown when the bot broke one of Discord's rules the test did not take with
`standin.take_violations()`. Options: `@pytest.mark.standin(ack_deadline=0.5, ...)`."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from standin.server import StandIn
from standin.testing import running_standin, violations_report


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "standin(**options): keyword arguments for the StandIn of the standin fixture"
    )


@pytest.fixture
async def standin(request: pytest.FixtureRequest) -> AsyncIterator[StandIn]:
    marker = request.node.get_closest_marker("standin")
    options = dict(marker.kwargs) if marker is not None else {}
    async with running_standin(**options) as server:
        yield server
        report = violations_report(server)
        if report:
            pytest.fail(report, pytrace=False)
