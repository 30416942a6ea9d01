"""The confirmation button of `/ohhell forget-me`: its custom_id format (`ohf:erase:<token>`),
parsed strictly here, and the persistent item that rebuilds it after a restart. The token is
the one the service offered the person who asked (bot/service/privacy.py): a forged one, or
one used already or too old, is refused there and changes nothing. The family takes every
"ohf:" id, so a malformed one is refused clearly instead of ignored."""

from __future__ import annotations

import re
from typing import Any, Protocol

import discord

from cogs.interaction import Interaction, of_the_bot
from cogs.items.pages import ButtonFamily

FORGET_ID = re.compile(r"ohf:[!-~]{0,96}")
_ERASE = re.compile(r"ohf:erase:(?P<token>[0-9a-f]{32})")


def erase_id(token: str) -> str:
    return f"ohf:erase:{token}"


def parse_erase(text: str) -> str | None:
    """The token an erasure's confirmation carries, or None for anything else."""
    match = _ERASE.fullmatch(text)
    return None if match is None else match["token"]


def claimed(text: str) -> bool:
    """Whether a component's custom_id is of this family."""
    return FORGET_ID.fullmatch(text) is not None


class ConfirmHandler(Protocol):
    """What a confirmation click is handed to (the privacy commands)."""

    async def on_confirm(self, interaction: Interaction, custom_id: str) -> None: ...


class EraseButton(ButtonFamily, template=FORGET_ID.pattern):
    """The confirmation of `/ohhell forget-me`, rebuilt from its custom_id."""

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        ours = of_the_bot(interaction)
        handler: ConfirmHandler = ours.client.privacy
        await handler.on_confirm(ours, self.item.custom_id or "")
