"""Progress over time from the answer log: the series the stats dashboard draws.

Contract: pure functions of stored answers (:class:`~defuser.trainer.store.AnswerRow`,
oldest first) and a local-time day boundary; nothing here reads the clock or the database.
:func:`practice_days` counts answers per local day (the calendar heatmap),
:func:`kind_weeks` gives each drill kind's accuracy and median answer time per ISO week,
and :func:`retention_weeks` the measured retention per week (the share right of answers
given a day or more after the same skill's previous answer), beside the desired retention
the scheduler aims at. :func:`progress` bundles them as one :class:`Progress`, and
:func:`dashboard_data` adds the stats report: a :class:`DashboardData`, everything the
dashboard draws, typed; its ``to_json`` is the dashboard's JSON twin (``/api/stats``).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from defuser.trainer.report import (
    StatsReport,
    build_report,
    iso_week,
    seconds_json,
    share_json,
    week_of,
)
from defuser.trainer.scheduler import DAY
from defuser.trainer.settings import Settings
from defuser.trainer.skills import KINDS, Kind
from defuser.trainer.store import AnswerRow

#: Days the calendar heatmap covers (26 full weeks, today's week last).
CALENDAR_DAYS: Final = 26 * 7


def local_day(at: float) -> dt.date:
    """The local calendar day of a timestamp."""
    return dt.datetime.fromtimestamp(at).date()


@dataclass(frozen=True, slots=True)
class DayCount:
    """Answers and right answers on one local day."""

    day: dt.date
    answers: int
    right: int

    def to_json(self) -> dict[str, Any]:
        """The day as a JSON object."""
        return {"day": self.day.isoformat(), "answers": self.answers, "right": self.right}


def practice_days(rows: Sequence[AnswerRow], today: dt.date,
                  days: int = CALENDAR_DAYS) -> list[DayCount]:
    """One entry per day of the ``days`` ending ``today`` (days without answers too),
    starting on a Monday so the calendar's columns are whole weeks."""
    first = today - dt.timedelta(days=days - 1)
    first -= dt.timedelta(days=first.weekday())
    counts: dict[dt.date, list[int]] = {}
    for row in rows:
        day = local_day(row.at)
        if first <= day <= today:
            entry = counts.setdefault(day, [0, 0])
            entry[0] += 1
            entry[1] += row.correct
    span = (today - first).days + 1
    return [
        DayCount(day, *counts.get(day, [0, 0]))
        for day in (first + dt.timedelta(days=n) for n in range(span))
    ]


def _median(values: list[float]) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    mid = len(ordered) // 2
    return ordered[mid] if len(ordered) % 2 else (ordered[mid - 1] + ordered[mid]) / 2


@dataclass(frozen=True, slots=True)
class KindSeries:
    """One drill kind's accuracy and median answer time per week (``None``: no answer)."""

    kind: Kind
    accuracy: tuple[float | None, ...]
    median_seconds: tuple[float | None, ...]
    answers: tuple[int, ...]

    def to_json(self) -> dict[str, Any]:
        """The series as a JSON object."""
        return {
            "kind": self.kind.value,
            "accuracy": [share_json(a) for a in self.accuracy],
            "median_seconds": [seconds_json(m) for m in self.median_seconds],
            "answers": list(self.answers),
        }


def weeks_of(rows: Sequence[AnswerRow]) -> list[str]:
    """Every ISO week from the first answer's to the last's, in order (empty weeks too)."""
    if not rows:
        return []
    day, last = local_day(rows[0].at), local_day(rows[-1].at)
    day -= dt.timedelta(days=day.weekday())
    weeks = []
    while day <= last:
        weeks.append(iso_week(day))
        day += dt.timedelta(days=7)
    return weeks


