"""Statistics over the answer log, for ``mittens stats`` and a drill's summary.

Everything is computed from stored answers: totals, accuracy and answer times (median
and 90th percentile) per drill kind and per rule letter, progress per ISO week (in
local time) and per session, best and current streaks of right answers, the weakest
skills as the scheduler ranks them (the same ranking that picks what to ask), a
heatmap per table (accuracy and median time of every cell of Tables A-D and Table E),
the median answer time per kind per week, the memory model's retention (predicted
recall now, and the share right of reviews a day or more after the previous answer)
and how many skills fall due on each of the next days.
"""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any, Final

from fsrs import Rating

from defuser.trainer.export import iso_time
from defuser.trainer.facts import stored_pile
from defuser.trainer.kinds import all_skills
from defuser.trainer.model import Verdict
from defuser.trainer.ratings import AnswerOutcome, stored_reading
from defuser.trainer.scheduler import DAY, Scheduler
from defuser.trainer.settings import Settings
from defuser.trainer.skills import (
    KINDS,
    TABLE_E_NAME,
    CellSkill,
    Kind,
    RuleSkill,
    Skill,
    SkillTable,
    parse_skill,
)
from defuser.trainer.store import AnswerRow
from edgework import (
    MITTEN_FACES,
    MITTEN_RULES,
    RULE_LETTERS,
    TABLE_E_ROWS,
    TABLE_LETTERS,
    Card,
    Colour,
    Shape,
    card_type,
    rule_letter,
)

SPARK_BARS: Final = "▁▂▃▄▅▆▇█"


def percentile(values: Sequence[float], q: float) -> float | None:
    """The ``q``-th percentile (0-100) with linear interpolation; ``None`` when empty."""
    if not values:
        return None
    ordered = sorted(values)
    position = (len(ordered) - 1) * q / 100
    low = math.floor(position)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


def sparkline(values: Sequence[float | None], low: float = 0.0, high: float = 1.0) -> str:
    """One block character per value scaled between ``low`` and ``high``; blank for None."""
    chars = []
    for value in values:
        if value is None:
            chars.append(" ")
            continue
        share = 0.0 if high <= low else (value - low) / (high - low)
        index = round(min(max(share, 0.0), 1.0) * (len(SPARK_BARS) - 1))
        chars.append(SPARK_BARS[index])
    return "".join(chars)


def share_json(share: float | None) -> float | None:
    """A share as the JSON gives it: to 4 decimals (``None`` stays ``None``). The
    dashboard draws the numbers so rounded, so a page and its JSON twin agree."""
    return None if share is None else round(share, 4)


def seconds_json(seconds: float | None) -> float | None:
    """Seconds (or clicks) as the JSON gives them: to the thousandth (``None`` stays
    ``None``), as the dashboard draws them."""
    return None if seconds is None else round(seconds, 3)


@dataclass(frozen=True, slots=True)
class Tally:
    """Answers, right answers and answer times of one group."""

    label: str
    answers: int
    right: int
    median_seconds: float | None
    p90_seconds: float | None
    mean_loss: float | None = None

    @property
    def accuracy(self) -> float | None:
        """Share of right answers, or ``None`` without answers."""
        return self.right / self.answers if self.answers else None

    def to_json(self) -> dict[str, Any]:
        """The tally as a JSON object (times rounded to milliseconds)."""
        obj = asdict(self)
        obj["accuracy"] = share_json(self.accuracy)
        for key in ("median_seconds", "p90_seconds", "mean_loss"):
            obj[key] = seconds_json(obj[key])
        return obj


def tally(label: str, rows: Sequence[AnswerRow]) -> Tally:
    """Count ``rows`` into a :class:`Tally`."""
    seconds = [r.seconds for r in rows]
    losses = [r.loss for r in rows if r.loss is not None]
    return Tally(
        label=label,
        answers=len(rows),
        right=sum(r.correct for r in rows),
        median_seconds=percentile(seconds, 50),
        p90_seconds=percentile(seconds, 90),
        mean_loss=sum(losses) / len(losses) if losses else None,
    )


def _group(
    rows: Iterable[AnswerRow], key: Callable[[AnswerRow], str | None]
) -> dict[str, list[AnswerRow]]:
    groups: dict[str, list[AnswerRow]] = {}
    for row in rows:
        name = key(row)
        if name is not None:
            groups.setdefault(name, []).append(row)
    return groups


def iso_week(day: dt.date) -> str:
    """The ISO week of a day: ``2025-W07`` (the one way a week is named)."""
    year, week, _ = day.isocalendar()
    return f"{year}-W{week:02d}"


def week_of(at: float) -> str:
    """The ISO week of a timestamp in local time: ``2025-W07``."""
    return iso_week(dt.datetime.fromtimestamp(at).date())


