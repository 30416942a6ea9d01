"""A finished game's replay as one self-contained HTML document: every hand with every seat's
dealt cards, every trick step by step (Previous / Next, the arrow keys, a link `#h3t2` to any
hand and trick), the bids and what each scored, the score chart and the final standings.

The same function writes the page the bot serves (`served`): there the style and script are the
bot's own files (/static/cards.css with replay.css, /static/replay.js: the served pages run no
inline script or style), and the page links to the server's leaderboard and each person's page.
As a file, everything is inline (the style, a small script, the cards drawn in HTML and CSS),
so it opens in any browser without a request out. Every word comes from the catalogs in the
language being spoken; every name is escaped, and the game's data rides in a JSON script block
(not run) whose `<`, `>` and `&` are escaped so that no name can end it."""

from __future__ import annotations

import base64
import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass
from html import escape
from pathlib import Path
from typing import Any

from bot.engine import Card
from bot.engine.records import replay
from cogs.render.common import name_text, trump_text
from cogs.render.language import FACES, _, language, number, speaking, spoken
from cogs.render.notices import rating_text, result_line
from cogs.render.table import hand_heading
from cogs.web.assets import asset_url
from cogs.web.score_chart import legend, score_svg
from cogs.web.shell import NO_ICON, header_links, link

HERE = Path(__file__).resolve().parent / "static"
SHEETS = ("cards.css", "replay.css")
"""The page's style sheets (the cards' shared with the live table's page), in order."""
STYLE = "".join((HERE / sheet).read_text() for sheet in SHEETS)
SCRIPT = (HERE / "replay.js").read_text()


def _digest(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode()).digest()).decode() + "'"


POLICY = (
    f"default-src 'none'; style-src {_digest(STYLE)}; script-src {_digest(SCRIPT)}; "
    "base-uri 'none'; form-action 'none'"
)
"""The page's Content-Security-Policy: nothing loads from anywhere, and of the inline style and
script only the page's own run (by their digests), so nothing a name could smuggle in would."""


Rated = tuple[int, int, bool]
"""A seat's rating after the game, its change, and whether it is still provisional."""


@dataclass(frozen=True)
class GameLinks:
    """Where a page of a game leads: the server's leaderboard, and each seat's person's page
    (None for a computer player's seat)."""

    board: str
    people: Sequence[str | None] = ()


def replay_file_name(game: int) -> str:
    return f"ohhell-game-{game}.html"


