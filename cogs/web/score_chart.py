"""The score chart drawn as inline SVG: each player's total after each hand, a dot where the bid
was met. No image: the page carries the drawing."""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from cogs.render.common import name_text
from cogs.render.language import number, pgettext

WIDTH = 800
HEIGHT = 360
LEFT, RIGHT, TOP, BOTTOM = 48, 16, 16, 40
COLOURS = (
    "#1b6ac9",
    "#d1495b",
    "#2e8b57",
    "#e08e0b",
    "#7b4fb8",
    "#1a9aa0",
    "#8c564b",
    "#c2399b",
    "#5f6b00",
    "#444444",
)
"""One colour a seat (up to 10 players), each with its own dash pattern for those who cannot
tell the colours apart."""
DASHES = ("", "6 3", "2 3", "8 3 2 3", "", "6 3", "2 3", "8 3 2 3", "", "6 3")


def score_svg(
    players: Sequence[str],
    totals: Sequence[Sequence[int]],
    met: Sequence[Sequence[bool]],
    title: str,
) -> str:
    """The chart: `totals[h][seat]` after hand h+1, `met[h][seat]` where the bid was met."""
    hands = len(totals)
    values = [0, *(v for row in totals for v in row)]
    low, high = min(values), max(values)
    if high == low:
        high = low + 1
    width = WIDTH - LEFT - RIGHT
    height = HEIGHT - TOP - BOTTOM

    def x(hand: int) -> float:
        return LEFT + width * hand / max(hands, 1)

    def y(value: int) -> float:
        return TOP + height * (high - value) / (high - low)

    parts = [
        f'<svg class="chart" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
        f'aria-label="{escape(title)}">',
        f"<title>{escape(title)}</title>",
        f'<line x1="{LEFT}" y1="{y(0):.1f}" x2="{WIDTH - RIGHT}" y2="{y(0):.1f}" class="axis"/>',
        f'<text x="{LEFT - 6}" y="{y(high) + 4:.1f}" class="tick" text-anchor="end">'
        f"{number(high)}</text>",
        f'<text x="{LEFT - 6}" y="{y(low) + 4:.1f}" class="tick" text-anchor="end">'
        f"{number(low)}</text>",
        f'<text x="{LEFT + width / 2:.1f}" y="{HEIGHT - 8}" class="tick" text-anchor="middle">'
        f"{escape(pgettext('chart axis', 'Hand'))}</text>",
    ]
    for hand in range(1, hands + 1):
        parts.append(
            f'<text x="{x(hand):.1f}" y="{HEIGHT - BOTTOM + 16}" class="tick" '
            f'text-anchor="middle">{number(hand)}</text>'
        )
    for seat, name in enumerate(players):
        colour = COLOURS[seat % len(COLOURS)]
        dash = DASHES[seat % len(DASHES)]
        points = [(x(0), y(0))] + [(x(h + 1), y(row[seat])) for h, row in enumerate(totals)]
        drawn = " ".join(f"{px:.1f},{py:.1f}" for px, py in points)
        style = f' stroke-dasharray="{dash}"' if dash else ""
        parts.append(
            f'<polyline points="{drawn}" fill="none" stroke="{colour}" stroke-width="2.5"'
            f"{style}><title>{escape(name_text(name))}</title></polyline>"
        )
        for h, row in enumerate(met):
            if row[seat]:
                px, py = points[h + 1]
                parts.append(f'<circle cx="{px:.1f}" cy="{py:.1f}" r="3.5" fill="{colour}"/>')
    parts.append("</svg>")
    return "".join(parts)


def legend(players: Sequence[str]) -> str:
    """The players' names beside their line's colour and dash, as HTML."""
    items = []
    for seat, name in enumerate(players):
        colour = COLOURS[seat % len(COLOURS)]
        dash = DASHES[seat % len(DASHES)]
        style = f' stroke-dasharray="{dash}"' if dash else ""
        items.append(
            f'<li><svg width="28" height="10" aria-hidden="true"><line x1="0" y1="5" x2="28" '
            f'y2="5" stroke="{colour}" stroke-width="3"{style}/></svg> '
            f"{escape(name_text(name))}</li>"
        )
    return '<ul class="legend">' + "".join(items) + "</ul>"
