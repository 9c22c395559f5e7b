"""A simulated learner drilling every day, to check the scheduler's figures.

Contract: :func:`simulate` runs ``days`` days of drills (:class:`~defuser.trainer.session.Drill`
without a seed, every skill of every kind, the default settings) on an injected clock:
on most days one session of up to :data:`SESSION_QUESTIONS` questions at an hour
between 7:00 and 23:00, ended early when the drill is caught up. Each day's drill is
primed with the answers of the days before, as ``mittens drill`` is. The questions are
stand-ins (the skill and a text of the kind's length: ``decide`` and ``cycle`` texts
run from 138 to 679 characters), answered by a learner with a memory of their own: a
forgetting curve per skill (not FSRS's), a lucky guess when they forgot, and answer times
that spread 30% around a usual time that shrinks with practice and grows with the text.
The same seed gives the same figures. ``python -m defuser.devtools.simulate_learner`` prints them
(:meth:`Figures.lines`).
"""

from __future__ import annotations

import datetime as dt
import json
import math
import random
import statistics
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Final

from fsrs import Rating

from defuser.trainer.answers import CountAnswer
from defuser.trainer.facts import TableFacts
from defuser.trainer.model import DrillMode, Grade, Question, Verdict
from defuser.trainer.ratings import DEFAULT_TARGETS, reading_allowance
from defuser.trainer.scheduler import MAXIMUM_INTERVAL
from defuser.trainer.session import Drill
from defuser.trainer.skills import Kind, Skill
from defuser.trainer.store import AnswerRow
from edgework import SerialNumber

#: Questions a simulated session asks at most.
SESSION_QUESTIONS: Final = 40
#: The share of days the simulated learner skips.
SKIP_SHARE: Final = 0.15
#: Text lengths (characters) of the stand-in questions per kind: lowest and highest.
TEXT_LENGTHS: Final[dict[Kind, tuple[int, int]]] = {
    Kind.TABLE: (32, 32), Kind.IDENTIFY: (52, 58), Kind.RULE: (60, 66),
    Kind.LEGAL: (114, 165), Kind.DECIDE: (138, 679), Kind.CYCLE: (138, 679),
    Kind.EDGE: (80, 149),
}
#: How many answers a guess picks from, per kind (a forgotten skill is a guess).
CHOICES: Final[dict[Kind, int]] = {
    Kind.TABLE: 4, Kind.IDENTIFY: 6, Kind.RULE: 12, Kind.LEGAL: 8, Kind.DECIDE: 4,
    Kind.CYCLE: 10, Kind.EDGE: 10,
}
DAY: Final = 86_400.0
#: The first simulated day: a Monday, local time.
START: Final = dt.datetime(2026, 1, 5)


@dataclass(slots=True)
class Memory:
    """The simulated learner's true memory of one skill."""

    stability: float = 0.0
    last: float = 0.0
    practised: int = 0

    def recall(self, at: float) -> float:
        """The chance of recalling the skill at ``at`` (a power forgetting curve)."""
        if not self.practised:
            return 0.0
        days = max(at - self.last, 0.0) / DAY
        return 1.0 / (1.0 + days / (9.0 * self.stability))

    def learn(self, at: float, recalled: bool) -> None:
        """The learner answered and saw the answer: the memory strengthens (more so
        after a longer gap), or after a lapse starts lower."""
        if not self.practised:
            self.stability = 1.0
        elif recalled:
            self.stability *= 1.1 + 3.0 * (1.0 - self.recall(at))
        else:
            self.stability = max(0.5, 0.4 * self.stability)
        self.practised += 1
        self.last = at


@dataclass(slots=True)
class Figures:
    """What the simulation measured."""

    days: int
    sessions: int = 0
    caught_up: int = 0
    answers: int = 0
    ratings: Counter[int] = field(default_factory=Counter)
    #: Per review after the first: learner days since the previous review over the
    #: interval it had been given, and the days it came late.
    ratios: list[float] = field(default_factory=list)
    late_days: list[int] = field(default_factory=list)
    never_asked: list[str] = field(default_factory=list)
    #: Reviews of a skill already reviewed on that learner's day (none, by design).
    repeated_reviews: int = 0
    reviewed: set[tuple[str, dt.date]] = field(default_factory=set)
    largest_stability: float = 0.0
    largest_interval: int = 0

    def share(self, rating: Rating) -> float:
        """The share of reviews with ``rating``."""
        total = sum(self.ratings.values())
        return self.ratings[int(rating)] / total if total else 0.0

    def lines(self) -> list[str]:
        """The figures in words, one line each."""
        reviews = sum(self.ratings.values())
        ratio = _quantiles(self.ratios)
        late = _quantiles([float(d) for d in self.late_days])
        shares = ", ".join(f"{r.name} {self.share(r):.1%}" for r in Rating)
        return [
            f"{self.days} days, {self.sessions} sessions ({self.caught_up} ended caught up), "
            f"{self.answers} answers, {reviews} reviews",
            f"ratings: {shares}",
            f"reviews after the first: {len(self.ratios)}; elapsed/scheduled median "
            f"{ratio[0]:.2f}, 90th percentile {ratio[1]:.2f}; days late median "
            f"{late[0]:.0f}, 90th percentile {late[1]:.0f}",
            f"largest stability {self.largest_stability:.0f} days, largest interval "
            f"{self.largest_interval} days (maximum {MAXIMUM_INTERVAL})",
            f"reviews of a skill already reviewed that day: {self.repeated_reviews}",
            f"skills never asked: {len(self.never_asked)}"
            + (f" ({', '.join(self.never_asked)})" if self.never_asked else ""),
        ]


