"""Spaced repetition per skill with FSRS, by the learner's day, with a reason for every
choice.

Contract: each skill is one card of the FSRS memory model (the maintained ``fsrs``
package), whose options are set here on purpose (:func:`memory_model`): the desired
retention (:data:`DEFAULT_RETENTION` unless the learner sets another), no fuzz (the
schedule is rebuilt from the answer log every time, so it must come out the same), a
longest interval of :data:`MAXIMUM_INTERVAL` days, and no learning steps of minutes
(a miss comes back in the same session through :data:`RETRY_GAP`, not through FSRS).

Reviews go by the learner's day, which starts at ``day_start`` o'clock local time
(:data:`DEFAULT_DAY_START`): the first answer of a skill on a learner's day is its
review, rated by :func:`~defuser.trainer.ratings.rating_for` and given to FSRS at the
start of that day, so FSRS counts whole days between reviews; every later answer of the
skill that day, and every answer of an extra-practice session, is kept for the record
(accuracy, times, "wrong last time") but is no review, so repetition cannot compound.
A skill is due on the learner's day its review falls on, and stays due until reviewed.

The state is rebuilt by replaying the stored answers in order (:meth:`Scheduler.review`),
so the answer log is the single source of truth: the day's first answer of a skill is
replayed with its stored rating (one stored before ratings were, gets the rating the
rule gives), capped at Good when it was the skill's first review; later answers that
day are not reviews, whatever rating was stored with them.

Choosing (:meth:`Scheduler.choose`) looks, in order, for: a skill answered wrong (oldest
first; in a session it waits :data:`RETRY_GAP` other questions), a due skill (lowest
predicted recall first; every :data:`NEW_SHARE` of a session's questions is kept for a
new skill), a new skill (in :func:`~defuser.trainer.teaching.teaching_order`, within the
caps on new skills per session and per day), and otherwise nothing: the learner is
caught up. Extra practice (``practice``) asks the weakest skills instead. Every choice
comes with a one-line reason.
"""

from __future__ import annotations

import datetime as dt
import math
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Final

from fsrs import Card, Rating
from fsrs import Scheduler as MemoryModel

from defuser.trainer.ratings import (
    DEFAULT_TARGETS,
    AnswerOutcome,
    proven,
    rating_for,
    skill_target,
)
from defuser.trainer.skills import Kind, Skill
from defuser.trainer.teaching import teaching_order

#: The predicted chance of recall at which a review falls due, unless set otherwise.
DEFAULT_RETENTION: Final = 0.9
#: The range a learner may set the desired retention in.
RETENTION_RANGE: Final = (0.7, 0.99)
#: The longest interval between two reviews (days): even a skill the model deems safe
#: comes back twice a year, so a table learnt by rote is checked now and then.
MAXIMUM_INTERVAL: Final = 180
#: The hour (local time) a learner's day starts at, unless set otherwise: a session
#: after midnight still counts to the evening before, as in Anki.
DEFAULT_DAY_START: Final = 4

#: New skills introduced per session and per learner's day, unless set otherwise.
DEFAULT_NEW_PER_SESSION: Final = 10
DEFAULT_NEW_PER_DAY: Final = 30
#: The share of a session's questions kept for new skills while reviews are due
#: (every fifth question).
NEW_SHARE: Final = 0.2

#: A missed skill waits for this many other questions before it is asked again.
RETRY_GAP: Final = 3

DAY: Final = 86_400.0


def memory_model(retention: float) -> MemoryModel:
    """The FSRS scheduler with this project's options (see the module's contract)."""
    return MemoryModel(
        desired_retention=retention,
        learning_steps=(),
        relearning_steps=(),
        maximum_interval=MAXIMUM_INTERVAL,
        enable_fuzzing=False,
    )


def learner_day(at: float, day_start: int = DEFAULT_DAY_START) -> dt.date:
    """The learner's day of a timestamp: the local date, the day starting at
    ``day_start`` o'clock."""
    return (dt.datetime.fromtimestamp(at) - dt.timedelta(hours=day_start)).date()


def day_begins(day: dt.date, day_start: int = DEFAULT_DAY_START) -> float:
    """The timestamp a learner's day begins at."""
    return dt.datetime.combine(day, dt.time(day_start)).timestamp()


def days_words(days: int) -> str:
    """``due today``, ``due tomorrow`` or ``due in 3 days``."""
    if days <= 0:
        return "due today"
    return "due tomorrow" if days == 1 else f"due in {days} days"


