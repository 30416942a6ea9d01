"""Settings from the environment and `.env` (see `.env.example`)."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Annotated, Any, Literal, Self, get_args
from urllib.parse import urlsplit

from pydantic import Field, SecretStr, ValidationError, field_validator, model_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

LogLevel = Literal["DEBUG", "INFO", "WARNING", "ERROR"]
PUBLIC_URL_MAX = 400
"""The longest PUBLIC_URL: its pages' links (a path of under 50 characters more) fit the 512
characters of a Discord link button's address."""


class BotSettings(BaseSettings):
    """Everything the bot reads from its environment. Names match `.env.example`."""

    model_config = SettingsConfigDict(
        env_file=".env", env_file_encoding="utf-8", extra="ignore", frozen=True
    )

    discord_token: SecretStr | None = Field(
        default=None, description="The bot token from the Discord developer portal."
    )
    database_url: str | None = Field(
        default=None,
        description="The database: sqlite:///path/to/file.sqlite3 or postgresql://user:password@"
        "host/name (several bot processes need PostgreSQL). Empty: the SQLite file at "
        "DATABASE_PATH.",
    )
    database_path: Path = Field(
        default=Path("data/ohhell.sqlite3"),
        description="The SQLite database file, when DATABASE_URL is not set.",
    )
    database_pool_size: int = Field(
        default=10, ge=1, description="PostgreSQL: connections this process keeps at most."
    )
    shard_count: int | None = Field(
        default=None,
        ge=1,
        description="Gateway shards of the whole bot, across all its processes (empty: one "
        "process, as many shards as Discord recommends).",
    )
    shard_ids: Annotated[tuple[int, ...] | None, NoDecode] = Field(
        default=None,
        description="The shards this process runs, e.g. 0,1 (needs SHARD_COUNT; empty: all).",
    )
    dev_guild_id: int | None = Field(
        default=None, description="Sync slash commands to this server only (instant)."
    )
    log_level: LogLevel = "INFO"
    table_edit_delay: float = Field(
        default=0.5, ge=0, description="Seconds to gather changes into one table-message edit."
    )
    table_gather_at_page: float = Field(
        default=5.0,
        ge=0,
        description="Seconds to gather changes into one table-message edit while every person "
        "seated is at the table's page (a trick's or hand's end, and anything but play in the "
        "middle of a trick or a bidding, still show after TABLE_EDIT_DELAY).",
    )
    computer_delay: float = Field(
        default=1.0, ge=0, description="Seconds between computer players' moves, to follow them."
    )
    turn_ping_after: float = Field(
        default=20.0,
        ge=0,
        description="Tables with the turn timer off: seconds before a person whose turn it is "
        "gets a mention (0: never). With a timer, the mention comes halfway through it.",
    )
    lobby_timeout: float = Field(
        default=15 * 60, ge=0, description="Seconds before a lobby nobody starts closes (0: never)."
    )
    abandon_after: float = Field(
        default=24 * 3600,
        ge=0,
        description="Seconds without any person's action before a game is abandoned (0: never).",
    )
    deadline_grace: float = Field(
        default=60.0,
        ge=0,
        description="After a restart, seconds before deadlines that passed while the bot was "
        "down are handled.",
    )
    deadline_poll: float = Field(
        default=2.0,
        gt=0,
        description="PostgreSQL: seconds between looks for deadlines another bot process set "
        "(one process on SQLite is told of every change at once).",
    )
    post_retry_after: float = Field(
        default=60.0,
        ge=1,
        description="Seconds a channel post may stay unmade (its process stopped, or Discord did "
        "not answer) before any bot process makes it.",
    )
    retain_after_leave: float = Field(
        default=30,
        ge=0,
        description="Days a server's data (its tables, results and ratings) is kept after the "
        "bot leaves it or it is deleted, in case the bot is added back; then it is erased.",
    )
    computer_workers: int | None = Field(
        default=None, ge=1, description="Processes for computer players (default: one a core)."
    )
    review_budget_s: float = Field(
        default=0.3,
        gt=0,
        description="/ohhell review: seconds the hard computer player spends judging each of a "
        "person's decisions.",
    )
    review_iterations: int | None = Field(
        default=None,
        ge=1,
        description="/ohhell review: a fixed number of samples a decision instead of the time "
        "budget (reproducible reviews; tests).",
    )
    metrics_port: int | None = Field(
        default=None,
        ge=0,
        le=65535,
        description="Serve Prometheus metrics (/metrics) and a health check (/healthz) on this "
        "port (empty: off; 0: any free port, logged).",
    )
    metrics_host: str = Field(
        default="127.0.0.1",
        description="The address the metrics listen on (0.0.0.0: every interface).",
    )
    public_url: str | None = Field(
        default=None,
        description="Where people reach the bot's web pages, e.g. https://ohhell.example.org "
        "(the live tables, replays, leaderboards; Watch and Replay links in Discord). Empty: "
        "no web pages.",
    )
    web_port: int = Field(
        default=8080,
        ge=0,
        le=65535,
        description="The port the web pages are served on, when PUBLIC_URL is set (0: any free "
        "port, logged).",
    )
    web_host: str = Field(
        default="127.0.0.1",
        description="The address the web pages listen on (a reverse proxy at PUBLIC_URL "
        "forwards to it; 0.0.0.0: every interface).",
    )
    web_secret: SecretStr | None = Field(
        default=None,
        description="The key that signs the pages' links (at least 32 characters). Empty: one "
        "is generated once and kept in the database, shared by every bot process.",
    )
    discord_client_secret: SecretStr | None = Field(
        default=None,
        description="The application's OAuth2 client secret (Developer Portal, OAuth2): with "
        "PUBLIC_URL, people sign in at the pages (the Activity in Discord, Log in with Discord "
        "in a browser). Empty: the pages are there to watch.",
    )
    # Only for the local Discord stand-in (tests, `make demo`): where discord.py connects, and
    # where a browser goes to "Log in with Discord".
    discord_api_base: str | None = None
    discord_gateway_url: str | None = None
    discord_authorize_url: str | None = None

    @field_validator(
        "discord_token",
        "dev_guild_id",
        "database_url",
        "shard_count",
        "computer_workers",
        "review_iterations",
        "metrics_port",
        "public_url",
        "web_secret",
        "discord_client_secret",
        "discord_api_base",
        "discord_gateway_url",
        "discord_authorize_url",
        mode="before",
    )
    @classmethod
    def _empty_is_unset(cls, value: object) -> object:
        return None if value == "" else value

    @field_validator("public_url")
    @classmethod
    def _web_address(cls, value: str | None) -> str | None:
        if value is None:
            return None
        parsed = urlsplit(value)
        if parsed.scheme not in ("http", "https") or not parsed.netloc:
            raise ValueError("must be a web address, e.g. https://ohhell.example.org")
        if parsed.query or parsed.fragment:
            raise ValueError("must be an address without ? or #, e.g. https://ohhell.example.org")
        if len(value.rstrip("/")) > PUBLIC_URL_MAX:
            raise ValueError(
                f"must be at most {PUBLIC_URL_MAX} characters: a page's link, this address and "
                "its signed path, must fit a Discord link button (512)"
            )
        return value.rstrip("/")

    @field_validator("web_secret")
    @classmethod
    def _long_enough(cls, value: SecretStr | None) -> SecretStr | None:
        if value is not None and len(value.get_secret_value()) < 32:
            raise ValueError("must be at least 32 characters (empty: one is generated and kept)")
        return value

    @field_validator("shard_ids", mode="before")
    @classmethod
    def _comma_separated(cls, value: object) -> object:
        if isinstance(value, str):
            parts = [part for part in value.replace(" ", "").split(",") if part]
            if not all(part.isdigit() for part in parts):
                raise ValueError("must be shard numbers separated by commas, e.g. 0,1")
            return tuple(int(part) for part in parts) if parts else None
        if isinstance(value, int):
            return (value,)
        return value

    @model_validator(mode="after")
    def _shards_fit(self) -> Self:
        # No field to hang these on: the message names the setting itself (`problems`).
        if self.shard_ids is not None:
            if self.shard_count is None:
                raise ValueError(
                    "SHARD_IDS: needs SHARD_COUNT, the bot's shards in all processes "
                    "(e.g. SHARD_COUNT=2 with SHARD_IDS=0 here and SHARD_IDS=1 in the other)"
                )
            outside = [i for i in self.shard_ids if not 0 <= i < self.shard_count]
            if outside or not self.shard_ids or len(set(self.shard_ids)) != len(self.shard_ids):
                given = ",".join(str(i) for i in self.shard_ids)
                raise ValueError(
                    f"SHARD_IDS: must be distinct shards from 0 to {self.shard_count - 1} "
                    f"(got {given!r} with SHARD_COUNT={self.shard_count})"
                )
        return self

    @property
    def several_processes(self) -> bool:
        """Whether this process runs only some of the bot's shards (SHARD_IDS): the others run
        in other processes, which share its database."""
        return (
            self.shard_ids is not None
            and self.shard_count is not None
            and (len(self.shard_ids) < self.shard_count)
        )

    @property
    def database(self) -> str:
        """Where the database is: DATABASE_URL, or the SQLite file at DATABASE_PATH."""
        return self.database_url or f"sqlite:///{self.database_path}"

    @field_validator("log_level", mode="before")
    @classmethod
    def _upper(cls, value: object) -> object:
        if not isinstance(value, str):
            return value
        levels = get_args(LogLevel)
        if value.upper() not in levels:
            raise ValueError(f"must be one of {', '.join(levels)}")
        return value.upper()

    def configure_logging(self) -> None:
        logging.basicConfig(
            level=self.log_level,
            format="%(asctime)s %(levelname)-7s %(name)s: %(message)s",
        )
        # At DEBUG discord.py logs every gateway event and every request's body: the hands in
        # hand messages, what people typed. Logs hold no card or message content.
        level = max(logging.INFO, logging.getLevelNamesMapping()[self.log_level])
        for name in DISCORD_PAYLOAD_LOGS:
            logging.getLogger(name).setLevel(level)


