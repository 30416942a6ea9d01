"""The frame of the server's pages (the leaderboard, the recent games, a player's page): the
document, its head naming the bot's own style sheets, the header with the page's title and its
links. Every word inside comes from the catalogs; the caller escapes what it puts in."""

from __future__ import annotations

import re
from html import escape

from cogs.render.language import spoken
from cogs.web.assets import asset_url

NO_ICON = '<link rel="icon" href="data:,">'
"""The pages have no icon: said, so that a browser does not ask the bot for /favicon.ico."""
_CODE = re.compile(r"`([^`<>]+)`")


def document(title: str, body: str, nav: str = "") -> str:
    """A whole page: `title` as text, `body` and `nav` (the header's links) as HTML."""
    return (
        f'<!DOCTYPE html><html lang="{spoken().code.replace("_", "-")}"><head>'
        '<meta charset="utf-8"><meta name="viewport" content="width=device-width, '
        'initial-scale=1"><meta name="referrer" content="no-referrer">'
        f"<title>{escape(title)}</title>{NO_ICON}"
        f'<link rel="stylesheet" href="{asset_url("replay.css")}">'
        f'<link rel="stylesheet" href="{asset_url("pages.css")}"></head><body>'
        f"<header><h1>{escape(title)}</h1>{nav}</header><main>{body}</main></body></html>"
    )


def text(words: str) -> str:
    """A sentence of the catalogs as HTML: escaped, a command written `/ohhell start` in it
    shown as code."""
    return _CODE.sub(r"<code>\1</code>", escape(words, quote=False))


def link(url: str, words: str, current: bool = False) -> str:
    """A link (`url` relative to the page or whole) with `words` as its text; the current
    choice of a set of links is marked as such, for screen readers too."""
    here = ' aria-current="page"' if current else ""
    return f'<a href="{escape(url)}"{here}>{escape(words)}</a>'


def header_links(*links: str) -> str:
    return '<nav class="pages">' + " ".join(links) + "</nav>"