def _utc(at: float) -> dt.datetime:
    return dt.datetime.fromtimestamp(at, dt.UTC)


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
    #: FSRS reviews (the day's first answers), the learner's day of the last one and
    #: whether it was right.
    reviews: int = 0
    review_day: dt.date | None = None
    last_review_right: bool = False
    first_at: float | None = None
    last_at: float | None = None
    last_right: bool = False
    last_rating: Rating | None = None
    #: The session question number of the first and last answers (``None`` when from
    #: an earlier session).
    first_step: int | None = None
    last_step: int | None = None
    seconds: list[float] = field(default_factory=list)
    #: Right answers' times net of their questions' reading allowance.
    right_seconds: list[float] = field(default_factory=list)

    @property
    def kind(self) -> Kind:
        """The skill's drill kind."""
        return self.skill.kind

    @property
    def target(self) -> float:
        """The skill's own answer-time target now (a question adds its reading time)."""
        return skill_target(self.kind, self.right_seconds)

    @property
    def due_at(self) -> float:
        """When the next review is due (the start of its learner's day)."""
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
        """Whether the last answer (extra practice aside) was wrong."""
        return self.seen > 0 and not self.last_right


@dataclass(frozen=True, slots=True)
class SkillChoice:
    """A chosen skill and why it was chosen."""

    skill: Skill
    kind: Kind
    why: str


@dataclass(frozen=True, slots=True)
class Outlook:
    """What a session can ask: skills due now and new skills it may introduce."""

    due: int
    new: int


