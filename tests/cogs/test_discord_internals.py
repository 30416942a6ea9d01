"""The two discord.py internals the bot calls, pinned: `Showing.edit` edits a message through
them to skip discord.py reading back the edited message (a third of an edit's CPU), which its
public `PartialMessage.edit` always does. A discord.py that changes either fails here, by name,
rather than in every end-to-end test."""

from __future__ import annotations

import inspect

import discord
import discord.http

from cogs import render


def test_handle_message_parameters_builds_an_edit_body_from_the_rendered_parts() -> None:
    parameters = inspect.signature(discord.http.handle_message_parameters).parameters
    for name in ("content", "embed", "view", "previous_allowed_mentions"):
        assert name in parameters, name
    rendered = render.Rendered("Hand 3 is over", discord.Embed(title="Your hand"), None)
    with discord.http.handle_message_parameters(
        **rendered.kwargs(), previous_allowed_mentions=None
    ) as params:
        assert isinstance(params, discord.http.MultipartParameters)
        assert params.payload is not None
        assert params.payload["content"] == "Hand 3 is over"
        assert params.payload["embeds"][0]["title"] == "Your hand"


def test_http_client_edit_message_takes_channel_message_and_params() -> None:
    signature = inspect.signature(discord.http.HTTPClient.edit_message)
    assert list(signature.parameters) == ["self", "channel_id", "message_id", "params"]
    assert signature.parameters["params"].kind is inspect.Parameter.KEYWORD_ONLY
