"""`make run` / `python -m bot`: run the bot with the settings from the environment and .env."""

from __future__ import annotations

import asyncio
import contextlib
import sys

from bot.config import BotSettings

NO_TOKEN = """\
No DISCORD_TOKEN is set, so the bot cannot log in.

  1. Copy .env.example to .env and put your bot's token in DISCORD_TOKEN
     (README.md, "Setup", explains how to create the application and invite the bot).
  2. Run `make run` again.

To watch a whole game without Discord, run `make demo`: it plays one on a local stand-in.
"""


def main() -> int:
    settings = BotSettings()
    if settings.discord_token is None:
        print(NO_TOKEN, file=sys.stderr, end="")
        return 2
    settings.configure_logging()
    from bot.app import run

    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(run(settings))
    return 0


if __name__ == "__main__":
    sys.exit(main())