@dataclass(frozen=True, slots=True)
class NewCap:
    """A cap on new skills that holds: the day's (``per_day``) or the session's, the
    new skills ``used`` under it and the ``cap`` itself."""

    per_day: bool
    used: int
    cap: int


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
        day_start: int = DEFAULT_DAY_START,
    ) -> None:
        """``skills`` lists every skill of every kind.

        ``retention`` is the desired chance of recall at a review; ``new_per_session``
        and ``new_per_day`` cap new skills (``None`` for no cap); ``allowed`` limits
        the skills that are chosen (a focus), without changing what is recorded;
        ``day_start`` is the hour the learner's day starts.
        """
        self.retention = retention
        self.model = memory_model(retention)
        self.new_per_session = new_per_session
        self.new_per_day = new_per_day
        self.allowed = allowed
        self.day_start = day_start
        self.rank = {skill: n for n, skill in enumerate(teaching_order())}
        self.skills: dict[Skill, SkillState] = {}
        self.by_kind: dict[Kind, list[Skill]] = {}
        for kind, listed in skills.items():
            self.by_kind[kind] = sorted(listed, key=lambda s: self.rank.get(s, len(self.rank)))
            for skill in listed:
                self._add(skill)
        self.step = 0

    def _add(self, skill: Skill) -> SkillState:
        order = self.rank.get(skill, len(self.rank) + len(self.skills))
        state = SkillState(skill, Card(card_id=len(self.skills) + 1), order=order)
        self.skills[skill] = state
        return state

    def day_of(self, at: float) -> dt.date:
        """The learner's day of ``at``."""
        return learner_day(at, self.day_start)

    # ----------------------------------------------------------------- reviewing

    def target(self, skill: Skill, reading: float = 0.0) -> float:
        """The answer-time target of a question on ``skill`` (seconds), ``reading``
        seconds of it for reading the question."""
        state = self.skills.get(skill)
        own = DEFAULT_TARGETS[skill.kind] if state is None else state.target
        return own + reading

    def is_review(self, skill: Skill, at: float, *, practice: bool = False) -> bool:
        """Whether an answer on ``skill`` at ``at`` would be its review of the day."""
        state = self.skills.get(skill)
        if practice:
            return False
        return state is None or state.review_day is None or self.day_of(at) > state.review_day

    def rate(
        self, skill: Skill, outcome: AnswerOutcome, *, practice: bool = False
    ) -> Rating | None:
        """The rating an answer gets, or ``None`` when it is no review (not the day's
        first answer of the skill, or extra practice)."""
        if not self.is_review(skill, outcome.at, practice=practice):
            return None
        state = self.skills.get(skill)
        target = self.target(skill, outcome.reading)
        if state is None:
            return rating_for(outcome, target, first=True, known=False)
        known = proven(state.right, state.last_review_right)
        return rating_for(outcome, target, first=state.reviews == 0, known=known)

    def review(
        self,
        skill: Skill,
        outcome: AnswerOutcome,
        *,
        rating: Rating | None = None,
        in_session: bool = False,
        practice: bool = False,
    ) -> Rating | None:
        """Record one answer; when it is the skill's review of the day, review its FSRS
        card too. Returns the rating used (``None``: no review).

        ``rating`` is the stored rating (``None``: derive it); a first review is never
        above Good. A skill outside the scheduler's set is kept for the record but never
        chosen. ``in_session`` marks answers of the running session, whose retry gap and
        new-skill cap count questions.
        """
        state = self.skills.get(skill) or self._add(skill)
        used: Rating | None = None
        if self.is_review(skill, outcome.at, practice=practice):
            used = rating if rating is not None else self.rate(skill, outcome)
            assert used is not None
            if state.reviews == 0:
                used = min(used, Rating.Good)
            day = self.day_of(outcome.at)
            state.card, _ = self.model.review_card(
                state.card, used, review_datetime=_utc(day_begins(day, self.day_start))
            )
            state.reviews += 1
            state.review_day = day
            state.last_review_right = used is not Rating.Again
            state.last_rating = used
        self._note(state, outcome, used, in_session)
        if not practice:  # extra practice never makes a skill "wrong last time"
            state.last_right = outcome.correct
        return used

    def _note(
        self, state: SkillState, outcome: AnswerOutcome, used: Rating | None, in_session: bool
    ) -> None:
        """Keep an answer in the skill's record (its counts, times and last answer)."""
        if state.seen == 0:
            state.first_at = outcome.at
            state.first_step = self.step if in_session else None
        state.seen += 1
        state.last_at = outcome.at
        state.seconds.append(outcome.seconds)
        state.last_step = self.step if in_session else None
        if outcome.correct:
            state.right += 1
            state.right_seconds.append(outcome.net_seconds)
            if used is Rating.Hard:
                state.slow += 1
        else:
            state.lapses += 1

    def advance(self) -> None:
        """Count one question asked in this session (for the retry gap)."""
        self.step += 1

    # ----------------------------------------------------------------- the model

    def recall(self, state: SkillState, now: float) -> float | None:
        """The predicted chance of recalling ``state`` now, by whole learner days since
        its last review (``None`` if never reviewed)."""
        if not state.reviews:
            return None
        return float(self.model.get_card_retrievability(state.card, _utc(max(now, 0.0))))

    def days_until_due(self, state: SkillState, now: float) -> int:
        """Learner days from ``now`` to the skill's due day (0 or less: due)."""
        return (self.day_of(state.due_at) - self.day_of(now)).days

    def is_due(self, state: SkillState, now: float) -> bool:
        """Whether a seen skill waits for the learner today: missed last time, or its
        review falls on this learner's day or before."""
        if not state.seen:
            return False
        return state.missed or (state.reviews > 0 and self.days_until_due(state, now) <= 0)

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
        if not state.seen:
            return text
        recall = self.recall(state, now)
        if recall is not None and state.review_day != self.day_of(now):
            text += f", recall {recall:.0%}"
        text += f", target {state.target:.1f} s"
        if state.missed:
            return text + ", wrong last time"
        return text + f", {days_words(self.days_until_due(state, now))}"

    def forecast(self, now: float, days: int = 7) -> list[int]:
        """Seen skills due per learner day: today (overdue and missed included), then
        each following day."""
        counts = [0] * days
        for state in self.skills.values():
            if self.is_due(state, now):
                counts[0] += 1
            elif state.seen and state.reviews:
                offset = self.days_until_due(state, now)
                if 0 < offset < days:
                    counts[offset] += 1
        return counts

    def weakest(self, limit: int = 10, now: float | None = None) -> list[SkillState]:
        """The weakest skills, weakest first: those ever missed or answered slowly."""
        at = now if now is not None else max(
            (s.last_at or 0.0 for s in self.skills.values()), default=0.0
        )
        shaky = [s for s in self.skills.values() if s.lapses or s.slow]
        shaky.sort(key=lambda s: (-self.weakness(s, at), s.skill.key))
        return shaky[:limit]

    # ----------------------------------------------------------------- choosing

    def _waited(self, state: SkillState) -> bool:
        return state.last_step is None or self.step - state.last_step >= RETRY_GAP

    def candidates(self, kinds: Sequence[Kind]) -> list[SkillState]:
        """The skills of ``kinds`` that may be chosen (the focus), in teaching order."""
        states = [self.skills[s] for k in kinds for s in self.by_kind.get(k, ())]
        if self.allowed is not None:
            states = [s for s in states if self.allowed(s.skill)]
        return sorted(states, key=lambda s: s.order)

    def new_today(self, now: float) -> int:
        """Skills first answered on the learner's day of ``now``."""
        today = self.day_of(now)
        return sum(
            1 for s in self.skills.values()
            if s.first_at is not None and self.day_of(s.first_at) == today
        )

    def new_this_session(self) -> int:
        """Skills first answered in this session."""
        return sum(1 for s in self.skills.values() if s.first_step is not None)

    def new_left(self, now: float) -> tuple[int | None, NewCap | None]:
        """How many more new skills the caps allow now (``None``: no cap), and, when
        none, the cap that holds (the session's before the day's)."""
        left: int | None = None
        full: NewCap | None = None
        for per_day, cap, used in (
            (False, self.new_per_session, self.new_this_session()),
            (True, self.new_per_day, self.new_today(now)),
        ):
            if cap is not None:
                room = max(cap - used, 0)
                if room == 0 and full is None:
                    full = NewCap(per_day, used, cap)
                left = room if left is None else min(left, room)
        return left, full

    def outlook(self, kinds: Sequence[Kind], now: float) -> Outlook:
        """Skills of ``kinds`` due now, and new ones the caps let this session add."""
        states = self.candidates(kinds)
        fresh = sum(1 for s in states if not s.seen)
        left, _ = self.new_left(now)
        due = sum(1 for s in states if self.is_due(s, now))
        return Outlook(due, fresh if left is None else min(fresh, left))

    def _new_turn(self) -> bool:
        """Whether this question is one of the share kept for new skills."""
        return self.new_this_session() < math.floor(NEW_SHARE * (self.step + 1))

    def choose(self, kinds: Sequence[Kind], now: float, rng: random.Random) -> SkillChoice | None:
        """The next skill among ``kinds`` to ask, and why; ``None`` when caught up."""
        states = self.candidates(kinds)
        rested = [s for s in states if self._waited(s)]
        missed = [s for s in rested if s.missed]
        if missed:
            pick = min(missed, key=lambda s: (s.last_at or 0.0, s.order))
            return SkillChoice(pick.skill, pick.kind,
                          f"wrong last time ({pick.right}/{pick.seen} right so far)")
        due = [s for s in rested if self.is_due(s, now)]
        fresh = [s for s in states if not s.seen]
        left, _ = self.new_left(now)
        may_add = bool(fresh) and (left is None or left > 0)
        if may_add and (not due or self._new_turn()):
            pick = fresh[0]
            return SkillChoice(pick.skill, pick.kind, f"new: never asked ({len(fresh)} new left)")
        if due:
            lowest = min(self.recall(s, now) or 0.0 for s in due)
            pick = rng.choice([s for s in due if (self.recall(s, now) or 0.0) <= lowest + 1e-9])
            why = f"due for review ({self.describe(pick, now)})"
            return SkillChoice(pick.skill, pick.kind, why)
        waiting = [s for s in states if s.missed]
        if waiting:
            pick = min(waiting, key=lambda s: (s.last_at or 0.0, s.order))
            return SkillChoice(pick.skill, pick.kind,
                          "wrong last time, asked again sooner: nothing else is due")
        return None

    def practise(self, kinds: Sequence[Kind], now: float, rng: random.Random) -> SkillChoice | None:
        """Extra practice: a skill already seen and not asked in the last
        :data:`RETRY_GAP` questions (when another is left; never the one just asked
        when there are two), drawn with weight growing
        with its weakness (``None`` when nothing of ``kinds`` was seen yet)."""
        seen = [s for s in self.candidates(kinds) if s.seen]
        if not seen:
            return None
        rested = [s for s in seen if self._waited(s)]
        if not rested and len(seen) > 1:  # at least never the same skill twice running
            latest = max(s.last_step if s.last_step is not None else -1 for s in seen)
            rested = [s for s in seen if s.last_step != latest]
        seen = rested or seen
        weights = [1.0 + 4.0 * self.weakness(s, now) for s in seen]
        pick = rng.choices(seen, weights=weights)[0]
        return SkillChoice(pick.skill, pick.kind,
                      f"extra practice, a weak spot ({self.describe(pick, now)})")