def kind_weeks(rows: Sequence[AnswerRow], weeks: Sequence[str],
               row_weeks: Sequence[str] | None = None) -> list[KindSeries]:
    """Each kind's weekly accuracy and median time over ``weeks`` (kinds never drilled
    are left out); ``row_weeks`` is each row's week, when already known."""
    index = {week: n for n, week in enumerate(weeks)}
    known = row_weeks if row_weeks is not None else [week_of(r.at) for r in rows]
    right: dict[str, list[int]] = {}
    times: dict[str, list[list[float]]] = {}
    for row, week in zip(rows, known, strict=True):
        n = index.get(week)
        if n is None:
            continue
        if row.kind not in times:
            right[row.kind] = [0] * len(weeks)
            times[row.kind] = [[] for _ in weeks]
        right[row.kind][n] += row.correct
        times[row.kind][n].append(row.seconds)
    return [
        KindSeries(
            kind,
            tuple(right[kind.value][n] / len(t) if t else None
                  for n, t in enumerate(times[kind.value])),
            tuple(_median(t) for t in times[kind.value]),
            tuple(len(t) for t in times[kind.value]),
        )
        for kind in KINDS if kind.value in times
    ]


@dataclass(frozen=True, slots=True)
class RetentionWeek:
    """Answers a day or more after the skill's previous one in a week, and how many were
    right."""

    week: str
    reviews: int
    recalled: int

    @property
    def measured(self) -> float | None:
        """The share right, or ``None`` without such answers."""
        return self.recalled / self.reviews if self.reviews else None

    def to_json(self) -> dict[str, Any]:
        """The week as a JSON object."""
        return {"week": self.week, "reviews": self.reviews, "recalled": self.recalled,
                "measured": share_json(self.measured)}


def retention_weeks(rows: Sequence[AnswerRow], weeks: Sequence[str],
                    row_weeks: Sequence[str] | None = None) -> list[RetentionWeek]:
    """The measured retention of each week in ``weeks`` (``row_weeks``: each row's week,
    when already known)."""
    known = row_weeks if row_weeks is not None else [week_of(r.at) for r in rows]
    counts = {week: [0, 0] for week in weeks}
    last: dict[str, float] = {}
    for row, week in zip(rows, known, strict=True):
        before = last.get(row.skill)
        if before is not None and row.at - before >= DAY:
            entry = counts.get(week)
            if entry is not None:
                entry[0] += 1
                entry[1] += row.correct
        last[row.skill] = row.at
    return [RetentionWeek(week, *counts[week]) for week in weeks]


@dataclass(frozen=True, slots=True)
class Progress:
    """Every series of the dashboard: the ISO ``weeks`` from the first answer's to the
    last's, the calendar's ``days``, each kind's weekly series and the weekly
    retention (one entry per week of ``weeks``)."""

    weeks: tuple[str, ...]
    days: tuple[DayCount, ...]
    kinds: tuple[KindSeries, ...]
    retention: tuple[RetentionWeek, ...]

    def to_json(self) -> dict[str, Any]:
        """The series as one JSON object."""
        return {
            "weeks": list(self.weeks),
            "days": [d.to_json() for d in self.days],
            "kinds": [k.to_json() for k in self.kinds],
            "retention": [r.to_json() for r in self.retention],
        }


def progress(rows: Sequence[AnswerRow], today: dt.date) -> Progress:
    """Every series of the dashboard."""
    weeks = weeks_of(rows)
    row_weeks = [week_of(r.at) for r in rows]
    return Progress(
        tuple(weeks),
        tuple(practice_days(rows, today)),
        tuple(kind_weeks(rows, weeks, row_weeks)),
        tuple(retention_weeks(rows, weeks, row_weeks)),
    )


@dataclass(frozen=True, slots=True)
class DashboardData:
    """What the dashboard draws: the stats ``report`` (with no database path: a
    dashboard is made to be shared) and the ``progress`` series."""

    report: StatsReport
    progress: Progress

    def to_json(self) -> dict[str, Any]:
        """``{"report": mittens stats --json's object without the database's path,
        "progress": the series}``."""
        report = self.report.to_json()
        report.pop("database", None)
        return {"report": report, "progress": self.progress.to_json()}


def dashboard_data(rows: Sequence[AnswerRow], now: float,
                   settings: Settings | None = None) -> DashboardData:
    """What the dashboard draws at ``now``, from the answers ``rows``."""
    report = build_report(rows, database="", now=now, settings=settings)
    return DashboardData(report, progress(rows, local_day(now)))
