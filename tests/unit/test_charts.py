"""The results chart: bars, labels and colours of the figure, and a decodable PNG."""

from __future__ import annotations

import io
import sys
import threading

import pytest
from matplotlib.colors import to_hex
from matplotlib.figure import Figure
from PIL import Image

from app.core.closing.results import tally_multiple_choice
from app.services.charts import build_figure, chart_series, render_png, results_chart_png

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
OPTIONS = ["Beach house", "Mountain cabin", "City hotel", "Stay in the office"]
COUNTS = [12, 9, 6, 3]


def raw(options: list[str], counts: list[int]) -> dict:
    return tally_multiple_choice(options, dict(zip(options, counts, strict=True)))[0]


def bar_widths(fig: Figure) -> list[float]:
    return [patch.get_width() for patch in fig.axes[0].patches]


def tick_texts(fig: Figure) -> list[str]:
    return [label.get_text() for label in fig.axes[0].get_yticklabels()]


def bar_colours(fig: Figure) -> list[str]:
    return [to_hex(patch.get_facecolor()) for patch in fig.axes[0].patches]


def decode(png: bytes) -> Image.Image:
    assert png.startswith(PNG_SIGNATURE)
    image = Image.open(io.BytesIO(png))
    image.load()
    return image


def test_chart_series_keeps_the_proposal_order() -> None:
    assert chart_series(raw(OPTIONS, COUNTS)) == (OPTIONS, COUNTS, [40.0, 30.0, 20.0, 10.0])


def test_bars_are_the_counts_in_option_order_top_to_bottom() -> None:
    fig = build_figure("Offsite", raw(OPTIONS, [3, 12, 6, 9]))

    assert bar_widths(fig) == [3, 12, 6, 9]
    assert tick_texts(fig) == OPTIONS
    ax = fig.axes[0]
    # First option on top: the y axis is inverted and ticks are 0..n-1.
    assert list(ax.get_yticks()) == [0, 1, 2, 3]
    bottom, top = ax.get_ylim()
    assert bottom > top
    values = [t.get_text() for t in ax.texts]
    assert values == ["3 (10.0%)", "12 (40.0%)", "6 (20.0%)", "9 (30.0%)"]


def test_winners_have_their_own_colour() -> None:
    fig = build_figure("Offsite", raw(OPTIONS, COUNTS))
    colours = bar_colours(fig)
    assert colours[0] not in colours[1:]
    assert len(set(colours[1:])) == 1
    assert fig.axes[0].get_yticklabels()[0].get_fontweight() == "bold"

    tie = bar_colours(build_figure("Tie", raw(OPTIONS, [5, 5, 1, 0])))
    assert tie[0] == tie[1] != tie[2] == tie[3]


def test_zero_votes_still_draws_every_bar() -> None:
    data = raw(["Pizza", "Sushi", "Salad"], [0, 0, 0])
    fig = build_figure("Lunch?", data)

    assert bar_widths(fig) == [0, 0, 0]
    assert tick_texts(fig) == ["Pizza", "Sushi", "Salad"]
    assert len(set(bar_colours(fig))) == 1  # no winners
    assert "No votes yet" in [t.get_text() for t in fig.texts]
    assert fig.axes[0].get_xlim()[1] > 0
    assert decode(render_png(fig)).format == "PNG"


def test_ten_options_with_long_labels_are_wrapped_and_truncated() -> None:
    options = [f"Option {i}: " + "a rather long and descriptive choice " * 4 for i in range(10)]
    counts = [i * 7 % 11 for i in range(10)]
    fig = build_figure("Which of these ten long options? " * 5, raw(options, counts))

    assert bar_widths(fig) == counts
    labels = tick_texts(fig)
    assert len(labels) == 10
    for i, label in enumerate(labels):
        lines = label.split("\n")
        assert len(lines) <= 2
        assert all(len(line) <= 24 for line in lines)
        assert label.startswith(f"Option {i}:")
        assert label.endswith("…")
    title = next(t.get_text() for t in fig.texts if "Which" in t.get_text())
    assert len(title.split("\n")) == 3
    assert title.endswith("…")
    width, height = fig.get_size_inches()
    assert width == 8
    assert height == pytest.approx(1.2 + 0.6 * 10 + 0.5)  # two more title lines


def test_size_follows_the_number_of_options() -> None:
    for n in (1, 4, 10):
        options = [f"Choice {i}" for i in range(n)]
        fig = build_figure("Short", raw(options, [1] * n))
        assert tuple(fig.get_size_inches()) == pytest.approx((8, 1.2 + 0.6 * n))
        assert fig.dpi == 100


def test_user_text_is_shown_verbatim_without_mathtext_or_missing_glyphs() -> None:
    # Two "$" would be mathtext, an emoji is missing from DejaVu Sans: both would warn or fail.
    options = ["$5 fee", "$10 fee 🍕", "🍕🍕"]
    fig = build_figure("Pay $5 or $10? 🎉", raw(options, [1, 2, 0]))
    png = render_png(fig)

    assert decode(png).format == "PNG"
    assert tick_texts(fig) == [r"\$5 fee", r"\$10 fee", "Option 3"]


def test_png_decodes_with_the_figure_size() -> None:
    png = results_chart_png("Where should we hold the offsite?", raw(OPTIONS, COUNTS))

    image = decode(png)
    assert image.format == "PNG"
    assert image.size == (800, 360)
    assert len(png) > 0


def test_build_figure_does_not_use_pyplot() -> None:
    results_chart_png("Offsite", raw(OPTIONS, COUNTS))
    pyplot = sys.modules.get("matplotlib.pyplot")
    if pyplot is not None:  # imported elsewhere in the test session: no figures left open
        assert pyplot.get_fignums() == []


def test_charts_can_be_drawn_from_threads() -> None:
    results: list[bytes] = []
    errors: list[BaseException] = []

    def work(i: int) -> None:
        try:
            results.append(results_chart_png(f"Thread {i}", raw(OPTIONS, [i, 1, 2, 3])))
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert all(decode(png).format == "PNG" for png in results)


def test_no_options_is_an_error() -> None:
    with pytest.raises(ValueError):
        build_figure("Empty", {"type": "multiple_choice", "total_votes": 0, "options": []})
