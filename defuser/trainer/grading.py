"""Grading: an answer judged in its question's notation, within the time limit.

Contract: :func:`grade` asks the question kind's judge (:mod:`defuser.trainer.kinds`,
:mod:`defuser.trainer.judges`) and turns its :class:`~defuser.trainer.judges.Judgement`
into a :class:`~defuser.trainer.model.Grade`. An unreadable answer is graded
``unreadable``; an answer slower than the time limit is graded ``too slow`` whatever
it says (``late_right`` when it was right otherwise).
"""

from __future__ import annotations

from defuser.engine.actions import Action
from defuser.trainer.answers import UnreadableAnswer
from defuser.trainer.judges import Judgement
from defuser.trainer.kinds import spec_of
from defuser.trainer.model import Grade, Question, Verdict


def grade(
    question: Question, text: str, seconds: float, *, time_limit: float | None = None
) -> Grade:
    """Judge the answer ``text`` given after ``seconds``.

    An unreadable answer is graded ``unreadable`` (wrong) with the reader's message as
    the detail. With ``time_limit``, an answer taking longer is graded ``too slow``.
    """
    given = text.strip()
    reading: str | None
    action: Action | None = None
    try:
        judgement: Judgement = spec_of(question.kind).judge(question, given)
    except UnreadableAnswer as exc:
        verdict, reading, detail, loss = Verdict.UNREADABLE, None, str(exc), None
    else:
        verdict, reading = judgement.verdict, judgement.reading
        detail, loss, action = judgement.detail, judgement.loss, judgement.action
    late_right = False
    if time_limit is not None and seconds > time_limit:
        late_right = verdict.correct
        was = f"the answer was {verdict.value}" if reading is not None else "no answer"
        detail = f"{seconds:.1f} s is over the {time_limit:g} s limit ({was})"
        verdict = Verdict.SLOW
    return Grade(
        verdict=verdict,
        given=given,
        reading=reading,
        expected=question.expected,
        reason=question.reason,
        seconds=seconds,
        loss=loss,
        detail=detail,
        late_right=late_right,
        action=action,
    )
