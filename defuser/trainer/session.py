"""A drill's questions and answers: choose a question, store a graded answer, summarise.

Contract: the FSRS scheduler is primed with every stored answer and updated after each
answer of this session; every answer is stored with the target it was measured against
and, when it is the skill's review of the learner's day, with its rating (``None``
otherwise: a later answer that day, or extra practice). Without a seed, the next skill
comes from the scheduler, and :meth:`Drill.next_question` returns ``None`` when the
learner is caught up (nothing due, no new skill allowed); an extra-practice drill
(``practice``) asks weak spots instead, and its session is stored with its mode marked
(:func:`~defuser.trainer.report.practice_mode`) so that its answers stay out of the
schedule. With a seed, the questions are a fixed function of the seed and the mode,
whatever the answers and the stored history (so a script can replay them); answers are
still stored and rated. The caller (:mod:`defuser.trainer.drill_session`) does the
loop, measures the answer time and grades; :meth:`Drill.record` writes each answer in
its own transaction before returning, exactly once.
"""

from __future__ import annotations

import enum
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any, Final

from fsrs import Rating

from defuser.errors import DefuserError
from defuser.trainer.focus import Focus, focus_on
from defuser.trainer.kinds import generate, spec_of
from defuser.trainer.model import Answered, DrillMode, Grade, Question, Verdict
from defuser.trainer.ratings import AnswerOutcome, reading_allowance
from defuser.trainer.report import Tally, build_scheduler, percentile, practice_mode
from defuser.trainer.scheduler import NewCap, Outlook, Scheduler
from defuser.trainer.settings import Settings, load_settings
from defuser.trainer.skills import (
    KINDS,
    MIXED_KINDS,
    Kind,
    Skill,
    SkillTable,
    parse_skill,
    skill_table,
)
from defuser.trainer.states import answered_from_state, answered_state
from defuser.trainer.store import AnswerRecord, AnswerRow, Store
from edgework import RuleLetter

#: Makes a question for a skill (the registry's generator, or a test's stand-in).
Generator = Callable[[random.Random, Skill], Question]


def kinds_for(mode: DrillMode, *, seeded: bool = False) -> tuple[Kind, ...]:
    """The kinds a ``--mode`` asks: one kind, all of them for ``mixed`` (a seeded mixed
    drill leaves the ``edge`` readings out, as it always did), decisions for ``game``."""
    if mode is DrillMode.MIXED:
        return MIXED_KINDS if seeded else KINDS
    if mode is DrillMode.GAME:
        return (Kind.DECIDE,)
    assert mode.kind is not None
    return (mode.kind,)


SEEDED_WHY: Final = "drawn from the seed (a seeded drill does not adapt)"


class CaughtUpReason(enum.Enum):
    """Why a drill has nothing left to ask."""

    #: Nothing due today and no new skill allowed (the schedule is done for now).
    SCHEDULE_DONE = "schedule done"
    #: Extra practice, but no skill of the drill has been asked yet.
    NOTHING_TO_PRACTISE = "nothing to practise"


@dataclass(frozen=True, slots=True)
class CaughtUpWhy:
    """Why a drill has nothing left to ask, and the cap on new skills that holds
    (``None``: none holds, or extra practice)."""

    reason: CaughtUpReason
    cap: NewCap | None = None


class FocusError(DefuserError):
    """A drill's focus leaves nothing to ask; the message says what was asked for."""


