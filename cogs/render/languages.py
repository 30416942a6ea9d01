"""What `/ohhell settings` says of a channel's language."""

from __future__ import annotations

from cogs.render.language import LANGUAGES, Language, _


def channel_language_text(code: str | None, server: Language) -> str:
    """Which language the channel's table messages and posts are in: the one set for it, or
    the server's."""
    if code is not None:
        return _("Tables and posts in this channel are in {language}.").format(
            language=LANGUAGES.get(code, code)
        )
    return _("Tables and posts in this channel are in the server's language ({language}).").format(
        language=LANGUAGES.get(server.code, server.code)
    )