@dataclass(frozen=True, slots=True)
class Streaks:
    """Runs of right answers, in answer order."""

    best: int
    current: int
    best_by_kind: dict[str, int]


def streaks(rows: Sequence[AnswerRow]) -> Streaks:
    """The best and current runs of right answers, overall and per kind."""
    best = run = 0
    runs: dict[str, int] = {}
    best_by_kind: dict[str, int] = {}
    for row in rows:
        run = run + 1 if row.correct else 0
        best = max(best, run)
        runs[row.kind] = runs.get(row.kind, 0) + 1 if row.correct else 0
        best_by_kind[row.kind] = max(best_by_kind.get(row.kind, 0), runs[row.kind])
    return Streaks(best, run, best_by_kind)


@dataclass(frozen=True, slots=True)
class WeakSkill:
    """One of the weakest skills, with the scheduler's view of it."""

    skill: str
    label: str
    record: str
    weakness: float

    def to_json(self) -> dict[str, Any]:
        """The skill as a JSON object."""
        return {
            "skill": self.skill,
            "label": self.label,
            "record": self.record,
            "weakness": round(self.weakness, 3),
        }


@dataclass(frozen=True, slots=True)
class Cell:
    """One table cell's record: the answers that used the cell and how many were
    right; how many were the cell's own questions, their median time and the cell's
    current target."""

    answers: int = 0
    right: int = 0
    median_seconds: float | None = None
    target: float | None = None
    asked: int = 0

    @property
    def accuracy(self) -> float | None:
        """Share of right answers, or ``None`` when never used."""
        return self.right / self.answers if self.answers else None

    def to_json(self) -> dict[str, Any]:
        """The cell as a JSON object."""
        return {
            "answers": self.answers,
            "right": self.right,
            "accuracy": share_json(self.accuracy),
            "asked": self.asked,
            "median_seconds": seconds_json(self.median_seconds),
            "target_seconds": seconds_json(self.target),
        }


@dataclass(frozen=True, slots=True)
class Heatmap:
    """One table as a grid of cells: ``cells[row][column]``."""

    table: SkillTable
    rows: tuple[str, ...]
    columns: tuple[str, ...]
    cells: tuple[tuple[Cell, ...], ...]

    def to_json(self) -> dict[str, Any]:
        """The grid as a JSON object."""
        return {
            "table": self.table,
            "rows": list(self.rows),
            "columns": list(self.columns),
            "cells": [[c.to_json() for c in row] for row in self.cells],
        }


@dataclass(frozen=True, slots=True)
class SpeedTrend:
    """The median answer time of one kind per week (``None`` in weeks without answers)."""

    kind: Kind
    weeks: tuple[str, ...]
    medians: tuple[float | None, ...]

    def to_json(self) -> dict[str, Any]:
        """The trend as a JSON object."""
        return {
            "kind": self.kind.value,
            "weeks": list(self.weeks),
            "median_seconds": [seconds_json(m) for m in self.medians],
        }


@dataclass(frozen=True, slots=True)
class Retention:
    """What the memory model says about recall, and what the answers show.

    ``predicted`` is the mean predicted chance of recall now over the ``skills``
    reviewed before today (``None``: none was); the ``reviewed_today`` skills are left
    out, since the model predicts full recall on the day of a review. ``in_a_week`` is
    the mean predicted recall a week from now, without practice, over every skill
    reviewed. ``reviews`` counts the answers given a day or more after the skill's
    previous answer, ``recalled`` how many of them were right (the measured retention).
    """

    desired: float
    predicted: float | None
    skills: int
    reviews: int
    recalled: int
    reviewed_today: int = 0
    in_a_week: float | None = None

    @property
    def measured(self) -> float | None:
        """Share right of the reviews a day or more apart."""
        return self.recalled / self.reviews if self.reviews else None

    def to_json(self) -> dict[str, Any]:
        """The retention as a JSON object."""
        return {
            "desired": self.desired,
            "predicted": share_json(self.predicted),
            "skills": self.skills,
            "reviewed_today": self.reviewed_today,
            "in_a_week": share_json(self.in_a_week),
            "reviews": self.reviews,
            "recalled": self.recalled,
            "measured": share_json(self.measured),
        }


def _mean(values: Sequence[float]) -> float | None:
    return sum(values) / len(values) if values else None


