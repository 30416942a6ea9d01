"""`make run` / `python -m bot`: run the bot with the settings from the environment and .env;
`python -m bot sync`: sync its slash commands with Discord now; `python -m bot my-data USER_ID`
and `python -m bot forget USER_ID`: a person's data, or its erasure, for one who asks the
operator (PRIVACY.md)."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import sys
import traceback
from typing import TYPE_CHECKING

from pydantic import ValidationError

from bot.config import BotSettings, problems
from bot.storage.masking import scrubbed

if TYPE_CHECKING:
    from bot.storage import DatabaseUnavailable

NO_TOKEN = """\
No DISCORD_TOKEN is set, so the bot cannot log in.

  1. Copy .env.example to .env and put your bot's token in DISCORD_TOKEN
     (README.md, "Setup", explains how to create the application and invite the bot).
  2. Run `make run` again.

To watch a whole game without Discord, run `make demo`: it plays one on a local stand-in.
"""


BAD_TOKEN = (
    "Discord refused the token in DISCORD_TOKEN. Check it on the developer portal "
    "(https://discord.com/developers/applications → your application → Bot → Reset Token) "
    "and put the new one in .env."
)
NO_ROUTE = (
    "Could not reach Discord ({error}). Check this machine's network connection (and any "
    "proxy or firewall), then run `make run` again."
)
NO_DATABASE = "Could not open the database {where} ({reason}). {check}"
CHECK_SQLITE = (
    "Set DATABASE_PATH (or DATABASE_URL) in .env to a file in a folder this user can create "
    "and write."
)
CHECK_POSTGRES = (
    "Check that the PostgreSQL server is running, and DATABASE_URL in .env: its host, port, "
    "user, password and database name."
)
DISCORD_DOWN = (
    "Discord answered {status} while the bot was logging in: it may be down for a while. "
    "See https://discordstatus.com and try again later."
)


SYNCED = "The slash commands are synced with Discord {where}."


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bot",
        description="Run the Oh Hell bot with the settings from the environment and .env "
        "(.env.example lists them).",
    )
    parser.add_argument(
        "command",
        nargs="?",
        choices=("run", "sync", "my-data", "forget"),
        default="run",
        help="run (the default): run the bot. sync: sync its slash commands with Discord now "
        "and exit; the bot syncs them itself when they changed, so this is for commands "
        "removed or overwritten by something else. my-data USER_ID: print everything stored "
        "about a person (the JSON /ohhell my-data sends). forget USER_ID: erase them "
        "everywhere, as /ohhell forget-me does (it cannot be undone)",
    )
    parser.add_argument("user", nargs="?", type=int, help="my-data, forget: a Discord user id")
    parsed = parser.parse_args(argv)
    command = parsed.command
    if (command in PERSON_COMMANDS) != (parsed.user is not None):
        parser.error("my-data and forget take a user id; run and sync take none")
    try:
        settings = BotSettings()
    except ValidationError as error:
        # One line a bad setting; pydantic's own text would repeat the values, the token's too.
        print("\n".join(problems(error)), file=sys.stderr)
        return 1
    if command in PERSON_COMMANDS:
        return _person_command(settings, command, parsed.user)
    if settings.discord_token is None:
        print(NO_TOKEN, file=sys.stderr, end="")
        return 2
    settings.configure_logging()
    secrets = _secrets(settings)
    for handler in logging.getLogger().handlers:
        handler.setFormatter(Scrubbing(handler.formatter, secrets))
    import aiohttp
    import discord

    from bot.app import run, sync_commands
    from bot.monitor import MetricsUnavailable
    from bot.storage import DatabaseUnavailable
    from cogs.web.server import WebUnavailable

    # Start-up failures get one line saying what to do; a connection lost later is retried
    # with backoff by discord.py and logged.
    try:
        with contextlib.suppress(KeyboardInterrupt):
            asyncio.run(run(settings) if command == "run" else sync_commands(settings))
    except (MetricsUnavailable, WebUnavailable) as error:
        print(error, file=sys.stderr)
        return 1
    except DatabaseUnavailable as error:
        print(_no_database(error), file=sys.stderr)
        return 1
    except discord.LoginFailure:
        print(BAD_TOKEN, file=sys.stderr)
        return 1
    except discord.HTTPException as error:
        print(DISCORD_DOWN.format(status=error.status), file=sys.stderr)
        return 1
    except (TimeoutError, aiohttp.ClientError, discord.GatewayNotFound) as error:
        print(NO_ROUTE.format(error=_short(error)), file=sys.stderr)
        return 1
    except Exception:
        # A failure nobody foresaw: its traceback, with no password or token in it.
        print(scrubbed(traceback.format_exc(), secrets), file=sys.stderr, end="")
        return 1
    if command == "sync":
        where = f"in server {settings.dev_guild_id}" if settings.dev_guild_id else "globally"
        print(SYNCED.format(where=where))
    return 0


PERSON_COMMANDS = ("my-data", "forget")
FORGOTTEN = "User {user} is erased. Tables rewritten: {tables}; rows deleted: {rows}."


def _person_command(settings: BotSettings, command: str, user_id: int) -> int:
    """my-data or forget, on the database alone (no Discord)."""
    from bot.app import forget_person, person_data
    from bot.storage import DatabaseUnavailable

    try:
        if command == "my-data":
            sys.stdout.buffer.write(asyncio.run(person_data(settings, user_id)) + b"\n")
            return 0
        forgotten = asyncio.run(forget_person(settings, user_id))
    except DatabaseUnavailable as error:
        print(_no_database(error), file=sys.stderr)
        return 1
    print(FORGOTTEN.format(user=user_id, tables=forgotten.tables, rows=forgotten.rows))
    return 0


def _no_database(error: DatabaseUnavailable) -> str:
    check = CHECK_POSTGRES if error.where.startswith("postgres") else CHECK_SQLITE
    return NO_DATABASE.format(where=error.where, reason=error.reason[:200], check=check)


def _secrets(settings: BotSettings) -> list[str]:
    """What no line the bot writes may hold: its token, its database's password."""
    from bot.storage.masking import secrets_of

    token = settings.discord_token.get_secret_value() if settings.discord_token else ""
    return [*secrets_of(settings.database), *([token] if token else [])]


class Scrubbing(logging.Formatter):
    """A log handler's formatter whose lines (their tracebacks too) hold none of `secrets`."""

    def __init__(self, inner: logging.Formatter | None, secrets: list[str]) -> None:
        super().__init__()
        self.inner = inner or logging.Formatter()
        self.secrets = secrets

    def format(self, record: logging.LogRecord) -> str:
        return scrubbed(self.inner.format(record), self.secrets)


def _short(error: BaseException) -> str:
    text = str(error) or type(error).__name__
    return text.splitlines()[0][:200]


if __name__ == "__main__":
    sys.exit(main())
