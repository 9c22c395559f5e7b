"""Hand-made SVG charts for the stats dashboard: lines, bars, a practice calendar.

Contract: each function returns a :class:`Chart`, drawn as an HTML ``<figure>`` (an inline
SVG that scales to its container, a caption, and the same numbers as a table for screen
readers, in ``<details>``) or placed in a larger SVG picture. Colours come from
CSS classes (``series-0`` ... and ``level-0`` ... ``level-4``) that the dashboard's
stylesheet sets for light and dark themes; every series also has its own dash pattern
and marker shape and is named at the end of its line, so nothing is told by colour
alone. All text is escaped; nothing refers to anything outside the document.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from html import escape
from typing import Final

#: The drawing area of the line and bar charts, in SVG units.
WIDTH: Final = 640
HEIGHT: Final = 220
LEFT: Final = 46
RIGHT: Final = 120
TOP: Final = 12
BOTTOM: Final = 34
#: Dash patterns and markers, one per series (cycled).
DASHES: Final = ("", "6 3", "2 3", "10 3 2 3", "1 2", "8 2 2 2 2 2", "4 4")
MARKERS: Final = ("circle", "square", "diamond", "triangle", "circle", "square", "diamond")


@dataclass(frozen=True, slots=True)
class Series:
    """One line: its name and a value per x position (``None``: no data there)."""

    name: str
    values: tuple[float | None, ...]


def _marker(kind: str, x: float, y: float, cls: str) -> str:
    if kind == "square":
        return f'<rect class="{cls}" x="{x - 3:.1f}" y="{y - 3:.1f}" width="6" height="6"/>'
    if kind == "diamond":
        return (f'<path class="{cls}" d="M{x:.1f} {y - 4:.1f} L{x + 4:.1f} {y:.1f} '
                f'L{x:.1f} {y + 4:.1f} L{x - 4:.1f} {y:.1f} Z"/>')
    if kind == "triangle":
        return (f'<path class="{cls}" d="M{x:.1f} {y - 4:.1f} L{x + 4:.1f} {y + 3:.1f} '
                f'L{x - 4:.1f} {y + 3:.1f} Z"/>')
    return f'<circle class="{cls}" cx="{x:.1f}" cy="{y:.1f}" r="3"/>'


def nice_top(value: float) -> float:
    """A round number at or above ``value`` for the top of an axis (1, 2, 5 x 10^k)."""
    if value <= 0:
        return 1.0
    power = 10 ** math.floor(math.log10(value))
    for step in (1, 2, 5, 10):
        if step * power >= value:
            return float(step * power)
    return float(10 * power)


def count_top(value: float) -> float:
    """The top of a count axis at or above ``value``: a multiple of 4, so the four grid
    steps are whole numbers (4, 8, 12, 16, 20, 40, 60, 80, 100, 200, ...)."""
    scale = 1
    while True:
        for top in (4, 8, 12, 16, 20, 40, 60, 80, 100):
            if top * scale >= value:
                return float(top * scale)
        scale *= 10


class Frame:
    """The coordinates of a chart: ``count`` x positions and a y axis from 0 to ``top``."""

    def __init__(self, count: int, top: float) -> None:
        """Lay out ``count`` positions across the drawing area."""
        self.count = max(count, 1)
        self.top = top if top > 0 else 1.0

    def x(self, index: int) -> float:
        """The x of position ``index`` (centred when there is one position)."""
        inner = WIDTH - LEFT - RIGHT
        if self.count == 1:
            return LEFT + inner / 2
        return LEFT + inner * index / (self.count - 1)

    def y(self, value: float) -> float:
        """The y of ``value``."""
        inner = HEIGHT - TOP - BOTTOM
        return TOP + inner * (1 - min(max(value / self.top, 0.0), 1.0))


def _axes(frame: Frame, labels: Sequence[str], fmt: Callable[[float], str]) -> list[str]:
    parts = []
    for step in range(5):
        value = frame.top * step / 4
        y = frame.y(value)
        parts.append(f'<line class="grid" x1="{LEFT}" x2="{WIDTH - RIGHT}" '
                     f'y1="{y:.1f}" y2="{y:.1f}"/>')
        parts.append(f'<text class="tick" x="{LEFT - 6}" y="{y + 4:.1f}" '
                     f'text-anchor="end">{escape(fmt(value))}</text>')
    every = max(1, math.ceil(len(labels) / 8))
    for index, label in enumerate(labels):
        if index % every == 0 or index == len(labels) - 1:
            parts.append(f'<text class="tick" x="{frame.x(index):.1f}" '
                         f'y="{HEIGHT - BOTTOM + 18}" text-anchor="middle">'
                         f'{escape(label)}</text>')
    return parts


def _line(frame: Frame, series: Series, number: int) -> tuple[list[str], float | None]:
    """A series' path and markers, and the y where its name goes (``None``: no data)."""
    cls = f"series-{number % len(DASHES)}"
    points = [(frame.x(i), frame.y(v)) for i, v in enumerate(series.values) if v is not None]
    if not points:
        return [], None
    dash = DASHES[number % len(DASHES)]
    dash_attr = f' stroke-dasharray="{dash}"' if dash else ""
    # A week without answers breaks the line: nothing is drawn across it.
    steps, after_gap = [], True
    for i, value in enumerate(series.values):
        if value is None:
            after_gap = True
            continue
        steps.append(f"{'M' if after_gap else 'L'}{frame.x(i):.1f} {frame.y(value):.1f}")
        after_gap = False
    path = " ".join(steps)
    parts = [f'<path class="line {cls}" d="{path}" fill="none"{dash_attr}/>']
    parts += [_marker(MARKERS[number % len(MARKERS)], x, y, f"dot {cls}") for x, y in points]
    return parts, points[-1][1]


