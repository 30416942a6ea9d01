"""BotSettings: what a process is told about the others (SHARD_COUNT, SHARD_IDS)."""

from __future__ import annotations

import pytest

from bot.config import BotSettings


@pytest.mark.parametrize(
    ("count", "ids", "several"),
    [
        (None, None, False),  # one process, the shards Discord recommends
        ("2", None, False),  # one process running both shards
        ("2", "0,1", False),
        ("2", "0", True),  # shard 1 runs elsewhere
        ("4", "1,3", True),
    ],
)
def test_a_process_shares_its_database_only_when_other_shards_run_elsewhere(
    monkeypatch: pytest.MonkeyPatch, count: str | None, ids: str | None, several: bool
) -> None:
    for name, value in (("SHARD_COUNT", count), ("SHARD_IDS", ids)):
        if value is None:
            monkeypatch.delenv(name, raising=False)
        else:
            monkeypatch.setenv(name, value)
    assert BotSettings(_env_file=None).several_processes is several  # type: ignore[call-arg]
