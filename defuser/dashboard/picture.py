"""The stats dashboard as one SVG picture (``mittens stats --picture FILE.svg``).

Contract: :func:`svg_document` lays out the same parts as the HTML dashboard
(:mod:`defuser.dashboard.stats`), from the same typed data
(:class:`~defuser.trainer.progress.DashboardData`) and with the same numbers: the
headline numbers, the charts, the practice calendar, Tables A-E as heatmaps and the
skills to work on, in one standalone SVG 1280 units wide, with the dashboard's
stylesheet inside (light and dark) and nothing else: no script, no font or image from
the network, no file path. Text is escaped and wrapped to fit.
"""

from __future__ import annotations

import datetime as dt
import textwrap
from html import escape
from typing import Final

from defuser.dashboard.charts import Chart
from defuser.dashboard.stats import (
    HEAT_LEGEND,
    HEAT_WORDS,
    calendar_chart,
    facts,
    heat_band,
    heat_title,
    memory_charts,
    retention_words,
    stylesheet,
    trend_charts,
)
from defuser.trainer.progress import DashboardData
from defuser.trainer.report import Heatmap, StatsReport

WIDTH: Final = 1280
MARGIN: Final = 24
#: Characters per line of wrapped text at the picture's text size.
LINE_CHARS: Final = 150


