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


def test_no_log_line_holds_the_token_the_database_password_the_link_key_or_the_client_secret() -> (
    None
):
    from bot.__main__ import Scrubbing, _secrets

    key = "LinkKey-" + "k" * 40
    settings = BotSettings(  # type: ignore[call-arg]
        _env_file=None,
        discord_token="Token.Secret.Part",
        database_url="postgresql://ann:Hunter2Secret@127.0.0.1/ohhell",
        web_secret=key,
        discord_client_secret="OAuthClientSecret42",
    )
    formatter = Scrubbing(logging.Formatter("%(message)s"), _secrets(settings))
    line = (
        f"signing with {key}; token Token.Secret.Part; password Hunter2Secret;"
        " client secret OAuthClientSecret42"
    )
    record = logging.LogRecord("bot", logging.ERROR, __file__, 1, line, None, None)
    shown = formatter.format(record)
    assert shown.startswith("signing with ")
    secrets = (key, "Token.Secret.Part", "Hunter2Secret", "OAuthClientSecret42")
    assert all(secret not in shown for secret in secrets)
