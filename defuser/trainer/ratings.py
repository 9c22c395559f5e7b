"""How one answer becomes an FSRS rating, against a time target that fits the question.

Contract: :func:`rating_for` turns an :class:`AnswerOutcome` (right or not, the answer time,
the reading time the question's length allows, whether a right answer came after the
time limit, whether it was the best answer) into a rating:

- *Again*: wrong (or unreadable);
- *Hard*: right but slower than the target, or right but over ``--time-limit``
  (graded "too slow", yet remembered: not a lapse);
- *Good*: right; also the most any first contact gets, and the most a decision that
  was good but not the best gets;
- *Easy*: right, the best answer, within :data:`EASY_SHARE` of the target, on a skill
  already :func:`proven` (right at its previous review and right at least
  :data:`EASY_AFTER_RIGHT` times before), so speed alone on a lucky guess is never Easy.

A question's target is the skill's own target (:func:`skill_target`: the kind's default
from :mod:`defuser.trainer.kinds`, or :data:`TARGET_SLACK` times the learner's median net
time once they have :data:`TARGET_MIN_ANSWERS` right answers, between
:data:`TARGET_FLOOR` and the default) plus the reading time of its text beyond
:data:`READING_CHARS` characters (:func:`reading_allowance`). Answer times are kept net
of that reading time, so long and short questions of one skill share one target.
"""

from __future__ import annotations

import json
import statistics
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Final

from fsrs import Rating

from defuser.trainer.kinds import KIND_SPECS
from defuser.trainer.skills import Kind

#: Default answer-time targets per kind (seconds): what a fluent expert manages.
DEFAULT_TARGETS: Final[Mapping[Kind, float]] = {
    kind: spec.target_seconds for kind, spec in KIND_SPECS.items()
}
#: A right answer within this share of its target may be rated Easy (about 0.6 of the
#: learner's usual time once the target follows it: clearly fast, not the usual spread).
EASY_SHARE: Final = 0.4
#: Right answers a skill needs before one may be rated Easy.
EASY_AFTER_RIGHT: Final = 2
#: An adapted target is this many times the median of the recent right answers: a
#: steady learner's normal spread stays under it (about 1 answer in 11 above it with a
#: typical spread of 30%).
TARGET_SLACK: Final = 1.5
#: Right answers the adapted target looks back on.
TARGET_WINDOW: Final = 10
#: Right answers a skill needs before its target adapts.
TARGET_MIN_ANSWERS: Final = 5
#: No skill target is tighter than this (seconds): reading the question takes time too.
TARGET_FLOOR: Final = 1.0
#: Characters of question text a kind's default target includes reading; every
#: character beyond adds :data:`READING_SECONDS_PER_CHAR` (a deal history of 20 events
#: takes longer to read than one of 2).
READING_CHARS: Final = 160
READING_SECONDS_PER_CHAR: Final = 0.04


@dataclass(frozen=True, slots=True)
class AnswerOutcome:
    """One answer as the scheduler sees it.

    ``correct`` is the grade (a too-slow answer is not correct); ``late_right`` marks a
    too-slow answer that was right otherwise; ``best`` is false for a right answer that
    was not the best (a decision graded good); ``reading`` is the seconds of the target
    that go to reading the question's text.
    """

    correct: bool
    seconds: float
    at: float
    reading: float = 0.0
    late_right: bool = False
    best: bool = True

    @property
    def net_seconds(self) -> float:
        """The answer time without the question's reading allowance."""
        return max(self.seconds - self.reading, 0.0)


def reading_allowance(text: str) -> float:
    """Seconds added to a target for reading ``text`` beyond :data:`READING_CHARS`."""
    return max(len(text) - READING_CHARS, 0) * READING_SECONDS_PER_CHAR


def stored_reading(question: str) -> float:
    """The reading allowance of a stored question (its JSON ``text``; 0 when the stored
    text is not such an object)."""
    try:
        text = json.loads(question).get("text", "")
    except (ValueError, AttributeError):
        return 0.0
    return reading_allowance(text) if isinstance(text, str) else 0.0


def skill_target(kind: Kind, right_net_seconds: Sequence[float]) -> float:
    """A skill's own target: the kind's default, adapted to the learner's net times."""
    default = DEFAULT_TARGETS[kind]
    if len(right_net_seconds) < TARGET_MIN_ANSWERS:
        return default
    adapted = TARGET_SLACK * statistics.median(right_net_seconds[-TARGET_WINDOW:])
    return max(TARGET_FLOOR, min(default, adapted))


def proven(right_before: int, last_review_right: bool) -> bool:
    """Whether a skill has shown it is known: right at its previous review and right
    at least :data:`EASY_AFTER_RIGHT` times before this answer."""
    return last_review_right and right_before >= EASY_AFTER_RIGHT


def rating_for(outcome: AnswerOutcome, target: float, *, first: bool, known: bool) -> Rating:
    """The FSRS rating of one answer against ``target`` (seconds, reading included).

    ``first`` marks the skill's first review (never above Good); ``known`` whether the
    skill is :func:`proven` (only then may a fast answer be Easy).
    """
    if outcome.late_right:
        return Rating.Hard
    if not outcome.correct:
        return Rating.Again
    if outcome.seconds > target:
        return Rating.Hard
    easy = known and outcome.best and outcome.seconds <= EASY_SHARE * target
    return Rating.Easy if easy and not first else Rating.Good
