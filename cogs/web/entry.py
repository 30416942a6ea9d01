"""The Activity's entry: the page Discord's client frames when a person opens the Activity.
Its scripts are the Embedded App SDK, static/session.js, which signs the person in (the SDK's
handshake, `authorize`, the bot's `/activity/session`, `authenticate`) and keeps their session,
and static/activity.js, which then goes to the channel's table, or offers to open one (the
bot's `/activity/table` and `/activity/open`, cogs/web/lobby.py); the words the scripts show
come from the catalogs, in the page's `data-*`."""

from __future__ import annotations

from html import escape

from cogs.render.language import _, pgettext, spoken
from cogs.web.assets import asset_url
from cogs.web.shell import NO_ICON


def entry_page(application_id: int) -> str:
    words = {
        "client-id": str(application_id),
        "signed-in": _("Signed in as {name}."),
        "failed": _("Discord did not sign you in. Close the Activity and open it again."),
        # Translators: the Activity, opened in a channel with no open table.
        "no-table": _("There is no table in this channel yet."),
        # Translators: a button of the Activity: opens a table in this channel, as
        # /ohhell start does.
        "open": pgettext("button", "Open a table"),
        "opening": _("Opening a table…"),
        # Translators: the Activity opened outside a server's channel (a DM, a group DM).
        "nowhere": _("Open the Activity in a channel of a server to play there."),
    }
    data = " ".join(f'data-{key}="{escape(value)}"' for key, value in words.items())
    data += " data-entry"  # session.js: the entry signs in afresh, the pages after it reuse it
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
        '<div id="channel-table"></div>'
        f'</main><script src="{asset_url("discord-sdk.js")}"></script>'
        f'<script src="{asset_url("session.js")}"></script>'
        f'<script src="{asset_url("activity.js")}"></script></body></html>'
    )
