"""The human view of ``mittens stats`` as rich renderables: the report (:func:`render`:
tallies per kind, rule and session, the week chart, the weakest skills) and its
at-a-glance parts (table heatmaps, speed trends, retention, the due forecast).
``stats --json`` never imports this module, so it never loads rich.

Contract: pure rendering of a :class:`~defuser.trainer.report.StatsReport`'s numbers;
without colour every cell still reads as text (accuracy and median time), so a pipe or
``NO_COLOR`` loses nothing. The shareable picture is the dashboard of
:mod:`defuser.dashboard`, not a recording of this view.
"""

from __future__ import annotations

import datetime as dt
import functools
from collections.abc import Callable, Sequence
from typing import Final

from rich.columns import Columns
from rich.console import Console, Group, RenderableType
from rich.table import Table
from rich.text import Text

from defuser.streams import printable
from defuser.terminal.wrap import wrap_text
from defuser.trainer.export import iso_time
from defuser.trainer.report import (
    Cell,
    Heatmap,
    Retention,
    SpeedTrend,
    StatsReport,
    Tally,
    sparkline,
)
from defuser.trainer.skills import TABLE_E_NAME

#: Width of the longest bar of the answers-per-week chart.
BAR_WIDTH = 30

#: Accuracy thresholds and their cell colours (background), best first.
HEAT: Final[tuple[tuple[float, str], ...]] = (
    (0.9, "black on green3"),
    (0.75, "black on yellow3"),
    (0.5, "black on dark_orange"),
    (0.0, "white on red3"),
)
NEVER: Final = "·"
DAY_NAMES: Final = ("today", "tomorrow")


def heat_style(accuracy: float | None) -> str:
    """The style of a cell with this accuracy (``""`` for a cell never asked)."""
    if accuracy is None:
        return ""
    return next(style for bound, style in HEAT if accuracy >= bound)


def cell_text(cell: Cell, colour: bool) -> Text:
    """Two lines: the share right of the answers that used the cell, and the median
    time of its own questions (``-`` when it was only used by other questions), marked
    ``!`` when slower than the cell's current target."""
    if cell.accuracy is None:
        return Text(f"{NEVER}\n ", justify="center")
    slow = (cell.target is not None and cell.median_seconds is not None
            and cell.median_seconds > cell.target)
    time_words = "-" if cell.median_seconds is None else (
        f"{cell.median_seconds:.1f}s{'!' if slow else ''}")
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
    small = [heatmap_table(h, colour) for h in heatmaps if h.table != TABLE_E_NAME]
    large = [heatmap_table(h, colour) for h in heatmaps if h.table == TABLE_E_NAME]
    legend = Text(
        "Each cell: the share right of every answer that used it (its own questions, "
        "rule, legal and decide questions through their discard pile, legal and decide "
        "ones under rules I-L through the mitten card too), then the "
        "median time of its own questions ('!' when slower than its target, - when it "
        f"had none); {NEVER} = never used."
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
            trend.kind.value,
            sparkline(list(trend.medians), low, high if high > low else low + 1),
            f"{known[0]:.1f} s",
            f"{known[-1]:.1f} s",
        )
    return table


def _skills(count: int) -> str:
    return f"{count} skill{'s' if count != 1 else ''}"


