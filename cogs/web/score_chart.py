"""The charts drawn as inline SVG: a game's score chart (each player's total after each hand, a
dot where the bid was met) and a player's rating chart (their rating after each rated game,
provisional ones dashed and hollow). No image: the page carries the drawing."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from html import escape

from cogs.render.common import name_text
from cogs.render.language import _, number, pgettext

WIDTH = 800
HEIGHT = 360
LEFT, RIGHT, TOP, BOTTOM = 84, 16, 16, 40
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

    def y(value: float) -> float:
        return TOP + height * (high - value) / (high - low)

    parts = _frame(title, y, high, low, pgettext("chart axis", "Hand"))
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


def _frame(
    title: str, y: Callable[[float], float], high: float, low: float, axis: str
) -> list[str]:
    """A chart's start: its title, the zero line (when shown), the highest and lowest values,
    and the bottom axis's name (if any)."""
    width = WIDTH - LEFT - RIGHT
    parts = [
        f'<svg class="chart" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
        f'aria-label="{escape(title)}">',
        f"<title>{escape(title)}</title>",
    ]
    if low <= 0 <= high:
        parts.append(
            f'<line x1="{LEFT}" y1="{y(0):.1f}" x2="{WIDTH - RIGHT}" y2="{y(0):.1f}" class="axis"/>'
        )
    parts += [
        f'<text x="{LEFT - 6}" y="{y(high) + 4:.1f}" class="tick" text-anchor="end">'
        f"{number(high)}</text>",
        f'<text x="{LEFT - 6}" y="{y(low) + 4:.1f}" class="tick" text-anchor="end">'
        f"{number(low)}</text>",
    ]
    if axis:
        parts.append(
            f'<text x="{LEFT + width / 2:.1f}" y="{HEIGHT - 8}" class="tick" '
            f'text-anchor="middle">{escape(axis)}</text>'
        )
    return parts


MAX_POINTS = 300
"""A rating chart draws at most this many games (evenly picked, the last always): the page
stays small however many games a player has played."""
RATING_COLOUR = "#1b6ac9"


def rating_svg(points: Sequence[tuple[int, float]], provisional: Sequence[bool] = ()) -> str:
    """A player's rating after each rated game, oldest first: (game number, rating) points;
    those `provisional` flags are hollow and joined by a dashed line, as in the Discord
    chart (cogs/render/charts.py), and its title says so."""
    guess = [i < len(provisional) and provisional[i] for i in range(len(points))]
    if len(points) > MAX_POINTS:
        step = len(points) / MAX_POINTS
        keep = sorted({int(i * step) for i in range(MAX_POINTS)} | {len(points) - 1})
        points = [points[i] for i in keep]
        guess = [guess[i] for i in keep]
    title = rating_title(guess)
    values = [rating for _game, rating in points] or [0.0]
    low, high = min(values), max(values)
    if high - low < 10:
        low, high = low - 5, high + 5
    width = WIDTH - LEFT - RIGHT
    height = HEIGHT - TOP - BOTTOM

    def x(index: int) -> float:
        return LEFT + width * (index + 0.5) / max(len(points), 1)

    def y(value: float) -> float:
        return TOP + height * (high - value) / (high - low)

    parts = _frame(title, y, high, low, "")
    # Up to six games named under the line (room for them on a phone), the first and the last.
    for index in sorted({round(k * (len(points) - 1) / 5) for k in range(6)} if points else ()):
        parts.append(
            f'<text x="{x(index):.1f}" y="{HEIGHT - BOTTOM + 16}" class="tick" '
            f'text-anchor="middle">#{points[index][0]}</text>'
        )
    # One line per run of points alike (the provisional first games, then the rest), each
    # from the point before it, so the line is unbroken.
    start = 0
    for end in range(1, len(points) + 1):
        if end == len(points) or guess[end] != guess[start]:
            first = max(start - 1, 0)
            drawn = " ".join(f"{x(i):.1f},{y(points[i][1]):.1f}" for i in range(first, end))
            dash = ' stroke-dasharray="6 4"' if guess[start] else ""
            parts.append(
                f'<polyline points="{drawn}" fill="none" stroke="{RATING_COLOUR}" '
                f'stroke-width="2.5"{dash}/>'
            )
            start = end
    if len(points) <= 30:
        for index, (_game, rating) in enumerate(points):
            fill = "#fff" if guess[index] else RATING_COLOUR
            parts.append(
                f'<circle cx="{x(index):.1f}" cy="{y(rating):.1f}" r="4" fill="{fill}" '
                f'stroke="{RATING_COLOUR}" stroke-width="2"/>'
            )
    parts.append("</svg>")
    return "".join(parts)


def rating_title(provisional: Sequence[bool]) -> str:
    """The rating chart's title: it says how provisional ratings are drawn when it has some."""
    # Translators: the rating chart's title when it shows provisional ratings (drawn dashed
    # and hollow).
    return _("Rating (dashed, hollow: provisional ?)") if any(provisional) else _("Rating")
