"""The results bar chart of a closed multiple-choice proposal, as a PNG for ``sendPhoto``.

Only the object-oriented API (``Figure`` + ``FigureCanvasAgg``) is used, never
pyplot: no global figure registry, so charts can be drawn from worker threads
(``asyncio.to_thread``) without leaking figures. The layout is computed from
measured text sizes instead of ``bbox_inches="tight"`` or a layout engine, which
would lay the figure out twice; the chart is sized (8 in wide at 100 dpi) to be
read on a phone. User text is shown verbatim: no mathtext, and characters the
bundled DejaVu Sans lacks (e.g. emoji) are dropped instead of drawn as boxes.
"""

from __future__ import annotations

import io
import textwrap
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from matplotlib import font_manager
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.font_manager import FontProperties
from matplotlib.ft2font import FT2Font

WIDTH_IN = 8.0
DPI = 100
ROW_IN = 0.6
TITLE_WIDTH = 40
TITLE_LINES = 3
LABEL_WIDTH = 24
LABEL_LINES = 2
WINNER_COLOR = "#1565C0"
OTHER_COLOR = "#B0BEC5"
TEXT_COLOR = "#263238"
TITLE_SIZE = 15
LABEL_SIZE = 13
VALUE_SIZE = 12
CAPTION_SIZE = 11
_VALUE_PAD_PT = 4.0


def _english_option(n: int) -> str:
    return f"Option {n}"


def _english_value(votes: int, percent: float) -> str:
    return f"{votes} ({percent:.1f}%)"


@dataclass(frozen=True)
class ChartText:
    """The chart's own words, already in the reader's language (English by default):
    the caption under the bars (None: the vote total) and the name of an option whose
    label has nothing drawable, and the number beside a bar (votes and percent)."""

    caption: str | None = None
    option: Callable[[int], str] = _english_option
    value: Callable[[int, float], str] = _english_value


@cache
def _supported_codepoints() -> frozenset[int]:
    """Code points of the default font (DejaVu Sans, bundled with matplotlib)."""
    path = font_manager.findfont(FontProperties())
    return frozenset(FT2Font(path).get_charmap())


def _drawable(text: str) -> str:
    supported = _supported_codepoints()
    return "".join(ch for ch in str(text) if ord(ch) in supported or ch.isspace())


def _wrap(text: str, width: int, max_lines: int) -> str:
    """Wrapped, truncated text without glyphs the font lacks; ``$`` escaped (no mathtext)."""
    kept = _drawable(text)
    lines = textwrap.wrap(kept, width, max_lines=max_lines, placeholder=" …")
    return "\n".join(lines).replace("$", r"\$")


def chart_series(raw_results: Mapping[str, Any]) -> tuple[list[str], list[int], list[float]]:
    """Labels, vote counts and percents of the options, in the proposal's order."""
    rows = raw_results.get("options") or []
    labels = [str(row["option"]) for row in rows]
    votes = [int(row["votes"]) for row in rows]
    percents = [float(row["percent"]) for row in rows]
    return labels, votes, percents


def build_figure(
    title: str, raw_results: Mapping[str, Any], words: ChartText | None = None
) -> Figure:
    """A horizontal bar chart: one bar per option, top to bottom, winners highlighted."""
    words = words or ChartText()
    labels, votes, percents = chart_series(raw_results)
    if not labels:
        raise ValueError("raw_results has no options to chart")
    winners = {str(w) for w in raw_results.get("winners") or []}
    total = int(raw_results.get("total_votes", sum(votes)))
    n = len(labels)
    title_text = _wrap(title, TITLE_WIDTH, TITLE_LINES)
    title_lines = title_text.count("\n") + 1 if title_text else 0
    tick_labels = [
        _wrap(label, LABEL_WIDTH, LABEL_LINES)
        or _wrap(words.option(i + 1), LABEL_WIDTH, LABEL_LINES)
        for i, label in enumerate(labels)
    ]
    values = [words.value(v, p) for v, p in zip(votes, percents, strict=True)]

    height_in = 1.2 + ROW_IN * n + 0.25 * max(title_lines - 1, 0)
    fig = Figure(figsize=(WIDTH_IN, height_in), dpi=DPI, facecolor="white")
    renderer = FigureCanvasAgg(fig).get_renderer()  # the one draw() reuses
    ax = fig.add_subplot()
    positions = list(range(n))
    colors = [WINNER_COLOR if label in winners else OTHER_COLOR for label in labels]
    bars = ax.barh(positions, votes, height=0.65, color=colors)
    value_texts = ax.bar_label(
        bars, labels=values, padding=_VALUE_PAD_PT, fontsize=VALUE_SIZE, color=TEXT_COLOR
    )
    ax.set_yticks(positions, labels=tick_labels, fontsize=LABEL_SIZE, color=TEXT_COLOR)
    tick_texts = ax.get_yticklabels()
    for tick_text, label in zip(tick_texts, labels, strict=True):
        if label in winners:
            tick_text.set_fontweight("bold")
    ax.set_ylim(n - 0.5, -0.5)  # first option on top
    ax.xaxis.set_visible(False)
    ax.tick_params(axis="y", length=0, pad=6)
    for side in ("top", "right", "bottom"):
        ax.spines[side].set_visible(False)

    # Place the axes from the measured text (cached, so drawing does not measure again)
    # instead of laying the figure out twice with bbox_inches="tight".
    label_px = max(t.get_window_extent(renderer).width for t in tick_texts)
    left_in = min(label_px / DPI + 0.3, WIDTH_IN / 2)
    top_in = height_in - 0.5 - ROW_IN * n
    ax.set_position(
        (
            left_in / WIDTH_IN,
            0.5 / height_in,
            1 - (left_in + 0.25) / WIDTH_IN,
            ROW_IN * n / height_in,
        )
    )
    # Room right of every bar for its value label: votes * px_per_vote + pad + label <= axes.
    axes_px = (WIDTH_IN - left_in - 0.25) * DPI
    pad_px = _VALUE_PAD_PT * DPI / 72 + 4
    x_max = 1.0
    for v, text in zip(votes, value_texts, strict=True):
        free = axes_px - pad_px - text.get_window_extent(renderer).width
        x_max = max(x_max, v * axes_px / free if free > 0 else 2.0 * v)
    ax.set_xlim(0, x_max)

    if title_text:
        fig.text(
            0.5,
            1 - (top_in - 0.25 * title_lines) / 2 / height_in,
            title_text,
            ha="center",
            va="top",
            fontsize=TITLE_SIZE,
            fontweight="bold",
            color=TEXT_COLOR,
            linespacing=1.25,
        )
    caption = words.caption
    if caption is None:
        caption = f"Total votes: {total}" if total else "No votes yet"
    caption = _drawable(caption).replace("$", r"\$")
    fig.text(0.5, 0.15 / height_in, caption, ha="center", va="bottom", fontsize=CAPTION_SIZE)
    return fig


def render_png(figure: Figure) -> bytes:
    """Encode a figure as PNG bytes (Agg, no tight bounding box: one draw only)."""
    canvas = figure.canvas
    if not isinstance(canvas, FigureCanvasAgg):
        canvas = FigureCanvasAgg(figure)
    buffer = io.BytesIO()
    canvas.print_png(buffer, metadata={"Software": None}, pil_kwargs={"compress_level": 1})
    return buffer.getvalue()


def results_chart_png(
    title: str, raw_results: Mapping[str, Any], words: ChartText | None = None
) -> bytes:
    """The results chart of a proposal as PNG bytes, ready for ``sendPhoto``."""
    return render_png(build_figure(title, raw_results, words))
