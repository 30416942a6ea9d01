"""The one error handler: every refusal and every unexpected error of a command or a component
is answered here, privately. A refusal says why; anything else says nothing was changed and
gives a short reference that is also in the log."""

from __future__ import annotations

import logging
import secrets
from typing import Any

import discord

from bot.metrics import Metrics
from bot.service import CorruptRow, Refused
from cogs import render
from cogs.interaction import Interaction
from cogs.render.language import _

log = logging.getLogger(__name__)


def metrics_of(interaction: Interaction) -> Metrics:
    """The metrics of the bot an interaction reached (`OhHellBot.metrics`)."""
    return interaction.client.metrics


async def reply(interaction: Interaction, text: str) -> None:
    """A private answer, whether or not the interaction was answered already."""
    text = render.fit(text, render.MESSAGE_LIMIT)
    try:
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.response.send_message(text, ephemeral=True)
    except discord.NotFound:
        # The interaction expired (Discord's 3 s, or 15 min for a follow-up): nobody to tell.
        # Not what it said: an answer may name the person's cards, and logs hold none.
        log.warning("interaction %s expired before its answer", interaction.id)


class AfterCommit(Exception):
    """An error met after a click's change was stored (while answering it): the change stands
    and is shown all the same (`TableController.committed`), so the person is told it was
    done, not that nothing was changed."""

    def __init__(self, error: Exception) -> None:
        super().__init__(error)
        self.error = error


async def answer_error(interaction: Interaction, error: BaseException) -> None:
    metrics = metrics_of(interaction)
    if isinstance(error, AfterCommit):
        metrics.errors("after_commit").inc()
        await _report(
            interaction, error.error, "error after a stored change", _(render.SAVED_NOT_SHOWN)
        )
        return
    if isinstance(error, Refused):
        metrics.refusals(error.code).inc()
        await reply(interaction, render.refusal(error))
        return
    if isinstance(error, CorruptRow):
        metrics.errors("corrupt").inc()
        log.error("%s", error)
        await reply(interaction, _(render.CORRUPT_GAME if error.closed else render.CORRUPT_TABLE))
        return
    metrics.errors("unexpected").inc()
    await _report(interaction, error, "unexpected error", _(render.UNEXPECTED))


async def _report(interaction: Interaction, error: BaseException, kind: str, text: str) -> None:
    """Log `error` under a short reference, and tell the person `text` with that reference."""
    reference = secrets.token_hex(3)
    log.error(
        "%s [ref %s] (user %s, %s)",
        kind,
        reference,
        interaction.user.id,
        _what(interaction),
        exc_info=error,
    )
    try:
        await reply(interaction, text.format(reference=reference))
    except discord.HTTPException:
        log.warning("could not tell user %s about error %s", interaction.user.id, reference)


def _what(interaction: Interaction) -> str:
    """What was used, for the log: a command's name, or a component's kind and table (the
    first three parts of its custom_id). Not the rest: a play button's carries the card, and
    logs hold no card."""
    data: dict[str, Any] = dict(interaction.data or {})
    if interaction.type is discord.InteractionType.component:
        kind = ":".join(str(data.get("custom_id", "")).split(":")[:3])
        return f"component {kind[:40]!r}"
    return f"command {data.get('name')!r}"
