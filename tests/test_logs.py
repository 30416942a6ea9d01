"""Logs hold no card or message content: discord.py's loggers that write every gateway event
and request body at DEBUG stay at INFO or above whatever LOG_LEVEL says."""

from __future__ import annotations

import logging

import pytest

from bot.config import DISCORD_PAYLOAD_LOGS, BotSettings


@pytest.mark.parametrize(
    ("level", "expected"),
    [("DEBUG", logging.INFO), ("INFO", logging.INFO), ("WARNING", logging.WARNING)],
)
def test_discord_py_never_logs_payloads(
    monkeypatch: pytest.MonkeyPatch, level: str, expected: int
) -> None:
    monkeypatch.setattr(logging, "basicConfig", lambda **_: None)  # the test's own handlers stay
    for name in DISCORD_PAYLOAD_LOGS:
        monkeypatch.setattr(logging.getLogger(name), "level", logging.NOTSET)
    BotSettings(_env_file=None, log_level=level).configure_logging()  # type: ignore[call-arg]
    for name in DISCORD_PAYLOAD_LOGS:
        logger = logging.getLogger(name)
        assert logger.level == expected
        assert not logger.isEnabledFor(logging.DEBUG)