def spread(wanted: Sequence[float], gap: float, low: float, high: float) -> list[float]:
    """Positions as near ``wanted`` as can be with at least ``gap`` between any two, kept
    within ``low``-``high`` (where the end labels of lines go, so none overlaps)."""
    order = sorted(range(len(wanted)), key=lambda i: wanted[i])
    placed = [0.0] * len(wanted)
    last = low - gap
    for i in order:
        last = max(wanted[i], last + gap)
        placed[i] = last
    overflow = last - high
    if overflow > 0:
        for i in order:
            placed[i] = max(low, placed[i] - overflow)
        for a, b in itertools.pairwise(order):
            placed[b] = max(placed[b], placed[a] + gap)
    return placed


def _end_labels(names: Sequence[tuple[int, str, float]]) -> list[str]:
    """Each line's name at its right end, moved apart so none overlaps another."""
    ys = spread([y for _, _, y in names], 12.0, TOP, HEIGHT - BOTTOM)
    x = WIDTH - RIGHT + 6
    parts = []
    for (n, name, _), y in zip(names, ys, strict=True):
        if n >= 0:
            cls = f"dot series-{n % len(DASHES)}"
            parts.append(_marker(MARKERS[n % len(MARKERS)], x + 3, y, cls))
        parts.append(f'<text class="end-label" x="{x + 10}" y="{y + 4:.1f}">'
                     f"{escape(name)}</text>")
    return parts


@dataclass(frozen=True, slots=True)
class Chart:
    """A drawn chart: its SVG content in a ``width`` x ``height`` box, its title and
    caption, and its numbers as an HTML table."""

    width: float
    height: float
    body: tuple[str, ...]
    title: str
    caption: str
    table: str
    css_class: str = "chart"
    data_words: str = "The numbers"
    #: The lines' names with their number (for their dash and marker), shown under the
    #: chart too: on a narrow screen the names at the lines' ends may be scrolled away.
    legend: tuple[tuple[int, str], ...] = ()

    def svg(self, x: float | None = None, y: float | None = None,
            width: float | None = None) -> str:
        """The chart as one ``<svg>`` element; placed at ``x``, ``y`` and ``width`` wide
        when it goes inside a larger SVG picture."""
        place = ""
        if x is not None and y is not None and width is not None:
            height = width * self.height / self.width
            place = f' x="{x:.1f}" y="{y:.1f}" width="{width:.1f}" height="{height:.1f}"'
        return (f'<svg class="{self.css_class}"{place} viewBox="0 0 {self.width:g} '
                f'{self.height:g}" role="img" aria-label="{escape(self.title)}" '
                f'preserveAspectRatio="xMidYMid meet">' + "".join(self.body) + "</svg>")

    def figure(self) -> str:
        """The chart as an HTML ``<figure>`` with its caption and its numbers."""
        return (f'<figure class="chart-figure"><figcaption><strong>{escape(self.title)}'
                f"</strong> {escape(self.caption)}</figcaption>{self.svg()}{self._legend()}"
                f'<details class="chart-data"><summary>{escape(self.data_words)}</summary>'
                f"{self.table}</details></figure>")

    def _legend(self) -> str:
        if len(self.legend) < 2:
            return ""
        items = []
        for number, name in self.legend:
            cls = f"series-{number % len(DASHES)}"
            dash = DASHES[number % len(DASHES)]
            dash_attr = f' stroke-dasharray="{dash}"' if dash else ""
            sample = (f'<svg class="key" viewBox="0 0 28 10" width="28" height="10" '
                      f'aria-hidden="true"><path class="line {cls}" d="M1 5 L27 5"'
                      f'{dash_attr}/>{_marker(MARKERS[number % len(MARKERS)], 14, 5, cls)}'
                      "</svg>")
            items.append(f"<li>{sample} {escape(name)}</li>")
        return f'<ul class="legend">{"".join(items)}</ul>'



