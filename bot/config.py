"""Settings from the environment and `.env` (see `.env.example`)."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Literal

from pydantic import Field, SecretStr, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

LogLevel = Literal["DEBUG", "INFO", "WARNING", "ERROR"]


class BotSettings(BaseSettings):
    """Everything the bot reads from its environment. Names match `.env.example`."""

    model_config = SettingsConfigDict(
        env_file=".env", env_file_encoding="utf-8", extra="ignore", frozen=True
    )

    discord_token: SecretStr | None = Field(
        default=None, description="The bot token from the Discord developer portal."
    )
    database_path: Path = Field(
        default=Path("data/ohhell.sqlite3"), description="The SQLite database file."
    )
    dev_guild_id: int | None = Field(
        default=None, description="Sync slash commands to this server only (instant)."
    )
    log_level: LogLevel = "INFO"
    table_edit_delay: float = Field(
        default=0.5, ge=0, description="Seconds to gather changes into one table-message edit."
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
    leaderboard_min_games: int = Field(
        default=3, ge=1, description="Games a player plays before /leaderboard ranks them."
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
    # Only for the local Discord stand-in (tests, `make demo`): where discord.py connects.
    discord_api_base: str | None = None
    discord_gateway_url: str | None = None

    @field_validator("discord_token", "dev_guild_id", mode="before")
    @classmethod
    def _empty_is_unset(cls, value: object) -> object:
        return None if value == "" else value

    @field_validator("log_level", mode="before")
    @classmethod
    def _upper(cls, value: object) -> object:
        return value.upper() if isinstance(value, str) else value

    def configure_logging(self) -> None:
        logging.basicConfig(
            level=self.log_level,
            format="%(asctime)s %(levelname)-7s %(name)s: %(message)s",
        )


DEFAULTS = BotSettings.model_fields
"""Every setting's default, for the parts that take one as a parameter (tests build them
directly): `DEFAULTS["lobby_timeout"].default`."""
