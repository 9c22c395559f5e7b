"""The drill kinds, each declared once with every part it needs.

Contract: :data:`KIND_SPECS` maps every :class:`~defuser.trainer.skills.Kind` to one
:class:`KindSpec`: how to type an answer, the default answer-time target, the skills in
teaching order, the question generator and the judge. Adding a kind means adding its
:class:`Kind` member and one entry here; ``tests/trainer/test_trainer_kinds.py`` proves every
kind has every part and that the parts agree (each generated question is of its kind
and skill, and its expected answer is judged right).

The generator and the judge are typed callables. The ``decide`` and ``cycle``
generators are small functions here that import :mod:`defuser.trainer.situations` (and
with it the policy and the simulator) the first time such a question is asked, so
``mittens stats`` and a table drill start without them.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final, Generic, TypeVar

from defuser.trainer.edge import edge_question
from defuser.trainer.judges import (
    Judgement,
    judge_cycle,
    judge_decide,
    judge_edge,
    judge_identify,
    judge_legal,
    judge_rule,
    judge_table,
)
from defuser.trainer.lookups import (
    identify_question,
    legal_question,
    rule_question,
    table_question,
)
from defuser.trainer.model import Question
from defuser.trainer.skills import (
    CELL_SKILLS,
    CYCLE_SKILLS,
    DECIDE_SKILLS,
    EDGE_SKILLS,
    KINDS,
    LEGAL_SKILLS,
    RULE_SKILLS,
    TABLE_SKILLS,
    CycleSkill,
    DecideSkill,
    Kind,
    Skill,
)

S = TypeVar("S", bound=Skill)

#: A judge reads an answer to a question.
Judge = Callable[[Question, str], Judgement]


def decide_question(rng: random.Random, skill: DecideSkill) -> Question:
    """A ``decide`` question (loads the policy and the simulator on first use)."""
    from defuser.trainer.situations import decide_question as make

    return make(rng, skill)


def cycle_question(rng: random.Random, skill: CycleSkill) -> Question:
    """A ``cycle`` question (loads the belief and the simulator on first use)."""
    from defuser.trainer.situations import cycle_question as make

    return make(rng, skill)


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
    #: The question generator and the judge.
    generator: Callable[[random.Random, S], Question]
    judge: Judge

    def generate(self, rng: random.Random, skill: S) -> Question:
        """A new question of this kind training ``skill``."""
        return self.generator(rng, skill)


KIND_SPECS: Final[dict[Kind, KindSpec[Any]]] = {
    spec.kind: spec
    for spec in (
        KindSpec(
            Kind.TABLE,
            "a table letter: A, B, C or D",
            4.0,
            TABLE_SKILLS,
            table_question,
            judge_table,
        ),
        KindSpec(
            Kind.IDENTIFY,
            "a card type: Nope, Yep, Defuse, Double Play (dp), Attack, Mitten",
            5.0,
            CELL_SKILLS,
            identify_question,
            judge_identify,
        ),
        KindSpec(
            Kind.RULE,
            "a rule letter A-L",
            7.0,
            RULE_SKILLS,
            rule_question,
            judge_rule,
        ),
        KindSpec(
            Kind.LEGAL,
            "the legal slots (like '1 3', or 'none'), then 'discard' if you may discard "
            "(like 'none discard' or '2 discard')",
            10.0,
            LEGAL_SKILLS,
            legal_question,
            judge_legal,
        ),
        KindSpec(
            Kind.DECIDE,
            "an action: draw, discard, play 1/2/3 (or just 1/2/3)",
            12.0,
            DECIDE_SKILLS,
            decide_question,
            judge_decide,
        ),
        KindSpec(
            Kind.CYCLE,
            "deals until the mitten is on top (0 = on top now), or a probability "
            "like 1/5, 0.2 or 20%",
            10.0,
            CYCLE_SKILLS,
            cycle_question,
            judge_cycle,
        ),
        KindSpec(
            Kind.EDGE,
            "a whole number (batteries, or N), or a table letter A-D",
            6.0,
            EDGE_SKILLS,
            edge_question,
            judge_edge,
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
