"""Spaced repetition per skill with FSRS, with a reason for every choice.

Each skill is one card of the FSRS memory model (the maintained ``fsrs`` package): the
model keeps the skill's stability and difficulty and schedules the next review when the
predicted chance of recall falls to the desired retention (:data:`DEFAULT_RETENTION`
unless the learner sets another). Every answer is one review, rated by
:func:`rating_for`: a wrong answer is *Again*; a right answer slower than the skill's
target time is *Hard*; a right answer is *Good*; a right answer within
:data:`FAST_SHARE` of the target is *Easy*. The target starts at the kind's default
(:data:`DEFAULT_TARGETS`) and follows the learner's own times: once a skill has
:data:`TARGET_MIN_ANSWERS` right answers, its target is :data:`TARGET_SLACK` times the
median of its last :data:`TARGET_WINDOW` right answers, never above the default and
never below :data:`TARGET_FLOOR` (so the target tightens as the learner gets faster).

The state is rebuilt by replaying the stored answers in order (:meth:`Scheduler.review`),
so the answer log is the single source of truth; an answer stored with its rating is
replayed with that rating, an older one (schema 1) gets the rating the same rule gives.
Choosing (:meth:`Scheduler.choose_in`) looks, in order, for: a skill answered wrong
(oldest first; in a session it waits :data:`RETRY_GAP` other questions), a skill whose
review is due (lowest predicted recall first), a new skill (in the teaching order, a
table's rows together, within the caps on new skills per session and per day), and
otherwise the weakest skills. In ``mixed`` mode the kind is drawn first, weighted by
recent mistakes and due skills. Every choice comes with a one-line reason.
"""

from __future__ import annotations

import datetime as dt
import random
import statistics
from collections import deque
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Final

from fsrs import Card, Rating, State
from fsrs import Scheduler as MemoryModel

from defuser.trainer.kinds import KIND_SPECS
from defuser.trainer.model import Kind
from defuser.trainer.skills import Skill, parse_skill

#: The predicted chance of recall at which a review falls due, unless set otherwise.
DEFAULT_RETENTION: Final = 0.9
#: The range a learner may set the desired retention in.
RETENTION_RANGE: Final = (0.7, 0.99)

#: Default answer-time targets per kind (seconds): what a fluent expert manages.
DEFAULT_TARGETS: Final[Mapping[Kind, float]] = {
    kind: spec.target_seconds for kind, spec in KIND_SPECS.items()
}
#: A right answer within this share of the target is rated Easy.
FAST_SHARE: Final = 0.6
#: An adapted target is this many times the median of the recent right answers.
TARGET_SLACK: Final = 1.25
#: Right answers the adapted target looks back on.
TARGET_WINDOW: Final = 5
#: Right answers a skill needs before its target adapts.
TARGET_MIN_ANSWERS: Final = 3
#: No target is tighter than this (seconds): reading the question takes time too.
TARGET_FLOOR: Final = 1.0

#: New skills introduced per session and per (local) day, unless set otherwise.
DEFAULT_NEW_PER_SESSION: Final = 10
DEFAULT_NEW_PER_DAY: Final = 30

#: A missed skill waits for this many other questions before it is asked again.
RETRY_GAP: Final = 3

#: Answers per kind that the ``mixed`` weighting looks back on.
RECENT_WINDOW: Final = 20

DAY: Final = 86_400.0


def rating_for(correct: bool, seconds: float, target: float) -> Rating:
    """The FSRS rating of one answer: Again, Hard (slow), Good or Easy (fast)."""
    if not correct:
        return Rating.Again
    if seconds > target:
        return Rating.Hard
    if seconds <= FAST_SHARE * target:
        return Rating.Easy
    return Rating.Good


def interval_words(seconds: float) -> str:
    """A time span in words: ``1 min``, ``10 min``, ``1 h``, ``3 days``."""
    if seconds < 3600:
        return f"{max(1, round(seconds / 60))} min"
    if seconds < DAY - 1800:
        return f"{seconds / 3600:.0f} h"
    days = seconds / DAY
    return f"{days:.0f} day{'s' if round(days) != 1 else ''}"


def due_words(due_at: float, now: float) -> str:
    """``due now`` or ``due in 10 min``."""
    if due_at - now < 60:
        return "due now"
    return f"due in {interval_words(due_at - now)}"


def _utc(at: float) -> dt.datetime:
    return dt.datetime.fromtimestamp(at, dt.UTC)