def retention_words(retention: Retention) -> str:
    """Predicted and measured recall in words."""
    desired = f"desired {retention.desired:.0%}"
    if retention.predicted is None and not retention.reviewed_today:
        return f"Retention: nothing reviewed yet ({desired})."
    if retention.predicted is None:
        text = (
            f"Retention: {_skills(retention.reviewed_today)} reviewed today, none before "
            f"({desired}); recall is predicted from tomorrow"
        )
    else:
        text = (
            f"Retention: predicted recall now {retention.predicted:.0%} over the "
            f"{_skills(retention.skills)} last reviewed before today ({desired})"
        )
        if retention.reviewed_today:
            text += f"; {retention.reviewed_today} reviewed today"
    if retention.in_a_week is not None:
        text += f"; in a week without practice {retention.in_a_week:.0%}"
    if retention.measured is not None:
        text += (
            f"; measured {retention.measured:.0%} right on {retention.reviews} "
            f"answer{'s' if retention.reviews != 1 else ''} a day or more after the last"
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


def _pct(value: float | None) -> str:
    return "-" if value is None else f"{value:.0%}"


def _secs(value: float | None) -> str:
    return "-" if value is None else f"{value:.1f} s"


def tally_table(
    first: str,
    rows: list[Tally],
    extra: dict[str, str] | None = None,
    *,
    losses: bool = True,
) -> Table:
    """Answers, accuracy, median and 90th-percentile time per row (and the mean
    expected-click loss of decisions, with ``losses``)."""
    table = Table(box=None, pad_edge=False, padding=(0, 2, 0, 0))
    table.add_column(first)
    for column in ("answers", "accuracy", "median", "90th pct"):
        table.add_column(column, justify="right", no_wrap=True)
    if extra is not None:
        table.add_column("best streak", justify="right", no_wrap=True)
    for row in rows:
        cells = [
            printable(row.label),  # labels come from the database: no escape codes
            str(row.answers),
            _pct(row.accuracy),
            _secs(row.median_seconds),
            _secs(row.p90_seconds),
        ]
        if losses and row.mean_loss is not None:
            cells[0] += f" (mean loss {row.mean_loss:.2f})"
        if extra is not None:
            cells.append(extra.get(row.label, "-"))
        table.add_row(*cells)
    return table


def week_chart(report: StatsReport, colour: bool) -> Table:
    """One line per week: answers as a bar, accuracy and median time."""
    table = Table(box=None, pad_edge=False, padding=(0, 2, 0, 0))
    table.add_column("week", no_wrap=True)
    table.add_column("answers", justify="right", no_wrap=True)
    table.add_column("accuracy", justify="right", no_wrap=True)
    table.add_column("median", justify="right", no_wrap=True)
    table.add_column("", no_wrap=True)
    most = max((w.answers for w in report.weeks), default=1)
    for week in report.weeks:
        width = max(1, round(BAR_WIDTH * week.answers / most))
        bar = Text("█" * width, style="cyan" if colour else "")
        table.add_row(
            printable(week.label),
            str(week.answers),
            _pct(week.accuracy),
            _secs(week.median_seconds),
            bar,
        )
    return table


def prose(console: Console, text: str | Text) -> None:
    """A line of the report's text: on a terminal through the one wrapping routine
    (words whole, its indent kept), never wrapped when piped."""
    console.print(wrap_text(text, console.width) if console.is_terminal else text)


def render(report: StatsReport, console: Console, colour: bool, now: float) -> None:
    """The human report, on ``console`` (the terminal, or a recording for a picture)."""
    total = report.total
    if not total.answers:
        prose(console, f"No answers yet in {report.database}. Run `mittens drill` to start.")
        return
    assert report.first is not None and report.last is not None
    bold = "bold" if colour else ""
    say = functools.partial(prose, console)

    def head(title: str) -> None:
        say(Text(f"\n{title}", style=bold))

    say(
        f"Stats from {report.database}: {total.answers} answers in {report.sessions} "
        f"session{'s' if report.sessions != 1 else ''} over {report.days} "
        f"day{'s' if report.days != 1 else ''} ({iso_time(report.first)[:10]} to "
        f"{iso_time(report.last)[:10]})"
    )
    say(
        f"Overall: {_pct(total.accuracy)} right, median {_secs(total.median_seconds)}, "
        f"90th percentile {_secs(total.p90_seconds)}; best streak {report.streaks.best}, "
        f"current streak {report.streaks.current}"
    )
    if report.retention is not None:
        say(retention_words(report.retention))
    head("By drill kind")
    streaks = {k: str(v) for k, v in report.streaks.best_by_kind.items()}
    console.print(tally_table("kind", report.by_kind, streaks))
    if report.by_rule:
        head("By rule letter (questions with that rule in force)")
        console.print(tally_table("rule", report.by_rule, losses=False))
    head("Tables A-E, cell by cell")
    console.print(heatmaps_view(report.heatmaps, colour))
    head("Answer time per kind, week by week")
    console.print(trend_table(report.speed_trends))
    head("Progress per week")
    console.print(week_chart(report, colour))
    say(f"Accuracy per week: {sparkline([w.accuracy for w in report.weeks])}")
    head("Recent sessions")
    console.print(tally_table("session", report.recent_sessions))
    head("Weakest skills (missed or slow; 'mittens drill --practice' asks these most)")
    if report.weakest:
        for n, weak in enumerate(report.weakest, start=1):
            say(Text(printable(f"{n:2d}. {weak.label}: {weak.record}")))
    else:
        say("none yet")
    console.print(f"\nDue today: {_skills(report.due)} (missed last time, or their review "
                  "falls on this day)")
    if report.forecast:
        head("Due in the coming days (a day starts at the day-start hour)")
        console.print(forecast_table(report.forecast, colour, lambda n: _weekday(now, n)))


def _weekday(now: float, offset: int) -> str:
    return (dt.datetime.fromtimestamp(now) + dt.timedelta(days=offset)).strftime("%A")
