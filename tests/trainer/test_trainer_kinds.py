"""The drill-kind registry: every kind is declared once, with every part, and the
parts agree with each other."""

from __future__ import annotations

import dataclasses
import random

import pytest

from defuser.trainer.grading import grade
from defuser.trainer.kinds import KIND_SPECS, KindSpec, all_skills, generate
from defuser.trainer.model import MODES, DrillMode
from defuser.trainer.skills import KINDS, Kind, parse_skill


def test_every_kind_has_exactly_one_declaration() -> None:
    assert set(KIND_SPECS) == set(Kind)
    for kind, spec in KIND_SPECS.items():
        assert spec.kind is kind
    assert list(all_skills()) == list(KINDS)
    assert set(MODES) == {k.value for k in Kind} | {"mixed", "game"}


@pytest.mark.parametrize("kind", list(Kind), ids=str)
def test_every_declaration_has_every_part(kind: Kind) -> None:
    spec = KIND_SPECS[kind]
    for part in dataclasses.fields(KindSpec):
        assert getattr(spec, part.name) not in (None, "", ()), part.name
    assert spec.notation.strip() and spec.target_seconds > 0
    assert callable(spec.generator) and callable(spec.judge)
    keys = [s.key for s in spec.skills]
    assert len(set(keys)) == len(keys)  # no skill twice
    for skill in spec.skills:
        assert skill.kind is kind
        assert parse_skill(skill.key) == skill
        assert skill.label and skill.label != skill.key


@pytest.mark.parametrize("kind", list(Kind), ids=str)
def test_generator_and_judge_agree(kind: Kind) -> None:
    """A generated question is of its kind and skill, and its expected answer is
    judged right by the kind's judge (one skill each for the slow situation kinds)."""
    spec = KIND_SPECS[kind]
    rng = random.Random(f"kinds:{kind.value}")
    skills = spec.skills if kind not in (Kind.DECIDE, Kind.CYCLE) else spec.skills[:1]
    for skill in skills:
        question = generate(rng, skill)
        assert question.kind is kind
        if kind is not Kind.DECIDE:  # a decide question trains the move it really asks
            assert question.skill == skill
        assert question.skill.kind is kind
        assert grade(question, question.expected, 1.0).correct


def test_edge_questions_start_from_the_widgets() -> None:
    """The battery count is never given as a number: it is 2 per AA holder drawn and 1
    per D holder; N follows from it; the table from the drawn serial sticker."""
    spec = KIND_SPECS[Kind.EDGE]
    rng = random.Random("edge")
    for _ in range(30):
        for skill in spec.skills:
            q = generate(rng, skill)
            drawn = 2 * q.text.count("[AA AA]") + q.text.count("[D]")
            assert drawn == q.to_json()["batteries"]
            shown = q.text.split("edge: ", 1)[1].rsplit("]. ", 1)[0]
            assert "batter" not in shown.lower()
            if skill.key == "edge:batteries":
                assert q.expected == str(drawn)
            elif skill.key == "edge:interval":
                assert q.expected == str(drawn % 5 + 9)
            else:
                serial = q.text.split("[SERIAL# ")[1][:6]
                assert q.expected in "ABCD" and serial in q.text
            assert grade(q, q.expected, 1.0).correct
            assert not grade(q, "99", 1.0).correct


def test_the_drill_modes_are_every_kind_then_mixed_and_game() -> None:
    assert (*(k.value for k in KINDS), "mixed", "game") == MODES
    kinds = {k.value for k in Kind}
    assert all(DrillMode(m).kind is (Kind(m) if m in kinds else None) for m in MODES)
