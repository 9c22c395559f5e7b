"""The trainer's vocabulary: questions, their options and answers, and grades.

How each kind is asked and judged is declared once per kind in
:mod:`defuser.trainer.kinds`. A :class:`Question` carries everything needed to ask
it, to check an answer and to explain the right one: the prompt, the situation as
typed facts (:mod:`defuser.trainer.facts`), the expected answer as a typed value
(:data:`~defuser.trainer.answers.Answer`, whose text is the drill notation), and the
reason (the table cell or rule text it comes from). A :class:`Grade` is the verdict on one
answer. Every question is of one drill :class:`~defuser.trainer.skills.Kind` and trains
one *skill* (:mod:`defuser.trainer.skills`: a table, a
Table A-D cell, a Table E cell, a rule letter, a kind of decision, a kind of cycle
question); the scheduler spaces repetitions per skill.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Any, Final

from defuser.engine.actions import Action
from defuser.trainer.answers import Answer
from defuser.trainer.facts import QuestionFacts
from defuser.trainer.skills import Kind, Skill
from edgework import RuleLetter


class DrillMode(enum.StrEnum):
    """What a drill session asks: one kind of question, ``mixed`` (every kind, as the
    schedule says) or ``game`` (whole simulated modules, every click a ``decide``
    question). Equal to and printed as its ``--mode`` word."""

    TABLE = "table"
    IDENTIFY = "identify"
    RULE = "rule"
    LEGAL = "legal"
    DECIDE = "decide"
    CYCLE = "cycle"
    EDGE = "edge"
    MIXED = "mixed"
    GAME = "game"

    @property
    def kind(self) -> Kind | None:
        """The one kind this mode asks, or ``None`` for ``mixed`` and ``game``."""
        return None if self in (DrillMode.MIXED, DrillMode.GAME) else Kind(self.value)


#: ``--mode`` values: every kind (in teaching order), ``mixed`` and ``game``.
MODES: Final[tuple[str, ...]] = tuple(m.value for m in DrillMode)


@dataclass(frozen=True, slots=True)
class Option:
    """One candidate action of a ``decide`` question and what it is worth.

    ``expected_clicks`` counts this click and every later one to the solve, playing
    optimally afterwards (a strike costs its click and moves nothing); it is ``None``
    only when the solve cannot be reached at all. ``strike_risk`` is the chance that
    the click strikes; any risk makes the action a blunder, whatever its clicks.
    """

    action: Action
    expected_clicks: float | None
    strike_risk: float
    note: str = ""

    def to_json(self) -> dict[str, Any]:
        """The option as a JSON object."""
        return {
            "action": str(self.action),
            "expected_clicks": self.expected_clicks,
            "strike_risk": self.strike_risk,
            "note": self.note,
        }


@dataclass(frozen=True, slots=True)
class Question:
    """One drill question, with its expected answer and the reason for it.

    ``facts`` is the situation as typed values (the serial number, cards, the hand,
    ...), one dataclass per kind; their JSON beside the text lets a script check the
    expected answer independently. ``rule`` is the rule letter in
    force, when the question has one, for the per-rule statistics. ``options`` lists the
    candidate actions of a ``decide`` question and ``cycle`` the state of the mitten
    cycle it was decided in. ``why`` says why the scheduler chose it.
    """

    kind: Kind
    skill: Skill
    text: str
    facts: QuestionFacts
    answer: Answer
    reason: str
    rule: RuleLetter | None = None
    options: tuple[Option, ...] = ()
    why: str = ""
    #: For a decision: where the mitten cycle stands, in a player's terms.
    cycle: str = ""

    @property
    def expected(self) -> str:
        """The expected answer in the drill notation (as shown and stored)."""
        return str(self.answer)

    def to_json(self) -> dict[str, Any]:
        """The question (without any answer) as a JSON object."""
        obj: dict[str, Any] = {"text": self.text, **self.facts.to_json()}
        if self.options:
            obj["options"] = [o.to_json() for o in self.options]
        return obj


class Verdict(enum.Enum):
    """The grade of one answer. ``decide`` answers use the five-step scale."""

    RIGHT = "right"
    WRONG = "wrong"
    BEST = "best"
    GOOD = "good"
    INACCURACY = "inaccuracy"
    MISTAKE = "mistake"
    BLUNDER = "blunder"
    SLOW = "too slow"
    UNREADABLE = "unreadable"

    def __str__(self) -> str:
        return self.value

    @property
    def correct(self) -> bool:
        """Whether the answer counts as right (for accuracy and the scheduler)."""
        return self in (Verdict.RIGHT, Verdict.BEST, Verdict.GOOD)


@dataclass(frozen=True, slots=True)
class Grade:
    """The verdict on one answer.

    ``given`` is the answer as typed; ``reading`` how the parser read it (``None`` when
    it could not). ``loss`` is the expected-click loss of a ``decide`` answer against
    the best action (``None`` when the answer risks a strike or is not a decide).
    ``late_right`` marks a ``too slow`` answer that was right otherwise (the scheduler
    rates it Hard: remembered, but slowly). ``action`` is the click a ``decide`` answer
    was read as (``None`` for other kinds, or when it could not be read): what a game
    plays.
    """

    verdict: Verdict
    given: str
    reading: str | None
    expected: str
    reason: str
    seconds: float
    loss: float | None = None
    detail: str = ""
    late_right: bool = False
    action: Action | None = None

    @property
    def correct(self) -> bool:
        """Whether the answer counts as right."""
        return self.verdict.correct


@dataclass(slots=True)
class Answered:
    """A question together with its grade, as a session keeps it."""

    question: Question
    grade: Grade
    at: float = field(default=0.0)
    #: The FSRS rating (1 Again, 2 Hard, 3 Good, 4 Easy; ``None`` when the answer was
    #: no review: a later answer of the skill that day, or extra practice) and the
    #: answer-time target it was measured against.
    rating: int | None = None
    target: float | None = None

    @property
    def slow(self) -> bool:
        """Whether a right answer took longer than its target."""
        return self.target is not None and self.grade.correct and (
            self.grade.seconds > self.target
        )

    def to_json(self, number: int) -> dict[str, Any]:
        """The ``--json`` object for this question: question, expected, given, grade."""
        grade = self.grade
        return {
            "n": number,
            "kind": self.question.kind.value,
            "skill": self.question.skill.key,
            "question": self.question.to_json(),
            "expected": grade.expected,
            "given": grade.given,
            "reading": grade.reading,
            "grade": grade.verdict.value,
            "correct": grade.correct,
            "loss": grade.loss,
            "reason": grade.reason,
            "detail": grade.detail,
            "seconds": round(grade.seconds, 3),
            "rule": self.question.rule,
            "why": self.question.why,
            "rating": self.rating,
            "target_seconds": None if self.target is None else round(self.target, 3),
        }
