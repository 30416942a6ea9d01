"""The pictures: real PNGs of the promised size, not blank, whatever the names hold."""

from __future__ import annotations

import io
import random

from PIL import Image

from bot.engine import Game, Phase, Settings
from bot.engine.records import record_from_game, replay
from bot.service.summaries import ScoreChart, score_chart
from cogs.render.charts import CHART_SIZE, RATING_CHART_SIZE, rating_chart_png, score_chart_png


def played(preset: str, seed: int, players: int = 4) -> Game:
    names = [f"P{i}" for i in range(players)]
    game = Game.new(Settings(preset=preset), players, seed, names=names)
    rng = random.Random(seed)
    while game.phase is not Phase.GAME_OVER:
        seat = game.to_act[0]
        game.apply(seat, rng.choice(game.legal_actions(seat)))
    return game


def opened(png: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(png))
    assert image.format == "PNG"
    return image


def colours(image: Image.Image) -> int:
    found = image.convert("RGB").getcolors(maxcolors=1 << 20)
    assert found is not None
    return len(found)


def test_the_score_chart_holds_the_running_totals_the_replay_gives() -> None:
    game = played("first-to-101", seed=3)
    chart = score_chart(game, 42)
    summary = replay(record_from_game(game))
    hands = [h for h in summary["hands"] if h["complete"]]
    assert chart.hands == tuple(h["hand"] for h in hands)
    for seat in range(4):
        assert chart.totals[seat] == tuple(h["totals"][seat] for h in hands)
        assert chart.made[seat] == tuple(h["bids"][seat] == h["tricks_won"][seat] for h in hands)
        assert chart.totals[seat][-1] == game.totals[seat]
    assert chart.target == 101 and chart.game == 42
    assert score_chart(played("classic", seed=3), 1).target is None


def test_the_score_chart_is_a_png_of_its_size_and_not_blank() -> None:
    chart = score_chart(played("classic", seed=5), 7)
    image = opened(score_chart_png(chart))
    assert image.size == CHART_SIZE
    assert colours(image) > 20


def test_names_that_would_be_markup_or_lack_a_glyph_are_drawn_as_they_are() -> None:
    names = ("$5 Sam$", "🦊 Fox", "a" * 40)
    chart = ScoreChart(
        game=1,
        names=names,
        hands=(1,),
        totals=((10,), (0,), (-3,)),
        made=((True,), (False,), (False,)),
        target=None,
    )
    assert opened(score_chart_png(chart)).size == CHART_SIZE


def test_the_rating_chart_is_a_png_of_its_size_and_not_blank() -> None:
    points: list[tuple[int | str, float]] = [(n, 1000 + 15 * n) for n in range(1, 40)]
    image = opened(rating_chart_png(points))
    assert image.size == RATING_CHART_SIZE and colours(image) > 5
    dated = opened(rating_chart_png([("3 Nov", 1000.0), ("9 Nov", 1012.5)]))
    assert dated.size == RATING_CHART_SIZE


def test_the_provisional_ratings_of_the_chart_are_drawn_apart() -> None:
    points: list[tuple[int | str, float]] = [(n, 1000 + 15 * n) for n in range(1, 20)]
    flags = [n < 8 for n in range(1, 20)]
    plain = rating_chart_png(points)
    marked = rating_chart_png(points, flags)
    assert opened(marked).size == RATING_CHART_SIZE and colours(opened(marked)) > 5
    assert marked != plain  # dashed and hollow where the rating was provisional
    assert rating_chart_png(points, [False] * len(points)) == plain