DISCORD_PAYLOAD_LOGS = ("discord.http", "discord.gateway")
"""discord.py's loggers that write payloads at DEBUG."""

NEVER_SHOWN = frozenset({"discord_token", "database_url", "web_secret", "discord_client_secret"})
"""Settings whose values no message repeats: the token, the links' key, and a URL that may hold
a password."""


def problems(error: ValidationError) -> list[str]:
    """One line a bad setting: its name, what it accepts and what it was given (never the value
    of a setting in `NEVER_SHOWN`)."""
    lines = []
    for problem in error.errors(include_url=False):
        reason = _reason(problem)
        if not problem["loc"]:  # a check across settings: its message names them
            lines.append(reason)
            continue
        field = str(problem["loc"][0])
        given = "" if field in NEVER_SHOWN else f" (got {problem['input']!r})"
        lines.append(f"{field.upper()}: {reason}{given}")
    return lines


def _reason(problem: Any) -> str:
    kind, context = problem["type"], problem.get("ctx", {})
    if kind == "value_error":
        return str(context["error"])
    if kind in ("int_parsing", "int_type", "int_from_float"):
        return "must be a whole number"
    if kind in ("float_parsing", "float_type"):
        return "must be a number"
    if kind == "greater_than_equal":
        return f"must be {context['ge']:g} or more"
    if kind == "greater_than":
        return f"must be more than {context['gt']:g}"
    text = str(problem["msg"])
    return text.replace("Input should be", "must be", 1)


DEFAULTS = BotSettings.model_fields
"""Every setting's default, for the parts that take one as a parameter (tests build them
directly): `DEFAULTS["lobby_timeout"].default`."""
