"""A number a custom_id or a select value carries, read strictly."""

from __future__ import annotations

import re

_WHOLE_NUMBER = re.compile("[0-9]{1,20}")  # a snowflake has up to 20 digits


def whole_number(text: str | None) -> int | None:
    """A number a custom_id or a select value carries, or None if `text` is not plain ASCII
    digits (``int()`` would accept "²", "٣" or " 7")."""
    if text is None or _WHOLE_NUMBER.fullmatch(text) is None:
        return None
    return int(text)
