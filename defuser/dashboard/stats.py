"""The stats dashboard as HTML: what ``mittens serve`` shows at ``/stats`` and what
``mittens stats --picture FILE.html`` writes.

Contract: :func:`sections` turns the dashboard's typed data
(:class:`~defuser.trainer.progress.DashboardData`: the stats report and the progress
series) into the dashboard's HTML, drawing every number as the data's JSON twin
(``/api/stats``) gives it (shares to 4 decimals, seconds to the thousandth:
:func:`~defuser.trainer.report.share_json`,
:func:`~defuser.trainer.report.seconds_json`): a summary, accuracy and speed per kind
per week, retention against its target, a practice calendar, the due forecast, Tables
A-E as heatmaps with what they count said in words, and the weakest skills in words.
:func:`standalone` wraps the same sections in one self-contained HTML document (its
stylesheet inline, no script, no network reference, no file path): a file to share as it
is. Everything shown is escaped.
"""

from __future__ import annotations

import datetime as dt
from html import escape
from importlib import resources
from typing import Final

from defuser.dashboard.charts import Chart, Series, bar_chart, calendar, line_chart
from defuser.trainer.progress import DashboardData, Progress
from defuser.trainer.report import Cell, Heatmap, StatsReport, seconds_json, share_json
from defuser.trainer.skills import Kind

#: Each drill kind in words.
KIND_WORDS: Final = {
    Kind.TABLE: "Which table",
    Kind.IDENTIFY: "Card types",
    Kind.RULE: "Rule letters",
    Kind.LEGAL: "Legal cards",
    Kind.DECIDE: "Decisions",
    Kind.CYCLE: "Mitten cycle",
    Kind.EDGE: "Edgework",
}
DAY_NAMES: Final = ("today", "tomorrow")


def kind_words(kind: Kind) -> str:
    """A drill kind in words."""
    return KIND_WORDS[kind]


def _pct(value: float | None) -> str:
    return "–" if value is None else f"{value:.0%}"


def _secs(value: float | None) -> str:
    return "–" if value is None else f"{value:.1f} s"


def _week_label(week: str) -> str:
    """``2025-W07`` as ``W07``."""
    return week.split("-")[-1]


def facts(report: StatsReport) -> list[tuple[str, str]]:
    """The headline numbers, each with its name."""
    total = report.total
    retention = report.retention
    measured = None if retention is None else share_json(retention.measured)
    return [
        ("Answers", f"{total.answers}"),
        ("Right", _pct(share_json(total.accuracy))),
        ("Median answer", _secs(seconds_json(total.median_seconds))),
        ("Sessions", f"{report.sessions}"),
        ("Days practised", f"{report.days}"),
        ("Best streak", f"{report.streaks.best} right in a row"),
        ("Due today", f"{report.forecast[0] if report.forecast else report.due}"),
        ("Recalled after a day or more",
         f"{_pct(measured)} of {0 if retention is None else retention.reviews}"),
    ]


def trend_charts(progress: Progress) -> tuple[Chart, Chart]:
    """Accuracy and median answer time of each kind, week by week."""
    labels = [_week_label(w) for w in progress.weeks]
    kinds = progress.kinds
    accuracy = [Series(kind_words(k.kind), tuple(share_json(a) for a in k.accuracy))
                for k in kinds]
    speed = [Series(kind_words(k.kind), tuple(seconds_json(m) for m in k.median_seconds))
             for k in kinds]
    return (
        line_chart("Accuracy per kind, by week", "Share of answers right.", labels,
                   accuracy, fmt=lambda v: f"{v:.0%}", top=1.0),
        line_chart("Answer time per kind, by week", "Median seconds to answer.", labels,
                   speed, fmt=lambda v: f"{v:.1f} s"),
    )


def retention_words(report: StatsReport) -> str:
    """What the memory model predicts now and in a week, in words."""
    retention = report.retention
    predicted = None if retention is None else share_json(retention.predicted)
    if retention is None or predicted is None:
        return ("No skill was reviewed before today yet, so there is no predicted recall "
                "(on the day of a review the model predicts full recall).")
    words = (f"The memory model predicts {_pct(predicted)} recall now over the "
             f"{retention.skills} skills reviewed before today")
    in_a_week = share_json(retention.in_a_week)
    if in_a_week is not None:
        words += f", and {_pct(in_a_week)} a week from now without practice"
    return words + "."


def memory_charts(report: StatsReport, progress: Progress,
                  today: dt.date) -> tuple[Chart, Chart]:
    """Measured retention per week against the scheduler's target, and the due forecast."""
    retention = report.retention
    weeks = progress.retention
    chart = line_chart(
        "Retention against the target",
        "Share right of answers given a day or more after the skill's previous one.",
        [_week_label(w.week) for w in weeks],
        [Series("measured", tuple(share_json(w.measured) for w in weeks))],
        fmt=lambda v: f"{v:.0%}", top=1.0,
        target=None if retention is None else retention.desired,
    )
    forecast = list(report.forecast)
    names = [DAY_NAMES[n] if n < len(DAY_NAMES)
             else (today + dt.timedelta(days=n)).strftime("%a") for n in range(len(forecast))]
    due = bar_chart("Reviews due", "Skills falling due each day (today counts the overdue).",
                    names, forecast)
    return chart, due