def _quantiles(values: Sequence[float]) -> tuple[float, float]:
    if not values:
        return (0.0, 0.0)
    ordered = sorted(values)
    return statistics.median(ordered), ordered[int(0.9 * (len(ordered) - 1))]


#: The facts of every stand-in question (nothing reads them).
_STAND_IN: Final = TableFacts(SerialNumber("AB1CD2"))


class Learner:
    """The simulated learner: their memories and their answers."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.memory: dict[Skill, Memory] = {}

    def question(self, rng: random.Random, skill: Skill) -> Question:
        """A stand-in question on ``skill`` with a text of the kind's length (only the
        text's length is read: its facts and answer are placeholders)."""
        low, high = TEXT_LENGTHS[skill.kind]
        text = "x" * rng.randint(low, high)
        return Question(skill.kind, skill, text, _STAND_IN, CountAnswer(0), "")

    def answer(self, question: Question, at: float) -> Grade:
        """Answer ``question`` at ``at``: recalled (or a lucky guess) and how fast."""
        memory = self.memory.setdefault(question.skill, Memory())
        recalled = self.rng.random() < memory.recall(at)
        right = recalled or self.rng.random() < 1 / CHOICES[question.kind]
        usual = 0.7 * DEFAULT_TARGETS[question.kind] * (0.6 + 0.8 / (1 + memory.practised))
        seconds = usual * math.exp(self.rng.gauss(0.0, 0.3))
        if not recalled:
            seconds *= 0.5  # a guess is quick
        seconds += reading_allowance(question.text) * 0.8
        memory.learn(at, recalled)
        verdict = Verdict.RIGHT if right else Verdict.WRONG
        return Grade(verdict, "x", "x", "x", "", seconds)


def _row(n: int, session: int, drill: Drill, index: int) -> AnswerRow:
    """The stored form of a drill's answer, as the next day's drill reads it back."""
    answered = drill.answered[index]
    question, result = answered.question, answered.grade
    return AnswerRow(
        n, session, drill.mode.value, answered.at, question.kind.value, question.skill.key, None,
        json.dumps(question.to_json()), result.expected, result.given, result.verdict.value,
        result.correct, result.seconds, None, answered.rating, answered.target,
    )


def _note_review(figures: Figures, drill: Drill, skill: Skill, at: float) -> None:
    """Before an answer that will be a review: how late it comes."""
    scheduler = drill.scheduler
    state = scheduler.skills[skill]
    if state.review_day is None or not scheduler.is_review(skill, at):
        return
    given = (scheduler.day_of(state.due_at) - state.review_day).days
    elapsed = (scheduler.day_of(at) - state.review_day).days
    figures.ratios.append(elapsed / given)
    figures.late_days.append(elapsed - given)


def _session(learner: Learner, drill: Drill, clock: list[float], figures: Figures) -> bool:
    """One session; whether it ended caught up."""
    for _ in range(SESSION_QUESTIONS):
        question = drill.next_question()
        if question is None:
            return True
        clock[0] += 3.0
        result = learner.answer(question, clock[0])
        clock[0] += result.seconds
        _note_review(figures, drill, question.skill, clock[0])
        rating = drill.record(question, result)
        if rating is not None:
            figures.ratings[int(rating)] += 1
            key = (question.skill.key, drill.scheduler.day_of(clock[0]))
            figures.repeated_reviews += key in figures.reviewed
            figures.reviewed.add(key)
    return False


def _reader(clock: list[float]) -> Callable[[], float]:
    """A clock that reads the simulated time in ``clock[0]``."""
    return lambda: clock[0]


def simulate(days: int = 60, seed: int = 1) -> Figures:
    """Run the simulated learner for ``days`` days; the figures it produced."""
    rng = random.Random(seed)
    learner = Learner(random.Random(seed + 1))
    figures = Figures(days)
    rows: list[AnswerRow] = []
    drill: Drill | None = None
    for day in range(days):
        if rng.random() < SKIP_SHARE:
            continue
        hour = rng.uniform(7, 23)
        clock = [(START + dt.timedelta(days=day, hours=hour)).timestamp()]
        drill = Drill(DrillMode.MIXED, store=None, history=rows, clock=_reader(clock),
                      maker=learner.question, seed=None)
        drill.rng = random.Random(rng.random())
        figures.sessions += 1
        figures.caught_up += _session(learner, drill, clock, figures)
        start = len(rows)
        rows += [_row(start + n + 1, figures.sessions, drill, n)
                 for n in range(len(drill.answered))]
    figures.answers = len(rows)
    if drill is not None:
        _final(figures, drill)
    return figures


def _final(figures: Figures, drill: Drill) -> None:
    """The end state: skills never asked, the largest stability and interval."""
    states = drill.scheduler.skills.values()
    figures.never_asked = [s.skill.key for s in states if not s.seen]
    figures.largest_stability = max((s.stability or 0.0 for s in states), default=0.0)
    figures.largest_interval = max(
        ((drill.scheduler.day_of(s.due_at) - s.review_day).days
         for s in states if s.review_day is not None),
        default=0,
    )

