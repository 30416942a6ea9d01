"""Pictures: the score chart at the end of a game, and a player's rating over time. PNG bytes
drawn with matplotlib's Agg canvas (no pyplot, no global state). Each function is picklable
and imports matplotlib itself, so it runs in a worker process and only the workers pay for
matplotlib."""

from __future__ import annotations

import io
import warnings
from collections.abc import Sequence
from typing import TYPE_CHECKING

from bot.service.summaries import ScoreChart

if TYPE_CHECKING:
    from matplotlib.figure import Figure

CHART_SIZE = (800, 450)
"""The score chart's size in pixels (width, height)."""
RATING_CHART_SIZE = (600, 250)
DPI = 100
NAME_LENGTH = 18
BACKGROUND = "#ffffff"
TARGET_COLOUR = "#555555"
RATING_COLOUR = "#5865f2"


def _label(text: str) -> str:
    """A name as matplotlib shows it literally: `$` would start mathtext."""
    short = text if len(text) <= NAME_LENGTH else text[: NAME_LENGTH - 1] + "…"
    return short.replace("$", r"\$")


def _figure(size: tuple[int, int]) -> Figure:
    from matplotlib.figure import Figure

    return Figure(figsize=(size[0] / DPI, size[1] / DPI), dpi=DPI, facecolor=BACKGROUND)


def _png(figure: Figure) -> bytes:
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    canvas = FigureCanvasAgg(figure)
    out = io.BytesIO()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # a glyph a font lacks (an emoji in a name) is no error
        # Fast compression: a chart is drawn once and sent once; bytes matter less than time.
        canvas.print_png(out, pil_kwargs={"compress_level": 1})
    return out.getvalue()


def score_chart_png(chart: ScoreChart) -> bytes:
    """Each player's running total hand by hand; a filled dot where the bid was met, the target
    as a dashed line when the game ends on one."""
    from matplotlib import colormaps
    from matplotlib.ticker import MaxNLocator

    figure = _figure(CHART_SIZE)
    axes = figure.add_subplot()
    palette = colormaps["tab10"]
    hands = list(chart.hands)
    players = len(chart.names)
    for seat, name in enumerate(chart.names):
        colour = palette(seat % 10)
        totals = list(chart.totals[seat])
        final = f" ({totals[-1]})" if totals else ""
        # Earlier seats drawn wider: a line under an equal one still shows at its edges.
        width = 3.2 - 1.8 * seat / max(1, players - 1)
        axes.plot(hands, totals, color=colour, linewidth=width, label=_label(name) + final)
        met = [(h, t) for h, t, ok in zip(hands, totals, chart.made[seat], strict=True) if ok]
        if met:
            xs, ys = zip(*met, strict=True)
            axes.plot(
                xs,
                ys,
                linestyle="none",
                marker="o",
                markersize=5.5,
                color=colour,
                markeredgecolor="white",
                markeredgewidth=0.6,
                zorder=3,
            )
    if chart.target is not None:
        axes.axhline(chart.target, color=TARGET_COLOUR, linestyle="--", linewidth=1.2)
        axes.annotate(
            f"target {chart.target}",
            xy=(0.0, chart.target),
            xycoords=("axes fraction", "data"),
            xytext=(4, 3),
            textcoords="offset points",
            color=TARGET_COLOUR,
            fontsize=8,
        )
    axes.set_title(f"Game #{chart.game} — score after each hand (dot: bid met)", fontsize=11)
    axes.set_xlabel("Hand")
    axes.set_ylabel("Score")
    axes.xaxis.set_major_locator(MaxNLocator(nbins=10, integer=True))
    axes.grid(True, alpha=0.3)
    axes.legend(loc="center left", bbox_to_anchor=(1.01, 0.5), fontsize=8, frameon=False)
    figure.subplots_adjust(left=0.08, right=0.74, top=0.91, bottom=0.12)
    return _png(figure)


def rating_chart_png(
    points: Sequence[tuple[int | str, float]], provisional: Sequence[bool] = ()
) -> bytes:
    """A player's rating over time: (game number or date, rating) points, oldest first. The
    points `provisional` flags (the first ratings, shown with `?`) are hollow, joined by a
    dashed line."""
    figure = _figure(RATING_CHART_SIZE)
    axes = figure.add_subplot()
    xs = list(range(len(points)))
    ys = [rating for _, rating in points]
    guess = [i < len(provisional) and provisional[i] for i in xs]
    marker = "o" if len(points) <= 30 else None
    # One line per run of points alike (in practice two: the provisional first games, then
    # the rest), each from the point before it, so the line is unbroken.
    start = 0
    for end in range(1, len(points) + 1):
        if end == len(points) or guess[end] != guess[start]:
            first = max(start - 1, 0)
            style = "--" if guess[start] else "-"
            axes.plot(xs[first:end], ys[first:end], color=RATING_COLOUR, linewidth=2, ls=style)
            start = end
    for settled in (False, True):
        shown = [i for i in xs if guess[i] != settled]
        axes.plot(
            [xs[i] for i in shown],
            [ys[i] for i in shown],
            linestyle="none",
            marker=marker,
            color=RATING_COLOUR,
            markerfacecolor=RATING_COLOUR if settled else BACKGROUND,
        )
    if points:
        step = max(1, len(points) // 8)
        axes.set_xticks(xs[::step])
        axes.set_xticklabels(
            [f"#{x}" if isinstance(x, int) else _label(str(x)) for x, _ in points[::step]],
            fontsize=8,
        )
    title = "Rating (dashed, hollow: provisional ?)" if any(guess) else "Rating"
    axes.set_title(title, fontsize=10)
    axes.grid(True, alpha=0.3)
    figure.subplots_adjust(left=0.1, right=0.97, top=0.88, bottom=0.15)
    return _png(figure)