def local_day(at: float) -> dt.date:
    """The learner's calendar day of a timestamp (local time)."""
    return dt.datetime.fromtimestamp(at).date()


@dataclass(slots=True)
class SkillState:
    """What the scheduler knows about one skill: its FSRS card and its record."""

    skill: Skill
    card: Card
    order: int = 0
    seen: int = 0
    right: int = 0
    lapses: int = 0
    slow: int = 0
    first_at: float | None = None
    last_at: float | None = None
    last_right: bool = False
    last_rating: Rating | None = None
    #: The session question number of the first and last answers (``None`` when from
    #: an earlier session).
    first_step: int | None = None
    last_step: int | None = None
    seconds: list[float] = field(default_factory=list)
    right_seconds: list[float] = field(default_factory=list)

    @property
    def kind(self) -> Kind:
        """The skill's drill kind."""
        return self.skill.kind

    @property
    def default_target(self) -> float:
        """The kind's default answer-time target."""
        return DEFAULT_TARGETS[self.kind]

    @property
    def target(self) -> float:
        """The answer-time target now: the default, adapted to the learner's own times."""
        if len(self.right_seconds) < TARGET_MIN_ANSWERS:
            return self.default_target
        recent = self.right_seconds[-TARGET_WINDOW:]
        adapted = TARGET_SLACK * statistics.median(recent)
        return max(TARGET_FLOOR, min(self.default_target, adapted))

    @property
    def due_at(self) -> float:
        """When the next review is due (wall-clock seconds)."""
        return self.card.due.timestamp()

    @property
    def stability(self) -> float | None:
        """FSRS stability in days (the interval at which recall falls to 90%)."""
        return self.card.stability

    @property
    def accuracy(self) -> float:
        """Share of right answers, smoothed towards 1/2 for skills seen rarely."""
        return (self.right + 1) / (self.seen + 2)

    @property
    def missed(self) -> bool:
        """Whether the last answer was wrong."""
        return self.seen > 0 and not self.last_right

    @property
    def learning(self) -> bool:
        """Whether FSRS still has the skill in its short learning steps."""
        return self.card.state in (State.Learning, State.Relearning)


