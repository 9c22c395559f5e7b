"""Spaced repetition per skill, with a reason for every choice.

Each skill sits in a Leitner box. A quick right answer moves it up a box (the next
review comes later: :data:`BOX_INTERVALS`); a slow right answer keeps its box (it comes
back sooner than a quick one would); a wrong answer sends it to box 0, from which it
comes back in the same session after :data:`RETRY_GAP` other questions, and at the
start of the next session.

The state is rebuilt by replaying the stored answers in order (:meth:`Scheduler.review`),
so the answer log is the single source of truth. Choosing (:meth:`Scheduler.choose`)
looks, in order, for: a skill answered wrong (oldest first), a skill whose review is
due (most overdue first), a skill never asked, and otherwise the weakest skills. In
``mixed`` mode the kind is drawn first, weighted by recent mistakes and due skills.
Every choice comes with a one-line reason.
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Final

from defuser.trainer.model import TARGET_SECONDS, Kind

#: Seconds until the next review, per box: box 0 is "now" (a miss), then 10 minutes,
#: an hour, a day, 3 days, a week, 3 weeks, 2 months.
BOX_INTERVALS: Final[tuple[float, ...]] = (
    0.0,
    600.0,
    3600.0,
    86_400.0,
    3 * 86_400.0,
    7 * 86_400.0,
    21 * 86_400.0,
    60 * 86_400.0,
)
TOP_BOX: Final = len(BOX_INTERVALS) - 1

#: A missed skill waits for this many other questions before it is asked again.
RETRY_GAP: Final = 3

#: Answers per kind that the ``mixed`` weighting looks back on.
RECENT_WINDOW: Final = 20


def interval_words(seconds: float) -> str:
    """A review interval in words: ``10 min``, ``1 h``, ``3 days``."""
    if seconds < 60:
        return "now"
    if seconds < 3600:
        return f"{seconds / 60:.0f} min"
    if seconds < 86_400:
        return f"{seconds / 3600:.0f} h"
    days = seconds / 86_400
    return f"{days:.0f} day{'s' if round(days) != 1 else ''}"


@dataclass(slots=True)
class SkillState:
    """What the scheduler knows about one skill."""

    skill: str
    kind: Kind
    seen: int = 0
    right: int = 0
    lapses: int = 0
    slow: int = 0
    box: int = 0
    last_at: float | None = None
    last_right: bool = False
    last_seconds: float = 0.0
    #: The session question number of the last answer (``None`` when from earlier).
    last_step: int | None = None
    seconds: list[float] = field(default_factory=list)

    @property
    def due_at(self) -> float:
        """When the next review is due (wall-clock seconds)."""
        return (self.last_at or 0.0) + BOX_INTERVALS[self.box]

    @property
    def accuracy(self) -> float:
        """Share of right answers, smoothed towards 1/2 for skills seen rarely."""
        return (self.right + 1) / (self.seen + 2)

    @property
    def missed(self) -> bool:
        """Whether the last answer was wrong (the skill waits in box 0)."""
        return self.seen > 0 and not self.last_right

    def weakness(self) -> float:
        """A score for ranking weak skills: higher is weaker.

        Low box, low accuracy, many lapses and slow answers all count; a skill never
        seen scores 0 (unknown is not weak).
        """
        if self.seen == 0:
            return 0.0
        slow_share = self.slow / self.seen
        return (
            (1 - self.accuracy) * 2
            + (TOP_BOX - self.box) / TOP_BOX
            + 0.3 * min(self.lapses, 5)
            + 0.5 * slow_share
            + (1.0 if self.missed else 0.0)
        )

    def describe(self, now: float) -> str:
        """The skill's record in a few words, for ``mittens stats`` and choice reasons."""
        text = f"{self.right}/{self.seen} right, box {self.box}"
        if self.lapses:
            text += f", {self.lapses} miss{'es' if self.lapses != 1 else ''}"
        if self.seen:
            if self.missed:
                text += ", wrong last time"
            elif self.due_at <= now:
                text += ", due now"
            else:
                text += f", due in {interval_words(self.due_at - now)}"
        return text


@dataclass(frozen=True, slots=True)
class Choice:
    """A chosen skill and why it was chosen."""

    skill: str
    kind: Kind
    why: str