def data_table(columns: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """A plain HTML table of a chart's numbers."""
    head = "".join(f'<th scope="col">{escape(c)}</th>' for c in columns)
    body = "".join(
        "<tr>" + "".join(f"<td>{escape(cell)}</td>" for cell in row) + "</tr>" for row in rows
    )
    return f'<table class="numbers"><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>'


def line_chart(
    title: str, caption: str, labels: Sequence[str], series: Sequence[Series], *,
    fmt: Callable[[float], str], top: float | None = None, target: float | None = None,
) -> Chart:
    """Lines over ``labels`` (one value per label per series), an optional target line."""
    highest = max((v for s in series for v in s.values if v is not None), default=0.0)
    frame = Frame(len(labels), top if top is not None else nice_top(highest * 1.1))
    body = _axes(frame, labels, fmt)
    if target is not None:
        y = frame.y(target)
        body.append(f'<line class="target" x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{y:.1f}" '
                    f'y2="{y:.1f}" stroke-dasharray="2 4"/>')
    ends: list[tuple[int, str, float]] = []
    if target is not None:
        ends.append((-1, f"target {fmt(target)}", frame.y(target)))
    for number, one in enumerate(series):
        drawn, end = _line(frame, one, number)
        body += drawn
        if end is not None:
            ends.append((number, one.name, end))
    body += _end_labels(ends)
    if not any(v is not None for s in series for v in s.values):
        body.append(f'<text class="empty" x="{WIDTH / 2}" y="{HEIGHT / 2}" '
                    'text-anchor="middle">No answers yet</text>')
    rows = [[label, *("" if s.values[i] is None else fmt(s.values[i] or 0.0) for s in series)]
            for i, label in enumerate(labels)]
    return Chart(WIDTH, HEIGHT, tuple(body), title, caption,
                 data_table(["", *(s.name for s in series)], rows),
                 legend=tuple((n, s.name) for n, s in enumerate(series)))


def bar_chart(title: str, caption: str, labels: Sequence[str], values: Sequence[int]) -> Chart:
    """One bar per label, its value written above it."""
    frame = Frame(len(labels), count_top(max(values, default=0) * 1.05))
    inner = (WIDTH - LEFT - RIGHT) / max(len(labels), 1)
    body = _axes(frame, [], lambda v: f"{v:g}")
    for index, (label, value) in enumerate(zip(labels, values, strict=True)):
        x = LEFT + inner * index + inner * 0.15
        y = frame.y(value)
        body.append(f'<rect class="bar" x="{x:.1f}" y="{y:.1f}" width="{inner * 0.7:.1f}" '
                    f'height="{frame.y(0) - y:.1f}"/>')
        centre = x + inner * 0.35
        body.append(f'<text class="bar-value" x="{centre:.1f}" y="{y - 4:.1f}" '
                    f'text-anchor="middle">{value}</text>')
        body.append(f'<text class="tick" x="{centre:.1f}" y="{HEIGHT - BOTTOM + 18}" '
                    f'text-anchor="middle">{escape(label)}</text>')
    rows = [[label, str(value)] for label, value in zip(labels, values, strict=True)]
    return Chart(WIDTH, HEIGHT, tuple(body), title, caption, data_table(["", "count"], rows))


def level(count: int, most: int) -> int:
    """The shade (0-4) of a calendar day with ``count`` answers, ``most`` the busiest."""
    if count <= 0 or most <= 0:
        return 0
    return min(4, 1 + (3 * count) // most) if most > 1 else 4


def calendar(title: str, caption: str, days: Sequence[tuple[str, int, int]]) -> Chart:
    """A practice calendar: one square per day (weeks as columns, Monday on top), shaded
    by the answers given; ``days`` are ``(ISO date, answers, right)`` from a Monday on."""
    size, gap, left, top = 14, 3, 34, 18
    weeks = math.ceil(len(days) / 7)
    width, height = left + weeks * (size + gap), top + 7 * (size + gap)
    most = max((answers for _, answers, _ in days), default=0)
    body = [f'<text class="tick" x="0" y="{top + 11 + r * (size + gap)}">{name}</text>'
            for r, name in ((0, "Mon"), (2, "Wed"), (4, "Fri"))]
    for index, (day, answers, right) in enumerate(days):
        col, row = divmod(index, 7)
        if row == 0 and day.endswith(("-01", "-02", "-03", "-04", "-05", "-06", "-07")):
            body.append(f'<text class="tick" x="{left + col * (size + gap)}" y="12">'
                        f'{escape(day[:7])}</text>')
        words = f"{day}: {answers} answer{'s' if answers != 1 else ''}, {right} right"
        body.append(f'<rect class="day level-{level(answers, most)}" '
                    f'x="{left + col * (size + gap)}" y="{top + row * (size + gap)}" '
                    f'width="{size}" height="{size}" rx="2"><title>{escape(words)}</title></rect>')
    practised = [(d, a, r) for d, a, r in days if a]
    table = data_table(["day", "answers", "right"],
                       [[d, str(a), str(r)] for d, a, r in practised])
    return Chart(width, height, tuple(body), title, caption, table, "calendar",
                 f"The {len(practised)} days practised")
