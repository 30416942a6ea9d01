"""BotSettings: what a process is told about the others (SHARD_COUNT, SHARD_IDS), and
.env.example as a true picture of the settings."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.config import PUBLIC_URL_MAX, BotSettings
from cogs.web.links import Links
from standin.limits import BUTTON_URL_MAX

ID = 2**64 - 1
"""The largest number a link signs (a Discord id, a table)."""

ROOT = Path(__file__).resolve().parents[1]


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


def test_every_line_of_env_example_loads_as_shown_even_uncommented(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """.env.example's optional lines show each default; uncommented as they stand (an empty
    value included) they must load to those defaults, not stop the bot at start."""
    lines = (ROOT / ".env.example").read_text().splitlines()
    settings = [
        line.lstrip("# ").strip() for line in lines if re.fullmatch(r"#? ?[A-Z_]+=.*", line.strip())
    ]
    assert len(settings) > 15  # the optional tuning block is there too
    for line in settings:
        monkeypatch.delenv(line.split("=", 1)[0], raising=False)
    env = tmp_path / ".env"
    env.write_text("\n".join(settings) + "\n")
    loaded = BotSettings(_env_file=env)  # type: ignore[call-arg]
    defaults = BotSettings(_env_file=None)  # type: ignore[call-arg]
    assert loaded == defaults


def test_env_example_names_every_setting() -> None:
    text = (ROOT / ".env.example").read_text()
    named = set(re.findall(r"^#? ?([A-Z_]+)=", text, flags=re.MULTILINE))
    assert named == {name.upper() for name in BotSettings.model_fields}


@pytest.mark.parametrize(
    "address",
    [
        "ohhell.example.org",
        "ftp://ohhell.example.org",
        "https://ohhell.example.org/?a=1",
        "https://" + "w" * 390 + ".org",
    ],
)
def test_a_public_url_that_cannot_make_links_is_refused(address: str) -> None:
    with pytest.raises(ValueError, match="public_url"):
        BotSettings(_env_file=None, public_url=address)  # type: ignore[call-arg]


def test_the_longest_public_url_makes_links_that_fit_a_link_button() -> None:
    longest = "https://" + "w" * (PUBLIC_URL_MAX - 12) + ".org"
    settings = BotSettings(_env_file=None, public_url=longest + "/")  # type: ignore[call-arg]
    assert settings.public_url == longest
    links = Links(b"k" * 32, longest)
    addresses = [links.table(ID, ID), links.game(ID, ID), links.board(ID), links.player(ID, ID)]
    assert max(len(address) for address in addresses) <= BUTTON_URL_MAX