class Scheduler:
    """Spaced repetition over a fixed set of skills per kind."""

    def __init__(self, skills: Mapping[Kind, Sequence[str]]) -> None:
        """``skills`` lists every skill of every kind that can be asked."""
        self.skills: dict[str, SkillState] = {}
        self.by_kind: dict[Kind, list[str]] = {}
        for kind, names in skills.items():
            self.by_kind[kind] = list(names)
            for name in names:
                self.skills[name] = SkillState(name, kind)
        self.recent: dict[Kind, deque[bool]] = {
            k: deque(maxlen=RECENT_WINDOW) for k in skills
        }
        self.step = 0

    def review(
        self,
        skill: str,
        correct: bool,
        seconds: float,
        at: float,
        *,
        in_session: bool = False,
    ) -> None:
        """Record one answer: move the skill between boxes.

        A skill outside the scheduler's set (say, from a newer version's log) is kept
        for the record but never chosen. ``in_session`` marks answers of the running
        session, whose retry gap counts questions.
        """
        state = self.skills.get(skill)
        if state is None:
            kind = _kind_of(skill)
            if kind is None:
                return
            state = self.skills[skill] = SkillState(skill, kind)
        slow = seconds > TARGET_SECONDS[state.kind]
        state.seen += 1
        state.last_at = at
        state.last_seconds = seconds
        state.seconds.append(seconds)
        state.last_step = self.step if in_session else None
        state.last_right = correct
        if state.kind in self.recent:
            self.recent[state.kind].append(correct)
        if correct:
            state.right += 1
            if slow:
                state.slow += 1
                state.box = max(state.box, 1)
            else:
                state.box = min(state.box + 1, TOP_BOX)
        else:
            state.lapses += 1
            state.box = 0

    def replay(self, answers: Iterable[tuple[str, bool, float, float]]) -> None:
        """Review stored answers ``(skill, correct, seconds, at)`` in the order given."""
        for skill, correct, seconds, at in answers:
            self.review(skill, correct, seconds, at)

    def advance(self) -> None:
        """Count one question asked in this session (for the retry gap)."""
        self.step += 1

    # ----------------------------------------------------------------- choosing

    def _waited(self, state: SkillState) -> bool:
        return state.last_step is None or self.step - state.last_step >= RETRY_GAP

    def choose_in(self, kind: Kind, now: float, rng: random.Random) -> Choice:
        """The skill of ``kind`` to ask next, and why."""
        states = [self.skills[s] for s in self.by_kind[kind]]
        rested = [s for s in states if self._waited(s)] or states
        missed = [s for s in rested if s.missed]
        if missed:
            pick = min(missed, key=lambda s: (s.last_at or 0.0, s.skill))
            record = f"{pick.right}/{pick.seen} right so far"
            return Choice(pick.skill, kind, f"wrong last time ({record})")
        due = [s for s in rested if s.seen and s.due_at <= now]
        if due:
            def overdue(s: SkillState) -> float:
                return (now - s.due_at) / max(BOX_INTERVALS[s.box], 1.0)

            top = max(overdue(s) for s in due)
            pick = rng.choice([s for s in due if overdue(s) >= top - 1e-9])
            return Choice(pick.skill, kind, f"due for review ({pick.describe(now)})")
        fresh = [s for s in rested if not s.seen]
        if fresh:
            pick = rng.choice(fresh)
            return Choice(pick.skill, kind, f"new: never asked ({len(fresh)} new left)")
        weights = [1.0 + 4.0 * s.weakness() for s in rested]
        pick = rng.choices(rested, weights=weights)[0]
        return Choice(
            pick.skill, kind, f"nothing due; practising a weak spot ({pick.describe(now)})"
        )

    def kind_weight(self, kind: Kind, now: float) -> tuple[float, str]:
        """The ``mixed`` weight of ``kind`` and what it is made of."""
        recent = self.recent.get(kind) or deque()
        errors = (len(recent) - sum(recent)) / len(recent) if recent else 0.0
        states = [self.skills[s] for s in self.by_kind[kind]]
        pending = sum(1 for s in states if s.missed or (s.seen and s.due_at <= now))
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

    def weakest(self, limit: int = 10) -> list[SkillState]:
        """The weakest skills, weakest first: those ever missed or answered slowly."""
        shaky = [s for s in self.skills.values() if s.lapses or s.slow]
        shaky.sort(key=lambda s: (-s.weakness(), s.skill))
        return shaky[:limit]


def _kind_of(skill: str) -> Kind | None:
    head = skill.split(":", 1)[0]
    try:
        return Kind(head)
    except ValueError:
        return None