def script_json(value: Any) -> str:
    """`value` as JSON that may sit inside a `<script>` block: no `<`, `>` or `&` in it, so
    no `</script>` or `<!--` written in a name can end the block."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return text.replace("&", "\\u0026").replace("<", "\\u003c").replace(">", "\\u003e")


def replay_data(record: dict[str, Any], summary: dict[str, Any]) -> dict[str, Any]:
    """What the page's script steps through, every word already in the language spoken: each
    hand's heading, each seat's dealt cards, each trick's cards with who played them and who
    won it, and each seat's result line. `summary` is the record's `replay`."""
    players = [name_text(n) for n in record["players"]]
    hands = []
    for hand_number, (played, scored) in enumerate(
        zip(record["hands"], summary["hands"], strict=True), start=1
    ):
        plays = [a for a in played["actions"] if "play" in a]
        tricks = []
        for trick in scored["tricks"]:
            taken, plays = plays[: len(trick["cards"])], plays[len(trick["cards"]) :]
            shown: dict[str, Any] = {
                "seats": [a["seat"] for a in taken],
                "cards": [a["play"] for a in taken],
                "winner": trick["winner"],
            }
            if any("suit" in a for a in taken):  # a joker led in no trumps names its suit
                shown["named"] = [a.get("suit") for a in taken]
            tricks.append(shown)
        turned = played.get("turned")
        trump = trump_text(scored["trump"], True, Card.parse(turned) if turned else None)
        title = hand_heading(hand_number, scored["cards_each"], players[played["dealer"]], trump)
        results = [
            result_line(
                name,
                bid,
                scored["tricks_won"][seat],
                scored["points"][seat] or 0,
                scored["totals"][seat],
            )
            for seat, (name, bid) in enumerate(zip(players, scored["bids"], strict=True))
            if bid is not None
        ]
        hands.append(
            {"title": title, "dealt": played["cards"], "tricks": tricks, "results": results}
        )
    return {
        "players": players,
        "hands": hands,
        "ranks": {face: spoken().rank(face) for face in FACES},
        "labels": {
            # Translators: above the trick shown in a game's replay: "Trick 2 of 5".
            "trick": _("Trick {trick} of {count}"),
            # Translators: under the trick shown in a game's replay.
            "wins": _("{name} wins the trick"),
            # Translators: under a trick whose every card was cancelled: nobody takes it.
            "cancelled": _("Nobody takes this trick: it is cancelled"),
        },
    }


def replay_page(
    game: int,
    record: dict[str, Any],
    ratings: Sequence[Rated | None] = (),
    *,
    links: GameLinks | None = None,
    served: bool = False,
) -> str:
    """The whole page, in the language being spoken: the self-contained file, or `served`
    the page the bot serves (its own style and script by address). `ratings`: each seat's
    rating change, shown in the final standings. Raises `RecordError` for a record that does
    not replay."""
    summary = replay(record)
    data = replay_data(record, summary)
    players: list[str] = data["players"]
    # Translators: a game's replay page's title; {game} is its number.
    title = _("Game #{game} — replay").format(game=game)
    counted = [h for h in summary["hands"] if h["complete"]]
    heading = _("Game #{game} — score after each hand (dot: bid met)").format(game=game)
    chart = score_svg(
        record["players"],
        [h["totals"] for h in counted],
        [
            [b is not None and b == t for b, t in zip(h["bids"], h["tricks_won"], strict=True)]
            for h in counted
        ],
        heading,
    )
    placing = summary["placing"] or [1] * len(players)
    order = sorted(range(len(players)), key=lambda s: (placing[s], s))
    people = links.people if links is not None else ()
    standings = "".join(
        f'<li><span class="place">{number(placing[s])}.</span> '
        f'<span class="name">{linked(players[s], people[s] if s < len(people) else None)}</span>'
        f' <span class="total">{number(summary["totals"][s])}</span>'
        f"{rating_change(ratings[s] if s < len(ratings) else None)}</li>"
        for s in order
    )
    # Translators: a link to one hand of a game's replay.
    hand = _("Hand {hand}")
    hand_links = "".join(
        f'<li><a href="#h{h}t1">{escape(hand.format(hand=number(h)))}</a></li>'
        for h, shown in enumerate(data["hands"], start=1)
        if shown["tricks"]
    )
    if served:
        head = NO_ICON + "".join(
            f'<link rel="stylesheet" href="{asset_url(sheet)}">' for sheet in SHEETS
        )
        script = f'<script src="{asset_url("replay.js")}"></script>'
    else:
        head = (
            f'<meta http-equiv="Content-Security-Policy" content="{POLICY}"><style>{STYLE}</style>'
        )
        script = f"<script>{SCRIPT}</script>"
    # Translators: a link to the server's leaderboard page.
    board = "" if links is None else header_links(link(links.board, _("Leaderboard")))
    return (
        f'<!DOCTYPE html><html lang="{spoken().code.replace("_", "-")}"><head>'
        '<meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, '
        'initial-scale=1"><meta name="referrer" content="no-referrer">'
        f"<title>{escape(title)}</title>{head}</head><body>"
        f"<header><h1>{escape(title)}</h1>{board}</header><main>"
        f'<section class="standings"><h2>{escape(_("Final standings"))}</h2>'
        f"<ol>{standings}</ol></section>"
        f'<section id="viewer" aria-live="polite"><h2 id="hand-title"></h2>'
        '<nav class="steps">'
        f'<button type="button" id="prev">{escape(_("◀ Previous"))}</button>'
        '<span id="trick-title"></span>'
        f'<button type="button" id="next">{escape(_("Next ▶"))}</button></nav>'
        '<div id="trick" class="trick"></div><p id="winner"></p>'
        '<div id="seats" class="seats"></div><ul id="results" class="results"></ul></section>'
        f'<nav class="hands"><ol>{hand_links}</ol></nav>'
        f'<section class="scores"><h2>{escape(heading)}</h2>{chart}'
        f"{legend(record['players'])}</section>"
        f'</main><script type="application/json" id="game">{script_json(data)}</script>'
        f"{script}</body></html>"
    )


def linked(name: str, url: str | None) -> str:
    """A name as text, a link to its person's page when there is one."""
    return escape(name) if url is None else link(url, name)


def rating_change(rated: Rated | None) -> str:
    """A seat's rating after the game and its change, worded as the final standings post
    words them: " · 1,412 (+18)", " · 1,012? (+40)" while provisional; nothing for a seat
    not rated."""
    text = rating_text(rated)
    return f'<span class="rating">{escape(text)}</span>' if text else ""


def replay_page_in(
    code: str,
    game: int,
    record: dict[str, Any],
    ratings: Sequence[Rated | None] = (),
    *,
    links: GameLinks | None = None,
    served: bool = False,
) -> str:
    """`replay_page` in the language of catalog name `code`, for a worker, which does not share
    its caller's `speaking`."""
    with speaking(language(code)):
        return replay_page(game, record, ratings, links=links, served=served)
