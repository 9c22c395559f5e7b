"""The drill kinds, each declared once with every part it needs.

Contract: :data:`KIND_SPECS` maps every :class:`~defuser.trainer.model.Kind` to one
:class:`KindSpec`: how to type an answer, the default answer-time target, the skills in
teaching order, the question generator and the judge. Adding a kind means adding its
:class:`Kind` member and one entry here; ``tests/trainer/test_trainer_kinds.py`` proves every
kind has every part and that the parts agree (each generated question is of its kind
and skill, and its expected answer is judged right).

The generator and the judge are named, not imported: their modules (the decision
questions bring the policy and the simulator with them) load the first time a question
of the kind is asked or judged, so ``mittens stats`` and a table drill start without them.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final, Generic, TypeVar

from defuser.trainer.model import KINDS, Kind, Question, Verdict
from defuser.trainer.skills import (
    CELL_SKILLS,
    CYCLE_SKILLS,
    DECIDE_SKILLS,
    EDGE_SKILLS,
    LEGAL_SKILLS,
    RULE_SKILLS,
    TABLE_SKILLS,
    Skill,
)

S = TypeVar("S", bound=Skill)

#: A judge reads an answer to a question: verdict, reading, detail, loss.
Judge = Callable[[Question, str], tuple[Verdict, str, str, float | None]]


@dataclass(frozen=True, slots=True)
class KindSpec(Generic[S]):
    """Everything one drill kind is made of."""

    kind: Kind
    #: How to type an answer (shown with the question and after unreadable input).
    notation: str
    #: Answer time (seconds) a fluent expert manages while reading the manual aloud;
    #: the scheduler's starting target for the kind's skills.
    target_seconds: float
    #: Every skill of the kind, in the order new skills are introduced.
    skills: tuple[S, ...]
    #: The question generator and the judge, as "module.function" in defuser.trainer.
    generator: str
    judge_name: str

    def generate(self, rng: random.Random, skill: S) -> Question:
        """A new question of this kind training ``skill``."""
        generator: Callable[[random.Random, S], Question] = _function(self.generator)
        return generator(rng, skill)

    def judge(self, question: Question, given: str) -> tuple[Verdict, str, str, float | None]:
        """Verdict, reading, detail and loss of the answer ``given`` to ``question``."""
        judge: Judge = _function(self.judge_name)
        return judge(question, given)


def _function(name: str) -> Any:
    """The function ``module.function`` of defuser.trainer, its module imported now."""
    module, function = name.rsplit(".", 1)
    return getattr(importlib.import_module(f"defuser.trainer.{module}"), function)


KIND_SPECS: Final[dict[Kind, KindSpec[Any]]] = {
    spec.kind: spec
    for spec in (
        KindSpec(
            Kind.TABLE,
            "a table letter: A, B, C or D",
            4.0,
            TABLE_SKILLS,
            "lookups.table_question",
            "grading.judge_table",
        ),
        KindSpec(
            Kind.IDENTIFY,
            "a card type: Nope, Yep, Defuse, Double Play (dp), Attack, Mitten",
            5.0,
            CELL_SKILLS,
            "lookups.identify_question",
            "grading.judge_identify",
        ),
        KindSpec(
            Kind.RULE,
            "a rule letter A-L",
            7.0,
            RULE_SKILLS,
            "lookups.rule_question",
            "grading.judge_rule",
        ),
        KindSpec(
            Kind.LEGAL,
            "the legal slots (like '1 3', or 'none'), then 'discard' if you may discard "
            "(like 'none discard' or '2 discard')",
            10.0,
            LEGAL_SKILLS,
            "lookups.legal_question",
            "grading.judge_legal",
        ),
        KindSpec(
            Kind.DECIDE,
            "an action: draw, discard, play 1/2/3 (or just 1/2/3)",
            12.0,
            DECIDE_SKILLS,
            "situations.decide_question",
            "grading.judge_decide",
        ),
        KindSpec(
            Kind.CYCLE,
            "deals until the mitten is on top (0 = on top now), or a probability "
            "like 1/5, 0.2 or 20%",
            10.0,
            CYCLE_SKILLS,
            "situations.cycle_question",
            "grading.judge_cycle",
        ),
        KindSpec(
            Kind.EDGE,
            "a whole number (batteries, or N), or a table letter A-D",
            6.0,
            EDGE_SKILLS,
            "edge.edge_question",
            "grading.judge_edge",
        ),
    )
}


def spec_of(kind: Kind) -> KindSpec[Any]:
    """The declaration of ``kind``."""
    return KIND_SPECS[kind]


def all_skills() -> dict[Kind, tuple[Skill, ...]]:
    """Every skill of every kind, kinds in teaching order."""
    return {kind: KIND_SPECS[kind].skills for kind in KINDS}


def generate(rng: random.Random, skill: Skill) -> Question:
    """A new question training ``skill``."""
    return KIND_SPECS[skill.kind].generate(rng, skill)