class Drill:
    """One session of drill questions of a mode (a kind, or ``mixed``)."""

    def __init__(
        self,
        mode: DrillMode,
        *,
        store: Store | None,
        seed: int | None = None,
        time_limit: float | None = None,
        history: Sequence[AnswerRow] = (),
        clock: Callable[[], float] = time.time,
        kinds: Sequence[Kind] | None = None,
        maker: Generator = generate,
        settings: Settings | None = None,
        tables: Sequence[SkillTable] = (),
        rules: Sequence[RuleLetter] = (),
        weakest: int | None = None,
        focus: Focus | None = None,
        session_id: int | None = None,
        practice: bool = False,
    ) -> None:
        """Start a session; ``history`` primes the scheduler (whose choices a seed
        overrides); ``settings`` are the learner's (retention, new-skill caps, day
        start); ``practice`` makes it extra practice, kept out of the schedule;
        ``kinds`` narrows the mode's kinds; ``maker`` makes the questions; ``tables``,
        ``rules`` and ``weakest`` focus the drill (:mod:`defuser.trainer.focus`), or
        ``focus`` as it was resolved before; ``session_id`` continues a stored session
        instead of starting one. Raises :class:`FocusError` before anything is stored
        when the focus leaves nothing to ask."""
        self.mode = mode
        self.maker = maker
        self.seed = seed
        self.time_limit = time_limit
        self.clock = clock
        self.rng = random.Random(seed)
        self.store = store
        self.practice = practice
        self.settings = settings or Settings()
        self.scheduler: Scheduler = build_scheduler(history, self.settings)
        self.focus = focus if focus is not None else focus_on(
            self.scheduler, tables=tables, rules=rules, weakest=weakest, now=clock()
        )
        if not self.focus.empty:
            self.scheduler.allowed = self.focus.allows
        self.kinds = tuple(
            k for k in kinds_for(mode, seeded=seed is not None)
            if (kinds is None or k in kinds) and self._focused(k)
        )
        if not self.kinds:
            raise FocusError(
                f"mode {mode} has nothing to ask in the focus on {self.focus.words()}"
                + (" (no skill has been missed or answered slowly yet)"
                   if weakest is not None and not self.focus.weakest else "")
            )
        self.answered: list[Answered] = []
        #: The scheduler's question count when each answer was given.
        self.steps: list[int] = []
        if session_id is None and store is not None:
            stored_mode = practice_mode(mode.value) if practice else mode.value
            session_id = store.start_session(stored_mode, seed, clock())
        self.session_id = session_id

    def _focused(self, kind: Kind) -> list[Skill]:
        """The skills of ``kind`` in the focus."""
        return [s for s in spec_of(kind).skills if self.focus.allows(s)]

    def outlook(self) -> Outlook:
        """What this drill can ask now: skills due and new skills allowed."""
        return self.scheduler.outlook(self.kinds, self.clock())

    def caught_up(self) -> CaughtUpWhy:
        """Why nothing is left to ask: nothing seen yet to practise, or nothing due and
        no new skill allowed (with the cap that holds, if one does)."""
        if self.practice:
            return CaughtUpWhy(CaughtUpReason.NOTHING_TO_PRACTISE)
        _, cap = self.scheduler.new_left(self.clock())
        return CaughtUpWhy(CaughtUpReason.SCHEDULE_DONE, cap)

    def next_question(self) -> Question | None:
        """The next question, with the reason it was chosen in ``why``; ``None`` when
        the learner is caught up (or, in extra practice, has seen nothing yet)."""
        if self.seed is not None:
            kind = self.rng.choice(self.kinds)
            skills = spec_of(kind).skills if self.focus.empty else self._focused(kind)
            skill: Skill = self.rng.choice(skills)
            why = SEEDED_WHY
        else:
            pick = self.scheduler.practise if self.practice else self.scheduler.choose
            choice = pick(self.kinds, self.clock(), self.rng)
            if choice is None:
                return None
            kind, skill, why = choice.kind, choice.skill, choice.why
        question = self.maker(self.rng, skill)
        self.scheduler.advance()
        return _with_why(question, why)

    def target(self, question: Question) -> float:
        """The answer-time target of the question's skill now (seconds)."""
        return self.scheduler.target(question.skill, reading_allowance(question.text))

    def record(self, question: Question, result: Grade) -> Rating | None:
        """Store a graded answer, rated against its target when it is the skill's
        review of the day, and let the scheduler learn from it; returns the rating
        (``None``: no review)."""
        at = self.clock()
        target = self.target(question)
        answered = Answered(question, result, at, target=target)
        rating = self.scheduler.rate(question.skill, outcome_of(answered),
                                     practice=self.practice)
        answered.rating = None if rating is None else int(rating)
        if self.store is not None and self.session_id is not None:
            self.store.record(
                self.session_id,
                AnswerRecord(
                    at=at,
                    kind=question.kind.value,
                    skill=question.skill.key,
                    rule=question.rule,
                    question=question.to_json(),
                    expected=result.expected,
                    given=result.given,
                    grade=result.verdict.value,
                    correct=result.correct,
                    seconds=result.seconds,
                    loss=result.loss,
                    rating=answered.rating,
                    target=target,
                ),
            )
        self._learn(answered)
        return rating

    def _learn(self, answered: Answered) -> None:
        """Let the scheduler learn from an answer of this session, and keep it: what
        :meth:`record` does after storing, and :meth:`from_state` again for each answer
        of a rebuilt drill."""
        rating = None if answered.rating is None else Rating(answered.rating)
        self.scheduler.review(
            answered.question.skill, outcome_of(answered), rating=rating, in_session=True,
            practice=self.practice,
        )
        self.answered.append(answered)
        self.steps.append(self.scheduler.step)

    def finish(self) -> None:
        """Mark the session as ended in the store."""
        if self.store is not None and self.session_id is not None:
            self.store.end_session(self.session_id, self.clock())

    def summary(self) -> list[Tally]:
        """Accuracy and answer times (median, 90th percentile) per kind of this session."""
        return session_summary(self.answered)

    def state(self) -> dict[str, Any]:
        """The drill as JSON: its options, resolved focus, stored session, random
        source, and this session's answers (the schedule is rebuilt from them and the
        store's other answers)."""
        weakest = self.focus.weakest
        version, internal, gauss = self.rng.getstate()
        return {
            "mode": self.mode.value,
            "practice": self.practice,
            "seed": self.seed,
            "time_limit": self.time_limit,
            "settings": self.settings.items(),
            "tables": list(self.focus.tables),
            "rules": list(self.focus.rules),
            "weakest": None if weakest is None else sorted(s.key for s in weakest),
            "kinds": [k.value for k in self.kinds],
            "session": self.session_id,
            "rng": [version, list(internal), gauss],
            "step": self.scheduler.step,
            "answered": [answered_state(a) for a in self.answered],
            "steps": list(self.steps),
        }

    @classmethod
    def from_state(
        cls,
        state: dict[str, Any],
        store: Store | None,
        *,
        clock: Callable[[], float] = time.time,
        maker: Generator = generate,
    ) -> Drill:
        """The drill :meth:`state` describes, on ``store``: the schedule primed with
        the store's answers of other sessions, then this session's answers replayed
        as they were learnt; the random source where it was."""
        session_id = state["session"]
        history = [] if store is None else [
            r for r in store.answers() if r.session_id != session_id
        ]
        weakest = state["weakest"]
        focus = Focus(tuple(map(skill_table, state["tables"])),
                      tuple(map(RuleLetter, state["rules"])),
                      None if weakest is None
                      else frozenset(filter(None, map(parse_skill, weakest))))
        drill = cls(
            DrillMode(state["mode"]), store=store, seed=state["seed"],
            time_limit=state["time_limit"],
            history=history, clock=clock, kinds=[Kind(k) for k in state["kinds"]],
            maker=maker, settings=load_settings(state["settings"]), focus=focus,
            session_id=session_id, practice=bool(state.get("practice", False)),
        )
        for answered, step in zip(state["answered"], state["steps"], strict=True):
            drill.scheduler.step = int(step)
            drill._learn(answered_from_state(answered))
        drill.scheduler.step = int(state["step"])
        version, internal, gauss = state["rng"]
        drill.rng.setstate((version, tuple(internal), gauss))
        return drill