class Canvas:
    """SVG parts stacked from the top, with the height used so far."""

    def __init__(self) -> None:
        """An empty canvas."""
        self.parts: list[str] = []
        self.y = 0.0

    def text(self, words: str, *, size: int = 14, cls: str = "", gap: float = 6) -> None:
        """Lines of text (wrapped) at the left margin."""
        for line in textwrap.wrap(words, LINE_CHARS * 14 // size) or [""]:
            self.y += size + 4
            self.parts.append(f'<text class="{cls}" x="{MARGIN}" y="{self.y:.1f}" '
                              f'font-size="{size}">{escape(line)}</text>')
        self.y += gap

    def charts(self, *charts: Chart) -> None:
        """Charts side by side, each with its title above it."""
        width = (WIDTH - 2 * MARGIN - 16 * (len(charts) - 1)) / len(charts)
        top = self.y
        bottom = top
        for n, chart in enumerate(charts):
            x = MARGIN + n * (width + 16)
            self.parts.append(f'<text x="{x:.1f}" y="{top + 16:.1f}" font-size="14" '
                              f'font-weight="700">{escape(chart.title)}</text>')
            self.parts.append(chart.svg(x, top + 24, width))
            bottom = max(bottom, top + 24 + width * chart.height / chart.width)
        self.y = bottom + 12


def _facts(canvas: Canvas, report: StatsReport) -> None:
    box_w, box_h, per_row = (WIDTH - 2 * MARGIN - 3 * 12) / 4, 58, 4
    for n, (name, value) in enumerate(facts(report)):
        row, col = divmod(n, per_row)
        x, y = MARGIN + col * (box_w + 12), canvas.y + row * (box_h + 10)
        canvas.parts.append(
            f'<rect class="box" x="{x:.1f}" y="{y:.1f}" width="{box_w:.1f}" height="{box_h}" '
            f'rx="6"/><text class="tick" x="{x + 10:.1f}" y="{y + 20:.1f}" font-size="13">'
            f'{escape(name)}</text><text x="{x + 10:.1f}" y="{y + 46:.1f}" font-size="22" '
            f'font-weight="700">{escape(value)}</text>')
    rows = -(-len(facts(report)) // per_row)
    canvas.y += rows * (box_h + 10) + 8


def _heatmap(grid: Heatmap, x: float, y: float, cell_w: float) -> tuple[list[str], float]:
    """One table as a grid of shaded cells that say ``right/answers``; its height."""
    cell_h, head_w = 30.0, 100.0
    parts = [f'<text x="{x:.1f}" y="{y + 14:.1f}" font-size="13" font-weight="700">'
             f"{escape(heat_title(grid.table))}</text>"]
    top = y + 22
    for c, name in enumerate(grid.columns):
        parts.append(f'<text class="tick" x="{x + head_w + (c + 0.5) * cell_w:.1f}" '
                     f'y="{top + 14:.1f}" text-anchor="middle" font-size="11">'
                     f"{escape(name)}</text>")
    for r, (name, cells) in enumerate(zip(grid.rows, grid.cells, strict=True)):
        cy = top + 20 + r * cell_h
        parts.append(f'<text class="tick" x="{x:.1f}" y="{cy + 19:.1f}" font-size="11">'
                     f"{escape(name)}</text>")
        for c, cell in enumerate(cells):
            band = heat_band(cell)
            shade = "heat-none-box" if band is None else f"heat-{band}-box"
            words = "–" if band is None else f"{cell.right}/{cell.answers}"
            cx = x + head_w + c * cell_w
            parts.append(f'<rect class="{shade}" x="{cx:.1f}" y="{cy:.1f}" '
                         f'width="{cell_w - 2:.1f}" height="{cell_h - 2:.1f}"/>'
                         f'<text x="{cx + cell_w / 2 - 1:.1f}" y="{cy + 19:.1f}" '
                         f'text-anchor="middle" font-size="11">{words}</text>')
    return parts, 22 + 20 + len(grid.rows) * cell_h


def _heatmaps(canvas: Canvas, report: StatsReport) -> None:
    grids = list(report.heatmaps)
    canvas.text(HEAT_WORDS, size=13, gap=0)
    canvas.text(HEAT_LEGEND, size=12, cls="tick")
    for row in (r for r in (grids[:3], grids[3:]) if r):
        width = (WIDTH - 2 * MARGIN) / max(len(row), 1)
        tallest = 0.0
        for n, grid in enumerate(row):
            cell_w = min(64.0, (width - 110) / len(grid.columns))
            parts, height = _heatmap(grid, MARGIN + n * width, canvas.y, cell_w)
            canvas.parts += parts
            tallest = max(tallest, height)
        canvas.y += tallest + 16


def svg_document(data: DashboardData, today: dt.date, made: str) -> str:
    """The whole dashboard as one SVG document (``made``: when, in words)."""
    report, progress = data.report, data.progress
    canvas = Canvas()
    canvas.text("Exploding Mittens drill stats", size=26, gap=2)
    canvas.text(f"Made {made} by mittens stats.", size=13, cls="tick")
    if not report.total.answers:
        canvas.text("No answers yet: drill first, and this picture fills in.", size=16)
    else:
        _facts(canvas, report)
        canvas.charts(*trend_charts(progress))
        canvas.charts(*memory_charts(report, progress, today))
        canvas.text(retention_words(report), size=13)
        calendar = calendar_chart(progress)
        canvas.parts.append(f'<text x="{MARGIN}" y="{canvas.y + 16:.1f}" font-size="14" '
                            f'font-weight="700">{escape(calendar.title)}</text>')
        shown = calendar.width * 1.4
        canvas.parts.append(calendar.svg(MARGIN, canvas.y + 24, shown))
        canvas.y += 24 + shown * calendar.height / calendar.width + 16
        _heatmaps(canvas, report)
        canvas.text("To work on", size=16, gap=0)
        for n, weak in enumerate(report.weakest, start=1):
            canvas.text(f"{n}. {weak.label}: {weak.record}", size=13, gap=0)
    height = canvas.y + MARGIN
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {height:.0f}" '
        f'width="{WIDTH}" height="{height:.0f}" role="img" '
        'aria-label="Exploding Mittens drill stats">'
        f"<style>{stylesheet()}</style>"
        f'<g class="dashboard"><rect class="page" width="{WIDTH}" height="{height:.0f}"/>'
        + "".join(canvas.parts) + "</g></svg>\n"
    )