def lookups_of(row: AnswerRow) -> set[Skill]:
    """The table cells an answer used: an ``identify`` or ``rule`` question's own
    cell; for a question with a serial number and a discard pile (``rule``, ``legal``,
    ``decide``), the discard's Table A-D cell and the Table E cell it leads to; for a
    ``legal`` or ``decide`` question under rules I-L, also the table's Exploding
    Mitten cell, which those rules compare with."""
    used: set[Skill] = set()
    own = parse_skill(row.skill)
    if isinstance(own, CellSkill | RuleSkill):
        used.add(own)
    pile = stored_pile(row.question)
    if pile is None:
        return used  # no discard pile (or not a question this version wrote)
    serial, discard = pile
    table = serial.table
    used.add(CellSkill(table, discard))
    used.add(RuleSkill(card_type(table, discard), serial.last_digit))
    letter = rule_letter(table, serial.last_digit, discard)
    if row.kind != "rule" and letter in MITTEN_RULES and table in MITTEN_FACES:
        used.add(CellSkill(table, MITTEN_FACES[table]))  # rules I-L compare with it
    return used


def _cell(used: Sequence[AnswerRow], own: Sequence[AnswerRow], target: float) -> Cell:
    return Cell(
        len(used),
        sum(r.correct for r in used),
        percentile([r.seconds for r in own], 50),
        target,
        len(own),
    )


def heatmaps(rows: Sequence[AnswerRow], scheduler: Scheduler) -> list[Heatmap]:
    """Tables A-D (rows: shapes, columns: colours) and Table E (rows: the card type on
    the pile, columns: the serial's last digit): per cell, every answer that used it
    (:func:`lookups_of`) and the times of its own questions."""
    used: dict[Skill, list[AnswerRow]] = {}
    own = _group(rows, lambda r: r.skill)
    for row in rows:
        for skill in lookups_of(row):
            used.setdefault(skill, []).append(row)

    def cell(skill: Skill) -> Cell:
        return _cell(used.get(skill, []), own.get(skill.key, []), scheduler.target(skill))

    maps = [
        Heatmap(
            table,
            tuple(shape.word for shape in Shape),
            tuple(colour.word for colour in Colour),
            tuple(
                tuple(
                    cell(CellSkill(table, Card.of(shape, colour))) for colour in Colour
                )
                for shape in Shape
            ),
        )
        for table in TABLE_LETTERS
    ]
    maps.append(
        Heatmap(
            TABLE_E_NAME,
            tuple(kind.value for kind in TABLE_E_ROWS),
            tuple(str(d) for d in range(10)),
            tuple(
                tuple(cell(RuleSkill(kind, d)) for d in range(10)) for kind in TABLE_E_ROWS
            ),
        )
    )
    return maps


def speed_trends(rows: Sequence[AnswerRow]) -> list[SpeedTrend]:
    """The median answer time per kind per week, over the weeks with any answer."""
    weeks = sorted({week_of(r.at) for r in rows})
    result = []
    for kind in KINDS:
        mine = _group((r for r in rows if r.kind == kind.value), lambda r: week_of(r.at))
        if mine:
            medians = tuple(
                percentile([r.seconds for r in mine[w]], 50) if w in mine else None
                for w in weeks
            )
            result.append(SpeedTrend(kind, tuple(weeks), medians))
    return result


def retention(rows: Sequence[AnswerRow], scheduler: Scheduler, now: float) -> Retention:
    """Predicted recall now and in a week (FSRS), and measured recall after a day or
    more."""
    today = scheduler.day_of(now)
    reviewed = [s for s in scheduler.skills.values() if s.reviews]
    before = [s for s in reviewed if s.review_day != today]
    now_recall = [scheduler.recall(s, now) or 0.0 for s in before]
    week_recall = [scheduler.recall(s, now + 7 * DAY) or 0.0 for s in reviewed]
    last: dict[str, float] = {}
    reviews = recalled = 0
    for row in rows:
        previous = last.get(row.skill)
        if previous is not None and row.at - previous >= DAY:
            reviews += 1
            recalled += row.correct
        last[row.skill] = row.at
    return Retention(
        scheduler.retention,
        _mean(now_recall),
        len(before),
        reviews,
        recalled,
        reviewed_today=len(reviewed) - len(before),
        in_a_week=_mean(week_recall),
    )


@dataclass(frozen=True, slots=True)
class StatsReport:
    """Everything ``mittens stats`` shows."""

    database: str
    total: Tally
    sessions: int
    days: int
    first: float | None
    last: float | None
    by_kind: list[Tally]
    by_rule: list[Tally]
    weeks: list[Tally]
    recent_sessions: list[Tally]
    streaks: Streaks
    weakest: list[WeakSkill]
    due: int = 0
    notes: list[str] = field(default_factory=list)
    heatmaps: list[Heatmap] = field(default_factory=list)
    speed_trends: list[SpeedTrend] = field(default_factory=list)
    retention: Retention | None = None
    #: Skills due today (overdue included) and on each of the following days.
    forecast: list[int] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        """The whole report as one JSON object."""
        return {
            "database": self.database,
            "total": self.total.to_json(),
            "sessions": self.sessions,
            "days": self.days,
            "first": None if self.first is None else iso_time(self.first),
            "last": None if self.last is None else iso_time(self.last),
            "by_kind": [t.to_json() for t in self.by_kind],
            "by_rule": [t.to_json() for t in self.by_rule],
            "weeks": [t.to_json() for t in self.weeks],
            "accuracy_sparkline": sparkline([t.accuracy for t in self.weeks]),
            "recent_sessions": [t.to_json() for t in self.recent_sessions],
            "streaks": {
                "best": self.streaks.best,
                "current": self.streaks.current,
                "best_by_kind": self.streaks.best_by_kind,
            },
            "weakest": [w.to_json() for w in self.weakest],
            "due": self.due,
            "heatmaps": [h.to_json() for h in self.heatmaps],
            "speed_trends": [t.to_json() for t in self.speed_trends],
            "retention": None if self.retention is None else self.retention.to_json(),
            "forecast": self.forecast,
        }