def calendar_chart(progress: Progress) -> Chart:
    """The practice calendar."""
    days = [(d.day.isoformat(), d.answers, d.right) for d in progress.days]
    return calendar("Practice calendar", "Answers per day over the last 26 weeks; darker is "
                    "more (each day's square names its count).", days)


#: What a heatmap cell counts, in words.
HEAT_WORDS: Final = (
    "Each cell counts every answer that used it: its own questions (card types for "
    "Tables A-D, rule letters for Table E) and every rule, legal-card and decision "
    "question whose serial number and discard pile read it (under rules I-L also the "
    "table's Exploding Mitten cell, which those rules compare with). A cell says how "
    "many of those were right, and the median time of its own questions.")


HEAT_LEGEND: Final = ("Shading: under 50% right, 50-80%, 80-95%, 95% or more; every cell "
                      "also says its count in words.")


def heat_band(cell: Cell) -> int | None:
    """A heatmap cell's shade (0-3 by accuracy), ``None`` when it was never asked."""
    if not cell.answers:
        return None
    accuracy = share_json(cell.accuracy) or 0.0
    return 0 if accuracy < 0.5 else 1 if accuracy < 0.8 else 2 if accuracy < 0.95 else 3


def heat_title(letter: str) -> str:
    """A heatmap's title."""
    if letter == "E":
        return "Table E: the rule letter by the discard's type and the serial's last digit"
    return f"Table {letter}: the card type of each face"


def _heat_cell(cell: Cell) -> str:
    band = heat_band(cell)
    if band is None:
        return '<td class="heat heat-none">not asked</td>'
    return (f'<td class="heat heat-{band}">{cell.right}/{cell.answers} right'
            f'<br><span class="muted">{_secs(seconds_json(cell.median_seconds))}</span></td>')


def heatmap(grid: Heatmap) -> str:
    """One table's heatmap: every cell's right answers, answers and median time."""
    head = "".join(f'<th scope="col">{escape(c)}</th>' for c in grid.columns)
    rows = "".join(
        f'<tr><th scope="row">{escape(name)}</th>' + "".join(_heat_cell(c) for c in cells)
        + "</tr>"
        for name, cells in zip(grid.rows, grid.cells, strict=True)
    )
    return (f'<table class="heatmap"><caption>{escape(heat_title(grid.table))}</caption>'
            f"<thead><tr><th></th>{head}</tr></thead><tbody>{rows}</tbody></table>")


def _section(name: str, title: str, body: str) -> str:
    return f'<section class="dash-{name}"><h2>{escape(title)}</h2>{body}</section>'


def _weakest_html(report: StatsReport) -> str:
    items = "".join(
        f"<li><strong>{escape(w.label)}</strong>: {escape(w.record)}</li>"
        for w in report.weakest
    )
    return f"<ol>{items}</ol>" if items else "<p>Nothing to work on yet: drill first.</p>"


def sections(data: DashboardData, today: dt.date) -> str:
    """The whole dashboard's HTML (no page around it)."""
    report, progress = data.report, data.progress
    if not report.total.answers:
        return _section("empty", "No answers yet", "<p>Answer a few drill questions (here "
                        "or with <code>mittens drill</code>) and this page fills in.</p>")
    items = "".join(f"<div><dt>{escape(k)}</dt><dd>{escape(v)}</dd></div>"
                    for k, v in facts(report))
    accuracy, speed = trend_charts(progress)
    retention, due = memory_charts(report, progress, today)
    tables = "".join(heatmap(g) for g in report.heatmaps)
    return "".join((
        _section("summary", "Summary", f'<dl class="facts">{items}</dl>'),
        _section("trends", "Over time",
                 f'<div class="pair">{accuracy.figure()}{speed.figure()}</div>'),
        _section("memory", "Memory", f'<div class="pair">{retention.figure()}{due.figure()}'
                 f"</div><p>{escape(retention_words(report))}</p>"),
        _section("practice", "Practice", calendar_chart(progress).figure()),
        _section("heatmaps", "Tables A-E", f"<p>{escape(HEAT_WORDS)}</p>"
                 f'<p class="muted">{escape(HEAT_LEGEND)}</p><div class="heatmaps">{tables}'
                 "</div>"),
        _section("weakest", "To work on", _weakest_html(report)),
    ))


def stylesheet() -> str:
    """The dashboard's stylesheet (light and dark)."""
    return resources.files("defuser.dashboard").joinpath("dashboard.css").read_text("utf-8")


def standalone(data: DashboardData, today: dt.date, made: str) -> str:
    """One self-contained HTML document of the dashboard (``made``: when, in words)."""
    return (
        '<!doctype html>\n<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        '<meta name="color-scheme" content="light dark">'
        "<title>Exploding Mittens drill stats</title>"
        f"<style>{stylesheet()}</style></head>"
        f'<body class="dashboard-page"><main><h1>Exploding Mittens drill stats</h1>'
        f'<p class="muted">Made {escape(made)} by mittens stats.</p>'
        f'<div class="dashboard">{sections(data, today)}</div>'
        "</main></body></html>\n"
    )
