"""Every generated drill question's expected answer, checked two ways.

Each question's facts are re-read and the answer recomputed with the rules engine and
with the independent manual oracle (``tests/oracle_manual.py``); each question must
train the skill it claims; the expected answer must grade as right and a different one
as wrong.
"""

from __future__ import annotations

import random
from fractions import Fraction

import oracle_manual as manual
import pytest
from hypothesis import given
from hypothesis import strategies as st
from trainer_helpers import PLACEHOLDER

from defuser.engine.board import Board
from defuser.trainer.answers import (
    Answer,
    ProbabilityAnswer,
    RuleAnswer,
    TableAnswer,
    read_legal,
)
from defuser.trainer.grading import grade
from defuser.trainer.kinds import all_skills, spec_of
from defuser.trainer.model import Question, Verdict
from defuser.trainer.skills import CycleSkill, Kind, TableSkill, parse_skill
from edgework import (
    RULE_LETTERS,
    TABLE_LETTERS,
    Card,
    CardType,
    RuleLetter,
    Ruleset,
    SerialNumber,
    TableLetter,
)


def face(card: Card) -> manual.Face:
    """A card as the oracle's ``(colour, shape)`` pair."""
    return (card.colour.word, card.shape.word)


def questions(kind: Kind, per_skill: int = 3) -> list[Question]:
    """``per_skill`` questions for every skill of ``kind``, from a fixed seed."""
    rng = random.Random(f"questions:{kind.value}")
    return [
        spec_of(kind).generate(rng, skill)
        for skill in spec_of(kind).skills
        for _ in range(per_skill)
    ]


def assert_grades(question: Question, wrong: str) -> None:
    """The expected answer is right; ``wrong`` is wrong."""
    assert grade(question, question.expected, 1.0).verdict is Verdict.RIGHT
    assert grade(question, wrong, 1.0).verdict is Verdict.WRONG


def test_table_questions() -> None:
    for q in questions(Kind.TABLE, 10):
        serial = SerialNumber.parse(q.to_json()["serial"])  # vanilla, strict
        assert q.expected == serial.table == manual.table_for_serial(serial.text)
        assert q.skill.key == f"table:{q.expected}"
        assert_grades(q, next(t for t in TABLE_LETTERS if t != q.expected))


def test_identify_questions_cover_every_cell() -> None:
    seen = set()
    for q in questions(Kind.IDENTIFY):
        serial = SerialNumber.parse(q.to_json()["serial"])
        card = Card.parse(q.to_json()["card"])
        kind = Ruleset(serial.table, serial.last_digit).type_of(card)
        assert q.expected == kind.value == manual.card_type(serial.table, face(card))
        assert q.skill.key == f"identify:{serial.table}:{card.code}"
        seen.add(q.skill)
        assert_grades(q, next(t.value for t in CardType if t is not kind))
    assert len(seen) == 64


def test_rule_questions_cover_every_table_e_cell() -> None:
    seen = set()
    for q in questions(Kind.RULE):
        serial = SerialNumber.parse(q.to_json()["serial"])
        discard = Card.parse(q.to_json()["discard"])
        rules = Ruleset(serial.table, serial.last_digit)
        expected = manual.rule_letter(serial.table, serial.last_digit, face(discard))
        assert q.expected == rules.rule(discard) == expected == q.rule
        assert q.skill.key == f"rule:{rules.type_of(discard).value}:{serial.last_digit}"
        seen.add(q.skill)
        assert_grades(q, next(x for x in RULE_LETTERS if x != q.expected))
    assert len(seen) == 60


def test_legal_questions_match_rules_and_oracle() -> None:
    lone_defuse = 0
    for q in questions(Kind.LEGAL, 8):
        serial = SerialNumber.parse(q.to_json()["serial"])
        discard = Card.parse(q.to_json()["discard"])
        hand = [Card.parse(c) for c in q.to_json()["hand"]]
        rules = Ruleset(serial.table, serial.last_digit)
        table, digit = serial.table, serial.last_digit
        slots = manual.legal_slots(table, digit, face(discard), [face(c) for c in hand])
        allowed = manual.discard_allowed(table, digit, face(discard), [face(c) for c in hand])
        board = Board(rules, discard, tuple(hand))
        assert list(board.legal_slots) == slots
        assert board.discard_allowed == allowed
        words = " ".join(str(s) for s in slots) or "none"
        assert q.expected == words + (" discard" if allowed else "")
        assert q.rule == rules.rule(discard) and q.skill.key == f"legal:{q.rule}"
        lone_defuse += bool(slots) and allowed
        flipped = (words + " discard") if not allowed else ("1 2 3" if words != "1 2 3" else "1")
        assert_grades(q, flipped)
    assert lone_defuse > 0  # the lone-legal-Defuse exemption gets asked


def test_every_skill_has_a_label_and_a_stable_key() -> None:
    for skills in all_skills().values():
        for skill in skills:
            assert skill.label != skill.key
            assert parse_skill(skill.key) == skill
    assert parse_skill("nonsense:1") is None
    for bad in ("identify:E:RC", "identify:A:ZZ", "rule:Attack:12", "decide:jump", "cycle:"):
        assert parse_skill(bad) is None


def typed(kind: Kind, text: str) -> Answer:
    """The typed answer written ``text`` of a lookup kind."""
    if kind is Kind.TABLE:
        return TableAnswer(TableLetter(text))
    if kind is Kind.RULE:
        return RuleAnswer(RuleLetter(text))
    if kind is Kind.IDENTIFY:
        return CardType(text)
    return read_legal(text)


