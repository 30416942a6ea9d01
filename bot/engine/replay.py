"""``python -m bot.engine.replay FILE``: check a game record and print its scores as JSON.

Exit 0 with the ``ohhell-replay/1`` summary on stdout; exit 1 for an illegal record, with
``{"format": "ohhell-replay/1", "error": {...}}`` on stdout and the message on stderr.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from bot.engine.errors import RecordError
from bot.engine.records import REPLAY_FORMAT, replay


def _fail(hand: int | None, action: int | None, rule: str, message: str) -> int:
    doc: dict[str, Any] = {
        "format": REPLAY_FORMAT,
        "error": {"hand": hand, "action": action, "rule": rule, "message": message},
    }
    print(json.dumps(doc))
    print(message, file=sys.stderr)
    return 1


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bot.engine.replay",
        description="Check a game record (ohhell-record/1, docs/records.md) and print its "
        "scores as JSON (ohhell-replay/1).",
        epilog="Exit 0 with the summary on stdout; 1 for an illegal record, with the hand, "
        "action and rule it breaks on stdout (JSON) and the message on stderr.",
    )
    parser.add_argument(
        "file",
        help="the record: a JSON file, e.g. from /ohhell record, or data/demo-record.json "
        "after `make demo`",
    )
    path = parser.parse_args(argv).file
    try:
        with open(path, encoding="utf-8") as f:
            record = json.load(f)
    except OSError as e:
        return _fail(None, None, "format", f"can't read {path}: {e.strerror}")
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        return _fail(None, None, "format", f"{path} is not JSON: {e}")
    try:
        result = replay(record)
    except RecordError as e:
        return _fail(e.hand, e.action, e.rule, e.message)
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
