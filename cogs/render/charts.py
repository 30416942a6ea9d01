"""Pictures: the score chart at the end of a game, and a player's rating over time. PNG bytes
drawn with matplotlib's Agg canvas (no pyplot, no global state). Each function is picklable
and imports matplotlib itself, so it runs in a worker process and only the workers pay for
matplotlib. A worker does not share its caller's `speaking`: the caller passes the catalog name
of the language to draw in (`spoken().code`)."""

from __future__ import annotations

import io
import warnings
from collections.abc import Sequence
from typing import TYPE_CHECKING

from bot.service.summaries import ScoreChart
from cogs.render.common import name_text
from cogs.render.language import Language, _, language, number, pgettext, speaking, spoken

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


def _language(code: str | None) -> Language:
    """The language to draw in: `code`'s catalog, or the one being spoken."""
    return spoken() if code is None else language(code)


def score_chart_png(chart: ScoreChart, code: str | None = None) -> bytes:
    """Each player's running total hand by hand; a filled dot where the bid was met, the target
    as a dashed line when the game ends on one. In the language of catalog `code` (by default
    the one being spoken)."""
    with speaking(_language(code)):
        return _score_chart(chart)


def _score_chart(chart: ScoreChart) -> bytes:
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
        final = f" ({number(totals[-1])})" if totals else ""
        # Earlier seats drawn wider: a line under an equal one still shows at its edges.
        width = 3.2 - 1.8 * seat / max(1, players - 1)
        axes.plot(
            hands, totals, color=colour, linewidth=width, label=_label(name_text(name)) + final
        )
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
            # Translators: the score that ends the game, beside its line on the score chart.
            _("target {target}").format(target=number(chart.target)),
            xy=(0.0, chart.target),
            xycoords=("axes fraction", "data"),
            xytext=(4, 3),
            textcoords="offset points",
            color=TARGET_COLOUR,
            fontsize=8,
        )
    # Translators: the score chart's title; a dot marks a hand where the player's bid was met.
    title = _("Game #{game} — score after each hand (dot: bid met)").format(game=chart.game)
    axes.set_title(title, fontsize=11)
    axes.set_xlabel(pgettext("chart axis", "Hand"))
    axes.set_ylabel(pgettext("chart axis", "Score"))
    axes.xaxis.set_major_locator(MaxNLocator(nbins=10, integer=True))
    axes.grid(True, alpha=0.3)
    axes.legend(loc="center left", bbox_to_anchor=(1.01, 0.5), fontsize=8, frameon=False)
    figure.subplots_adjust(left=0.08, right=0.74, top=0.91, bottom=0.12)
    return _png(figure)


def rating_chart_png(
    points: Sequence[tuple[int | str, float]],
    provisional: Sequence[bool] = (),
    code: str | None = None,
) -> bytes:
    """A player's rating over time: (game number or date, rating) points, oldest first. The
    points `provisional` flags (the first ratings, shown with `?`) are hollow, joined by a
    dashed line. In the language of catalog `code` (by default the one being spoken)."""
    with speaking(_language(code)):
        return _rating_chart(points, provisional)


def _rating_chart(points: Sequence[tuple[int | str, float]], provisional: Sequence[bool]) -> bytes:
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
            [f"#{x}" if isinstance(x, int) else _label(str(x)) for x, _y in points[::step]],
            fontsize=8,
        )
    # Translators: the rating chart's title when it shows provisional ratings (drawn dashed
    # and hollow).
    title = _("Rating (dashed, hollow: provisional ?)") if any(guess) else _("Rating")
    axes.set_title(title, fontsize=10)
    axes.grid(True, alpha=0.3)
    figure.subplots_adjust(left=0.1, right=0.97, top=0.88, bottom=0.15)
    return _png(figure)