def outcome_of(answered: Answered) -> AnswerOutcome:
    """An answer as the scheduler sees it: right or not, its time and the question's
    reading allowance, right but late, the best answer or not."""
    grade = answered.grade
    return AnswerOutcome(
        correct=grade.correct, seconds=grade.seconds, at=answered.at,
        reading=reading_allowance(answered.question.text), late_right=grade.late_right,
        best=grade.verdict is not Verdict.GOOD,
    )


def session_summary(answered: Sequence[Answered]) -> list[Tally]:
    """Per-kind accuracy, median and 90th-percentile answer time, mean decide loss."""
    result = []
    for kind in KINDS:
        mine = [a for a in answered if a.question.kind is kind]
        if not mine:
            continue
        seconds = [a.grade.seconds for a in mine]
        losses = [a.grade.loss for a in mine if a.grade.loss is not None]
        result.append(
            Tally(
                kind.value,
                len(mine),
                sum(a.grade.correct for a in mine),
                percentile(seconds, 50),
                percentile(seconds, 90),
                sum(losses) / len(losses) if losses else None,
            )
        )
    if len(result) > 1:
        seconds = [a.grade.seconds for a in answered]
        result.append(
            Tally(
                "all",
                len(answered),
                sum(a.grade.correct for a in answered),
                percentile(seconds, 50),
                percentile(seconds, 90),
            )
        )
    return result


def _with_why(question: Question, why: str) -> Question:
    return replace(question, why=why)
