"""Checks on what the bot sends to the stand-in and what the stand-in answers.

Two layers:

- ``SpecValidator`` (``standin.openapi``) validates request and response bodies against
  Discord's OpenAPI description (``../shared/discord-api-spec/openapi.json``) when it is present.
- ``check_limits`` (``standin.limits``) applies Discord's documented message limits, always,
  because the description misses some (the 6000-character embed total, custom_id uniqueness,
  ...) and disagrees with the documentation on others (content: 4000 there, 2000 real).

Both report ``Violation``s (``standin.violations``, with the route templates and field paths
they are named by). This module gathers them for the stand-in and its tests.
"""

from __future__ import annotations

from standin.limits import check_limits
from standin.openapi import SpecValidator, default_spec_path
from standin.openapi import _best_error as _best_error
from standin.violations import RouteTable, Violation
from standin.violations import normalise_path as normalise_path

__all__ = [
    "SpecValidator",
    "Violation",
    "check_limits",
    "default_spec_path",
]

# The name tests/standin/test_validation.py knows the route table by.
_RouteTable = RouteTable
