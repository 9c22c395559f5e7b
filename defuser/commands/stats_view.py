"""The at-a-glance parts of ``mittens stats``: table heatmaps, speed trends, retention
and the due forecast, as rich renderables.

Contract: pure rendering of a :class:`~defuser.trainer.report.StatsReport`'s numbers;
the same renderables go to the terminal and into the shareable picture (SVG or HTML)
that :func:`picture` writes from a recording console. Without colour every cell still
reads as text (accuracy and median time), so a pipe or ``NO_COLOR`` loses nothing.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Sequence
from typing import Final

from rich.columns import Columns
from rich.console import Console, Group, RenderableType
from rich.table import Table
from rich.text import Text

from defuser.streams import printable
from defuser.trainer.report import Cell, Heatmap, Retention, SpeedTrend, sparkline

#: Accuracy thresholds and their cell colours (background), best first.
HEAT: Final[tuple[tuple[float, str], ...]] = (
    (0.9, "black on green3"),
    (0.75, "black on yellow3"),
    (0.5, "black on dark_orange"),
    (0.0, "white on red3"),
)
NEVER: Final = "·"
DAY_NAMES: Final = ("today", "tomorrow")
#: Width of the recorded picture, in columns.
PICTURE_WIDTH: Final = 110


def heat_style(accuracy: float | None) -> str:
    """The style of a cell with this accuracy (``""`` for a cell never asked)."""
    if accuracy is None:
        return ""
    return next(style for bound, style in HEAT if accuracy >= bound)


def cell_text(cell: Cell, colour: bool) -> Text:
    """Two lines: accuracy and median time; the time marked ``!`` when slower than the
    cell's current target."""
    if cell.accuracy is None or cell.median_seconds is None:
        return Text(f"{NEVER}\n ", justify="center")
    slow = cell.target is not None and cell.median_seconds > cell.target
    time_words = f"{cell.median_seconds:.1f}s{'!' if slow else ''}"
    text = Text(f"{cell.accuracy:.0%}\n{time_words}", justify="center")
    if colour:
        text.stylize(heat_style(cell.accuracy))
        if slow:
            text.stylize("bold", len(f"{cell.accuracy:.0%}\n"))
    return text


def heatmap_table(heatmap: Heatmap, colour: bool) -> Table:
    """One table as a grid: rows and columns labelled as in the manual."""
    table = Table(
        title=f"Table {heatmap.table}",
        title_justify="left",
        box=None,
        pad_edge=False,
        padding=(0, 1, 0, 0),
        show_header=True,
    )
    table.add_column("", no_wrap=True)
    for column in heatmap.columns:
        table.add_column(column, justify="center", no_wrap=True, min_width=5)
    for label, cells in zip(heatmap.rows, heatmap.cells, strict=True):
        table.add_row(Text(label), *(cell_text(c, colour) for c in cells))
    return table


def heatmaps_view(heatmaps: Sequence[Heatmap], colour: bool) -> RenderableType:
    """Tables A-D side by side (as the width allows), then Table E."""
    small = [heatmap_table(h, colour) for h in heatmaps if h.table != "E"]
    large = [heatmap_table(h, colour) for h in heatmaps if h.table == "E"]
    legend = Text(
        "Each cell: share right, then median answer time ('!' when slower than the "
        f"cell's target); {NEVER} = never asked."
    )
    if colour:
        legend.append("  ")
        for bound, style in HEAT:
            legend.append(f" {bound:.0%}+ ", style=style)
    return Group(Columns(small, padding=(1, 3)), *large, legend)


def trend_table(trends: Sequence[SpeedTrend]) -> Table:
    """Median answer time per kind, week by week: a sparkline (taller is slower) and the
    first and last weekly medians."""
    table = Table(box=None, pad_edge=False, padding=(0, 2, 0, 0))
    for name, justify in (("kind", "left"), ("weeks", "left"), ("first", "right"),
                          ("latest", "right")):
        table.add_column(name, justify=justify, no_wrap=True)  # type: ignore[arg-type]
    for trend in trends:
        known = [m for m in trend.medians if m is not None]
        low, high = min(known), max(known)
        table.add_row(
            printable(trend.kind),
            sparkline(list(trend.medians), low, high if high > low else low + 1),
            f"{known[0]:.1f} s",
            f"{known[-1]:.1f} s",
        )
    return table


def _skills(count: int) -> str:
    return f"{count} skill{'s' if count != 1 else ''}"


def retention_words(retention: Retention) -> str:
    """Predicted and measured recall in one line."""
    desired = f"desired {retention.desired:.0%}"
    if not retention.skills:
        return f"Retention: nothing seen yet ({desired})."
    learning = retention.learning
    if retention.predicted is None:
        text = (
            f"Retention: the {_skills(learning)} seen {'is' if learning == 1 else 'are'} "
            f"still in {'its' if learning == 1 else 'their'} learning steps ({desired}); "
            "recall is predicted once a skill has passed them"
        )
    else:
        text = (
            f"Retention: predicted recall now {retention.predicted:.0%} averaged over "
            f"{_skills(retention.skills - learning)} past learning ({desired})"
        )
        if learning:
            text += f", {learning} still learning"
    if retention.measured is not None:
        text += (
            f"; measured {retention.measured:.0%} right on {retention.reviews} "
            f"review{'s' if retention.reviews != 1 else ''} a day or more after the last"
        )
    return text + "."


def forecast_table(forecast: Sequence[int], colour: bool, weekday: Callable[[int], str]) -> Table:
    """Skills due per day as bars; ``weekday`` names the day ``n`` days from today."""
    table = Table(box=None, pad_edge=False, padding=(0, 2, 0, 0), show_header=False)
    table.add_column("day", no_wrap=True)
    table.add_column("due", justify="right", no_wrap=True)
    table.add_column("bar", no_wrap=True)
    most = max(forecast, default=0) or 1
    for offset, count in enumerate(forecast):
        name = DAY_NAMES[offset] if offset < len(DAY_NAMES) else weekday(offset)
        bar = Text("█" * round(20 * count / most), style="magenta" if colour else "")
        table.add_row(name, str(count), bar)
    return table


def picture(render: Callable[[Console], None], suffix: str, title: str) -> str:
    """The report as an SVG or HTML document: ``render`` draws it on a recording
    console in colour, ``suffix`` (``.svg`` or ``.html``) picks the format."""
    console = Console(
        record=True,
        file=io.StringIO(),
        width=PICTURE_WIDTH,
        force_terminal=True,
        color_system="truecolor",
        markup=False,
        emoji=False,
        highlight=False,
    )
    render(console)
    if suffix == ".svg":
        return console.export_svg(title=title)
    return console.export_html(inline_styles=True)