#: Sessions shown in the per-session progress list.
RECENT_SESSIONS: Final = 10
#: Days in the due forecast (today first).
FORECAST_DAYS: Final = 7


#: How an extra-practice session's mode is stored: ``rule practice``.
PRACTICE_SUFFIX: Final = " practice"


def practice_mode(mode: str) -> str:
    """The stored mode of an extra-practice session of ``mode`` (its answers stay out
    of the schedule)."""
    return mode + PRACTICE_SUFFIX


def is_practice(mode: str) -> bool:
    """Whether a stored session mode is extra practice."""
    return mode.endswith(PRACTICE_SUFFIX)


def build_scheduler(
    rows: Iterable[AnswerRow],
    settings: Settings | None = None,
    allowed: Callable[[Skill], bool] | None = None,
) -> Scheduler:
    """A scheduler with every stored answer replayed, as a new session starts with.

    The answers of extra-practice sessions are kept for the record but are no reviews;
    a ``too slow`` answer stored before ratings were is replayed as not right.
    """
    chosen = settings or Settings()
    scheduler = Scheduler(
        all_skills(),
        retention=chosen.retention,
        new_per_session=chosen.new_per_session,
        new_per_day=chosen.new_per_day,
        allowed=allowed,
        day_start=chosen.day_start,
    )
    for row in rows:
        skill = parse_skill(row.skill)
        if skill is None:
            continue  # a newer version's skill
        outcome = AnswerOutcome(
            correct=row.correct, seconds=row.seconds, at=row.at,
            reading=stored_reading(row.question), best=row.grade != Verdict.GOOD.value,
        )
        rating = None if row.rating is None else Rating(row.rating)
        scheduler.review(skill, outcome, rating=rating, practice=is_practice(row.mode))
    return scheduler


def build_report(
    rows: Sequence[AnswerRow],
    *,
    database: str,
    now: float,
    weakest: int = 10,
    settings: Settings | None = None,
) -> StatsReport:
    """Compute the statistics of the answers ``rows`` (oldest first)."""
    by_kind_rows = _group(rows, lambda r: r.kind)
    kinds = [k.value for k in KINDS] + sorted(set(by_kind_rows) - {k.value for k in KINDS})
    by_kind = [tally(k, by_kind_rows[k]) for k in kinds if k in by_kind_rows]
    by_rule_rows = _group(rows, lambda r: r.rule)
    by_rule = [tally(x, by_rule_rows[x]) for x in RULE_LETTERS if x in by_rule_rows]
    weeks_rows = _group(rows, lambda r: week_of(r.at))
    weeks = [tally(w, weeks_rows[w]) for w in sorted(weeks_rows)]
    sessions_rows = _group(rows, lambda r: str(r.session_id))
    ordered_sessions = sorted(sessions_rows.values(), key=lambda group: group[0].at)
    recent = [
        tally(f"{iso_time(group[0].at)} {group[0].mode}", group)
        for group in ordered_sessions[-RECENT_SESSIONS:]
    ]
    scheduler = build_scheduler(rows, settings)
    weak = [
        WeakSkill(
            s.skill.key, s.skill.label, scheduler.describe(s, now), scheduler.weakness(s, now)
        )
        for s in scheduler.weakest(weakest, now)
    ]
    forecast = scheduler.forecast(now, FORECAST_DAYS)
    days = {dt.datetime.fromtimestamp(r.at).date() for r in rows}
    return StatsReport(
        database=database,
        total=tally("all", rows),
        sessions=len(sessions_rows),
        days=len(days),
        first=rows[0].at if rows else None,
        last=rows[-1].at if rows else None,
        by_kind=by_kind,
        by_rule=by_rule,
        weeks=weeks,
        recent_sessions=recent,
        streaks=streaks(rows),
        weakest=weak,
        due=forecast[0],
        heatmaps=heatmaps(rows, scheduler),
        speed_trends=speed_trends(rows),
        retention=retention(rows, scheduler, now),
        forecast=forecast,
    )
