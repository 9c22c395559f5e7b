"""The drill's values as JSON state, and back: questions, their expected answers and
the graded answers of a session.

Contract: :func:`question_state` and :func:`answered_state` give JSON-ready values that
:func:`question_from_state` and :func:`answered_from_state` turn back into equal
values, so a drill session can be kept as JSON between two requests of a web page and
rebuilt (:meth:`defuser.trainer.drill_session.DrillSession.from_state`). A value that
does not have the shape written here is a :class:`StateError`, naming what is wrong.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from defuser.engine.actions import Action
from defuser.errors import DefuserError
from defuser.trainer.answers import (
    Answer,
    CountAnswer,
    LegalAnswer,
    ProbabilityAnswer,
    RuleAnswer,
    TableAnswer,
)
from defuser.trainer.facts import facts_from_json
from defuser.trainer.model import Answered, Grade, Option, Question, Verdict
from defuser.trainer.skills import Kind, parse_skill
from edgework import CardType, EdgeworkError, RuleLetter, TableLetter


class StateError(DefuserError):
    """A drill state that cannot be read back; the message says which part."""


def answer_state(answer: Answer) -> dict[str, Any]:
    """An expected answer as JSON: one key naming its type, holding its value."""
    if isinstance(answer, TableAnswer):
        return {"table": answer.letter}
    if isinstance(answer, RuleAnswer):
        return {"rule": answer.letter}
    if isinstance(answer, CardType):
        return {"type": answer.value}
    if isinstance(answer, LegalAnswer):
        return {"slots": list(answer.slots), "discard": answer.discard}
    if isinstance(answer, Action):
        return {"action": str(answer)}
    if isinstance(answer, CountAnswer):
        return {"count": answer.count}
    return {"probability": str(answer.probability)}


def answer_from_state(state: dict[str, Any]) -> Answer:
    """The expected answer :func:`answer_state` wrote."""
    if "table" in state:
        return TableAnswer(TableLetter(str(state["table"])))
    if "rule" in state:
        return RuleAnswer(RuleLetter(str(state["rule"])))
    if "type" in state:
        return CardType(state["type"])
    if "slots" in state:
        return LegalAnswer(tuple(int(s) for s in state["slots"]), bool(state["discard"]))
    if "action" in state:
        return Action.parse(str(state["action"]))
    if "count" in state:
        return CountAnswer(int(state["count"]))
    if "probability" in state:
        return ProbabilityAnswer(Fraction(str(state["probability"])))
    raise StateError(f"expected answer {state!r} has none of the known answer keys")


def question_state(question: Question) -> dict[str, Any]:
    """A question with its expected answer, reason and options, as JSON."""
    return {
        "kind": question.kind.value,
        "skill": question.skill.key,
        "text": question.text,
        "facts": question.facts.to_json(),
        "answer": answer_state(question.answer),
        "reason": question.reason,
        "rule": question.rule,
        "options": [o.to_json() for o in question.options],
        "why": question.why,
        "cycle": question.cycle,
    }


def question_from_state(state: dict[str, Any]) -> Question:
    """The question :func:`question_state` wrote."""
    skill = parse_skill(str(state["skill"]))
    if skill is None:
        raise StateError(f"question state names an unknown skill {state['skill']!r}")
    kind = Kind(state["kind"])
    try:
        facts = facts_from_json(kind, state["facts"])
    except EdgeworkError as exc:
        raise StateError(f"question state's facts do not read back ({exc})") from exc
    return Question(
        kind=kind,
        skill=skill,
        text=str(state["text"]),
        facts=facts,
        answer=answer_from_state(state["answer"]),
        reason=str(state["reason"]),
        rule=state["rule"],
        options=tuple(
            Option(Action.parse(o["action"]), o["expected_clicks"], float(o["strike_risk"]),
                   str(o["note"]))
            for o in state["options"]
        ),
        why=str(state["why"]),
        cycle=str(state["cycle"]),
    )


def answered_state(answered: Answered) -> dict[str, Any]:
    """A graded answer of a session (its question, grade, time, rating and target)."""
    grade = answered.grade
    return {
        "question": question_state(answered.question),
        "grade": {
            "verdict": grade.verdict.value, "given": grade.given, "reading": grade.reading,
            "expected": grade.expected, "reason": grade.reason, "seconds": grade.seconds,
            "loss": grade.loss, "detail": grade.detail, "late_right": grade.late_right,
        },
        "at": answered.at,
        "rating": answered.rating,
        "target": answered.target,
    }


def answered_from_state(state: dict[str, Any]) -> Answered:
    """The graded answer :func:`answered_state` wrote (a ``decide`` answer's click
    read again from its reading, the drill notation it was written in)."""
    grade = state["grade"]
    question = question_from_state(state["question"])
    reading = grade["reading"]
    action = (Action.parse(str(reading))
              if question.kind is Kind.DECIDE and reading is not None else None)
    return Answered(
        question,
        Grade(
            verdict=Verdict(grade["verdict"]), given=str(grade["given"]),
            reading=grade["reading"], expected=str(grade["expected"]),
            reason=str(grade["reason"]), seconds=float(grade["seconds"]),
            loss=grade["loss"], detail=str(grade["detail"]),
            late_right=bool(grade.get("late_right", False)), action=action,
        ),
        float(state["at"]),
        rating=state["rating"],
        target=state["target"],
    )
