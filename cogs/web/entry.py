"""The Activity's entry: the page Discord's client frames when a person opens the Activity.
Its scripts are the Embedded App SDK and static/session.js, which signs the person in (the
SDK's handshake, `authorize`, the bot's `/activity/session`, `authenticate`) and keeps their
session; the words the script shows come from the catalogs, in the page's `data-*`."""

from __future__ import annotations

from html import escape

from cogs.render.language import _, spoken
from cogs.web.assets import asset_url
from cogs.web.shell import NO_ICON


def entry_page(application_id: int) -> str:
    words = {
        "client-id": str(application_id),
        "signed-in": _("Signed in as {name}."),
        "failed": _("Discord did not sign you in. Close the Activity and open it again."),
    }
    data = " ".join(f'data-{key}="{escape(value)}"' for key, value in words.items())
    title = _("Oh Hell at the table")
    connecting = _("Connecting to Discord…")
    return (
        f'<!DOCTYPE html><html lang="{spoken().code.replace("_", "-")}"><head>'
        '<meta charset="utf-8"><meta name="viewport" content="width=device-width, '
        'initial-scale=1"><meta name="referrer" content="no-referrer">'
        f"<title>{escape(title)}</title>{NO_ICON}"
        f'<link rel="stylesheet" href="{asset_url("pages.css")}"></head>'
        f"<body {data}><header><h1>{escape(title)}</h1></header><main>"
        f'<p id="session-status" role="status">{escape(connecting)}</p>'
        f'</main><script src="{asset_url("discord-sdk.js")}"></script>'
        f'<script src="{asset_url("session.js")}"></script></body></html>'
    )