@pytest.mark.parametrize(
    ("kind", "text", "expected", "reading"),
    [
        (Kind.TABLE, " table b ", "B", "B"),
        (Kind.RULE, "rule l", "L", "L"),
        (Kind.IDENTIFY, "dp", "Double Play", "Double Play"),
        (Kind.IDENTIFY, "DEF", "Defuse", "Defuse"),
        (Kind.IDENTIFY, "expl. mitten", "Exploding Mitten", "Exploding Mitten"),
        (Kind.IDENTIFY, "att", "Attack", "Attack"),
        (Kind.LEGAL, "3,1", "1 3", "1 3"),
        (Kind.LEGAL, "13", "1 3", "1 3"),
        (Kind.LEGAL, "none", "none discard", "none discard"),
        (Kind.LEGAL, "2 D", "2 discard", "2 discard"),
    ],
)
def test_forgiving_answers(kind: Kind, text: str, expected: str, reading: str) -> None:
    q = Question(kind, spec_of(kind).skills[0], "?", PLACEHOLDER, typed(kind, expected), "because")
    result = grade(q, text, 0.5)
    assert result.verdict is Verdict.RIGHT
    assert result.reading == reading


@pytest.mark.parametrize(
    ("kind", "text"),
    [
        (Kind.TABLE, "E"),
        (Kind.RULE, "M"),
        (Kind.IDENTIFY, "d"),  # Defuse or Double Play
        (Kind.IDENTIFY, "banana"),
        (Kind.LEGAL, ""),
        (Kind.LEGAL, "1 none"),
        (Kind.LEGAL, "4"),
    ],
)
def test_unreadable_answers_say_why(kind: Kind, text: str) -> None:
    expected = "A" if kind is not Kind.LEGAL else "1"
    if kind is Kind.IDENTIFY:
        expected = "Nope"
    q = Question(kind, spec_of(kind).skills[0], "?", PLACEHOLDER, typed(kind, expected), "because")
    result = grade(q, text, 0.5)
    assert result.verdict is Verdict.UNREADABLE
    assert not result.correct
    assert "expected" in result.detail


def test_time_limit_turns_a_right_answer_slow() -> None:
    b = TableLetter.B
    q = Question(Kind.TABLE, TableSkill(b), "?", PLACEHOLDER, TableAnswer(b), "because")
    assert grade(q, "B", 4.0, time_limit=5).verdict is Verdict.RIGHT
    slow = grade(q, "B", 6.0, time_limit=5)
    assert slow.verdict is Verdict.SLOW and not slow.correct
    assert "over the 5 s limit" in slow.detail


@pytest.mark.parametrize(
    ("text", "right"),
    [("1/7", True), ("14%", True), ("0.14", True), ("1 in 7", True), ("14", True), ("15", False),
     ("0.1", False), ("1/6", False)],
)
def test_probability_answers_within_tolerance(text: str, right: bool) -> None:
    q = Question(Kind.CYCLE, CycleSkill(False), "?", PLACEHOLDER,
                 ProbabilityAnswer(Fraction(1, 7)), "because")
    assert grade(q, text, 1.0).correct is right


def test_every_action_reads_back() -> None:
    from engine_helpers import ALL_ACTIONS

    from defuser.trainer.answers import read_action

    for action in ALL_ACTIONS:
        text = str(action)
        assert read_action(text) == action
        assert read_action(f"  {text.upper()} ") == action
        assert read_action(f"!2 {text}") == action
        assert str(read_action(text)) == text


def test_every_card_type_reads_back_by_name_and_prefix() -> None:
    from defuser.trainer.answers import read_type

    for kind in CardType:
        assert read_type(kind.value) is kind
        assert read_type(kind.value.upper().replace(" ", "")) is kind
    assert read_type("Expl. Mitten") is CardType.EXPLODING_MITTEN
    assert read_type("doub") is CardType.DOUBLE_PLAY


@given(
    slots=st.sets(st.integers(1, 3)),
    discard=st.booleans(),
    sep=st.sampled_from([" ", ",", ", ", "  "]),
)
def test_legal_answers_read_back(slots: set[int], discard: bool, sep: str) -> None:
    from defuser.trainer.answers import LegalAnswer, read_legal

    answer = LegalAnswer(tuple(sorted(slots)), discard or not slots)
    assert read_legal(str(answer)) == answer
    shuffled = sep.join(str(s) for s in sorted(slots, reverse=True)) or "none"
    typed = shuffled + (f"{sep}DISCARD" if answer.discard else "")
    assert read_legal(typed) == answer


@given(st.fractions(min_value=0, max_value=1, max_denominator=50))
def test_probabilities_read_back_as_fraction_decimal_and_percent(p: Fraction) -> None:
    from defuser.trainer.answers import read_probability

    assert read_probability(f"{p.numerator}/{p.denominator}") == p
    assert abs(float(read_probability(f"{float(p):.4f}")) - float(p)) < 1e-4
    assert abs(float(read_probability(f"{float(p) * 100:.2f}%")) - float(p)) < 1e-4


def test_a_decide_answer_is_graded_with_the_typed_click_it_read() -> None:
    from trainer_helpers import question_53

    from defuser.engine.actions import Action

    question = question_53()
    for text, action in (("disc", Action.discard()), ("p1", Action.play(1)),
                         ("!1 draw", Action.draw())):
        graded = grade(question, text, 1.0)
        assert graded.action == action and graded.reading == str(action)
    assert grade(question, "sideways", 1.0).action is None
    slow = grade(question, "disc", 9.0, time_limit=1.0)
    assert slow.verdict is Verdict.SLOW and slow.action == Action.discard()
    b = TableLetter.B
    table = Question(Kind.TABLE, TableSkill(b), "?", PLACEHOLDER, TableAnswer(b), "")
    assert grade(table, "B", 1.0).action is None
