"""Why the engine refused a move or a set of rules, in words."""

from collections.abc import Mapping
from typing import Any


def explanation_text(params: Mapping[str, Any]) -> str:
    return str(params["explanation"])