class Scheduler:
    """FSRS spaced repetition over a fixed set of skills per kind."""

    def __init__(
        self,
        skills: Mapping[Kind, Sequence[Skill]],
        *,
        retention: float = DEFAULT_RETENTION,
        new_per_session: int | None = DEFAULT_NEW_PER_SESSION,
        new_per_day: int | None = DEFAULT_NEW_PER_DAY,
        allowed: Callable[[Skill], bool] | None = None,
    ) -> None:
        """``skills`` lists every skill of every kind, in teaching order.

        ``retention`` is the desired chance of recall at a review; ``new_per_session``
        and ``new_per_day`` cap new skills (``None`` for no cap); ``allowed`` limits
        the skills that are chosen (a focus), without changing what is recorded.
        """
        self.retention = retention
        self.model = MemoryModel(desired_retention=retention, enable_fuzzing=False)
        self.new_per_session = new_per_session
        self.new_per_day = new_per_day
        self.allowed = allowed
        self.skills: dict[Skill, SkillState] = {}
        self.by_kind: dict[Kind, list[Skill]] = {}
        for kind, listed in skills.items():
            self.by_kind[kind] = list(listed)
            for skill in listed:
                self._add(skill)
        self.recent: dict[Kind, deque[bool]] = {
            k: deque(maxlen=RECENT_WINDOW) for k in skills
        }
        self.step = 0

    def _add(self, skill: Skill) -> SkillState:
        order = len(self.skills)
        state = SkillState(skill, Card(card_id=order + 1), order=order)
        self.skills[skill] = state
        return state

    # ----------------------------------------------------------------- reviewing

    def target(self, skill: Skill) -> float:
        """The answer-time target of ``skill`` now (seconds)."""
        state = self.skills.get(skill)
        return DEFAULT_TARGETS[skill.kind] if state is None else state.target

    def review(
        self,
        skill: Skill,
        correct: bool,
        seconds: float,
        at: float,
        *,
        rating: Rating | None = None,
        in_session: bool = False,
    ) -> Rating:
        """Record one answer as an FSRS review; returns the rating used.

        ``rating`` is the stored rating (``None``: derive it from the answer and the
        target of the time). A skill outside the scheduler's set is kept for the
        record but never chosen. ``in_session`` marks answers of the running session,
        whose retry gap and new-skill cap count questions.
        """
        state = self.skills.get(skill)
        if state is None:
            state = self._add(skill)
        if rating is None:
            rating = rating_for(correct, seconds, state.target)
        if state.seen == 0:
            state.first_at = at
            state.first_step = self.step if in_session else None
        review_at = _utc(max(at, state.last_at or at))
        state.card, _ = self.model.review_card(state.card, rating, review_datetime=review_at)
        state.seen += 1
        state.last_at = at
        state.last_rating = rating
        state.seconds.append(seconds)
        state.last_step = self.step if in_session else None
        state.last_right = correct
        if state.kind in self.recent:
            self.recent[state.kind].append(correct)
        if correct:
            state.right += 1
            state.right_seconds.append(seconds)
            if rating is Rating.Hard:
                state.slow += 1
        else:
            state.lapses += 1
        return rating

    def replay(self, answers: Iterable[tuple[str, bool, float, float, Rating | None]]) -> None:
        """Review stored answers ``(skill key, correct, seconds, at, rating)`` in order;
        a key this version does not know (a newer version's skill) is skipped."""
        for key, correct, seconds, at, rating in answers:
            skill = parse_skill(key)
            if skill is not None:
                self.review(skill, correct, seconds, at, rating=rating)

    def advance(self) -> None:
        """Count one question asked in this session (for the retry gap)."""
        self.step += 1

    # ----------------------------------------------------------------- the model

    def recall(self, state: SkillState, now: float) -> float | None:
        """The predicted chance of recalling ``state`` now (``None`` if never seen)."""
        if not state.seen:
            return None
        return float(self.model.get_card_retrievability(state.card, _utc(max(now, 0.0))))

    def weakness(self, state: SkillState, now: float) -> float:
        """A score for ranking weak skills: higher is weaker.

        Low accuracy, low predicted recall, many lapses and slow answers all count; a
        skill never seen scores 0 (unknown is not weak).
        """
        if state.seen == 0:
            return 0.0
        recall = self.recall(state, now) or 0.0
        slow_share = state.slow / state.seen
        return (
            (1 - state.accuracy) * 2
            + (1 - recall)
            + 0.3 * min(state.lapses, 5)
            + 0.5 * slow_share
            + (1.0 if state.missed else 0.0)
        )

    def describe(self, state: SkillState, now: float) -> str:
        """The skill's record in a few words, for ``mittens stats`` and choice reasons."""
        text = f"{state.right}/{state.seen} right"
        if state.lapses:
            text += f", {state.lapses} miss{'es' if state.lapses != 1 else ''}"
        if state.seen:
            recall = self.recall(state, now)
            if state.learning:  # the model's recall is near 100% just after any answer
                text += ", still learning"
            elif recall is not None:
                text += f", recall {recall:.0%}"
            text += f", target {state.target:.1f} s"
            if state.missed:
                text += ", wrong last time"
            else:
                text += f", {due_words(state.due_at, now)}"
        return text

    def is_due(self, state: SkillState, now: float) -> bool:
        """Whether a seen skill waits for review now (missed, or its review is due)."""
        return state.seen > 0 and (state.missed or state.due_at <= now)

    # ----------------------------------------------------------------- choosing

    def _waited(self, state: SkillState) -> bool:
        return state.last_step is None or self.step - state.last_step >= RETRY_GAP

    def _chosen(self, kind: Kind) -> list[SkillState]:
        states = [self.skills[s] for s in self.by_kind[kind]]
        if self.allowed is not None:
            states = [s for s in states if self.allowed(s.skill)]
        return states

    def new_today(self, now: float) -> int:
        """Skills first answered on the learner's day of ``now``."""
        today = local_day(now)
        return sum(
            1 for s in self.skills.values() if s.first_at is not None and local_day(s.first_at)
            == today
        )

    def new_this_session(self) -> int:
        """Skills first answered in this session."""
        return sum(1 for s in self.skills.values() if s.first_step is not None)

    def new_allowed(self, now: float) -> tuple[bool, str]:
        """Whether another new skill may be introduced now, and the cap words."""
        session = self.new_this_session()
        if self.new_per_session is not None and session >= self.new_per_session:
            return False, f"{session} new this session, the cap is {self.new_per_session}"
        today = self.new_today(now)
        if self.new_per_day is not None and today >= self.new_per_day:
            return False, f"{today} new today, the daily cap is {self.new_per_day}"
        return True, ""

    def choose_in(self, kind: Kind, now: float, rng: random.Random) -> Choice:
        """The skill of ``kind`` to ask next, and why."""
        states = self._chosen(kind) or [self.skills[s] for s in self.by_kind[kind]]
        rested = [s for s in states if self._waited(s)] or states
        missed = [s for s in rested if s.missed]
        if missed:
            pick = min(missed, key=lambda s: (s.last_at or 0.0, s.order))
            record = f"{pick.right}/{pick.seen} right so far"
            return Choice(pick.skill, kind, f"wrong last time ({record})")
        due = [s for s in rested if s.seen and s.due_at <= now]
        if due:
            lowest = min(self.recall(s, now) or 0.0 for s in due)
            pick = rng.choice([s for s in due if (self.recall(s, now) or 0.0) <= lowest + 1e-9])
            return Choice(pick.skill, kind, f"due for review ({self.describe(pick, now)})")
        fresh = [s for s in rested if not s.seen]
        seen = [s for s in rested if s.seen] or [s for s in states if s.seen]
        if fresh:
            may, cap = self.new_allowed(now)
            if may or not seen:
                pick = min(fresh, key=lambda s: s.order)
                why = f"new: never asked ({len(fresh)} new left"
                why += f"; {cap}, but nothing else to ask)" if not may else ")"
                return Choice(pick.skill, kind, why)
        else:
            cap = ""
        weights = [1.0 + 4.0 * self.weakness(s, now) for s in seen]
        pick = rng.choices(seen, weights=weights)[0]
        head = f"nothing due ({cap}); " if cap else "nothing due; "
        why = f"{head}practising a weak spot ({self.describe(pick, now)})"
        return Choice(pick.skill, kind, why)

    def kind_weight(self, kind: Kind, now: float) -> tuple[float, str]:
        """The ``mixed`` weight of ``kind`` and what it is made of."""
        recent = self.recent.get(kind) or deque()
        errors = (len(recent) - sum(recent)) / len(recent) if recent else 0.0
        states = self._chosen(kind)
        pending = sum(1 for s in states if self.is_due(s, now))
        share = pending / len(states) if states else 0.0
        weight = 1.0 + 3.0 * errors + 2.0 * share
        parts = []
        if recent:
            parts.append(f"{errors:.0%} wrong in the last {len(recent)}")
        if pending:
            parts.append(f"{pending} skill{'s' if pending != 1 else ''} due")
        return weight, ", ".join(parts) or "no history"

    def choose(self, kinds: Sequence[Kind], now: float, rng: random.Random) -> Choice:
        """The next skill among ``kinds``; with several kinds, the kind is weighted first."""
        kinds = [k for k in kinds if self._chosen(k)] or list(kinds)
        if len(kinds) == 1:
            return self.choose_in(kinds[0], now, rng)
        weighed = [self.kind_weight(k, now) for k in kinds]
        total = sum(w for w, _ in weighed)
        index = rng.choices(range(len(kinds)), weights=[w for w, _ in weighed])[0]
        kind = kinds[index]
        weight, parts = weighed[index]
        inner = self.choose_in(kind, now, rng)
        why = f"{kind.value} (weight {weight:.1f} of {total:.1f}: {parts}); {inner.why}"
        return Choice(inner.skill, kind, why)

    def weakest(self, limit: int = 10, now: float | None = None) -> list[SkillState]:
        """The weakest skills, weakest first: those ever missed or answered slowly."""
        at = now if now is not None else max(
            (s.last_at or 0.0 for s in self.skills.values()), default=0.0
        )
        shaky = [s for s in self.skills.values() if s.lapses or s.slow]
        shaky.sort(key=lambda s: (-self.weakness(s, at), s.skill.key))
        return shaky[:limit]

    def forecast(self, now: float, days: int = 7) -> list[int]:
        """Seen skills due per day: today (overdue included), then each following day."""
        counts = [0] * days
        today = local_day(now)
        for state in self.skills.values():
            if not state.seen:
                continue
            offset = 0 if state.missed else (local_day(max(state.due_at, now)) - today).days
            if 0 <= offset < days:
                counts[offset] += 1
        return counts


@dataclass(frozen=True, slots=True)
class Choice:
    """A chosen skill and why it was chosen."""

    skill: Skill
    kind: Kind
    why: str
