"""Statistics over the answer log, for ``mittens stats`` and a drill's summary.

Everything is computed from stored answers: totals, accuracy and answer times (median
and 90th percentile) per drill kind and per rule letter, progress per ISO week (in
local time) and per session, best and current streaks of right answers, and the
weakest skills as the scheduler ranks them (the same ranking that picks what to ask).
"""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any, Final

from fsrs import Rating

from defuser.trainer.kinds import all_skills
from defuser.trainer.model import KINDS
from defuser.trainer.scheduler import Scheduler
from defuser.trainer.settings import Settings
from defuser.trainer.skills import Skill
from defuser.trainer.store import AnswerRow, iso_time
from edgework import RULE_LETTERS

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
        obj["accuracy"] = None if self.accuracy is None else round(self.accuracy, 4)
        for key in ("median_seconds", "p90_seconds", "mean_loss"):
            if obj[key] is not None:
                obj[key] = round(obj[key], 3)
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


def week_of(at: float) -> str:
    """The ISO week of a timestamp in local time: ``2025-W07``."""
    year, week, _ = dt.datetime.fromtimestamp(at).isocalendar()
    return f"{year}-W{week:02d}"


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
        }


#: Sessions shown in the per-session progress list.
RECENT_SESSIONS: Final = 10


def build_scheduler(
    rows: Iterable[AnswerRow],
    settings: Settings | None = None,
    allowed: Callable[[Skill], bool] | None = None,
) -> Scheduler:
    """A scheduler with every stored answer replayed, as a new session starts with."""
    chosen = settings or Settings()
    scheduler = Scheduler(
        all_skills(),
        retention=chosen.retention,
        new_per_session=chosen.new_per_session,
        new_per_day=chosen.new_per_day,
        allowed=allowed,
    )
    scheduler.replay(
        (r.skill, r.correct, r.seconds, r.at, None if r.rating is None else Rating(r.rating))
        for r in rows
    )
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
    due = sum(1 for s in scheduler.skills.values() if scheduler.is_due(s, now))
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
        due=due,
    )
